import type { Shipment } from "@prisma/client";
import { dayIn, DEFAULT_SHOP_TIME_ZONE } from "~/shop-time";
import prisma from "~/db.server";
import type { AttentionItem, NeedsAttention } from "./attention-kinds";
import { attentionInWords, type AttentionNote } from "./attention-words";
import { SHIPMENT_STATUS, TRACKING_STATE } from "~/shipments/lifecycle";
import { listFailedJobs } from "~/jobs/job-queue.server";
import { listOpenDataRequests } from "~/privacy/data-requests.server";
import { problemsOf } from "~/orders/order-records.server";
import { DECISION, READINESS } from "~/orders/readiness";
import { markReturnInspected as markInspected } from "~/returns/return-changes.server";
import { RETURN_STATE } from "~/returns/return-lifecycle";

/**
 * Everything waiting on the merchant, in one list, each with the action that resolves it. Every entry belongs to
 * the shop asked about.
 */

export type { AttentionItem, AttentionKind, NeedsAttention } from "./attention-kinds";

const RECENT_MS = 14 * 86_400_000;

/** The entry with its English words beside the note the page words in the admin's language. */
const noted = <Base extends object>(base: Base, at: string, note: AttentionNote) => ({ ...base, kind: note.code, at, note, ...attentionInWords(note, "en") });

/** What a booking asks of the merchant, if anything: the Needs attention entry for this shipment. */
export function shipmentAttentionItem(shipment: Shipment, timeZone = DEFAULT_SHOP_TIME_ZONE): AttentionItem | null {
  // A return's pickup is keyed by its Return; the merchant's link goes to the order whose items come back.
  const base = { orderGid: shipment.returnOfOrderGid ?? shipment.orderGid, orderName: shipment.orderName || "Order", shipmentId: shipment.id, ...(shipment.direction === "return" ? { returnGid: shipment.orderGid } : {}) };
  const flaggedAt = (shipment.attentionAt ?? shipment.updatedAt).toISOString();
  const courier = shipment.courierName;
  const awb = shipment.awb ?? "";
  const isReturn = shipment.direction === "return";
  switch (shipment.attention) {
    case "cancelled_after_pickup":
      return noted(base, flaggedAt, { code: "cancelled_after_pickup", courier, awb, isReturn });
    case "cancel_refused":
      return noted(base, flaggedAt, { code: "cancel_refused", awb, error: shipment.lastError, errorWords: shipment.lastErrorWords });
    case "address_changed":
      return noted(base, flaggedAt, { code: "address_changed", awb });
    case "tracking_exception":
    case "tracking_stalled": {
      const stage = { code: shipment.courierStatusCode ?? 2, label: shipment.courierStatusLabel, outcome: shipment.outcome, attempts: shipment.deliveryAttempts };
      // The day in the shop's time zone: a scan at 04:00 in India is that day, not UTC's day before.
      const since = dayIn(shipment.lastScanAt ?? shipment.attentionAt ?? shipment.updatedAt, timeZone);
      return noted(base, flaggedAt, { code: shipment.attention, courier, awb, isReturn, stage, since });
    }
  }
  const updatedAt = shipment.updatedAt.toISOString();
  if (shipment.trackingState === TRACKING_STATE.STOPPED) return noted(base, updatedAt, { code: "tracking_stopped", awb, error: shipment.trackingError, errorWords: shipment.trackingErrorWords });
  if (shipment.status === SHIPMENT_STATUS.FAILED) return noted(base, updatedAt, { code: "booking_failed", isReturn, error: shipment.lastError, errorWords: shipment.lastErrorWords });
  if (shipment.status === SHIPMENT_STATUS.BOOKED_UNFULFILLED && shipment.lastError) return noted(base, updatedAt, { code: "fulfillment_pending", isReturn, error: shipment.lastError, errorWords: shipment.lastErrorWords });
  return null;
}

export async function listNeedsAttention(shop: string, now = new Date(), timeZone = DEFAULT_SHOP_TIME_ZONE): Promise<NeedsAttention> {
  const since = new Date(now.getTime() - RECENT_MS);
  const [records, shipments, failedJobs, dataRequests, paused] = await Promise.all([
    prisma.orderRecord.findMany({
      where: {
        shop,
        placedAt: { gte: since },
        dismissedAt: null,
        OR: [
          { readiness: READINESS.PROBLEMS },
          { readiness: READINESS.READY, decision: { in: [DECISION.HELD, DECISION.FAILED] } },
        ],
      },
      orderBy: { placedAt: "desc" },
      take: 200,
    }),
    prisma.shipment.findMany({
      where: {
        shop,
        OR: [{ status: SHIPMENT_STATUS.FAILED }, { status: SHIPMENT_STATUS.BOOKED_UNFULFILLED, lastError: { not: null } }, { attention: { not: null } }, { trackingState: TRACKING_STATE.STOPPED }],
      },
      orderBy: { updatedAt: "desc" },
      take: 200,
    }),
    listFailedJobs(shop),
    listOpenDataRequests(shop),
    listPausedTracking(shop),
  ]);

  const items: AttentionItem[] = shipments.map((shipment) => shipmentAttentionItem(shipment, timeZone)).filter((item): item is AttentionItem => item !== null);
  const booked = new Set(shipments.filter((shipment) => shipment.status !== SHIPMENT_STATUS.FAILED).map((shipment) => shipment.orderGid));
  for (const record of records) {
    if (booked.has(record.orderGid)) continue;
    const base = { orderGid: record.orderGid, orderName: record.orderName || "Order" };
    const at = (record.decidedAt ?? record.checkedAt ?? record.updatedAt).toISOString();
    if (record.readiness === READINESS.PROBLEMS) {
      items.push(noted(base, at, { code: "order_problems", problems: problemsOf(record) }));
    } else if (record.decision === DECISION.HELD) {
      items.push(noted(base, at, { code: "held_by_rules", reason: record.decisionReason, reasonWords: record.decisionWords }));
    } else if (record.decision === DECISION.FAILED) {
      items.push(noted(base, at, { code: "auto_booking_failed", reason: record.decisionReason, reasonWords: record.decisionWords }));
    }
  }
  if (paused) items.push(paused);
  items.push(...(await listReturnsNeedingAttention(shop, since)));
  items.sort((a, b) => b.at.localeCompare(a.at));
  return { items, failedJobs, dataRequests };
}

/**
 * Returns waiting on the merchant: arrived at the warehouse and not yet inspected (with the items that came back),
 * a pickup that cannot be booked (with the fixes), or one the return rules held for the merchant's click.
 */
async function listReturnsNeedingAttention(shop: string, since: Date): Promise<AttentionItem[]> {
  const records = await prisma.returnRecord.findMany({
    where: {
      shop,
      OR: [
        { state: { in: [RETURN_STATE.RECEIVED, RETURN_STATE.PROCESSED] } },
        { requestedAt: { gte: since }, state: { in: [RETURN_STATE.APPROVED, RETURN_STATE.HELD] } },
      ],
    },
    orderBy: { updatedAt: "desc" },
    take: 200,
  });
  const pickups = await prisma.shipment.findMany({ where: { shop, orderGid: { in: records.map((record) => record.returnGid) } }, select: { orderGid: true, status: true, requestPayload: true } });
  const pickupOf = new Map(pickups.map((pickup) => [pickup.orderGid, pickup]));
  return records.flatMap((record): AttentionItem[] => {
    const base = { orderGid: record.orderGid, orderName: record.returnName || "Return", returnGid: record.returnGid };
    if (record.receivedAt) {
      const body = pickupOf.get(record.returnGid)?.requestPayload;
      const products = body ? ((JSON.parse(body) as { products?: { product_name: string; quantity: number }[] }).products ?? []) : [];
      const items = products.map((product) => ({ title: product.product_name, quantity: product.quantity }));
      return [{ ...noted(base, record.receivedAt.toISOString(), { code: "return_received", items, recorded: record.processedAt !== null }), items }];
    }
    const pickup = pickupOf.get(record.returnGid);
    if (pickup && pickup.status !== SHIPMENT_STATUS.FAILED) return [];
    const at = (record.decidedAt ?? record.checkedAt ?? record.updatedAt).toISOString();
    const problems = problemsOf(record);
    if (problems.length > 0) return [noted(base, at, { code: "return_problems", problems })];
    if (record.state === RETURN_STATE.HELD || record.decision === DECISION.HELD || record.decision === DECISION.FAILED) {
      return [noted(base, at, { code: "return_held", reason: record.decisionReason, reasonWords: record.decisionWords })];
    }
    return [];
  });
}

/** The merchant inspected what came back, on Needs attention: "Return received: inspect it" goes. */
export async function markReturnInspected(shop: string, returnGid: string, at = new Date()): Promise<boolean> {
  return markInspected({ shop, returnGid }, { actor: { kind: "merchant", name: "Needs attention page" }, at });
}

/**
 * A shop whose courier account refused the tracking reads (its keys, a web page instead of data): one entry for all
 * its paused shipments. It goes by itself once a later probe gets an answer.
 */
async function listPausedTracking(shop: string): Promise<AttentionItem | null> {
  const where = { shop, trackingState: TRACKING_STATE.PAUSED };
  const [count, latest] = await Promise.all([prisma.shipment.count({ where }), prisma.shipment.findFirst({ where, orderBy: { updatedAt: "desc" } })]);
  if (!latest) return null;
  return noted({ orderGid: latest.orderGid, orderName: latest.orderName || "Order" }, latest.updatedAt.toISOString(), { code: "tracking_paused", count, error: latest.trackingError, errorWords: latest.trackingErrorWords });
}

export async function countNeedsAttention(shop: string): Promise<number> {
  const { items, failedJobs, dataRequests } = await listNeedsAttention(shop);
  return items.length + failedJobs.length + dataRequests.length;
}
