import { describe, expect, it } from "vitest";
import { adminStrings, fill, type AdminLanguage } from "./admin-language";
import { EMPTY_DRAFT, parseRulesForm } from "~/automation/rules-form";
import { parseOverrides } from "~/booking/overrides";
import { shipmentFilterProblemInWords, type ShipmentFilterProblem } from "~/shipments/shipment-filter-problems";
import { parseStorefrontForm } from "~/storefront/storefront-form";
import { readSellerContact } from "~/tracking/seller-contact";

const DEVANAGARI = /[\u0900-\u097F]/;

const entriesOf = (value: object, prefix = ""): [string, string][] =>
  Object.entries(value).flatMap(([key, inner]) => (typeof inner === "string" ? [[prefix + key, inner] as [string, string]] : entriesOf(inner as object, `${prefix}${key}.`)));
const placeholdersOf = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

const rulesForm = (language: AdminLanguage, ...changes: Partial<typeof EMPTY_DRAFT>[]) => {
  const result = parseRulesForm(JSON.stringify(changes.map((change) => ({ ...EMPTY_DRAFT, name: "A rule", ...change }))), language);
  return result.ok ? {} : result.fieldErrors;
};
const WRONG_RULES: Partial<typeof EMPTY_DRAFT>[] = [
  { name: "", paymentMode: "x", minWeightKg: "abc", maxWeightKg: "-1", minValueRupees: "20000000", pincodePrefixes: "0123", zones: ["Z"], tags: "x".repeat(41), action: "y" },
  { name: "Heavy", minWeightKg: "5", maxWeightKg: "2", minValueRupees: "900", maxValueRupees: "100", action: "courier" },
  { name: "Big", maxWeightKg: "2000" },
];

const form = (fields: Record<string, string | string[]>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) for (const item of [value].flat()) data.append(key, item);
  return data;
};
const WRONG_STOREFRONT = { handlingDays: "31", cutoff: "25:00", closedWeekdays: ["0", "1", "2", "3", "4", "5", "6"], closedDates: "2026-02-30", codMaxRupees: "lots", defaultWeightGrams: "0" };
const WRONG_OVERRIDES = { length: "1", breadth: "2.5", height: "x", weightKg: "2000", warehouseId: "-3", paymentMode: "cash", ewaybillNo: "12345" };
const FILTER_PROBLEMS: ShipmentFilterProblem[] = ["searchTooLong", "stage", "payment", "event", "startDate", "endDate"];

describe("why a form was refused, in the admin's language", () => {
  it("has every message in Hindi, in Devanagari, with the English one's placeholders", () => {
    const hindi = Object.fromEntries(entriesOf(adminStrings("hi").errors));
    for (const [key, english] of entriesOf(adminStrings("en").errors)) {
      expect(placeholdersOf(hindi[key]!), key).toEqual(placeholdersOf(english));
      // Units and the rule-and-message joint are written alike in both languages.
      if (!["rules.units.kg", "rules.ruleError"].includes(key)) expect(hindi[key], key).toMatch(DEVANAGARI);
    }
  });

  it("words the settings form's messages in English as the form always has", () => {
    const m = adminStrings("en").errors.settings;
    expect(
      [
        fill(m.warehouseNumber, { label: m.labels.pickupWarehouse }),
        fill(m.warehouseNumber, { label: m.labels.warehouse }),
        fill(m.centimetresNumber, { label: m.labels.length }),
        fill(m.centimetresWhole, { label: m.labels.breadth }),
        fill(m.centimetresMin, { label: m.labels.height }),
        m.mode,
        m.environment,
        m.weightNumber,
        m.weightMin,
        m.weightMax,
        m.codTag,
        m.prepaidTag,
        fill(m.tooLong, { max: 40 }),
        fill(m.box, { number: 2, message: m.boxName }),
        m.boxWeightNumber,
        m.boxWeightMin,
        m.apiKey,
        m.secretKey,
        m.warehouseRequired,
        m.keysRefused,
        fill(m.warehouseMissing, { id: 7 }),
        m.unreachable,
      ],
    ).toEqual([
      "Pickup warehouse must be a warehouse number from your courier account",
      "Warehouse must be a warehouse number from your courier account",
      "Length must be a number of centimetres",
      "Breadth must be whole centimetres",
      "Height must be more than 1 cm",
      "Choose the sandbox or your own courier account",
      "Choose test or live",
      "Weight must be a number of kg",
      "Weight must be more than 0 kg",
      "Weight must be at most 1000 kg",
      "Enter the tag that marks cash-on-delivery orders",
      "Enter the tag that marks prepaid orders",
      // zod's own words for a too-long field, which the form has always shown.
      "Too big: expected string to have <=40 characters",
      "Box 2: Name the box",
      "Max weight must be a number of kg",
      "Max weight must be more than 0 kg",
      "Enter your courier API key",
      "Enter your courier secret key",
      "Enter the pickup warehouse id from your courier account",
      "The courier service refused this API key and secret key",
      "Warehouse 7 does not exist in this courier account",
      "The courier service could not be reached to check these settings; nothing was saved. Try again in a minute.",
    ]);
  });

  it("words the tracking page's contact fields in English as before, and in Hindi", () => {
    const wrong = { logoUrl: "http://example.com/logo.png", contactEmail: "help", contactPhone: "12345" };
    expect(readSellerContact(wrong)).toEqual({
      ok: false,
      errors: {
        logoUrl: "Logo address: an https:// address of an image, such as your store's logo on Shopify's CDN",
        contactEmail: "Contact e-mail: an address such as help@yourstore.in",
        contactPhone: "Contact phone: a 10-digit Indian number, with or without +91, or a 1800 toll-free number",
      },
    });
    const tooLong = { logoUrl: `https://example.com/${"a".repeat(500)}`, contactEmail: `${"a".repeat(250)}@example.com`, contactPhone: "9".repeat(21) };
    expect(readSellerContact(tooLong)).toEqual({
      ok: false,
      errors: { logoUrl: "Logo address: at most 500 characters", contactEmail: "Contact e-mail: at most 254 characters", contactPhone: "Contact phone: at most 20 characters" },
    });
    for (const given of [wrong, tooLong]) {
      const hindi = readSellerContact(given, "hi");
      expect(hindi.ok).toBe(false);
      for (const message of Object.values(hindi.ok ? {} : hindi.errors)) expect(message).toMatch(DEVANAGARI);
    }
  });

  it("words the auto-booking rules' mistakes in English as before, and in Hindi", () => {
    expect(rulesForm("en", ...WRONG_RULES)).toEqual({
      "0.name": "Rule 1: Give the rule a name",
      "0.paymentMode": "Rule 1: Payment must be any, COD or prepaid",
      "0.minWeightKg": "Rule 1: Minimum weight must be a number of kg",
      "0.maxWeightKg": "Rule 1: Maximum weight must not be negative",
      "0.minValueRupees": "Rule 1: Minimum order value must be at most 1,00,00,000 rupees",
      "0.pincodePrefixes": "Rule 1: PIN code prefixes are 1 to 6 digits, not starting with 0",
      "0.zones": "Rule 1: Zones are A, B, C, D or E",
      "0.tags": "Rule 1: A tag is at most 40 characters",
      "0.action": "Rule 1: Choose what the rule does",
      "1.maxWeightKg": "Rule 2 'Heavy': Maximum weight must not be below the minimum",
      "1.maxValueRupees": "Rule 2 'Heavy': Maximum order value must not be below the minimum",
      "1.courierId": "Rule 2 'Heavy': Choose the courier this rule books",
      "2.maxWeightKg": "Rule 3 'Big': Maximum weight must be at most 1,000 kg",
    });
    const hindi = rulesForm("hi", ...WRONG_RULES);
    expect(Object.keys(hindi).sort()).toEqual(Object.keys(rulesForm("en", ...WRONG_RULES)).sort());
    for (const message of Object.values(hindi)) expect(message).toMatch(/^नियम \d/);
    expect(hindi["1.courierId"]).toBe("नियम 2 'Heavy': वह कूरियर चुनें जिससे यह नियम बुक करे");
    const unreadable = parseRulesForm("{not json", "hi");
    expect(unreadable.ok === false && unreadable.formError).toMatch(DEVANAGARI);
    const tooLong = parseRulesForm(`[${" ".repeat(70_000)}]`);
    expect(tooLong.ok === false && tooLong.formError).toBe("The rules are too long to save (over 64,000 characters); remove some.");
  });

  it("words the storefront form's mistakes in English as before, and in Hindi when the page sends its language", () => {
    const english = parseStorefrontForm(form(WRONG_STOREFRONT));
    expect(english.ok === false && english.errors).toEqual({
      handlingDays: "Enter whole days from 0 to 30",
      cutoff: "Enter a time of day as HH:MM, 24-hour, India time (for example 14:00)",
      closedWeekdays: "Leave at least one day of the week open, or nothing ever ships",
      closedDates: '"2026-02-30" is not a date: write dates as YYYY-MM-DD, separated by commas',
      codMaxRupees: "Enter an amount in rupees up to ₹1,00,00,000, or leave it empty for no limit",
      defaultWeightGrams: "Enter whole grams from 1 to 1,000,000",
    });
    const manyDates = parseStorefrontForm(form({ closedDates: Array.from({ length: 61 }, (_, day) => new Date(Date.UTC(2026, 0, day + 1)).toISOString().slice(0, 10)).join(",") }));
    expect(manyDates.ok === false && manyDates.errors.closedDates).toBe("At most 60 dates");
    const hindi = parseStorefrontForm(form({ ...WRONG_STOREFRONT, locale: "hi" }));
    expect(Object.keys(hindi.ok ? {} : hindi.errors).sort()).toEqual(Object.keys(english.ok ? {} : english.errors).sort());
    for (const message of Object.values(hindi.ok ? {} : hindi.errors)) expect(message).toMatch(DEVANAGARI);
  });

  it("words the ship page's edits in English as before, and in Hindi", () => {
    expect(parseOverrides(new URLSearchParams(WRONG_OVERRIDES))).toEqual({
      overrides: {},
      invalid: ["length", "breadth", "height", "weightKg", "warehouseId", "paymentMode", "ewaybillNo"],
      errors: {
        length: "Length must be whole centimetres, more than 1",
        breadth: "Breadth must be whole centimetres, more than 1",
        height: "Height must be whole centimetres, more than 1",
        weightKg: "Weight must be between 0 and 1000 kg",
        warehouseId: "Warehouse must be a warehouse number",
        paymentMode: "Payment mode must be COD or prepaid",
        ewaybillNo: "An e-waybill number is 12 digits",
      },
    });
    for (const message of Object.values(parseOverrides(new URLSearchParams(WRONG_OVERRIDES), "hi").errors)) expect(message).toMatch(DEVANAGARI);
  });

  it("words the shipments filter's problems in English as before, and in Hindi", () => {
    expect(FILTER_PROBLEMS.map((problem) => shipmentFilterProblemInWords("en", problem))).toEqual([
      "Search for at most 100 characters.",
      "Choose one of the delivery stages.",
      "Choose COD or prepaid.",
      "Choose one of the events a shipment's history records.",
      "The start date must be a day such as 2026-11-25.",
      "The end date must be a day such as 2026-11-25.",
    ]);
    for (const problem of FILTER_PROBLEMS) expect(shipmentFilterProblemInWords("hi", problem)).toMatch(DEVANAGARI);
  });

  it("words the return settings' messages in English as the Returns view always has", () => {
    const { rules, returns } = adminStrings("en").errors;
    expect([
      fill(rules.amountMax, { field: returns.amounts.minValue, max: "1,00,00,000", unit: rules.units.rupees }),
      fill(rules.amountNumber, { field: returns.amounts.maxValue, unit: rules.units.rupees }),
      fill(returns.reasonLength, { max: 60 }),
      fill(returns.reasonCount, { max: 20 }),
      returns.action,
      returns.valueOrder,
      returns.defaultRule,
      returns.disposition,
      returns.defaultCourier,
      returns.unreadable,
      fill(returns.tooMany, { max: 20, extra: 3 }),
      fill(rules.ruleError, { rule: fill(returns.namedRule, { number: 2, name: "Damaged" }), message: returns.courierOffered }),
      fill(returns.rule, { number: 1 }),
    ]).toEqual([
      "Minimum value must be at most 1,00,00,000 rupees",
      "Maximum value must be a number of rupees",
      "A reason is at most 60 characters",
      "At most 20 reasons",
      "Choose what the rule does: hold, cheapest or a named courier",
      "Maximum value must not be below the minimum",
      "Choose what happens to a return no rule matches: hold, cheapest or a named courier",
      "Choose what happens to returned items: restock or inspect",
      "Choose the courier your default return rule books",
      "The return rules could not be read; reload the page and try again.",
      "At most 20 return rules; remove 3.",
      "Return rule 2 'Damaged': Choose one of the couriers offered",
      "Return rule 1",
    ]);
  });
});
