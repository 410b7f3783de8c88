import { adminStrings, listWords, storedOr, type AdminStrings, type Sentence, type StoredWords } from "~/locales/admin-language";
import { MAX_PRODUCTS, ORDER_DATE_MAX_AGE_DAYS } from "~/shipping/contract";
import { OUTCOME_WORDS, type OutcomeCode, type OutcomeForWords } from "./book-outcome";
import { formatRupeeAmount } from "~/money";

/**
 * The sentences a booking stores with its shipment (its last error, its history's reasons) as words: the key of their
 * template in the admin's locale files and their values, so a page says them again in the admin's language while the
 * English column keeps exactly what was said. Text that is wholly the courier's or Shopify's stays a plain string. Pure.
 */

const outcomeWords = (word: keyof AdminStrings["outcomes"]["booking"]): StoredWords => ({ key: `outcomes.booking.${word}` });

/** The courier service's failure: Dakiya's words by code, the words stored with a failed shipment's message, or the service's own message as it said it. */
export const courierSentence = ({ message, code, words }: { message: string; code?: OutcomeCode; words?: unknown }): Sentence => (code ? outcomeWords(OUTCOME_WORDS[code]) : storedOr(words, message));

/** A readiness problem's short label; an unknown code (from an older version) names itself. */
export function problemLabelWords(code: string): Sentence {
  return Object.hasOwn(adminStrings("en").problems.labels, code) ? { key: `problems.labels.${code}`, values: { max: MAX_PRODUCTS, maxDays: ORDER_DATE_MAX_AGE_DAYS } } : code;
}

/**
 * Why a booking went no further, in the short words the history keeps (`bookOutcomeInWords` with problems as labels):
 * the same English, as words.
 */
export function outcomeLabelSentence(outcome: OutcomeForWords): Sentence {
  switch (outcome.kind) {
    case "problems":
      return listWords(outcome.problems.map((problem) => problemLabelWords(problem.code)));
    case "not_found":
      return outcomeWords("notFound");
    case "cancelled":
      return outcomeWords("cancelled");
    case "quoted":
      return outcomeWords("noCourier");
    case "unavailable":
    case "refused":
      return courierSentence(outcome);
    default:
      return outcomeWords("didNotGoThrough");
  }
}

/** Why a Shopify call failed, in a few words and with nothing of the order in it. */
export function shopifyReason(error: unknown): Sentence {
  const message = error instanceof Error ? error.message : "";
  if (/throttl/i.test(message)) return { key: "activity.stored.shopifyThrottling" };
  if (/\b5\d\d\b|unavailable|fetch failed|ECONN/i.test(message)) return { key: "activity.stored.shopifyNoAnswer" };
  return message.slice(0, 120) || { key: "activity.stored.unknownError" };
}

/** The courier chosen and what it charges, as the history says it: "Delhivery ₹98". */
export const courierChoiceWords = (courier: string, totalRupees: number): StoredWords => ({
  key: "activity.stored.courierChoice",
  values: { courier, total: formatRupeeAmount(totalRupees) },
});
