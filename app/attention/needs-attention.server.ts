import type { Shipment } from "@prisma/client";
import { dayIn, DEFAULT_SHOP_TIME_ZONE } from "~/shop-time";
import prisma from "~/db.server";
import type { AttentionItem, NeedsAttention } from "./attention-kinds";
import { SHIPMENT_STATUS, TRACKING_STATE } from "~/shipments/lifecycle";
import { listFailedJobs } from "~/jobs/job-queue.server";
import { listOpenDataRequests } from "~/privacy/data-requests.server";
import { problemsOf } from "~/orders/order-records.server";
import { DECISION, READINESS } from "~/orders/readiness";
import { isServiceStatusCode } from "~/shipping/status";
import { exceptionAdvice, stageLabel } from "~/tracking/courier-progress";

/**
 * Everything waiting on the merchant, in one list, each with the action that resolves it. Every entry belongs to
 * the shop asked about.
 */

export type { AttentionItem, AttentionKind, NeedsAttention } from "./attention-kinds";

const RECENT_MS = 14 * 86_400_000;

/** What a booking asks of the merchant, if anything: the Needs attention entry for this shipment. */
export function shipmentAttentionItem(shipment: Shipment, timeZone = DEFAULT_SHOP_TIME_ZONE): AttentionItem | null {
  // A return's pickup is keyed by its Return; the merchant's link goes to the order whose items come back.
  const base = { orderGid: shipment.returnOfOrderGid ?? shipment.orderGid, orderName: shipment.orderName || "Order", shipmentId: shipment.id, ...(shipment.direction === "return" ? { returnGid: shipment.orderGid } : {}) };
  const flaggedAt = (shipment.attentionAt ?? shipment.updatedAt).toISOString();
  const courier = shipment.courierName ?? "The courier";
  const isReturn = shipment.direction === "return";
  switch (shipment.attention) {
    case "cancelled_after_pickup":
      if (shipment.direction === "return") {
        return { ...base, kind: "cancelled_after_pickup", at: flaggedAt, message: `The return was cancelled or declined after ${courier} collected the parcel from the shopper (awb ${shipment.awb}): it is on its way to your warehouse.`, action: "Receive the parcel and decide with the shopper, or ask the courier to take it back to them; then dismiss" };
      }
      return { ...base, kind: "cancelled_after_pickup", at: flaggedAt, message: `The order was cancelled after pickup: ${courier} already has the parcel (awb ${shipment.awb}), so it cannot be cancelled with the courier.`, action: "Arrange a return to origin with the courier, then dismiss" };
    case "cancel_refused":
      return { ...base, kind: "cancel_refused", at: flaggedAt, message: shipment.lastError ?? `The order was cancelled, but the courier would not cancel awb ${shipment.awb}.`, action: "Cancel the shipment in the courier's panel, then dismiss" };
    case "address_changed":
      return { ...base, kind: "address_changed", at: flaggedAt, message: `The shipping address was changed in Shopify after the order was booked (awb ${shipment.awb}); the courier has the old one.`, action: "Tell the courier the new address, or cancel and book again; then dismiss" };
    case "tracking_exception":
    case "tracking_stalled": {
      const code = shipment.courierStatusCode ?? 2;
      const stage = shipment.courierStatusLabel ?? stageLabel(code);
      // The day in the shop's time zone: a scan at 04:00 in India is that day, not UTC's day before.
      const since = dayIn(shipment.lastScanAt ?? shipment.attentionAt ?? shipment.updatedAt, timeZone);
      const what = isReturn ? `the return's pickup (awb ${shipment.awb})` : `awb ${shipment.awb}`;
      if (shipment.attention === "tracking_exception") {
        const advice = (isServiceStatusCode(code) && exceptionAdvice(code, shipment.direction)) || "Ask the courier what happened.";
        return { ...base, kind: "tracking_exception", at: flaggedAt, message: `${courier} reports "${stage}" for ${what} (${since}).`, action: `${advice} Then dismiss.` };
      }
      return {
        ...base,
        kind: "tracking_stalled",
        at: flaggedAt,
        message: `No new scan from ${courier} for ${what} since ${since}, while "${stage}": longer than such a stage usually lasts.`,
        action: isReturn ? "Ask the courier where the returning parcel is, then dismiss." : "Ask the courier where the parcel is, then dismiss.",
      };
    }
  }
  if (shipment.trackingState === TRACKING_STATE.STOPPED) {
    return { ...base, kind: "tracking_stopped", at: shipment.updatedAt.toISOString(), message: `${shipment.trackingError ?? "Tracking stopped."} (awb ${shipment.awb})`, action: "Check the awb with the courier; Sync now on the order starts tracking it again" };
  }
  if (shipment.status === SHIPMENT_STATUS.FAILED) {
    if (isReturn) return { ...base, kind: "booking_failed", at: shipment.updatedAt.toISOString(), message: `The return's pickup could not be booked: ${shipment.lastError ?? "the courier refused it."}`, action: "Book the pickup again from Returns or the order's Ship page" };
    return { ...base, kind: "booking_failed", at: shipment.updatedAt.toISOString(), message: shipment.lastError ?? "The booking failed.", action: "Book the order again" };
  }
  if (shipment.status === SHIPMENT_STATUS.BOOKED_UNFULFILLED && shipment.lastError) {
    if (isReturn) return { ...base, kind: "fulfillment_pending", at: shipment.updatedAt.toISOString(), message: shipment.lastError, action: "Check the return in Shopify; Dakiya retries attaching the pickup's tracking" };
    return { ...base, kind: "fulfillment_pending", at: shipment.updatedAt.toISOString(), message: shipment.lastError, action: "Check the order in Shopify; Dakiya retries the fulfillment" };
  }
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
    const base = { orderGid: record.orderGid, orderName: record.orderName || "Order", at: (record.decidedAt ?? record.checkedAt ?? record.updatedAt).toISOString() };
    if (record.readiness === READINESS.PROBLEMS) {
      const problems = problemsOf(record);
      items.push({ ...base, kind: "order_problems", message: problems.map((problem) => problem.message).join(" "), action: problems.map((problem) => problem.fix).join(" ") });
    } else if (record.decision === DECISION.HELD) {
      items.push({ ...base, kind: "held_by_rules", message: record.decisionReason ?? "Held for review.", action: "Review the order and ship it, or change the rules" });
    } else if (record.decision === DECISION.FAILED) {
      items.push({ ...base, kind: "auto_booking_failed", message: record.decisionReason ?? "The automatic booking failed.", action: "Ship the order by hand" });
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
      cancelledAt: null,
      OR: [
        { receivedAt: { not: null }, inspectedAt: null },
        { requestedAt: { gte: since }, readiness: { in: [READINESS.PROBLEMS, READINESS.READY] }, status: "OPEN" },
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
      const kept = record.processedAt ? " Shopify has it recorded as your return setting says." : "";
      return [{ ...base, kind: "return_received", at: record.receivedAt.toISOString(), items, message: `The return reached your warehouse: ${items.map((item) => `${item.title} × ${item.quantity}`).join(", ") || "its items"}.${kept}`, action: "Inspect the items, then mark the return inspected. Refund the shopper in Shopify if you accept it." }];
    }
    const pickup = pickupOf.get(record.returnGid);
    if (pickup && pickup.status !== SHIPMENT_STATUS.FAILED) return [];
    const at = (record.decidedAt ?? record.checkedAt ?? record.updatedAt).toISOString();
    if (record.readiness === READINESS.PROBLEMS) {
      const problems = problemsOf(record as unknown as Parameters<typeof problemsOf>[0]);
      return [{ ...base, kind: "return_problems", at, message: problems.map((problem) => problem.message).join(" "), action: problems.map((problem) => problem.fix).join(" ") }];
    }
    if (record.decision === DECISION.HELD || record.decision === DECISION.FAILED) {
      return [{ ...base, kind: "return_held", at, message: record.decisionReason ?? "The return's pickup waits for you.", action: "Book the pickup in Orders to ship → Returns" }];
    }
    return [];
  });
}

/** The merchant inspected what came back: "Return received: inspect it" goes. */
export async function markReturnInspected(shop: string, returnGid: string, at = new Date()): Promise<boolean> {
  const { count } = await prisma.returnRecord.updateMany({ where: { shop, returnGid, receivedAt: { not: null }, inspectedAt: null }, data: { inspectedAt: at } });
  return count === 1;
}

/**
 * A shop whose courier account refused the tracking reads (its keys, a web page instead of data): one entry for all
 * its paused shipments. It goes by itself once a later probe gets an answer.
 */
async function listPausedTracking(shop: string): Promise<AttentionItem | null> {
  const where = { shop, trackingState: TRACKING_STATE.PAUSED };
  const [count, latest] = await Promise.all([prisma.shipment.count({ where }), prisma.shipment.findFirst({ where, orderBy: { updatedAt: "desc" } })]);
  if (!latest) return null;
  const shipments = count === 1 ? "1 shipment" : `${count} shipments`;
  return {
    kind: "tracking_paused",
    orderGid: latest.orderGid,
    orderName: latest.orderName || "Order",
    at: latest.updatedAt.toISOString(),
    message: `Tracking is paused for ${shipments}: ${latest.trackingError ?? "the courier service refused the shop's account."}`,
    action: "Check your courier API keys in Settings. Dakiya tries again by itself and resumes as soon as the courier answers",
  };
}

export async function countNeedsAttention(shop: string): Promise<number> {
  const { items, failedJobs, dataRequests } = await listNeedsAttention(shop);
  return items.length + failedJobs.length + dataRequests.length;
}
