import prisma from "~/db.server";
import { SHIPMENT_STATUS } from "~/booking/shipment-lifecycle";
import { listFailedJobs, type FailedJob } from "~/jobs/job-queue.server";

/**
 * Everything waiting on the merchant, in one list, each with the action that resolves it. Every entry belongs
 * to the shop asked about.
 */

export interface AttentionItem {
  kind: "booking_failed" | "fulfillment_pending";
  orderGid: string;
  orderName: string;
  /** What happened, in the merchant's words. */
  message: string;
  /** What resolves it. */
  action: string;
  at: string;
}

export interface NeedsAttention {
  items: AttentionItem[];
  failedJobs: FailedJob[];
}

export async function listNeedsAttention(shop: string): Promise<NeedsAttention> {
  const [stuck, failedJobs] = await Promise.all([
    prisma.shipment.findMany({
      where: {
        shop,
        OR: [{ status: SHIPMENT_STATUS.FAILED }, { status: SHIPMENT_STATUS.BOOKED_UNFULFILLED, lastError: { not: null } }],
      },
      orderBy: { updatedAt: "desc" },
      take: 100,
      select: { orderGid: true, orderName: true, status: true, lastError: true, updatedAt: true },
    }),
    listFailedJobs(shop),
  ]);
  const items = stuck.map((shipment): AttentionItem =>
    shipment.status === SHIPMENT_STATUS.FAILED
      ? { kind: "booking_failed", orderGid: shipment.orderGid, orderName: shipment.orderName, message: shipment.lastError ?? "The booking failed.", action: "Book the order again", at: shipment.updatedAt.toISOString() }
      : { kind: "fulfillment_pending", orderGid: shipment.orderGid, orderName: shipment.orderName, message: shipment.lastError!, action: "Check the order in Shopify; Dakiya retries the fulfillment", at: shipment.updatedAt.toISOString() },
  );
  return { items, failedJobs };
}

export async function countNeedsAttention(shop: string): Promise<number> {
  const { items, failedJobs } = await listNeedsAttention(shop);
  return items.length + failedJobs.length;
}
