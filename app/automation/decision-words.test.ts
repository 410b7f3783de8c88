import { describe, expect, it } from "vitest";
import { attentionInWords } from "~/attention/attention-words";
import { englishOf, sayStored, type StoredWords } from "~/locales/admin-language";
import { returnSettingsOf, decideReturnPickup, type ReturnRuleEntry } from "~/returns/return-settings";
import type { RankedRate } from "~/shipping/rate-ranking";
import { PROBLEM_LABELS } from "~/shopify/readiness-checks";
import { bookOutcomeWords } from "./decision-words";
import { problemLabelWords } from "~/booking/stored-sentences";
import { listWords, storedOr, words } from "~/locales/admin-language";
import { decide, type BookingRule, type OrderFacts } from "./rules";

const DEVANAGARI = /[\u0900-\u097F]/;
const rate = (id: number, name: string, total: number, flags: Partial<RankedRate> = {}): RankedRate =>
  ({ id, name, total_charges: total, freight_charges: total, cod_charges: 0, edd: "3-4", zone: "B", eddMaxDays: 4, score: 1, isCheapest: false, isFastest: false, isRecommended: false, ...flags }) as RankedRate;
const rates = [rate(1, "Delhivery", 98, { isCheapest: true }), rate(2, "Blue Dart", 1234.5, { isFastest: true, isRecommended: true })];
const facts: OrderFacts = { paymentMode: "cod", weightKg: 0.5, valueRupees: 900, pincode: "560038", zone: "B", tags: [] };
const rule = (overrides: Partial<BookingRule>): BookingRule => ({
  name: "Everything",
  paymentMode: "any",
  minWeightKg: null,
  maxWeightKg: null,
  minValueRupees: null,
  maxValueRupees: null,
  pincodePrefixes: [],
  zones: [],
  tags: [],
  action: "cheapest",
  courierId: null,
  ...overrides,
});

/** The stored words say the English they are stored beside, and say it in Hindi too (in Devanagari, no key left over). */
function expectSaid(stored: StoredWords, english: string) {
  expect(englishOf(stored)).toBe(english);
  expect(sayStored("en", JSON.parse(JSON.stringify(stored)), "fallback")).toBe(english);
  const hindi = sayStored("hi", JSON.parse(JSON.stringify(stored)), "fallback");
  expect(hindi).not.toBe("fallback");
  expect(hindi).toMatch(DEVANAGARI);
  expect(hindi).not.toMatch(/\{\w+\}/);
  return hindi;
}

describe("an order's decision, in words", () => {
  it("says each of the rules' decisions as before, and in Hindi", () => {
    const cases: [BookingRule[], string][] = [
      [[], "No rule matches this order: held for review"],
      [[rule({ name: "Big orders", action: "hold" })], "Rule 1 'Big orders' → hold for review"],
      [[rule({ action: "courier", courierId: 3 })], "Rule 1 'Everything' → the chosen courier does not serve this route: held for review"],
      [[rule({ name: "COD under ₹2,000", action: "cheapest" })], "Rule 1 'COD under ₹2,000' → cheapest: Delhivery ₹98"],
      [[rule({ paymentMode: "prepaid" }), rule({ name: "By fastest", action: "fastest" })], "Rule 2 'By fastest' → fastest: Blue Dart ₹1,234.5"],
      [[rule({ action: "recommended" })], "Rule 1 'Everything' → recommended: Blue Dart ₹1,234.5"],
      [[rule({ name: "Mumbai by Bluedart", action: "courier", courierId: 2 })], "Rule 1 'Mumbai by Bluedart' → chosen courier: Blue Dart ₹1,234.5"],
    ];
    for (const [rules, english] of cases) {
      const decision = decide(rules, facts, rates);
      expect(decision.reason).toBe(english);
      expectSaid(decision.words, english);
    }
    const none = decide([rule({})], facts, []);
    expect(none.reason).toBe("Rule 1 'Everything' → no courier serves this route: held for review");
    expect(expectSaid(none.words, none.reason)).toContain("'Everything'");
  });

  it("keeps the merchant's rule name as typed, braces and all", () => {
    const decision = decide([rule({ name: "{rule} {position}" })], facts, rates);
    expect(decision.reason).toBe("Rule 1 '{rule} {position}' → cheapest: Delhivery ₹98");
    expect(sayStored("hi", decision.words, "")).toBe("नियम 1 '{rule} {position}' → सबसे सस्ता: Delhivery ₹98");
  });

  it("says 'not booked automatically' with the problems' labels, as the list of PROBLEM_LABELS said it", () => {
    const codes = ["PINCODE_INVALID", "TOO_MANY_ITEMS", "ORDER_TOO_OLD"] as const;
    const stored = words("decisions.notBooked", { problems: listWords(codes.map(problemLabelWords)) });
    expect(englishOf(stored)).toBe(`Not booked automatically: ${codes.map((code) => PROBLEM_LABELS[code]).join(", ")}`);
    expect(englishOf(words("decisions.notBooked", { problems: listWords([problemLabelWords("PINCODE_INVALID")]) }))).toBe("Not booked automatically: PIN code not 6 digits");
    const hindi = expectSaid(stored, "Not booked automatically: PIN code not 6 digits, Too many items, Older than 7 days");
    expect(hindi.split(", ")).toHaveLength(3);
  });

  it("says a failed booking after the decision, with Dakiya's reason in Hindi and the courier's words as they are", () => {
    const decision = decide([rule({})], facts, rates);
    const refused = words("decisions.bookingFailed", { decision: decision.words, why: bookOutcomeWords({ kind: "refused", message: "The courier refused the booking.", code: "booking_refused" }) });
    expect(expectSaid(refused, "Rule 1 'Everything' → cheapest: Delhivery ₹98, but the booking failed: The courier refused the booking.")).not.toContain("refused");
    const courierText = words("decisions.bookingFailed", { decision: decision.words, why: bookOutcomeWords({ kind: "refused", message: "Pincode not serviceable" }) });
    expect(expectSaid(courierText, "Rule 1 'Everything' → cheapest: Delhivery ₹98, but the booking failed: Pincode not serviceable")).toContain("Pincode not serviceable");
    expectSaid(words("decisions.bookingFailed", { decision: decision.words, why: bookOutcomeWords({ kind: "quoted" }) }), "Rule 1 'Everything' → cheapest: Delhivery ₹98, but the booking failed: No courier serves this route.");
    // A refusal a failed shipment stored with its words: the decision keeps them.
    const stored = words("outcomes.booking.noAnswer");
    const storedRefusal = words("decisions.bookingFailed", { decision: decision.words, why: bookOutcomeWords({ kind: "refused", message: englishOf(stored), words: stored }) });
    expect(expectSaid(storedRefusal, `Rule 1 'Everything' → cheapest: Delhivery ₹98, but the booking failed: ${englishOf(stored)}`)).toContain(sayStored("hi", stored, ""));
  });

  it("takes an earlier reason and error as stored: their words when they say the stored English, else the English", () => {
    const earlier = decide([rule({})], facts, rates);
    expect(storedOr(earlier.words, earlier.reason)).toEqual(earlier.words);
    expect(storedOr(null, "Rule 1 'Everything' → cheapest: Delhivery ₹98")).toBe("Rule 1 'Everything' → cheapest: Delhivery ₹98");
    expect(storedOr(earlier.words, "[redacted]")).toBe("[redacted]");
    const old = words("decisions.bookingFailed", { decision: storedOr(null, "Rule 1 'Everything' → cheapest: Delhivery ₹98"), why: storedOr(null, "The courier refused the order: pincode not serviceable.") });
    expect(englishOf(old)).toBe("Rule 1 'Everything' → cheapest: Delhivery ₹98, but the booking failed: The courier refused the order: pincode not serviceable.");
    const fresh = words("decisions.bookingFailed", { decision: words("decisions.bookedAutomatically"), why: words("decisions.courierRefused") });
    expectSaid(fresh, "Booked automatically, but the booking failed: the courier refused it");
  });

  it("is said on Needs attention in the admin's language, and as stored for a reason kept before its words", () => {
    const decision = decide([rule({ name: "Big orders", action: "hold" })], facts, rates);
    const stored = JSON.parse(JSON.stringify(decision.words)) as unknown;
    expect(attentionInWords({ code: "held_by_rules", reason: decision.reason, reasonWords: stored }, "en").message).toBe("Rule 1 'Big orders' → hold for review");
    expect(attentionInWords({ code: "held_by_rules", reason: decision.reason, reasonWords: stored }, "hi").message).toBe("नियम 1 'Big orders' → जाँच के लिए रोका गया");
    expect(attentionInWords({ code: "auto_booking_failed", reason: "[redacted]", reasonWords: null }, "hi").message).toBe("[redacted]");
    expect(attentionInWords({ code: "return_held", reason: null }, "hi").message).toMatch(DEVANAGARI);
  });

  it("falls back to the stored English for words a later version wrote", () => {
    expect(sayStored("hi", { key: "decisions.somethingNew" }, "Stored English")).toBe("Stored English");
    expect(sayStored("hi", null, "Stored English")).toBe("Stored English");
  });
});

describe("a return's decision, in words", () => {
  const returnRates = [rate(2, "Blue Dart", 180), rate(1, "Delhivery", 120)];
  const returnRule = (overrides: Partial<ReturnRuleEntry>): ReturnRuleEntry => ({ name: "Damaged", reasons: [], minValueRupees: null, maxValueRupees: null, pincodePrefixes: [], tags: [], action: "hold", courierId: null, ...overrides });
  const settings = (returnRule: string, rules: ReturnRuleEntry[] = [], returnCourierId: number | null = null) =>
    returnSettingsOf({ returnRule, returnCourierId, returnNotifyCustomer: true, returnDisposition: "inspect", returnRules: JSON.stringify(rules) });
  const returnFacts = { totalPaise: 79_900, pincode: "560038", reasons: ["damaged"], tags: [] };

  it("says each of the return rules' decisions as before, and in Hindi", () => {
    const cases: [ReturnType<typeof settings>, RankedRate[], string][] = [
      [settings("cheapest"), returnRates, "Default return rule → cheapest: Delhivery ₹120"],
      [settings("hold"), returnRates, "Default return rule → hold for review: book the pickup yourself."],
      [settings("cheapest"), [], "Default return rule → cheapest, but no courier offers this pickup."],
      [settings("courier", [], 2), [], "Default return rule → courier, but no courier offers this pickup."],
      [settings("courier", [], 4), returnRates, "Default return rule → the chosen courier does not offer this pickup: choose one."],
      [settings("hold", [returnRule({ action: "courier", courierId: 2 })]), returnRates, "Return rule 1 'Damaged' → chosen courier: Blue Dart ₹180"],
    ];
    for (const [returnSettings, offered, english] of cases) {
      const decision = decideReturnPickup(returnSettings, offered, returnFacts);
      expect(decision.reason).toBe(english);
      expectSaid(decision.words, english);
      expect(englishOf(decision.ruleWords)).toBe(decision.rule);
    }
  });

  it("says the return check's own reasons as before, and in Hindi", () => {
    expectSaid(words("decisions.returns.problems"), "The return has problems to fix before its pickup can be booked.");
    const decision = decideReturnPickup(settings("hold", [returnRule({ name: "Size swaps", action: "courier", courierId: 9 })]), [rate(9, "Local", 50)], returnFacts);
    expectSaid(words("decisions.returns.unknownCourier", { rule: decision.ruleWords }), "Return rule 1 'Size swaps' names a courier Dakiya does not book: choose another.");
    expectSaid(words("decisions.returns.notBooked", { kind: "problems" }), "The pickup could not be booked (problems).");
    expect(englishOf(words("decisions.returns.refused", { message: "Pickup not serviceable" }))).toBe("Pickup not serviceable");
  });
});
