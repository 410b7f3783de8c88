import { describe, expect, it } from "vitest";
import { EXAMPLE_RULES, MAX_RULES } from "./rules";
import { draftOf, EMPTY_DRAFT, parseRulesForm, previewOutcomeInWords, previewProblemsInWords, previewRules, type PreviewOrder, type PreviewOutcome } from "./rules-form";

const drafts = (...changes: Partial<typeof EMPTY_DRAFT>[]) => JSON.stringify(changes.map((change) => ({ ...EMPTY_DRAFT, name: "A rule", ...change })));

describe("the rules as the screen sends them", () => {
  it("reads the example rules back unchanged", () => {
    expect(parseRulesForm(JSON.stringify(EXAMPLE_RULES.map(draftOf)))).toEqual({ ok: true, rules: EXAMPLE_RULES });
  });

  it("reads numbers with grouping commas, lists separated by commas, no limit when empty, and a chosen courier", () => {
    const result = parseRulesForm(drafts({ minValueRupees: "1,000", maxValueRupees: "", pincodePrefixes: " 40, 110 ,", tags: "vip, gift", action: "courier", courierId: "2" }));
    expect(result).toEqual({ ok: true, rules: [expect.objectContaining({ minValueRupees: 1000, maxValueRupees: null, pincodePrefixes: ["40", "110"], tags: ["vip", "gift"], action: "courier", courierId: 2 })] });
  });

  it("names the rule and the field of every mistake, and keeps what was typed", () => {
    const result = parseRulesForm(drafts({ name: "Light parcels" }, { name: "COD", minWeightKg: "5", maxWeightKg: "2", pincodePrefixes: "40, 0123" }, { name: "", action: "courier", minValueRupees: "lots" }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors).toEqual({
      "1.maxWeightKg": "Rule 2 'COD': Maximum weight must not be below the minimum",
      "1.pincodePrefixes": "Rule 2 'COD': PIN code prefixes are 1 to 6 digits, not starting with 0",
      "2.name": "Rule 3: Give the rule a name",
      "2.minValueRupees": "Rule 3: Minimum order value must be a number of rupees",
      "2.courierId": "Rule 3: Choose the courier this rule books",
    });
    expect(result.drafts[1]).toMatchObject({ minWeightKg: "5", pincodePrefixes: "40, 0123" });
  });

  it("refuses what is not a rule list, too many rules, and an oversized body, saying so", () => {
    expect(parseRulesForm("{not json")).toMatchObject({ ok: false, formError: expect.stringMatching(/could not be read/) });
    expect(parseRulesForm('{"name":"x"}')).toMatchObject({ ok: false, formError: expect.stringMatching(/could not be read/) });
    expect(parseRulesForm(drafts(...Array.from({ length: MAX_RULES + 3 }, () => ({}))))).toMatchObject({ ok: false, formError: `At most ${MAX_RULES} rules; remove 3.` });
    expect(parseRulesForm(`[${" ".repeat(70_000)}]`)).toMatchObject({ ok: false, formError: expect.stringMatching(/too long/) });
    // Fields of the wrong type are empty fields, named like any other.
    expect(parseRulesForm('[{"name": 5, "paymentMode": "any", "action": "hold", "zones": "A"}]')).toMatchObject({ ok: false, fieldErrors: { "0.name": "Rule 1: Give the rule a name" } });
  });
});

describe("the preview", () => {
  const order = (name: string, facts: Partial<NonNullable<PreviewOrder["facts"]>> | null, problems: string | null = null): PreviewOrder => ({
    orderGid: `gid://shopify/Order/${name}`,
    orderName: name,
    facts: facts && { paymentMode: "cod", weightKg: 0.5, valueRupees: 799, pincode: "400001", zone: "B", tags: [], ...facts },
    quote: { zone: "B", couriers: 4, cheapest: { courierId: 1, name: "Delhivery", totalPaise: 9800, edd: "3-4" }, fastest: { courierId: 2, name: "Bluedart", totalPaise: 21000, edd: "1-2" }, recommended: { courierId: 1, name: "Delhivery", totalPaise: 9800, edd: "3-4" } },
    problems,
  });

  it("puts each order under the first rule that matches it, with what that rule would do, and lists the rest", () => {
    const rules = EXAMPLE_RULES.filter((rule) => rule.name === "Expensive orders" || rule.name === "COD under ₹2,000");
    expect(rules).toHaveLength(2);
    const preview = previewRules(rules, [order("#1", { valueRupees: 12_000 }), order("#2", {}), order("#3", { paymentMode: "prepaid" }), order("#4", null, "PIN code not 6 digits")]);
    expect(preview.byRule).toEqual([
      { orders: [{ orderGid: "gid://shopify/Order/#1", orderName: "#1", outcome: "held for review", decided: { kind: "hold" } }] },
      { orders: [{ orderGid: "gid://shopify/Order/#2", orderName: "#2", outcome: "cheapest: Delhivery ₹98", decided: { kind: "quoted", action: "cheapest", courierName: "Delhivery", totalPaise: 9800 } }] },
    ]);
    expect(preview.unmatched).toEqual([{ orderGid: "gid://shopify/Order/#3", orderName: "#3" }]);
    expect(preview.withProblems).toEqual([{ orderGid: "gid://shopify/Order/#4", orderName: "#4", problems: "PIN code not 6 digits", problemCodes: [] }]);
  });
});

describe("the preview in words", () => {
  const DEVANAGARI = /[\u0900-\u097F]/;
  const worded: [PreviewOutcome, string][] = [
    [{ kind: "hold" }, "held for review"],
    [{ kind: "courier", courierId: 4, courierName: "Bluedart" }, "book Bluedart, if it serves the route"],
    [{ kind: "courier", courierId: 4, courierName: null }, "book courier 4, if it serves the route"],
    [{ kind: "quoted", action: "cheapest", courierName: "Delhivery", totalPaise: 123_450 }, "cheapest: Delhivery ₹1,234.5"],
    [{ kind: "quoted", action: "fastest", courierName: "Bluedart", totalPaise: 21_000 }, "fastest: Bluedart ₹210"],
    [{ kind: "quoted", action: "recommended", courierName: "Delhivery", totalPaise: 9_800 }, "recommended: Delhivery ₹98"],
    [{ kind: "no_quote", action: "cheapest" }, "cheapest: no quote stored yet"],
  ];

  it("says each outcome in English as before, and in Hindi", () => {
    for (const [outcome, english] of worded) {
      expect(previewOutcomeInWords(outcome, "en")).toBe(english);
      expect(previewOutcomeInWords(outcome, "hi")).toMatch(DEVANAGARI);
    }
    expect(previewOutcomeInWords({ kind: "quoted", action: "cheapest", courierName: "Delhivery", totalPaise: 123_450 }, "hi")).toBe("सबसे सस्ता: Delhivery ₹1,234.5");
  });

  it("names an order's problems, or that it was not checked yet, in either language", () => {
    const preview = previewRules(EXAMPLE_RULES.slice(0, 1), [
      { orderGid: "a", orderName: "#1", facts: null, quote: null, problems: null },
      { orderGid: "b", orderName: "#2", facts: null, quote: null, problems: "No phone, Older than 7 days", problemCodes: ["PHONE_MISSING", "ORDER_TOO_OLD"] },
    ]);
    const [unchecked, withProblems] = preview.withProblems;
    expect(unchecked).toEqual({ orderGid: "a", orderName: "#1", problems: "not checked yet", problemCodes: null });
    expect(previewProblemsInWords(unchecked!, "en")).toBe("not checked yet");
    expect(previewProblemsInWords(unchecked!, "hi")).toMatch(DEVANAGARI);
    expect(previewProblemsInWords(withProblems!, "en")).toBe("No phone, Older than 7 days");
    expect(previewProblemsInWords(withProblems!, "hi")).toBe("फ़ोन नंबर नहीं, 7 दिन से पुराना");
  });
});
