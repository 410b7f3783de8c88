import * as z from "zod";
import { adminStrings, fill, perAdminLanguage, type AdminLanguage } from "~/locales/admin-language";
import { hasControlCharacters } from "./shopper-answer";

/**
 * The failed-delivery desk's rules, as ClickPost's NDR automation has them: the courier's reason, the payment mode and
 * the attempt's number decide what happens to a failed attempt as soon as tracking records it — re-attempt, return to
 * origin, or wait for the shopper's answer (their answer decides; unanswered when the time left runs out, the rule's
 * fallback does). Tried in order; the first that matches decides, and none matching leaves the parcel to the merchant.
 * Stored as JSON in `FailedDeliverySettings.rules`, checked here on save and again on every read. Pure: the rules page,
 * its action and the tracking path all use it.
 */

export const DESK_RULE_ACTIONS = ["reattempt", "rto", "wait"] as const;
export type DeskRuleAction = (typeof DESK_RULE_ACTIONS)[number];
/** What a waiting rule decides when the shopper has not answered in time. */
export const WAIT_FALLBACKS = ["reattempt", "rto"] as const;
export type WaitFallback = (typeof WAIT_FALLBACKS)[number];
export const RULE_PAYMENTS = ["any", "cod", "prepaid"] as const;

export const DESK_RULE_LIMITS = {
  rules: 20,
  name: 60,
  /** Words of the courier's reason one rule looks for, and each word's length. */
  reasons: 10,
  reason: 40,
  /** Couriers give up after three attempts or so; nine is plenty. */
  attempt: 9,
  /** The whole form as the page sends it, before any of it is read. */
  formChars: 32_000,
} as const;

export interface DeskRule {
  name: string;
  /** Words or phrases of the courier's reason, any of which matches (case and spacing aside); none: any reason. */
  reasons: string[];
  payment: (typeof RULE_PAYMENTS)[number];
  fromAttempt: number;
  /** Null: this attempt and every later one. */
  toAttempt: number | null;
  action: DeskRuleAction;
  /** For `wait` only: what is decided when the shopper has not answered in time. */
  otherwise: WaitFallback | null;
}

/** The facts of a failed attempt the rules read. */
export interface AttemptFacts {
  /** The courier's words for the attempt. */
  reason: string;
  paymentMode: "cod" | "prepaid";
  /** 1 for the first failed attempt. */
  attempt: number;
}

const normal = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();

export function ruleMatches(rule: DeskRule, facts: AttemptFacts): boolean {
  if (rule.payment !== "any" && rule.payment !== facts.paymentMode) return false;
  if (facts.attempt < rule.fromAttempt || (rule.toAttempt !== null && facts.attempt > rule.toAttempt)) return false;
  if (rule.reasons.length === 0) return true;
  const reason = normal(facts.reason);
  return rule.reasons.some((word) => reason.includes(normal(word)));
}

/** The first rule that matches the attempt, with its place (0-based); null when none does. */
export function firstMatchingRule(rules: readonly DeskRule[], facts: AttemptFacts): { rule: DeskRule; index: number } | null {
  const index = rules.findIndex((rule) => ruleMatches(rule, facts));
  return index === -1 ? null : { rule: rules[index]!, index };
}

// ─── Checking ─────────────────────────────────────────────────────────────────────────────────────────────────────

type RuleErrors = ReturnType<typeof adminStrings>["failedDeliveries"]["rules"]["errors"];

const attemptNumber = (m: RuleErrors) => z.number({ error: fill(m.attempt, { max: DESK_RULE_LIMITS.attempt }) }).int({ error: fill(m.attempt, { max: DESK_RULE_LIMITS.attempt }) }).min(1, { error: fill(m.attempt, { max: DESK_RULE_LIMITS.attempt }) }).max(DESK_RULE_LIMITS.attempt, { error: fill(m.attempt, { max: DESK_RULE_LIMITS.attempt }) });

const passed = (...fields: string[]) => (payload: { issues: readonly { path?: readonly PropertyKey[] }[] }) => !payload.issues.some((issue) => fields.includes(String(issue.path?.[0])));

function deskRuleSchema(language: AdminLanguage) {
  const m = adminStrings(language).failedDeliveries.rules.errors;
  return z
    .object({
      name: z
        .string({ error: m.nameEmpty })
        .trim()
        .min(1, { error: m.nameEmpty })
        .max(DESK_RULE_LIMITS.name, { error: fill(m.nameLength, { max: DESK_RULE_LIMITS.name }) })
        .refine((name) => !hasControlCharacters(name), { error: m.oneLine }),
      reasons: z
        .array(
          z
            .string()
            .trim()
            .min(2, { error: fill(m.reasonLength, { max: DESK_RULE_LIMITS.reason }) })
            .max(DESK_RULE_LIMITS.reason, { error: fill(m.reasonLength, { max: DESK_RULE_LIMITS.reason }) })
            .refine((word) => !hasControlCharacters(word), { error: m.oneLine }),
        )
        .max(DESK_RULE_LIMITS.reasons, { error: fill(m.reasonCount, { max: DESK_RULE_LIMITS.reasons }) }),
      payment: z.enum(RULE_PAYMENTS, { error: m.payment }),
      fromAttempt: attemptNumber(m),
      toAttempt: attemptNumber(m).nullable(),
      action: z.enum(DESK_RULE_ACTIONS, { error: m.action }),
      otherwise: z.enum(WAIT_FALLBACKS, { error: m.otherwise }).nullable(),
    })
    .refine((rule) => rule.toAttempt === null || rule.fromAttempt <= rule.toAttempt, { path: ["toAttempt"], error: m.attemptOrder, when: passed("fromAttempt", "toAttempt") })
    .refine((rule) => rule.action !== "wait" || rule.otherwise !== null, { path: ["otherwise"], error: m.otherwise, when: passed("action", "otherwise") })
    .transform((rule): DeskRule => ({ ...rule, otherwise: rule.action === "wait" ? rule.otherwise : null }));
}

const RULE_SCHEMAS = perAdminLanguage(deskRuleSchema);
const StoredRulesSchema = z.array(RULE_SCHEMAS.en).max(DESK_RULE_LIMITS.rules);

/**
 * The shop's rules as stored. A stored set that no longer reads (written by hand, or by a later version) decides
 * nothing: the desk is the merchant's again, never a guess.
 */
export function readStoredRules(json: string): DeskRule[] {
  try {
    const parsed = StoredRulesSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

// ─── The rules page's form ────────────────────────────────────────────────────────────────────────────────────────

/** A rule as the page edits it: every field as typed. */
export interface DeskRuleDraft {
  name: string;
  /** Comma-separated, as typed. */
  reasons: string;
  payment: string;
  fromAttempt: string;
  /** "" for "and every later attempt". */
  toAttempt: string;
  action: string;
  otherwise: string;
}
export type DeskRuleField = keyof DeskRuleDraft;
const DRAFT_FIELDS: readonly DeskRuleField[] = ["name", "reasons", "payment", "fromAttempt", "toAttempt", "action", "otherwise"];

export const EMPTY_DESK_RULE: DeskRuleDraft = { name: "", reasons: "", payment: "any", fromAttempt: "1", toAttempt: "", action: "reattempt", otherwise: "reattempt" };

export function draftOfRule(rule: DeskRule): DeskRuleDraft {
  return {
    name: rule.name,
    reasons: rule.reasons.join(", "),
    payment: rule.payment,
    fromAttempt: String(rule.fromAttempt),
    toAttempt: rule.toAttempt === null ? "" : String(rule.toAttempt),
    action: rule.action,
    otherwise: rule.otherwise ?? "reattempt",
  };
}

/** Examples to start from, named in the admin's language; the courier's reasons are its own words, in English. */
export function exampleRules(language: AdminLanguage): DeskRule[] {
  const names = adminStrings(language).failedDeliveries.rules.examples;
  return [
    { name: names.refusedCod, reasons: ["refused", "rejected", "cod amount not ready"], payment: "cod", fromAttempt: 1, toAttempt: null, action: "rto", otherwise: null },
    { name: names.notAvailable, reasons: ["not available", "not reachable", "door locked"], payment: "any", fromAttempt: 1, toAttempt: 2, action: "wait", otherwise: "reattempt" },
    { name: names.thirdAttempt, reasons: [], payment: "any", fromAttempt: 3, toAttempt: null, action: "rto", otherwise: null },
  ];
}

export const ruleFieldKey = (index: number, field: DeskRuleField) => `${index}.${field}`;

export type DeskRulesFormResult = { ok: true; rules: DeskRule[] } | { ok: false; formError: string | null; fieldErrors: Record<string, string> };

const textOf = (value: unknown) => (typeof value === "string" ? value.slice(0, 400) : "");
const numberOf = (text: string): number | string | null => {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  return /^\d{1,3}$/.test(trimmed) ? Number(trimmed) : trimmed;
};

/**
 * The page's rules (a JSON array of drafts) read into rules, or what to fix: the whole form (unreadable, too many
 * rules) or each field, every message naming its rule ("Rule 2 'Refused COD': …"), in the admin's language.
 */
export function parseDeskRulesForm(json: string, language: AdminLanguage = "en"): DeskRulesFormResult {
  const m = adminStrings(language).failedDeliveries.rules.errors;
  if (json.length > DESK_RULE_LIMITS.formChars) return { ok: false, formError: m.unreadable, fieldErrors: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return { ok: false, formError: m.unreadable, fieldErrors: {} };
  }
  if (!Array.isArray(parsed)) return { ok: false, formError: m.unreadable, fieldErrors: {} };
  if (parsed.length > DESK_RULE_LIMITS.rules) return { ok: false, formError: fill(m.tooMany, { max: DESK_RULE_LIMITS.rules, extra: parsed.length - DESK_RULE_LIMITS.rules }), fieldErrors: {} };
  const fieldErrors: Record<string, string> = {};
  const rules: DeskRule[] = [];
  parsed.forEach((value, index) => {
    const raw = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
    const draft = Object.fromEntries(DRAFT_FIELDS.map((field) => [field, textOf(raw[field])])) as unknown as DeskRuleDraft;
    const result = RULE_SCHEMAS[language].safeParse({
      name: draft.name,
      reasons: draft.reasons
        .split(/[,\n]/)
        .map((word) => word.trim())
        .filter(Boolean),
      payment: draft.payment,
      fromAttempt: numberOf(draft.fromAttempt),
      toAttempt: numberOf(draft.toAttempt),
      action: draft.action,
      otherwise: draft.action === "wait" ? draft.otherwise || null : null,
    });
    if (result.success) {
      rules.push(result.data);
      return;
    }
    const name = draft.name.trim().slice(0, DESK_RULE_LIMITS.name);
    const named = name ? fill(m.namedRule, { number: index + 1, name }) : fill(m.rule, { number: index + 1 });
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? "name") as DeskRuleField;
      const key = ruleFieldKey(index, DRAFT_FIELDS.includes(field) ? field : "name");
      fieldErrors[key] ??= fill(m.ruleError, { rule: named, message: issue.message });
    }
  });
  return Object.keys(fieldErrors).length > 0 ? { ok: false, formError: null, fieldErrors } : { ok: true, rules };
}
