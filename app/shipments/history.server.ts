import prisma from "~/db.server";
import type { StoredWords } from "~/locales/admin-language";
import { actorInWords, eventInWords, type HistoryActor, type HistoryEvent } from "./history-words";

/**
 * One line of a shipment's history (the ship page, the order page's block): what happened and who did it, as the
 * history keeps them for the page to word in the admin's language, and in English.
 */
export interface ShipmentHistoryEntry extends HistoryEvent {
  /** ISO time. */
  at: string;
  actor: HistoryActor;
  /** Why, as it was stored. */
  reason: string | null;
  /** The same, as words to say in the admin's language (`sayStored`); null where it is kept as said. */
  reasonWords: StoredWords | null;
  /** What happened, in English: "Booked with the courier", "Courier update: In Transit → Out for Delivery". */
  what: string;
  /** Who did it, in English: the rule's name, "You, on the Ship order page", "Shopify (orders/cancelled)", "Dakiya (tracking-sync)", the courier. */
  by: string;
}

/** The most recent entries shown; a courier's history rarely passes twenty. */
const HISTORY_SHOWN = 100;

/** A history row as kept (a shipment's, or a return's: the same columns), as a line of history worded `what`. */
export function historyEntryOf(
  event: HistoryEvent & { at: Date; actorKind: string; actorName: string; reason: string | null; reasonWords: unknown },
  what: string,
): ShipmentHistoryEntry {
  const actor = { kind: event.actorKind, name: event.actorName };
  return {
    at: event.at.toISOString(),
    transition: event.transition,
    fromState: event.fromState,
    toState: event.toState,
    actor,
    reason: event.reason,
    reasonWords: (event.reasonWords ?? null) as StoredWords | null,
    what,
    by: actorInWords(actor, "en"),
  };
}

/** A shipment's history, oldest first. */
export async function listShipmentHistory(shop: string, shipmentId: number): Promise<ShipmentHistoryEntry[]> {
  const events = await prisma.shipmentEvent.findMany({ where: { shop, shipmentId }, orderBy: [{ at: "desc" }, { id: "desc" }], take: HISTORY_SHOWN });
  return events.reverse().map((event) => historyEntryOf(event, eventInWords(event, "en")));
}
