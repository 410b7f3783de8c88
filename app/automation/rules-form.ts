import {
  BookingRuleSchema,
  BookingRulesSchema,
  MAX_RULES,
  ruleMatches,
  RULE_ACTIONS,
  ZONES,
  type BookingRule,
  type OrderFacts,
  type RuleAction,
} from "./rules";
import type { QuoteSummary } from "~/orders/readiness";

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
 * each naming its rule ("Rule 2 'COD under ₹2,000': Maximum weight must not be below the minimum").
 */
export function parseRulesForm(json: string): RulesFormResult {
  if (json.length > MAX_RULES_FORM_CHARS)
    return {
      ok: false,
      drafts: [],
      formError: `The rules are too long to save (over ${MAX_RULES_FORM_CHARS.toLocaleString("en-IN")} characters); remove some.`,
      fieldErrors: {},
    };
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return { ok: false, drafts: [], formError: "The rules could not be read; reload the page and try again.", fieldErrors: {} };
  }
  if (!Array.isArray(parsed)) return { ok: false, drafts: [], formError: "The rules could not be read; reload the page and try again.", fieldErrors: {} };
  const drafts = parsed.slice(0, MAX_RULES + 1).map(draftFrom);
  if (parsed.length > MAX_RULES)
    return { ok: false, drafts: drafts.slice(0, MAX_RULES), formError: `At most ${MAX_RULES} rules; remove ${parsed.length - MAX_RULES}.`, fieldErrors: {} };

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
      tags: listOf(draft.tags),
      action: draft.action,
      courierId: draft.action === "courier" && draft.courierId !== "" ? Number(draft.courierId) : null,
    };
    const result = BookingRuleSchema.safeParse(candidate);
    if (result.success) {
      rules.push(result.data);
      return;
    }
    const named = `Rule ${index + 1}${draft.name.trim() ? ` '${draft.name.trim().slice(0, 60)}'` : ""}`;
    for (const issue of result.error.issues) {
      const field = (issue.path[0] ?? "name") as RuleField;
      const key = fieldKey(index, field);
      if (!fieldErrors[key]) fieldErrors[key] = `${named}: ${issue.message}`;
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
}

export interface RulePreview {
  /** Per rule, in order: the orders it would have decided, and how. */
  byRule: { orders: { orderGid: string; orderName: string; outcome: string }[] }[];
  unmatched: { orderGid: string; orderName: string }[];
  withProblems: { orderGid: string; orderName: string; problems: string }[];
}

const QUOTE_CHOICE: Record<Exclude<RuleAction, "hold" | "courier">, keyof Pick<QuoteSummary, "cheapest" | "fastest" | "recommended">> = {
  cheapest: "cheapest",
  fastest: "fastest",
  recommended: "recommended",
};

function outcomeOf(rule: BookingRule, quote: QuoteSummary | null, courierNames: Record<number, string>): string {
  if (rule.action === "hold") return "held for review";
  if (rule.action === "courier") return `book ${courierNames[rule.courierId ?? 0] ?? `courier ${rule.courierId}`}, if it serves the route`;
  const chosen = quote?.[QUOTE_CHOICE[rule.action]];
  return chosen
    ? `${rule.action}: ${chosen.name} ₹${(chosen.totalPaise / 100).toLocaleString("en-IN", { maximumFractionDigits: 2 })}`
    : `${rule.action}: no quote stored yet`;
}

/** Which of these orders each rule would have decided (the first matching rule wins), before the rules are saved. */
export function previewRules(rules: readonly BookingRule[], orders: readonly PreviewOrder[], courierNames: Record<number, string> = {}): RulePreview {
  const preview: RulePreview = { byRule: rules.map(() => ({ orders: [] })), unmatched: [], withProblems: [] };
  for (const order of orders) {
    if (order.problems !== null || order.facts === null) {
      preview.withProblems.push({ orderGid: order.orderGid, orderName: order.orderName, problems: order.problems ?? "not checked yet" });
      continue;
    }
    const index = rules.findIndex((rule) => ruleMatches(rule, order.facts!));
    if (index === -1) preview.unmatched.push({ orderGid: order.orderGid, orderName: order.orderName });
    else
      preview.byRule[index]!.orders.push({
        orderGid: order.orderGid,
        orderName: order.orderName,
        outcome: outcomeOf(rules[index]!, order.quote, courierNames),
      });
  }
  return preview;
}

export { RULE_ACTIONS, ZONES };
