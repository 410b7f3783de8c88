import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apportionPaise } from "./money";

describe("an amount shared out between parcels", () => {
  it("adds up to the amount exactly, each share in proportion to its weight within a paisa", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_00_00_000_00 }), fc.array(fc.integer({ min: 0, max: 10_00_000_00 }), { minLength: 1, maxLength: 20 }), (total, weights) => {
        const shares = apportionPaise(total, weights);
        expect(shares.reduce((sum, share) => sum + share, 0)).toBe(total);
        const sum = weights.reduce((all, weight) => all + weight, 0);
        shares.forEach((share, index) => {
          expect(Number.isInteger(share)).toBe(true);
          const fair = sum > 0 ? (total * weights[index]!) / sum : total / weights.length;
          expect(Math.abs(share - fair)).toBeLessThan(1);
        });
      }),
    );
  });

  it("gives the paise left by rounding to the largest remainders, the earlier share on a tie", () => {
    expect(apportionPaise(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(apportionPaise(1000, [1, 2])).toEqual([333, 667]);
    expect(apportionPaise(5, [0, 0])).toEqual([3, 2]);
    expect(apportionPaise(799, [1])).toEqual([799]);
  });
});
