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
        { status: SHIPMENT_STATUS.BOOKING, updatedAt: { lt: new Date(at.getTime() - STALE_BOOKING_MS) }, OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: at } }] },
        { status: SHIPMENT_STATUS.BOOKING, nextAttemptAt: { lte: at } },
      ],
    },
    orderBy: { updatedAt: "asc" },
    take: batchSize,
  });
  const report: CompletionReport = { resent: 0, fulfilled: 0, stillPending: 0 };
  for (const shipment of due) {
    const settings = await getShopSettings(shipment.shop);
    let current = shipment;
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
  return report;
}
