import * as z from "zod";
import { LOGISTIC_IDS, type LogisticId } from "~/shipping/contract";
import type { RankedRate } from "~/shipping/rate-ranking";
import { ADMIN_LOCALES, adminStrings, englishOf, fill, perAdminLanguage, words, type AdminLanguage, type AdminStrings, type StoredWords } from "~/locales/admin-language";
import { RISK_LEVELS, type RiskLevel } from "./risk-levels";
import { quotedWords, ruleWords } from "./decision-words";

/**
 * Auto-booking rules: what the merchant decides once so new orders book themselves. Rules are tried in
 * priority order; the first that matches an order decides — book with the cheapest, the fastest, the
 * recommended or a named courier, hold the order for review, or ask the shopper to confirm a cash-on-delivery order
 * first. No match holds the order. Pure: the settings screen, its preview and the order-check job all use it.
 *
 * A rule may match on the order's RTO risk (app/cod/risk-score.ts: high, medium, low, none; a prepaid order has none
 * scored, and a rule on risk does not match it). "Ask the shopper to confirm" asks once: once the shopper has answered
 * (or stayed silent to the end), such a rule no longer matches the order, and the rules after it decide.
 */

export const RULE_ACTIONS = ["cheapest", "fastest", "recommended", "courier", "hold", "confirm"] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];
export const ZONES = ["A", "B", "C", "D", "E"] as const;
export const MAX_RULES = 20;

type RuleMessages = AdminStrings["errors"]["rules"];

const optionalAmount = (m: RuleMessages, language: AdminLanguage, field: string, max: number, unit: string) =>
  z
    .number({ error: fill(m.amountNumber, { field, unit }) })
    .min(0, { error: fill(m.amountNegative, { field }) })
    .max(max, { error: fill(m.amountMax, { field, max: max.toLocaleString(ADMIN_LOCALES[language]), unit }) })
    .nullable();

function whenValid(...fields: string[]) {
  return (payload: { issues: readonly { path?: readonly PropertyKey[] }[] }) => !payload.issues.some((issue) => fields.includes(String(issue.path?.[0])));
}

/** A rule's checks, their messages in one admin language. */
function bookingRuleSchema(language: AdminLanguage) {
  const m = adminStrings(language).errors.rules;
  return (
    z
      .object({
        name: z.string({ error: m.nameRequired }).trim().min(1, { error: m.nameEmpty }).max(60, { error: fill(m.nameLength, { max: 60 }) }),
        paymentMode: z.enum(["any", "cod", "prepaid"], { error: m.payment }),
        minWeightKg: optionalAmount(m, language, m.amounts.minWeight, 1000, m.units.kg),
        maxWeightKg: optionalAmount(m, language, m.amounts.maxWeight, 1000, m.units.kg),
        minValueRupees: optionalAmount(m, language, m.amounts.minValue, 10_000_000, m.units.rupees),
        maxValueRupees: optionalAmount(m, language, m.amounts.maxValue, 10_000_000, m.units.rupees),
        pincodePrefixes: z.array(z.string().regex(/^[1-9]\d{0,5}$/, { error: m.pincodePrefix })).max(50, { error: fill(m.pincodePrefixCount, { max: 50 }) }),
        zones: z.array(z.enum(ZONES, { error: m.zones })).max(ZONES.length),
        // Rules saved before risk existed have none: they match whatever the risk.
        riskLevels: z.array(z.enum(RISK_LEVELS, { error: m.riskLevels })).max(RISK_LEVELS.length).optional(),
        tags: z.array(z.string().trim().min(1).max(40, { error: fill(m.tagLength, { max: 40 }) })).max(20, { error: fill(m.tagCount, { max: 20 }) }),
        action: z.enum(RULE_ACTIONS, { error: m.action }),
        courierId: z.union(LOGISTIC_IDS.map((id) => z.literal(id)), { error: m.courier }).nullable(),
      })
      // Each check runs as soon as the fields it reads are valid, so one save names every mistake at once.
      .refine((rule) => rule.minWeightKg === null || rule.maxWeightKg === null || rule.minWeightKg <= rule.maxWeightKg, {
        path: ["maxWeightKg"],
        error: m.weightOrder,
        when: whenValid("minWeightKg", "maxWeightKg"),
      })
      .refine((rule) => rule.minValueRupees === null || rule.maxValueRupees === null || rule.minValueRupees <= rule.maxValueRupees, {
        path: ["maxValueRupees"],
        error: m.valueOrder,
        when: whenValid("minValueRupees", "maxValueRupees"),
      })
      .refine((rule) => rule.action !== "courier" || rule.courierId !== null, { path: ["courierId"], error: m.courierRequired, when: whenValid("action", "courierId") })
      // Only a cash-on-delivery order has a shopper to ask: a rule that asks matches no prepaid order.
      .refine((rule) => rule.action !== "confirm" || rule.paymentMode !== "prepaid", { path: ["action"], error: m.confirmPrepaid, when: whenValid("action", "paymentMode") })
  );
}

const RULE_SCHEMAS = perAdminLanguage(bookingRuleSchema);

/** A rule's checks with their messages in the admin's language; English for stored rules and logs. */
export const bookingRuleSchemaIn = (language: AdminLanguage) => RULE_SCHEMAS[language];
const BookingRuleSchema = RULE_SCHEMAS.en;

export type BookingRule = z.infer<typeof BookingRuleSchema>;
export const BookingRulesSchema = z.array(BookingRuleSchema).max(MAX_RULES, { error: fill(adminStrings("en").errors.rules.ruleCount, { max: MAX_RULES }) });

/** What a rule can see of an order: its stored readiness (app/orders/), without a Shopify call. */
export interface OrderFacts {
  paymentMode: "cod" | "prepaid";
  weightKg: number;
  valueRupees: number;
  pincode: string;
  /** From the order's quote; a rule on zones does not match an order not quoted yet. */
  zone: string | null;
  tags: string[];
  /** The order's RTO risk as scored (cash on delivery only); null: none scored. */
  riskLevel?: RiskLevel | null;
  /** The shopper was asked to confirm already (answered, or silent to the end): a rule that asks does not ask again. */
  shopperAsked?: boolean;
}

export function ruleMatches(rule: BookingRule, facts: OrderFacts): boolean {
  if (rule.action === "confirm" && (facts.paymentMode !== "cod" || facts.shopperAsked)) return false;
  const risks: readonly string[] = rule.riskLevels ?? [];
  if (risks.length > 0 && (!facts.riskLevel || !risks.includes(facts.riskLevel))) return false;
  if (rule.paymentMode !== "any" && rule.paymentMode !== facts.paymentMode) return false;
  if (rule.minWeightKg !== null && facts.weightKg < rule.minWeightKg) return false;
  if (rule.maxWeightKg !== null && facts.weightKg > rule.maxWeightKg) return false;
  if (rule.minValueRupees !== null && facts.valueRupees < rule.minValueRupees) return false;
  if (rule.maxValueRupees !== null && facts.valueRupees > rule.maxValueRupees) return false;
  if (rule.pincodePrefixes.length > 0 && !rule.pincodePrefixes.some((prefix) => facts.pincode.startsWith(prefix))) return false;
  if (rule.zones.length > 0 && (facts.zone === null || !(rule.zones as string[]).includes(facts.zone))) return false;
  const tags = facts.tags.map((tag) => tag.toLowerCase());
  if (rule.tags.length > 0 && !rule.tags.some((tag) => tags.includes(tag.toLowerCase()))) return false;
  return true;
}

export function firstMatchingRule(rules: readonly BookingRule[], facts: OrderFacts): { position: number; rule: BookingRule } | null {
  const index = rules.findIndex((rule) => ruleMatches(rule, facts));
  return index === -1 ? null : { position: index + 1, rule: rules[index]! };
}

/** `words` are the reason's words (app/automation/decision-words.ts), kept beside it so a page says it in the admin's language. */
export type Decision =
  | { kind: "hold"; reason: string; words: StoredWords }
  | { kind: "confirm"; reason: string; words: StoredWords; rule: string }
  | { kind: "book"; courierId: LogisticId; courierName: string; reason: string; words: StoredWords; rule: string };

/** The courier a rule's action picks among the quoted rates, or null when none fits. */
export function choose(action: Exclude<RuleAction, "hold" | "confirm">, rates: readonly RankedRate[], courierId: LogisticId | null): RankedRate | null {
  if (action === "courier") return rates.find((rate) => rate.id === courierId) ?? null;
  const flag = action === "cheapest" ? "isCheapest" : action === "fastest" ? "isFastest" : "isRecommended";
  return rates.find((rate) => rate[flag]) ?? null;
}

const held = (stored: StoredWords): Decision => ({ kind: "hold", reason: englishOf(stored), words: stored });

/**
 * What the rules decide for a ready order with these rates, and why, in the merchant's words:
 * "Rule 2 'COD under ₹2,000' → cheapest: Delhivery ₹98".
 */
export function decide(rules: readonly BookingRule[], facts: OrderFacts, rates: readonly RankedRate[]): Decision {
  const match = firstMatchingRule(rules, facts);
  if (!match) return held(words("decisions.noRule"));
  const { position, rule } = match;
  const named = ruleWords(position, rule.name);
  if (rule.action === "hold") return held(words("decisions.hold", { rule: named }));
  if (rule.action === "confirm") {
    const stored = words("decisions.confirm", { rule: named });
    return { kind: "confirm", reason: englishOf(stored), words: stored, rule: englishOf(named) };
  }
  const chosen = choose(rule.action, rates, rule.courierId);
  if (!chosen || !(LOGISTIC_IDS as readonly number[]).includes(chosen.id)) {
    return held(words(rule.action === "courier" ? "decisions.chosenNotOnRoute" : "decisions.noneOnRoute", { rule: named }));
  }
  const how = words(rule.action === "courier" ? "decisions.chosenCourier" : `outcomes.preview.actions.${rule.action}`);
  const stored = words("decisions.book", { rule: named, outcome: quotedWords(how, chosen.name, chosen.total_charges) });
  return { kind: "book", courierId: chosen.id as LogisticId, courierName: chosen.name, reason: englishOf(stored), words: stored, rule: englishOf(named) };
}

const ANY_ORDER: Omit<BookingRule, "name" | "action"> = { paymentMode: "any", minWeightKg: null, maxWeightKg: null, minValueRupees: null, maxValueRupees: null, pincodePrefixes: [], zones: [], tags: [], courierId: null };

/**
 * A starting rule set for a new shop (off until the merchant turns auto-booking on): expensive orders and the riskiest
 * cash on delivery wait for the merchant, a medium risk asks the shopper to confirm first, the rest book.
 */
export const EXAMPLE_RULES: BookingRule[] = [
  { ...ANY_ORDER, name: "Expensive orders", minValueRupees: 10_000, action: "hold" },
  { ...ANY_ORDER, name: "COD at high RTO risk", paymentMode: "cod", riskLevels: ["high"], action: "hold" },
  { ...ANY_ORDER, name: "COD at medium RTO risk", paymentMode: "cod", riskLevels: ["medium"], action: "confirm" },
  { ...ANY_ORDER, name: "COD under ₹2,000", paymentMode: "cod", maxValueRupees: 2_000, action: "cheapest" },
  { ...ANY_ORDER, name: "Everything else", action: "recommended" },
];
