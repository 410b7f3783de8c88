import { describe, expect, it } from "vitest";
import { parseStorefrontForm } from "./storefront-form";

const form = (fields: Record<string, string | string[]>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) for (const item of [value].flat()) data.append(key, item);
  return data;
};

const VALID = { estimateEnabled: "on", handlingDays: "2", cutoff: "15:30", closedWeekdays: ["0", "6"], closedDates: "2026-12-25, 2026-11-08", showCod: "on", codMaxRupees: "2500", defaultWeightGrams: "750" };

describe("storefront settings form", () => {
  it("reads every field", () => {
    expect(parseStorefrontForm(form(VALID))).toEqual({
      ok: true,
      values: { estimateEnabled: true, handlingDays: 2, cutoffMinutes: 930, closedWeekdays: [0, 6], closedDates: ["2026-11-08", "2026-12-25"], showCod: true, codMaxPaise: 250_000, defaultWeightGrams: 750, trackOnShopDomain: false },
    });
  });

  it("names each mistake on its field", () => {
    const result = parseStorefrontForm(form({ ...VALID, handlingDays: "31", cutoff: "25:00", closedWeekdays: ["0", "1", "2", "3", "4", "5", "6"], closedDates: "2026-02-30", codMaxRupees: "lots", defaultWeightGrams: "0" }));
    expect(result.ok).toBe(false);
    expect(Object.keys(result.ok ? {} : result.errors).sort()).toEqual(["closedDates", "closedWeekdays", "codMaxRupees", "cutoff", "defaultWeightGrams", "handlingDays"]);
  });

  it("takes an empty COD limit as no limit", () => {
    const result = parseStorefrontForm(form({ ...VALID, codMaxRupees: "" }));
    expect(result.ok && result.values.codMaxPaise).toBeNull();
  });
});
