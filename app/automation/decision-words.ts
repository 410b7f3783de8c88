import { bookOutcomeInWords, type OutcomeCode, type OutcomeForWords } from "~/booking/book-outcome";
import { englishOf, type AdminStrings, type StoredWords } from "~/locales/admin-language";
import { PROBLEM_LABELS } from "~/shopify/readiness-checks";
import { MAX_PRODUCTS, ORDER_DATE_MAX_AGE_DAYS } from "~/shipping/contract";

/**
 * The words of a recorded decision (an order's or a return's `decisionReason`), kept beside its English as
 * `decisionWords` so that a page says it again in the admin's language (sayStored). The English column is always
 * `englishOf` these words, so the two agree. Words that are not Dakiya's (a rule's name, a courier's name or its
 * error text) go in as they are. Pure.
 */

/** A value inside stored words: the merchant's or the courier's own text, a number, or words of Dakiya's. */
export type WordsValue = string | number | StoredWords;

export const words = (key: string, values?: Record<string, WordsValue>): StoredWords => (values ? { key, values } : { key });

const isStoredWords = (value: unknown): value is StoredWords =>
  Boolean(value) && typeof value === "object" && typeof (value as { key?: unknown }).key === "string";

/**
 * Words stored earlier (another decision, a shipment's error), to go inside new words: kept when they say the English
 * stored beside them, else that English as it is (a row from before the words were kept, or redacted).
 */
export function storedOr(stored: unknown, english: string): WordsValue {
  return isStoredWords(stored) && englishOf(stored) === english ? stored : english;
}

/** Items said as a list ("a, b, c"), each of them words or text; the English joins them with ", ". */
export function listWords(items: readonly WordsValue[]): WordsValue {
  if (items.length === 0) return "";
  const [first, ...rest] = items;
  return rest.length === 0 ? first! : words("decisions.list", { first: first!, rest: listWords(rest) });
}

// The values problem labels are filled with ("More than {max} items"), as app/shopify/readiness-checks.ts fills them.
const LABEL_LIMITS = { max: MAX_PRODUCTS, maxDays: ORDER_DATE_MAX_AGE_DAYS };

/** A problem's short label ("PIN code not 6 digits"); an unknown code as the English list said it. */
export function problemLabelWords(code: string): WordsValue {
  if (!Object.hasOwn(PROBLEM_LABELS, code)) return String((PROBLEM_LABELS as Record<string, string | undefined>)[code] ?? "");
  return storedOr(words(`problems.labels.${code}`, LABEL_LIMITS), PROBLEM_LABELS[code as keyof typeof PROBLEM_LABELS]);
}

/** "Rule 2 'COD under ₹2,000'": the rule's name as the merchant typed it. */
export const ruleWords = (position: number, name: string): StoredWords => words("decisions.rule", { position, name });

/** "Return rule 2 'Damaged items'", or "Default return rule" when no rule matched (position null). */
export const returnRuleWords = (position: number | null, name: string): StoredWords =>
  position === null ? words("decisions.returns.defaultRule") : words("decisions.returns.rule", { position, name });

/** "cheapest: Delhivery ₹98", as the rules' preview says a quoted outcome; `how` is the action's words. */
export const quotedWords = (how: StoredWords, courier: string, total: number): StoredWords =>
  words("outcomes.preview.quoted", { action: how, courier, total: total.toLocaleString("en-IN", { maximumFractionDigits: 2 }) });

const OUTCOME_KEYS: Readonly<Record<OutcomeCode, keyof AdminStrings["outcomes"]["booking"]>> = {
  courier_not_on_route: "courierNotOnRoute",
  keys_refused: "keysRefused",
  no_answer: "noAnswer",
  booking_refused: "bookingRefused",
};

/**
 * Why a booking went no further, as bookOutcomeInWords says it in English: Dakiya's own sentences by key, the courier's
 * words and a booking's problem messages (with the order's details in them) as they are.
 */
export function bookOutcomeWords(outcome: OutcomeForWords): WordsValue {
  const english = bookOutcomeInWords(outcome);
  const key = (name: keyof AdminStrings["outcomes"]["booking"]) => storedOr(words(`outcomes.booking.${name}`), english);
  switch (outcome.kind) {
    case "problems":
      return english;
    case "not_found":
      return key("notFound");
    case "cancelled":
      return key("cancelled");
    case "quoted":
      return key("noCourier");
    case "unavailable":
    case "refused":
      return outcome.code ? key(OUTCOME_KEYS[outcome.code]) : english;
    default:
      return key("didNotGoThrough");
  }
}

/** A decision's words with the English the column keeps beside them. */
export const decisionOf = (stored: StoredWords): { reason: string; words: StoredWords } => ({ reason: englishOf(stored), words: stored });
