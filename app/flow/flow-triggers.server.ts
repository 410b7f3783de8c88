import { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { enqueue } from "~/jobs/job-queue.server";
import { adminDocument } from "~/shopify/admin-document";
import { adminGraphql, type ShopAdmin } from "~/shopify/admin-graphql.server";
import type { FlowTriggerReceiveMutation, FlowTriggerReceiveMutationVariables } from "~/types/admin.generated";
import { FLOW_TRIGGERS, FLOW_TRIGGER_HANDLES, isFlowTrigger, parcelEventTrigger, payloadProblem, type FlowPayload, type FlowTrigger, type ParcelEvent, type ParcelFacts } from "./flow-triggers";

/**
 * Firing Dakiya's Flow triggers (flow-triggers.ts has what each carries), once per event and only where a workflow
 * listens:
 *
 * - Flow's trigger lifecycle callback says which shops have a workflow turned on that starts with a trigger
 *   (`recordTriggerUse`); a shop that has none gets nothing, and costs one indexed read per event.
 * - An event is recorded under its unique key (shop, trigger, event) in the transaction of the event itself — the
 *   shipment's named transition that moved the parcel — with the `flow-trigger` job that sends it: a retried sync, a
 *   second worker or a booking replayed meets the row and records nothing more, and a rolled-back event leaves no
 *   trigger behind.
 * - The job calls `flowTriggerReceive` in the background and is retried with back-off while Shopify is throttled or
 *   down; a booking or a tracking sync never waits on Shopify Flow. Shopify refusing the payload is final. A worker
 *   that dies between Shopify's answer and recording it sends that one payload again on retry (Flow has no key to
 *   recognise it by); the window is the one statement.
 *
 * The payload is kept only until Shopify has it, and is never logged (the courier's words in a failed attempt's
 * reason may name the shopper).
 */

type Client = Prisma.TransactionClient;

export interface TriggerEventOptions {
  /** What happened, unique per shop and trigger: the same key again fires nothing. */
  eventKey: string;
  orderGid?: string | null;
  shipmentId?: number | null;
  /** The event's own transaction: the trigger is recorded, and its sending queued, only if that commits. */
  tx?: Client;
}

export type FireResult = "queued" | "not_listened_to" | "already_fired";

/** The triggers a shop has a workflow turned on for. */
async function listenedTo(db: Client | typeof prisma, shop: string): Promise<Set<FlowTrigger>> {
  const uses = await db.flowTriggerUse.findMany({ where: { shop, enabled: true }, select: { trigger: true } });
  return new Set(uses.map((use) => use.trigger).filter(isFlowTrigger));
}

async function recordEvent(db: Client, shop: string, trigger: FlowTrigger, payload: FlowPayload, options: TriggerEventOptions): Promise<FireResult> {
  const [row] = await db.flowTriggerEvent.createManyAndReturn({
    data: [{ shop, trigger, eventKey: options.eventKey, orderGid: options.orderGid ?? null, shipmentId: options.shipmentId ?? null, payload }],
    skipDuplicates: true,
  });
  if (!row) return "already_fired";
  await enqueue("flow-trigger", { shop, eventId: row.id }, { tx: db });
  return "queued";
}

/**
 * Fires `trigger` for one event of `shop`: the payload is recorded under `eventKey` and sent to Shopify Flow by a
 * background job — when a workflow of the shop listens to the trigger, and the first time only. The API for the
 * triggers no parcel transition fires: the COD remittance and weight checks' (app/reconciliation/), in the
 * transaction of the statement imported; COD risk's and COD confirmation's.
 * A payload that is not the trigger's (a field missing, of the wrong type, 50,000 bytes or more) is a bug: thrown.
 */
export async function fireFlowTrigger(shop: string, trigger: FlowTrigger, payload: FlowPayload, options: TriggerEventOptions): Promise<FireResult> {
  const problem = payloadProblem(trigger, payload);
  if (problem) throw new Error(`The ${trigger} payload is not the trigger's: ${problem}`);
  const run = async (db: Client): Promise<FireResult> => ((await listenedTo(db, shop)).has(trigger) ? recordEvent(db, shop, trigger, payload, options) : "not_listened_to");
  return options.tx ? run(options.tx) : prisma.$transaction(run);
}

/** The key an event of a parcel is recorded under: each stage once per parcel, each failed attempt by its number. */
const eventKeyOf = (shipmentId: number, event: ParcelEvent) => (event.kind === "delivery_failed" ? `shipment:${shipmentId}:delivery_failed:${event.attempt}` : `shipment:${shipmentId}:${event.kind}`);

/**
 * Records the trigger of an event of one parcel in the caller's transaction — the transition's that moved the parcel
 * (app/shipments/shipment-changes.server.ts: booked, out for delivery, delivered, delivery attempted, RTO, a return
 * picked up or received). It rides on Dakiya's own change, which must never fail for Flow's sake: a payload that
 * cannot be built is logged, by trigger and shipment only, and left out.
 */
export async function announceParcelEvent(tx: Client, parcel: { shop: string; shipmentId: number; facts: ParcelFacts }, event: ParcelEvent): Promise<void> {
  const { trigger, payload } = parcelEventTrigger(parcel.facts, event);
  if (!(await listenedTo(tx, parcel.shop)).has(trigger)) return;
  const problem = payloadProblem(trigger, payload);
  if (problem) {
    console.error(`Flow trigger ${trigger} for shipment ${parcel.shipmentId} of ${parcel.shop} left out: its payload is not the trigger's (${problem.replace(/:.*$/, "")})`);
    return;
  }
  await recordEvent(tx, parcel.shop, trigger, payload, { eventKey: eventKeyOf(parcel.shipmentId, event), orderGid: parcel.facts.orderGid, shipmentId: parcel.shipmentId });
}

// ─── Flow's trigger lifecycle callback ──────────────────────────────────────────────────────────────────────────

/**
 * The trigger a lifecycle callback names. Flow calls it `flow_trigger_definition_id`; for a trigger made with the CLI
 * that is taken to be its handle, and the trigger's name (the legacy dashboard's id) is accepted too.
 */
export function triggerNamed(definitionId: string): FlowTrigger | null {
  if (isFlowTrigger(definitionId)) return definitionId;
  return FLOW_TRIGGER_HANDLES.find((handle) => FLOW_TRIGGERS[handle].name === definitionId) ?? null;
}

/**
 * What Flow said about a shop's use of a trigger. A notice older than the one stored (Flow's notices may arrive out
 * of order) changes nothing. Returns whether it was news.
 */
export async function recordTriggerUse({ shop, trigger, enabled, noticedAt }: { shop: string; trigger: FlowTrigger; enabled: boolean; noticedAt: Date }): Promise<boolean> {
  const changed = await prisma.$executeRaw`
    INSERT INTO "FlowTriggerUse" AS use (shop, trigger, enabled, "noticedAt", "updatedAt")
    VALUES (${shop}, ${trigger}, ${enabled}, ${noticedAt}, now())
    ON CONFLICT (shop, trigger) DO UPDATE SET enabled = EXCLUDED.enabled, "noticedAt" = EXCLUDED."noticedAt", "updatedAt" = now()
    WHERE use."noticedAt" < EXCLUDED."noticedAt"`;
  return changed === 1;
}

// ─── Sending ─────────────────────────────────────────────────────────────────────────────────────────────────────

const FLOW_TRIGGER_RECEIVE = adminDocument<FlowTriggerReceiveMutation, FlowTriggerReceiveMutationVariables>(
  `#graphql
  mutation FlowTriggerReceive($handle: String!, $payload: JSON!) {
    flowTriggerReceive(handle: $handle, payload: $payload) {
      userErrors { field message }
    }
  }
`
);

export type SendResult = "sent" | "refused" | "nothing_to_send";

/**
 * The `flow-trigger` job: sends one recorded event to Shopify Flow, unless it was sent, refused or erased already.
 * A throttled or unreachable Shopify throws (ShopifyUnavailableError), and the job retries.
 */
export async function sendFlowTriggerEvent(shop: string, eventId: number, adminFor: (shop: string) => Promise<ShopAdmin>, now: Date = new Date()): Promise<SendResult> {
  const event = await prisma.flowTriggerEvent.findFirst({ where: { id: eventId, shop } });
  if (!event || event.sentAt || event.refusedAt || event.payload === null || !isFlowTrigger(event.trigger)) return "nothing_to_send";
  const answer = await adminGraphql(await adminFor(shop), FLOW_TRIGGER_RECEIVE, { handle: event.trigger, payload: event.payload });
  const refusals = answer.flowTriggerReceive?.userErrors ?? [];
  if (refusals.length > 0) {
    await prisma.flowTriggerEvent.updateMany({ where: { id: event.id, shop, sentAt: null }, data: { refusedAt: now } });
    // Shopify's messages may quote the payload: only which fields it refused is logged.
    console.warn(`Shopify Flow refused the ${event.trigger} trigger for ${shop} (event ${event.id}): ${refusals.map((refusal) => (refusal.field ?? ["payload"]).join(".")).join(", ")}`);
    return "refused";
  }
  await prisma.flowTriggerEvent.updateMany({ where: { id: event.id, shop, sentAt: null }, data: { sentAt: now, payload: Prisma.DbNull } });
  return "sent";
}
