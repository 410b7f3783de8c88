import { bookOutcomeInWords, type OutcomeForWords } from "~/booking/book-outcome";
import { outcomeLabelSentence } from "~/booking/stored-sentences";
import { storedOr, words, type Sentence, type StoredWords } from "~/locales/admin-language";
import { formatRupeeAmount } from "~/money";

/**
 * The words of a recorded decision (an order's or a return's `decisionReason`), kept beside its English as
 * `decisionWords` so that a page says it again in the admin's language (sayStored). The English column is always
 * `englishOf` these words, so the two agree. Words that are not Dakiya's (a rule's name, a courier's name or its
 * error text) go in as they are. Pure.
 */

/** "Rule 2 'COD under ₹2,000'": the rule's name as the merchant typed it. */
export const ruleWords = (position: number, name: string): StoredWords => words("decisions.rule", { position, name });

/** "Return rule 2 'Damaged items'", or "Default return rule" when no rule matched (position null). */
export const returnRuleWords = (position: number | null, name: string): StoredWords =>
  position === null ? words("decisions.returns.defaultRule") : words("decisions.returns.rule", { position, name });

/** "cheapest: Delhivery ₹98", as the rules' preview says a quoted outcome; `how` is the action's words. */
export const quotedWords = (how: StoredWords, courier: string, total: number): StoredWords =>
  words("outcomes.preview.quoted", { action: how, courier, total: formatRupeeAmount(total) });

/**
 * Why a booking went no further, as bookOutcomeInWords says it in English: Dakiya's own sentences by key, the courier's
 * words and a booking's problem messages (with the order's details in them) as they are.
 */
export function bookOutcomeWords(outcome: OutcomeForWords): Sentence {
  const english = bookOutcomeInWords(outcome);
  return outcome.kind === "problems" ? english : storedOr(outcomeLabelSentence(outcome), english);
}

