import {
  bookingRuleSchemaIn,
  BookingRulesSchema,
  MAX_RULES,
  ruleMatches,
  RULE_ACTIONS,
  ZONES,
  type BookingRule,
  type OrderFacts,
  type RuleAction,
} from "./rules";
import type { QuoteSummary } from "~/booking/quote-summary";
import { isRiskLevel, RISK_LEVELS } from "./risk-levels";
import { problemLabel, type ProblemCode } from "~/shopify/readiness-checks";
import { ADMIN_LOCALES, adminStrings, fill, type AdminLanguage } from "~/locales/admin-language";

/**
 * The rules as the Settings screen edits them — every number and list as typed — and back: checked field by field,
 * so a rule set that cannot be saved says which rule and which field is wrong. Pure: the screen and its action use it.
 */

export interface RuleDraft {
  name: string;
  paymentMode: string;
  minWeightKg: string;
  maxWeightKg: string;
  minValueRupees: string;
  maxValueRupees: string;
  /** Comma-separated, as typed. */
  pincodePrefixes: string;
  zones: string[];
  /** The RTO risk levels the rule matches (none: any). */
  riskLevels: string[];
  tags: string;
  action: string;
  courierId: string;
}

export type RuleField = keyof RuleDraft;

/** Caps on what the screen may send, before any of it is read. */
export const MAX_RULES_FORM_CHARS = 64_000;
const MAX_FIELD_CHARS = 2_000;

const amountText = (value: number | null) => (value === null ? "" : String(value));

export function draftOf(rule: BookingRule): RuleDraft {
  return {
    name: rule.name,
    paymentMode: rule.paymentMode,
    minWeightKg: amountText(rule.minWeightKg),
    maxWeightKg: amountText(rule.maxWeightKg),
    minValueRupees: amountText(rule.minValueRupees),
    maxValueRupees: amountText(rule.maxValueRupees),
    pincodePrefixes: rule.pincodePrefixes.join(", "),
    zones: [...rule.zones],
    riskLevels: [...(rule.riskLevels ?? [])],
    tags: rule.tags.join(", "),
    action: rule.action,
    courierId: rule.courierId === null ? "" : String(rule.courierId),
  };
}

export const EMPTY_DRAFT: RuleDraft = {
  name: "",
  paymentMode: "any",
  minWeightKg: "",
  maxWeightKg: "",
  minValueRupees: "",
  maxValueRupees: "",
  pincodePrefixes: "",
  zones: [],
  riskLevels: [],
  tags: "",
  action: "recommended",
  courierId: "",
};

/** "" is no limit; anything else must read as a number (the schema then bounds it). */
const amountOf = (text: string): number | string | null => {
  const trimmed = text.trim().replace(/,/g, "");
  if (trimmed === "") return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : trimmed;
};

const listOf = (text: string) =>
  text
    .split(/[,\n]/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);

const textOf = (value: unknown): string => (typeof value === "string" ? value.slice(0, MAX_FIELD_CHARS) : "");

/** A draft from whatever the browser sent: unknown shapes become empty fields, which the check then names. */
function draftFrom(value: unknown): RuleDraft {
  const raw = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  return {
    name: textOf(raw.name),
    paymentMode: textOf(raw.paymentMode),
    minWeightKg: textOf(raw.minWeightKg),
    maxWeightKg: textOf(raw.maxWeightKg),
    minValueRupees: textOf(raw.minValueRupees),
    maxValueRupees: textOf(raw.maxValueRupees),
    pincodePrefixes: textOf(raw.pincodePrefixes),
    zones: Array.isArray(raw.zones) ? raw.zones.slice(0, ZONES.length + 1).map(textOf) : [],
    riskLevels: Array.isArray(raw.riskLevels) ? raw.riskLevels.slice(0, RISK_LEVELS.length + 1).map(textOf) : [],
    tags: textOf(raw.tags),
    action: textOf(raw.action),
    courierId: textOf(raw.courierId),
  };
}

export type RulesFormResult =
  | { ok: true; rules: BookingRule[] }
  | { ok: false; drafts: RuleDraft[]; formError: string | null; fieldErrors: Record<string, string> };

/** The key a field's error is filed under: "2.maxWeightKg" for the third rule's maximum weight. */
export const fieldKey = (index: number, field: RuleField) => `${index}.${field}`;

/**
 * Reads the screen's rules (a JSON array of drafts) into rules, or says what is wrong: one message per field,
 * each naming its rule ("Rule 2 'COD under ₹2,000': Maximum weight must not be below the minimum"), in the admin's language.
 */
export function parseRulesForm(json: string, language: AdminLanguage = "en"): RulesFormResult {
  const m = adminStrings(language).errors.rules;
  if (json.length > MAX_RULES_FORM_CHARS)
    return {
      ok: false,
      drafts: [],
      formError: fill(m.tooLong, { max: MAX_RULES_FORM_CHARS.toLocaleString(ADMIN_LOCALES[language]) }),
      fieldErrors: {},
    };
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return { ok: false, drafts: [], formError: m.unreadable, fieldErrors: {} };
  }
  if (!Array.isArray(parsed)) return { ok: false, drafts: [], formError: m.unreadable, fieldErrors: {} };
  const drafts = parsed.slice(0, MAX_RULES + 1).map(draftFrom);
  if (parsed.length > MAX_RULES)
    return { ok: false, drafts: drafts.slice(0, MAX_RULES), formError: fill(m.tooMany, { max: MAX_RULES, extra: parsed.length - MAX_RULES }), fieldErrors: {} };

  const fieldErrors: Record<string, string> = {};
  const rules: BookingRule[] = [];
  drafts.forEach((draft, index) => {
    const candidate = {
      name: draft.name,
      paymentMode: draft.paymentMode,
      minWeightKg: amountOf(draft.minWeightKg),
      maxWeightKg: amountOf(draft.maxWeightKg),
      minValueRupees: amountOf(draft.minValueRupees),
      maxValueRupees: amountOf(draft.maxValueRupees),
      pincodePrefixes: listOf(draft.pincodePrefixes),
      zones: draft.zones,
      // A rule on no risk level leaves the field out, as rules saved before risk existed do.
      ...(draft.riskLevels.length > 0 ? { riskLevels: draft.riskLevels } : {}),
      tags: listOf(draft.tags),
      action: draft.action,
      courierId: draft.action === "courier" && draft.courierId !== "" ? Number(draft.courierId) : null,
    };
    const result = bookingRuleSchemaIn(language).safeParse(candidate);
    if (result.success) {
      rules.push(result.data);
      return;
    }
    const name = draft.name.trim().slice(0, 60);
    const named = name ? fill(m.namedRule, { number: index + 1, name }) : fill(m.rule, { number: index + 1 });
    for (const issue of result.error.issues) {
      const field = (issue.path[0] ?? "name") as RuleField;
      const key = fieldKey(index, field);
      if (!fieldErrors[key]) fieldErrors[key] = fill(m.ruleError, { rule: named, message: issue.message });
    }
  });
  if (Object.keys(fieldErrors).length > 0) return { ok: false, drafts, formError: null, fieldErrors };
  return { ok: true, rules: BookingRulesSchema.parse(rules) };
}

/** A recent order as the preview sees it: what the rules read, and what its last quote said. */
export interface PreviewOrder {
  orderGid: string;
  orderName: string;
  facts: OrderFacts | null;
  quote: QuoteSummary | null;
  /** Its problems, named, when it has any: such an order is never booked automatically. */
  problems: string | null;
  /** The same problems by code, for the page to name them in the admin's language. */
  problemCodes?: readonly ProblemCode[];
}

type QuotedAction = Exclude<RuleAction, "hold" | "courier" | "confirm">;

/** What a rule would do with an order, for the page to word in the admin's language. */
export type PreviewOutcome =
  | { kind: "hold" }
  /** Ask the shopper to confirm cash on delivery; `risk` is the order's RTO risk level as scored. */
  | { kind: "confirm"; risk: string | null }
  | { kind: "courier"; courierId: number | null; courierName: string | null }
  | { kind: "quoted"; action: QuotedAction; courierName: string; totalPaise: number }
  | { kind: "no_quote"; action: QuotedAction };

/** An order the rules never book as it is; `problemCodes` is null when it was not checked yet. */
export interface PreviewWithProblems {
  orderGid: string;
  orderName: string;
  problems: string;
  problemCodes: ProblemCode[] | null;
}

export interface RulePreview {
  /** Per rule, in order: the orders it would have decided, and how (`outcome` in English, `decided` to word). */
  byRule: { orders: { orderGid: string; orderName: string; outcome: string; decided: PreviewOutcome }[] }[];
  unmatched: { orderGid: string; orderName: string }[];
  withProblems: PreviewWithProblems[];
}

const QUOTE_CHOICE: Record<QuotedAction, keyof Pick<QuoteSummary, "cheapest" | "fastest" | "recommended">> = {
  cheapest: "cheapest",
  fastest: "fastest",
  recommended: "recommended",
};

function outcomeOf(rule: BookingRule, quote: QuoteSummary | null, courierNames: Record<number, string>, riskLevel?: string | null): PreviewOutcome {
  if (rule.action === "hold") return { kind: "hold" };
  if (rule.action === "confirm") return { kind: "confirm", risk: riskLevel ?? null };
  if (rule.action === "courier") return { kind: "courier", courierId: rule.courierId, courierName: courierNames[rule.courierId ?? 0] ?? null };
  const chosen = quote?.[QUOTE_CHOICE[rule.action]];
  return chosen ? { kind: "quoted", action: rule.action, courierName: chosen.name, totalPaise: chosen.totalPaise } : { kind: "no_quote", action: rule.action };
}

/** A preview's outcome in the language: "cheapest: Delhivery ₹98", "held for review". Pure. */
export function previewOutcomeInWords(outcome: PreviewOutcome, language: AdminLanguage): string {
  const words = adminStrings(language).outcomes.preview;
  switch (outcome.kind) {
    case "hold":
      return words.held;
    case "confirm":
      return outcome.risk && isRiskLevel(outcome.risk) ? fill(words.confirmAtRisk, { risk: adminStrings(language).cod.levels[outcome.risk] }) : words.confirm;
    case "courier":
      return fill(words.courier, { courier: outcome.courierName ?? fill(words.courierNumber, { id: String(outcome.courierId) }) });
    case "quoted":
      return fill(words.quoted, {
        action: words.actions[outcome.action],
        courier: outcome.courierName,
        total: (outcome.totalPaise / 100).toLocaleString(ADMIN_LOCALES[language], { maximumFractionDigits: 2 }),
      });
    case "no_quote":
      return fill(words.noQuote, { action: words.actions[outcome.action] });
  }
}

/** Why an order is never booked as it is, in the language: its problems' short names, or that it was not checked yet. Pure. */
export function previewProblemsInWords(order: PreviewWithProblems, language: AdminLanguage): string {
  if (order.problemCodes === null) return adminStrings(language).outcomes.preview.notChecked;
  if (language === "en" || order.problemCodes.length === 0) return order.problems;
  return order.problemCodes.map((code) => problemLabel(code, language)).join(", ");
}

/** Which of these orders each rule would have decided (the first matching rule wins), before the rules are saved. */
export function previewRules(rules: readonly BookingRule[], orders: readonly PreviewOrder[], courierNames: Record<number, string> = {}): RulePreview {
  const preview: RulePreview = { byRule: rules.map(() => ({ orders: [] })), unmatched: [], withProblems: [] };
  for (const order of orders) {
    if (order.problems !== null || order.facts === null) {
      preview.withProblems.push({
        orderGid: order.orderGid,
        orderName: order.orderName,
        problems: order.problems ?? adminStrings("en").outcomes.preview.notChecked,
        problemCodes: order.problems === null ? null : [...(order.problemCodes ?? [])],
      });
      continue;
    }
    const index = rules.findIndex((rule) => ruleMatches(rule, order.facts!));
    if (index === -1) preview.unmatched.push({ orderGid: order.orderGid, orderName: order.orderName });
    else {
      const decided = outcomeOf(rules[index]!, order.quote, courierNames, order.facts.riskLevel);
      preview.byRule[index]!.orders.push({ orderGid: order.orderGid, orderName: order.orderName, outcome: previewOutcomeInWords(decided, "en"), decided });
    }
  }
  return preview;
}

export { RISK_LEVELS, RULE_ACTIONS, ZONES };
