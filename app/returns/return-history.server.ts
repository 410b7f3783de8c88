import prisma from "~/db.server";
import type { StoredWords } from "~/locales/admin-language";
import type { HistoryActor } from "~/shipments/history-words";
import { historyEntryOf } from "~/shipments/history.server";
import { returnEventInWords } from "./return-words";

/** One line of a return's history, as the Returns view and the ship page show it: kept as stored, and in English. */
export interface ReturnHistoryEntry {
  /** ISO time. */
  at: string;
  transition: string;
  fromState: string | null;
  toState: string | null;
  actor: HistoryActor;
  reason: string | null;
  reasonWords: StoredWords | null;
  /** What happened, in English: "Pickup booked with the courier". */
  what: string;
  /** Who did it, in English. */
  by: string;
}

/** The most recent steps shown: a return's life rarely passes a dozen. */
const HISTORY_SHOWN = 50;

/** The histories of some of a shop's returns, by their Shopify ids, each oldest first. */
export async function listReturnHistories(shop: string, returnGids: readonly string[]): Promise<Map<string, ReturnHistoryEntry[]>> {
  const records = await prisma.returnRecord.findMany({ where: { shop, returnGid: { in: [...returnGids] } }, select: { id: true, returnGid: true } });
  const events = await prisma.returnEvent.findMany({ where: { shop, returnRecordId: { in: records.map((record) => record.id) } }, orderBy: [{ at: "asc" }, { id: "asc" }] });
  const histories = new Map(records.map((record) => [record.returnGid, [] as ReturnHistoryEntry[]]));
  const gidOf = new Map(records.map((record) => [record.id, record.returnGid]));
  for (const event of events) histories.get(gidOf.get(event.returnRecordId)!)!.push(historyEntryOf(event, returnEventInWords(event, "en")));
  for (const [returnGid, entries] of histories) histories.set(returnGid, entries.slice(-HISTORY_SHOWN));
  return histories;
}
