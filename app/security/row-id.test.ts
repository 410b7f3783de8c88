import { describe, expect, it } from "vitest";
import { rowIdOf } from "./row-id";

describe("a row id from a request", () => {
  it("takes a whole number a row can have, written or given", () => {
    expect(rowIdOf("42")).toBe(42);
    expect(rowIdOf(" 7 ")).toBe(7);
    expect(rowIdOf(2_147_483_647)).toBe(2_147_483_647);
  });

  it("refuses what no row has: past PostgreSQL's integer, zero, negative, fractions, words, nothing", () => {
    for (const value of ["3000000000", 2_147_483_648, "0", "-1", "1.5", 1.5, "abc", "", null, undefined, "1e3", "0x10", Number.NaN]) expect(rowIdOf(value), String(value)).toBeNull();
  });
});
