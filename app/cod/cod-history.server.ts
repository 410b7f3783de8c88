import type { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { englishOf, isStoredWords, sayStored, type AdminLanguage, type StoredWords } from "~/locales/admin-language";

/**
 * An order's cash-on-delivery history: each step of its risk and of asking the shopper (scored, asked, reminded,
 * answered, released, expired…), who took it and when, in the merchant's words. Written with the step's own change
 * (in its transaction where it has one); read by the ship page and the order-page block. Never the shopper's details:
 * a correction is recorded as "corrected", not as the address.
 */

export type CodStep =
  | "scored"
  | "assessed"
  | "asked"
  | "reminded"
  | "confirmed"
  | "corrected"
  | "chose_online"
  | "paid_online"
  | "cancelled"
  | "expired"
  | "released"
  | "withdrawn"
  | "booked_anyway"
  | "held_for_review";

export type CodActorKind = "shopper" | "rule" | "merchant" | "job" | "flow";

export interface CodActor {
  kind: CodActorKind;
  name: string;
}

type Client = Prisma.TransactionClient | typeof prisma;

export async function recordCodStep(db: Client, { shop, orderGid }: { shop: string; orderGid: string }, step: CodStep, actor: CodActor, at: Date, stored?: StoredWords): Promise<void> {
  await db.codEvent.create({ data: { shop, orderGid, step, actorKind: actor.kind, actorName: actor.name.slice(0, 200), ...(stored ? { words: stored as unknown as Prisma.InputJsonValue } : {}), at } });
}

export interface CodHistoryEntry {
  step: CodStep;
  actor: CodActor;
  at: string;
  /** What happened, as stored words for a page to say in the admin's language, and their English. */
  words: StoredWords | null;
  said: string | null;
}

/** The order's steps, oldest first; `said` in the language asked for (English by default). */
export async function listCodHistory(shop: string, orderGid: string, language: AdminLanguage = "en"): Promise<CodHistoryEntry[]> {
  const rows = await prisma.codEvent.findMany({ where: { shop, orderGid }, orderBy: [{ at: "asc" }, { id: "asc" }], take: 100 });
  return rows.map((row) => {
    const stored = isStoredWords(row.words) ? row.words : null;
    return {
      step: row.step as CodStep,
      actor: { kind: row.actorKind as CodActorKind, name: row.actorName },
      at: row.at.toISOString(),
      words: stored,
      said: stored ? sayStored(language, stored, englishOf(stored)) : null,
    };
  });
}
