import { describe, expect, it } from "vitest";
import type { RateOption } from "./contract";
import { rankRates } from "./rate-ranking";

const option = (id: number, name: string, total: number, edd: string): RateOption => ({
  id, type: "surface", name, chargeable_weight: "1 KG", freight_charges: total, cod_charges: 0, total_charges: total, zone: "D", edd,
});

describe("rankRates", () => {
  it("marks the cheapest, the fastest, and recommends by the documented score", () => {
    const ranked = rankRates([option(1, "Delhivery", 98, "4 - 6"), option(2, "Bluedart", 161, "2 - 3"), option(3, "XpressBees", 87, "4 - 7"), option(4, "DTDC", 91, "5 - 8")]);
    const by = (name: string) => ranked.find((rate) => rate.name === name)!;
    expect(by("XpressBees")).toMatchObject({ isCheapest: true, isFastest: false });
    expect(by("Bluedart")).toMatchObject({ isFastest: true, isCheapest: false });
    // Delhivery: 0.6 × 98/87 + 0.4 × 6/3 = 1.476; XpressBees: 0.6 + 0.4 × 7/3 = 1.533; Bluedart: 0.6 × 161/87 + 0.4 = 1.51
    expect(by("Delhivery")).toMatchObject({ isRecommended: true, score: 1.476 });
    expect(ranked.filter((rate) => rate.isRecommended)).toHaveLength(1);
  });

  it("handles no options and a single option", () => {
    expect(rankRates([])).toEqual([]);
    expect(rankRates([option(1, "Delhivery", 50, "1 - 2")])[0]).toMatchObject({ isCheapest: true, isFastest: true, isRecommended: true });
  });
});
