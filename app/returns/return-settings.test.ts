import { describe, expect, it } from "vitest";
import type { RankedRate } from "../shipping/rate-ranking";
import { decideReturnPickup, listOf, returnRuleMatches, returnSettingsOf, type ReturnRuleEntry } from "./return-settings";

const rate = (id: number, name: string, total: number): RankedRate =>
  ({ id, name, total_charges: total, freight_charges: total, cod_charges: 0, edd: "3-4", zone: "B", eddMaxDays: 4, score: 1, isCheapest: false, isFastest: false, isRecommended: false }) as RankedRate;
const rates = [rate(2, "Blue Dart", 180), rate(1, "Delhivery", 120), rate(3, "XpressBees", 120)];
const rule = (overrides: Partial<ReturnRuleEntry>): ReturnRuleEntry => ({ name: "Rule", reasons: [], minValueRupees: null, maxValueRupees: null, pincodePrefixes: [], tags: [], action: "hold", courierId: null, ...overrides });
const settings = (overrides: Partial<Parameters<typeof returnSettingsOf>[0]> = {}, rules: ReturnRuleEntry[] = []) =>
  returnSettingsOf({ returnRule: "cheapest", returnCourierId: null, returnNotifyCustomer: true, returnDisposition: "inspect", returnRules: JSON.stringify(rules), ...overrides });
const facts = { totalPaise: 79_900, pincode: "560038", reasons: ["damaged", "Damaged or defective", "Seam split on arrival"], tags: ["VIP"] };

describe("the return rules", () => {
  it("with no rule, the default books the cheapest courier (the lower id on a tie), a named one when it offers the pickup, or holds", () => {
    expect(decideReturnPickup(settings(), rates, facts)).toMatchObject({ kind: "book", courierId: 1, rule: "Default return rule", reason: "Default return rule → cheapest: Delhivery ₹120" });
    expect(decideReturnPickup(settings({ returnRule: "courier", returnCourierId: 2 }), rates, facts)).toMatchObject({ kind: "book", courierId: 2 });
    expect(decideReturnPickup(settings({ returnRule: "courier", returnCourierId: 4 }), rates, facts)).toMatchObject({ kind: "hold", reason: expect.stringMatching(/does not offer this pickup/) });
    expect(decideReturnPickup(settings({ returnRule: "hold" }), rates, facts)).toMatchObject({ kind: "hold" });
    expect(decideReturnPickup(settings(), [], facts)).toMatchObject({ kind: "hold", reason: expect.stringMatching(/no courier offers this pickup/) });
  });

  it("match on reason words, value, PIN code prefix and tags; the first match decides, whatever the default", () => {
    expect(returnRuleMatches(rule({ reasons: ["defective"] }), facts)).toBe(true);
    expect(returnRuleMatches(rule({ reasons: ["size"] }), facts)).toBe(false);
    expect(returnRuleMatches(rule({ minValueRupees: 799 }), facts)).toBe(true);
    expect(returnRuleMatches(rule({ minValueRupees: 800 }), facts)).toBe(false);
    expect(returnRuleMatches(rule({ maxValueRupees: 500 }), facts)).toBe(false);
    expect(returnRuleMatches(rule({ pincodePrefixes: ["400", "56"] }), facts)).toBe(true);
    expect(returnRuleMatches(rule({ pincodePrefixes: ["400"] }), facts)).toBe(false);
    expect(returnRuleMatches(rule({ tags: ["vip"] }), facts)).toBe(true);
    expect(returnRuleMatches(rule({ tags: ["wholesale"] }), facts)).toBe(false);
    expect(returnRuleMatches(rule({ reasons: ["damaged"], tags: ["wholesale"] }), facts)).toBe(false);

    const rules = [rule({ name: "Big city size swaps", reasons: ["size"], action: "cheapest" }), rule({ name: "Damaged", reasons: ["damaged"], action: "courier", courierId: 2 }), rule({ name: "Valuable", minValueRupees: 500 })];
    expect(decideReturnPickup(settings({ returnRule: "hold" }, rules), rates, facts)).toMatchObject({ kind: "book", courierId: 2, rule: "Return rule 2 'Damaged'", reason: "Return rule 2 'Damaged' → chosen courier: Blue Dart ₹180" });
    expect(decideReturnPickup(settings({}, rules.slice(2)), rates, facts)).toMatchObject({ kind: "hold", rule: "Return rule 1 'Valuable'", reason: expect.stringMatching(/hold for review/) });
    expect(decideReturnPickup(settings({}, rules.slice(0, 1)), rates, facts)).toMatchObject({ kind: "book", courierId: 1, rule: "Default return rule" });
  });

  it("read lists as typed", () => {
    expect(listOf(" 400,,560 , 400")).toEqual(["400", "560"]);
  });
});
