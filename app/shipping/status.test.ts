import { describe, expect, it } from "vitest";
import { isCancellable, orderStatusWord, pathBetween } from "./status";

describe("status graph", () => {
  it("words the latest stage as the spec's sample does", () => {
    expect(orderStatusWord(5)).toBe("INTRANSIT");
    expect(orderStatusWord(12)).toBe("RTODELIVERED");
  });

  it("finds the shortest walk and refuses impossible ones", () => {
    expect(pathBetween(2, 8)).toEqual([2, 3, 5, 6, 7, 8]);
    expect(pathBetween(7, 12)).toEqual([7, 9, 11, 12]);
    expect(pathBetween(8, 5)).toBeNull();
    expect(pathBetween(5, 10)).toBeNull();
  });

  it("allows cancelling only before pick-up", () => {
    expect([2, 3, 4].every((code) => isCancellable(code as 2))).toBe(true);
    expect(isCancellable(5)).toBe(false);
  });
});
