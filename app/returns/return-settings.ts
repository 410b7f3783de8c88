import * as z from "zod";
import { ruleMatches, type BookingRule } from "../automation/rules";
import type { RankedRate } from "../shipping/rate-ranking";
import { adminStrings, englishOf, fill, perAdminLanguage, type AdminLanguage, type AdminStrings, type StoredWords, words } from "../locales/admin-language";
import { quotedWords, returnRuleWords } from "../automation/decision-words";

/**
 * The merchant's return settings and what they decide. Pure: shared by the Returns view's settings, the return-check
 * job and their tests.
 *
 * Return rules are tried in order and the first that matches a return decides; a return no rule matches gets the
 * default. Each decides one of:
 * - hold: the pickup waits for the merchant's click (the default's default: a return costs a reverse freight);
 * - cheapest: the cheapest courier offering the reverse pickup is booked at once;
 * - courier: the named courier is booked when it offers the pickup, else the return waits with that reason.
 * A rule matches on the shopper's return reason, the returning items' value, the pickup's PIN code prefix and the
 * order's tags; value, PIN code and tags are matched by the auto-booking rules' own evaluator (app/automation/rules.ts).
 */
export const RETURN_RULES = ["hold", "cheapest", "courier"] as const;
export type ReturnRuleAction = (typeof RETURN_RULES)[number];
/** Kept for the default rule's column name (`ShopSettings.returnRule`). */
export type ReturnRule = ReturnRuleAction;
export const MAX_RETURN_RULES = 20;

export const RETURN_DISPOSITIONS = ["inspect", "restock"] as const;
/** What Dakiya records in Shopify for items that came back: left for inspection, or restocked at the location. */
export type ReturnDisposition = (typeof RETURN_DISPOSITIONS)[number];

const optionalRupees = (m: AdminStrings["errors"], field: string) =>
  z
    .number({ error: fill(m.rules.amountNumber, { field, unit: m.rules.units.rupees }) })
    .min(0, { error: fill(m.rules.amountNegative, { field }) })
    .max(10_000_000, { error: fill(m.rules.amountMax, { field, max: "1,00,00,000", unit: m.rules.units.rupees }) })
    .nullable();

/** A return rule's checks, their messages in one admin language (the auto-booking rules' where they say the same). */
function returnRuleSchema(language: AdminLanguage) {
  const m = adminStrings(language).errors;
  return z
    .object({
      name: z.string({ error: m.rules.nameRequired }).trim().min(1, { error: m.rules.nameEmpty }).max(60, { error: fill(m.rules.nameLength, { max: 60 }) }),
      /** Words of the shopper's return reason ("damaged", "size"): any one found in a reason matches. */
      reasons: z.array(z.string().trim().min(1).max(60, { error: fill(m.returns.reasonLength, { max: 60 }) })).max(20, { error: fill(m.returns.reasonCount, { max: 20 }) }),
      minValueRupees: optionalRupees(m, m.returns.amounts.minValue),
      maxValueRupees: optionalRupees(m, m.returns.amounts.maxValue),
      pincodePrefixes: z.array(z.string().regex(/^[1-9]\d{0,5}$/, { error: m.rules.pincodePrefix })).max(50, { error: fill(m.rules.pincodePrefixCount, { max: 50 }) }),
      tags: z.array(z.string().trim().min(1).max(40, { error: fill(m.rules.tagLength, { max: 40 }) })).max(20, { error: fill(m.rules.tagCount, { max: 20 }) }),
      action: z.enum(RETURN_RULES, { error: m.returns.action }),
      courierId: z.number().int().positive().nullable(),
    })
    .refine((rule) => rule.minValueRupees === null || rule.maxValueRupees === null || rule.minValueRupees <= rule.maxValueRupees, { path: ["maxValueRupees"], error: m.returns.valueOrder })
    .refine((rule) => rule.action !== "courier" || rule.courierId !== null, { path: ["courierId"], error: m.rules.courierRequired });
}

const RETURN_RULE_SCHEMAS = perAdminLanguage(returnRuleSchema);

/** A return rule's checks with their messages in the admin's language; English for stored rules. */
export const returnRuleSchemaIn = (language: AdminLanguage) => RETURN_RULE_SCHEMAS[language];
const ReturnRuleSchema = RETURN_RULE_SCHEMAS.en;

export type ReturnRuleEntry = z.infer<typeof ReturnRuleSchema>;
export const ReturnRulesSchema = z.array(ReturnRuleSchema).max(MAX_RETURN_RULES, { error: fill(adminStrings("en").errors.returns.ruleCount, { max: MAX_RETURN_RULES }) });

export interface ReturnSettings {
  /** The default: what a return no rule matches gets. */
  rule: ReturnRuleAction;
  courierId: number | null;
  rules: ReturnRuleEntry[];
  notifyCustomer: boolean;
  disposition: ReturnDisposition;
}

export function returnSettingsOf(settings: { returnRule: string; returnCourierId: number | null; returnNotifyCustomer: boolean; returnDisposition: string; returnRules: string }): ReturnSettings {
  return {
    rule: (RETURN_RULES as readonly string[]).includes(settings.returnRule) ? (settings.returnRule as ReturnRuleAction) : "hold",
    courierId: settings.returnCourierId,
    rules: ReturnRulesSchema.parse(JSON.parse(settings.returnRules)),
    notifyCustomer: settings.returnNotifyCustomer,
    disposition: settings.returnDisposition === "restock" ? "restock" : "inspect",
  };
}

/** "400, 560 " → ["400", "560"]: a comma-separated list as typed. */
export const listOf = (text: string): string[] => [...new Set(text.split(/[,\n]/).map((part) => part.trim()).filter(Boolean))];

/** What the return rules look at: the returning items' value, the pickup's PIN code, the reasons and the order's tags. */
export interface ReturnFacts {
  totalPaise: number;
  pincode: string;
  /** The shopper's reasons: Shopify's reason handle and name, and their note. */
  reasons: string[];
  tags: string[];
}

/** The auto-booking rule a return rule's value, PIN code and tag conditions read as, so one evaluator judges both. */
const asBookingRule = (rule: ReturnRuleEntry): BookingRule => ({
  name: rule.name,
  paymentMode: "any",
  minWeightKg: null,
  maxWeightKg: null,
  minValueRupees: rule.minValueRupees,
  maxValueRupees: rule.maxValueRupees,
  pincodePrefixes: rule.pincodePrefixes,
  zones: [],
  tags: rule.tags,
  action: "hold",
  courierId: null,
});

export function returnRuleMatches(rule: ReturnRuleEntry, facts: ReturnFacts): boolean {
  const reasons = facts.reasons.map((reason) => reason.toLowerCase());
  if (rule.reasons.length > 0 && !rule.reasons.some((word) => reasons.some((reason) => reason.includes(word.toLowerCase())))) return false;
  return ruleMatches(asBookingRule(rule), { paymentMode: "prepaid", weightKg: 0, valueRupees: facts.totalPaise / 100, pincode: facts.pincode, zone: null, tags: facts.tags });
}

/** `rule` names what decided, for the shipment's history: "Return rule 2 'Damaged items'" or "Default return rule". */
/** `words` are the reason's words (app/automation/decision-words.ts), `ruleWords` the rule's: kept so a page says them in the admin's language. */
export type ReturnDecision =
  | { kind: "book"; courierId: number; courierName: string; reason: string; words: StoredWords; rule: string; ruleWords: StoredWords }
  | { kind: "hold"; reason: string; words: StoredWords; rule: string; ruleWords: StoredWords };

/** Which rule decides a return and what it says to do; `ruleIndex` is null when no rule matches and the default decides. */
export interface ReturnRuleChoice {
  ruleIndex: number | null;
  /** "Return rule 2 'Damaged items'" or "Default return rule", as the decision's reason and history name it. */
  rule: string;
  /** `rule`'s words, for a reason said in the admin's language. */
  ruleWords: StoredWords;
  action: ReturnRuleAction;
  courierId: number | null;
}

/**
 * The first rule that matches the return's facts, else the default. The return check and the rules' preview both
 * choose through this, so a preview decides a recorded return exactly as the check would have.
 */
export function chooseReturnRule(settings: Pick<ReturnSettings, "rule" | "courierId" | "rules">, facts: ReturnFacts): ReturnRuleChoice {
  const index = settings.rules.findIndex((rule) => returnRuleMatches(rule, facts));
  if (index === -1) {
    const named = returnRuleWords(null, "");
    return { ruleIndex: null, rule: englishOf(named), ruleWords: named, action: settings.rule, courierId: settings.courierId };
  }
  const matched = settings.rules[index]!;
  const named = returnRuleWords(index + 1, matched.name);
  return { ruleIndex: index, rule: englishOf(named), ruleWords: named, action: matched.action, courierId: matched.courierId };
}

export function decideReturnPickup(settings: Pick<ReturnSettings, "rule" | "courierId" | "rules">, rates: readonly RankedRate[], facts: ReturnFacts): ReturnDecision {
  const { rule, ruleWords, action, courierId } = chooseReturnRule(settings, facts);
  const said = (stored: StoredWords) => ({ rule, ruleWords, reason: englishOf(stored), words: stored });
  if (action === "hold") return { kind: "hold", ...said(words("decisions.returns.hold", { rule: ruleWords })) };
  if (rates.length === 0) {
    const how = words(action === "cheapest" ? "outcomes.preview.actions.cheapest" : "decisions.returns.courierAction");
    return { kind: "hold", ...said(words("decisions.returns.noCourier", { rule: ruleWords, action: how })) };
  }
  if (action === "courier") {
    const named = rates.find((rate) => rate.id === courierId);
    if (!named) return { kind: "hold", ...said(words("decisions.returns.chosenNotOffered", { rule: ruleWords })) };
    const outcome = quotedWords(words("decisions.chosenCourier"), named.name, named.total_charges);
    return { kind: "book", courierId: named.id, courierName: named.name, ...said(words("decisions.book", { rule: ruleWords, outcome })) };
  }
  const cheapest = [...rates].sort((a, b) => a.total_charges - b.total_charges || a.id - b.id)[0]!;
  const outcome = quotedWords(words("outcomes.preview.actions.cheapest"), cheapest.name, cheapest.total_charges);
  return { kind: "book", courierId: cheapest.id, courierName: cheapest.name, ...said(words("decisions.book", { rule: ruleWords, outcome })) };
}
