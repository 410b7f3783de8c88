import prisma from "~/db.server";
import type { AttentionItem, NeedsAttention } from "./attention-kinds";
import { SHIPMENT_STATUS } from "~/booking/shipment-lifecycle";
import { listFailedJobs } from "~/jobs/job-queue.server";
import { problemsOf } from "~/orders/order-records.server";
import { DECISION, READINESS } from "~/orders/readiness";
import { isServiceStatusCode } from "~/shipping/status";
import { STAGES, stageLabel } from "~/tracking/courier-progress";

/**
 * Everything waiting on the merchant, in one list, each with the action that resolves it. Every entry belongs to
 * the shop asked about.
 */

export type { AttentionItem, AttentionKind, NeedsAttention } from "./attention-kinds";

const RECENT_MS = 14 * 86_400_000;

export async function listNeedsAttention(shop: string, now = new Date()): Promise<NeedsAttention> {
  const since = new Date(now.getTime() - RECENT_MS);
  const [records, shipments, failedJobs] = await Promise.all([
    prisma.orderRecord.findMany({
      where: {
        shop,
        placedAt: { gte: since },
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
        OR: [{ status: SHIPMENT_STATUS.FAILED }, { status: SHIPMENT_STATUS.BOOKED_UNFULFILLED, lastError: { not: null } }, { attention: { not: null } }],
      },
      orderBy: { updatedAt: "desc" },
      take: 200,
    }),
    listFailedJobs(shop),
  ]);

  const items: AttentionItem[] = [];
  for (const shipment of shipments) {
    const base = { orderGid: shipment.orderGid, orderName: shipment.orderName || "Order", shipmentId: shipment.id };
    if (shipment.attention === "cancelled_after_pickup") {
      items.push({ ...base, kind: "cancelled_after_pickup", message: `The order was cancelled after pickup: ${shipment.courierName} already has the parcel (awb ${shipment.awb}), so it cannot be cancelled with the courier.`, action: "Arrange a return to origin with the courier, then dismiss", at: (shipment.attentionAt ?? shipment.updatedAt).toISOString() });
    } else if (shipment.attention === "cancel_refused") {
      items.push({ ...base, kind: "cancel_refused", message: shipment.lastError ?? `The order was cancelled, but the courier would not cancel awb ${shipment.awb}.`, action: "Cancel the shipment in the courier's panel, then dismiss", at: (shipment.attentionAt ?? shipment.updatedAt).toISOString() });
    } else if (shipment.attention === "address_changed") {
      items.push({ ...base, kind: "address_changed", message: `The shipping address was changed in Shopify after the order was booked (awb ${shipment.awb}); the courier has the old one.`, action: "Tell the courier the new address, or cancel and book again; then dismiss", at: (shipment.attentionAt ?? shipment.updatedAt).toISOString() });
    } else if (shipment.attention === "tracking_exception" || shipment.attention === "tracking_stalled") {
      const code = shipment.courierStatusCode ?? 2;
      const stage = shipment.courierStatusLabel ?? stageLabel(code);
      const since = (shipment.lastScanAt ?? shipment.attentionAt ?? shipment.updatedAt).toISOString().slice(0, 10);
      items.push(
        shipment.attention === "tracking_exception"
          ? { ...base, kind: "tracking_exception", message: `${shipment.courierName ?? "The courier"} reports "${stage}" for awb ${shipment.awb} (${since}).`, action: `${(isServiceStatusCode(code) && STAGES[code].exception) || "Ask the courier what happened"} Then dismiss.`, at: (shipment.attentionAt ?? shipment.updatedAt).toISOString() }
          : { ...base, kind: "tracking_stalled", message: `No new scan from ${shipment.courierName ?? "the courier"} for awb ${shipment.awb} since ${since}, while "${stage}": longer than such a stage usually lasts.`, action: "Ask the courier where the parcel is, then dismiss.", at: (shipment.attentionAt ?? shipment.updatedAt).toISOString() },
      );
    } else if (shipment.status === SHIPMENT_STATUS.FAILED) {
      items.push({ ...base, kind: "booking_failed", message: shipment.lastError ?? "The booking failed.", action: "Book the order again", at: shipment.updatedAt.toISOString() });
    } else if (shipment.status === SHIPMENT_STATUS.BOOKED_UNFULFILLED && shipment.lastError) {
      items.push({ ...base, kind: "fulfillment_pending", message: shipment.lastError, action: "Check the order in Shopify; Dakiya retries the fulfillment", at: shipment.updatedAt.toISOString() });
    }
  }
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
  items.sort((a, b) => b.at.localeCompare(a.at));
  return { items, failedJobs };
}

export async function countNeedsAttention(shop: string): Promise<number> {
  const { items, failedJobs } = await listNeedsAttention(shop);
  return items.length + failedJobs.length;
}
