import { Prisma } from "@prisma/client";
import { englishOf, isStoredWords, type Sentence, type StoredWords } from "~/locales/admin-language";

/**
 * How the owners of the history tables (shipments, returns) store a sentence: its English beside its words (`…Words`,
 * said again in the admin's language); text wholly someone else's (the courier's, Shopify's) has no words beside it.
 * And how customers/redact takes the words a sentence quotes out of it. Server-only: it speaks Prisma's JSON values.
 */

/** The English column of a sentence. */
export const englishIn = (sentence: Sentence): string => (typeof sentence === "string" ? sentence : englishOf(sentence));

/** The words column of a sentence: null (the database's) for text kept as said, or none. */
export function wordsIn(sentence: Sentence | null | undefined, limit?: number): Prisma.InputJsonValue | typeof Prisma.DbNull {
  if (!sentence || typeof sentence === "string") return Prisma.DbNull;
  return (limit === undefined ? sentence : limitedWords(sentence, limit)) as unknown as Prisma.InputJsonValue;
}

/** The words with each value of someone else's (a plain text) cut to the limit, as the English is. */
function limitedWords(words: StoredWords, limit: number): StoredWords {
  if (!words.values) return words;
  const values = Object.fromEntries(Object.entries(words.values).map(([name, value]) => [name, typeof value === "string" ? value.slice(0, limit) : typeof value === "number" ? value : limitedWords(value, limit)]));
  return { key: words.key, values };
}

/** A history row's reason is short, for a list; the courier's or Shopify's own words are cut. */
export const REASON_LIMIT = 300;

/** A history row's reason in both its columns. */
export const reasonColumns = (reason: Sentence | null | undefined) => ({ reason: reasonOf(reason), reasonWords: wordsIn(reason, REASON_LIMIT) });
export const reasonOf = (reason: Sentence | null | undefined) => (reason ? englishIn(reason).slice(0, REASON_LIMIT) : null);
/** A reason's words, for a raw statement: JSON text, or null. */
export const reasonWordsJson = (reason: Sentence | null | undefined): string | null => (reason && typeof reason !== "string" ? JSON.stringify(limitedWords(reason, REASON_LIMIT)) : null);

export const REDACTED = "[redacted]";
/** A readiness problem after customers/redact: what kind it was stays, its words (which may quote the phone or PIN) go. */
export const REDACTED_PROBLEM = { message: "The customer's details were erased at their request.", fix: "Check the order in Shopify." };
/** The values of Dakiya's sentences that quote someone else's words: what the courier or Shopify said when refusing. */
const QUOTED_VALUES = new Set(["message", "reason"]);

/**
 * A sentence without the words it quotes: text wholly the courier's or Shopify's goes whole, and in Dakiya's own
 * sentences each quoted value (`message`, `reason`) goes, while the rest (the awb, the courier's name) stays, so
 * the history still says what happened.
 */
export function withoutQuotedWords(sentence: Sentence): Sentence {
  if (typeof sentence === "string") return REDACTED;
  if (!sentence.values) return sentence;
  const values = Object.fromEntries(
    Object.entries(sentence.values).map(([name, value]) => [name, typeof value === "object" ? withoutQuotedWords(value) : QUOTED_VALUES.has(name) && typeof value === "string" ? REDACTED : value]),
  );
  return { key: sentence.key, values } as StoredWords;
}

/** A stored sentence (its English and its words) as the sentence it was, for redaction. */
export const storedSentence = (english: string, stored: Prisma.JsonValue | null): Sentence => (isStoredWords(stored) ? stored : english);

/** A history row's reason without the words it quotes: its new columns, or null when it quoted nothing. */
export function reasonWithoutQuotes(row: { reason: string | null; reasonWords: Prisma.JsonValue | null }): ReturnType<typeof reasonColumns> | null {
  if (row.reason === null) return null;
  const reason = withoutQuotedWords(storedSentence(row.reason, row.reasonWords));
  const columns = reasonColumns(reason);
  return columns.reason === row.reason ? null : columns;
}
