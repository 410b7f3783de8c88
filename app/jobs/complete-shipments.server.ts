import type { Shipment } from "@prisma/client";
import type { AdminApiContext } from "@shopify/shopify-app-remix/server";
import prisma from "~/db.server";
import { completeFulfilment, sendBooking, SHIPMENT_STATUS, STALE_BOOKING_MS } from "~/booking/book-order.server";
import { courierClientFor, courierCredentialsOf, getShopSettings } from "~/settings/shop-settings.server";

export interface CompletionDeps {
  /** An Admin API client on the shop's offline session. */
  adminFor: (shop: string) => Promise<AdminApiContext>;
  now?: () => Date;
  batchSize?: number;
}

export interface CompletionReport {
  resent: number;
  fulfilled: number;
  stillPending: number;
}

/**
 * The retry job: resumes bookings interrupted before the courier answered (resending the stored
 * body, which the service replays) and fulfils booked orders Shopify did not take yet.
 */
export async function completePendingShipments({ adminFor, now = () => new Date(), batchSize = 25 }: CompletionDeps): Promise<CompletionReport> {
  const at = now();
  const due = await prisma.shipment.findMany({
    where: {
      OR: [
        { status: SHIPMENT_STATUS.BOOKED_UNFULFILLED, OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: at } }] },
        // A booking is resumed when its retry is due, or when it was interrupted (no retry set, and stale).
        { status: SHIPMENT_STATUS.BOOKING, OR: [{ nextAttemptAt: { lte: at } }, { nextAttemptAt: null, updatedAt: { lt: new Date(at.getTime() - STALE_BOOKING_MS) } }] },
      ],
    },
    orderBy: { updatedAt: "asc" },
    take: batchSize,
  });
  const report: CompletionReport = { resent: 0, fulfilled: 0, stillPending: 0 };
  for (const shipment of due) {
    try {
      await completeOne(shipment, adminFor, now, report);
    } catch (error) {
      // One shop's trouble (uninstalled, Shopify down) must not stop the others; the row keeps its awb.
      report.stillPending += 1;
      await prisma.shipment.update({
        where: { id: shipment.id },
        data: { lastError: `Retry failed: ${error instanceof Error ? error.message.slice(0, 200) : "unknown error"}`, nextAttemptAt: new Date(now().getTime() + 5 * 60_000) },
      });
    }
  }
  return report;
}

async function completeOne(shipment: Shipment, adminFor: CompletionDeps["adminFor"], now: () => Date, report: CompletionReport): Promise<void> {
  const settings = await getShopSettings(shipment.shop);
  let current = shipment;
  if (current.status === SHIPMENT_STATUS.BOOKING && current.requestPayload === "") {
    // Interrupted before anything reached the courier: nothing to resume, the order may be booked again.
    await prisma.shipment.update({
      where: { id: current.id },
      data: { status: SHIPMENT_STATUS.FAILED, lastError: "The booking was interrupted before it reached the courier. Book the order again." },
    });
    return;
  }
  if (current.status === SHIPMENT_STATUS.BOOKING) {
    current = await sendBooking(current, courierClientFor(courierCredentialsOf(settings)), now);
    report.resent += 1;
  }
  if (current.status === SHIPMENT_STATUS.BOOKED_UNFULFILLED) {
    current = await completeFulfilment(current, await adminFor(current.shop), settings.notifyCustomer, now);
  }
  if (current.status === SHIPMENT_STATUS.FULFILLED) report.fulfilled += 1;
  else if (current.status !== SHIPMENT_STATUS.FAILED) report.stillPending += 1;
}
