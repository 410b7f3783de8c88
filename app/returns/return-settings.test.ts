import { describe, expect, it } from "vitest";
import type { RankedRate } from "../shipping/rate-ranking";
import { decideReturnPickup, pincodePrefixesOf, returnSettingsOf } from "./return-settings";

const rate = (id: number, name: string, total: number): RankedRate =>
  ({ id, name, total_charges: total, freight_charges: total, cod_charges: 0, edd: "3-4", zone: "B", eddMaxDays: 4, score: 1, isCheapest: false, isFastest: false, isRecommended: false }) as RankedRate;
const rates = [rate(2, "Blue Dart", 180), rate(1, "Delhivery", 120), rate(3, "XpressBees", 120)];
const settings = (overrides: Partial<Parameters<typeof returnSettingsOf>[0]> = {}) =>
  returnSettingsOf({ returnRule: "cheapest", returnCourierId: null, returnNotifyCustomer: true, returnDisposition: "inspect", returnHoldFromPaise: null, returnHoldPincodes: "", ...overrides });
const facts = { totalPaise: 79_900, pincode: "560038" };

describe("the return rules", () => {
  it("book the cheapest courier (the lower id on a tie), a named one when it offers the pickup, or hold", () => {
    expect(decideReturnPickup(settings(), rates, facts)).toMatchObject({ kind: "book", courierId: 1, reason: "Return setting: the cheapest courier (Delhivery)" });
    expect(decideReturnPickup(settings({ returnRule: "courier", returnCourierId: 2 }), rates, facts)).toMatchObject({ kind: "book", courierId: 2 });
    expect(decideReturnPickup(settings({ returnRule: "courier", returnCourierId: 4 }), rates, facts)).toMatchObject({ kind: "hold", reason: expect.stringMatching(/does not offer this pickup/) });
    expect(decideReturnPickup(settings({ returnRule: "hold" }), rates, facts)).toMatchObject({ kind: "hold" });
    expect(decideReturnPickup(settings(), [], facts)).toMatchObject({ kind: "hold", reason: "No courier offers this pickup." });
  });

  it("hold a return worth the amount or more, or picked up from a PIN code prefix, whatever the setting books", () => {
    expect(decideReturnPickup(settings({ returnHoldFromPaise: 79_900 }), rates, facts)).toMatchObject({ kind: "hold", reason: expect.stringMatching(/worth ₹799: your return rules hold returns of ₹799 or more/) });
    expect(decideReturnPickup(settings({ returnHoldFromPaise: 80_000 }), rates, facts)).toMatchObject({ kind: "book" });
    expect(decideReturnPickup(settings({ returnHoldPincodes: "400, 56" }), rates, facts)).toMatchObject({ kind: "hold", reason: expect.stringMatching(/starting 56/) });
    expect(decideReturnPickup(settings({ returnHoldPincodes: "400" }), rates, facts)).toMatchObject({ kind: "book" });
    expect(pincodePrefixesOf(" 400,,560 , 400")).toEqual(["400", "560"]);
  });
});
