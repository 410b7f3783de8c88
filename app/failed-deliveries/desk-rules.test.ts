import { describe, expect, it } from "vitest";
import { DESK_RULE_LIMITS, draftOfRule, EMPTY_DESK_RULE, exampleRules, firstMatchingRule, parseDeskRulesForm, readStoredRules, type DeskRule, type DeskRuleDraft } from "./desk-rules";

const rule = (overrides: Partial<DeskRule>): DeskRule => ({ name: "A rule", reasons: [], payment: "any", fromAttempt: 1, toAttempt: null, action: "reattempt", otherwise: null, ...overrides });
const draft = (overrides: Partial<DeskRuleDraft>): DeskRuleDraft => ({ ...EMPTY_DESK_RULE, name: "A rule", ...overrides });
const form = (drafts: unknown) => JSON.stringify(drafts);

describe("the failed-delivery desk's rules", () => {
  it("decides by the first rule whose reason words, payment mode and attempts all match", () => {
    const rules = [
      rule({ name: "Refused COD", reasons: ["refused", "COD amount not ready"], payment: "cod", action: "rto" }),
      rule({ name: "Not available, first two", reasons: ["not  available"], fromAttempt: 1, toAttempt: 2, action: "wait", otherwise: "reattempt" }),
      rule({ name: "Third and later", fromAttempt: 3, action: "rto" }),
    ];
    const facts = (reason: string, paymentMode: "cod" | "prepaid", attempt: number) => firstMatchingRule(rules, { reason, paymentMode, attempt })?.rule.name ?? null;
    // Case and spacing aside, any one word of the reason matches.
    expect(facts("Delivery attempted: CUSTOMER REFUSED the parcel", "cod", 1)).toBe("Refused COD");
    expect(facts("Delivery attempted: cod amount  not ready", "cod", 2)).toBe("Refused COD");
    // A prepaid parcel is not the COD rule's.
    expect(facts("Delivery attempted: customer refused", "prepaid", 1)).toBeNull();
    expect(facts("Delivery attempted: consignee not available", "prepaid", 2)).toBe("Not available, first two");
    expect(facts("Delivery attempted: consignee not available", "prepaid", 3)).toBe("Third and later");
    expect(facts("Delivery attempted: address incomplete", "cod", 2)).toBeNull();
    expect(firstMatchingRule(rules, { reason: "Delivery attempted: customer refused", paymentMode: "cod", attempt: 9 })).toMatchObject({ index: 0 });
  });

  it("reads the page's drafts into rules, trimmed, a wait's fallback kept and another action's dropped", () => {
    const parsed = parseDeskRulesForm(
      form([
        draft({ name: "  Not available  ", reasons: "not available, door locked,, ", payment: "cod", fromAttempt: "1", toAttempt: "2", action: "wait", otherwise: "rto" }),
        draft({ name: "Third", fromAttempt: "3", toAttempt: "", action: "rto", otherwise: "reattempt" }),
      ]),
    );
    expect(parsed).toEqual({
      ok: true,
      rules: [
        { name: "Not available", reasons: ["not available", "door locked"], payment: "cod", fromAttempt: 1, toAttempt: 2, action: "wait", otherwise: "rto" },
        { name: "Third", reasons: [], payment: "any", fromAttempt: 3, toAttempt: null, action: "rto", otherwise: null },
      ],
    });
    // What the page shows back reads into the same rules.
    if (parsed.ok) expect(parseDeskRulesForm(form(parsed.rules.map(draftOfRule)))).toEqual(parsed);
    expect(parseDeskRulesForm(form(exampleRules("hi").map(draftOfRule)), "hi")).toMatchObject({ ok: true, rules: exampleRules("hi") });
  });

  it("names each rule and field it cannot take, in the admin's language, and bounds the count and the lengths", () => {
    const refused = parseDeskRulesForm(
      form([
        draft({ name: "" }),
        draft({ name: "Backwards", fromAttempt: "3", toAttempt: "2" }),
        draft({ name: "x".repeat(DESK_RULE_LIMITS.name + 1), reasons: Array.from({ length: DESK_RULE_LIMITS.reasons + 1 }, (_, index) => `word ${index}`).join(",") }),
        draft({ name: "Odd", payment: "upi", fromAttempt: "0", action: "burn" }),
        draft({ name: "Long word", reasons: `ok, ${"y".repeat(DESK_RULE_LIMITS.reason + 1)}` }),
        draft({ name: "Wait, then?", action: "wait", otherwise: "" }),
        { name: "Not a draft", fromAttempt: 12 },
      ]),
    );
    expect(refused).toEqual({
      ok: false,
      formError: null,
      fieldErrors: {
        "0.name": "Rule 1: give it a name.",
        "1.toAttempt": "Rule 2 'Backwards': the last attempt cannot come before the first.",
        "2.name": `Rule 3 '${"x".repeat(DESK_RULE_LIMITS.name)}': keep the name to 60 characters.`,
        "2.reasons": `Rule 3 '${"x".repeat(DESK_RULE_LIMITS.name)}': at most 10 words of the reason.`,
        "3.payment": "Rule 4 'Odd': choose COD, prepaid, or both.",
        "3.fromAttempt": "Rule 4 'Odd': an attempt is a whole number from 1 to 9.",
        "3.action": "Rule 4 'Odd': choose re-attempt, return to origin or wait for the shopper's answer.",
        "4.reasons": "Rule 5 'Long word': each word of the reason is 2 to 40 characters.",
        "5.otherwise": "Rule 6 'Wait, then?': choose what happens when the shopper has not answered in time.",
        "6.payment": "Rule 7 'Not a draft': choose COD, prepaid, or both.",
        "6.fromAttempt": "Rule 7 'Not a draft': an attempt is a whole number from 1 to 9.",
        "6.action": "Rule 7 'Not a draft': choose re-attempt, return to origin or wait for the shopper's answer.",
      },
    });
    expect(parseDeskRulesForm(form([draft({ name: "" })]), "hi")).toEqual({ ok: false, formError: null, fieldErrors: { "0.name": "नियम 1: इसे कोई नाम दें।" } });
    expect(parseDeskRulesForm(form(Array.from({ length: DESK_RULE_LIMITS.rules + 2 }, () => draft({}))))).toEqual({ ok: false, formError: "At most 20 rules: remove 2.", fieldErrors: {} });
    for (const unreadable of ["{", "{}", "x".repeat(DESK_RULE_LIMITS.formChars + 1)]) expect(parseDeskRulesForm(unreadable)).toMatchObject({ ok: false, formError: "The rules could not be read. Reload the page and try again." });
  });

  it("decides nothing from a stored rule set that no longer reads", () => {
    expect(readStoredRules("[]")).toEqual([]);
    expect(readStoredRules("not json")).toEqual([]);
    expect(readStoredRules(JSON.stringify([{ ...rule({}), action: "burn" }]))).toEqual([]);
    expect(readStoredRules(JSON.stringify([rule({ name: "Fine" })]))).toEqual([rule({ name: "Fine" })]);
  });
});
