import prisma from "~/db.server";
import { ATTENTION_LABELS, type AttentionKind } from "~/attention/attention-kinds";
import { shipmentStatusLabel, SHIPMENT_TRANSITIONS, transitionLabel, type ActorKind, type TransitionName } from "./lifecycle";

/** One line of a shipment's history as the merchant reads it (the ship page, the order page's block). */
export interface ShipmentHistoryEntry {
  /** ISO time. */
  at: string;
  transition: string;
  /** What happened: "Booked with the courier", "Courier update: In Transit → Out for Delivery". */
  what: string;
  /** Who did it: the rule's name, "You, on the Ship order page", "Shopify (orders/cancelled)", "Dakiya (tracking-sync)", the courier. */
  by: string;
  reason: string | null;
}

/** The most recent entries shown; a courier's history rarely passes twenty. */
const HISTORY_SHOWN = 100;

const TRACKING_WORDS: Record<string, string> = { active: "running", paused: "paused", stopped: "stopped" };

function stateWords(transition: string, state: string | null): string | null {
  if (state === null || state === "") return null;
  const rule = (SHIPMENT_TRANSITIONS as Record<string, { to?: string; tracking?: unknown }>)[transition];
  if (rule?.to) return shipmentStatusLabel(state).label;
  if (rule?.tracking) return TRACKING_WORDS[state] ?? state;
  if (transition === "attention_raised" || transition === "attention_cleared") return ATTENTION_LABELS[state as AttentionKind] ?? state;
  return state;
}

export function describeActor(kind: string, name: string): string {
  switch (kind as ActorKind) {
    case "rule":
      return name;
    case "merchant":
      return `You, on the ${name}`;
    case "webhook":
      return `Shopify (${name})`;
    case "job":
      return `Dakiya (${name})`;
    case "courier":
      return name;
    default:
      return name;
  }
}

export function describeEvent(event: { transition: string; fromState: string | null; toState: string | null }): string {
  const label = transitionLabel(event.transition as TransitionName);
  const from = stateWords(event.transition, event.fromState);
  const to = stateWords(event.transition, event.toState);
  if (event.transition === "attention_raised" && to) return `${label}: ${to}`;
  if (event.transition === "attention_cleared" && from) return `${label}: ${from}`;
  if (event.transition === "courier_progress" && to) return from ? `${label}: ${from} → ${to}` : `${label}: ${to}`;
  return label;
}

/** A shipment's history, oldest first. */
export async function listShipmentHistory(shop: string, shipmentId: number): Promise<ShipmentHistoryEntry[]> {
  const events = await prisma.shipmentEvent.findMany({ where: { shop, shipmentId }, orderBy: [{ at: "desc" }, { id: "desc" }], take: HISTORY_SHOWN });
  return events.reverse().map((event) => ({
    at: event.at.toISOString(),
    transition: event.transition,
    what: describeEvent(event),
    by: describeActor(event.actorKind, event.actorName),
    reason: event.reason,
  }));
}
