import type prisma from "~/db.server";
import { holdsBooking } from "./confirmation-lifecycle";

/**
 * Whether an order's booking must wait for its shopper's answer to the cash-on-delivery confirmation (or for Dakiya's
 * hold to be released in Shopify after it): read in the booking claim's transaction, under the order's claim lock,
 * which the ask takes too (app/cod/confirmation.server.ts).
 */
export async function confirmationHoldsBooking(db: Pick<typeof prisma, "codConfirmation">, shop: string, orderGid: string): Promise<boolean> {
  return holdsBooking(await db.codConfirmation.findUnique({ where: { shop_orderGid: { shop, orderGid } }, select: { state: true, releasedAt: true } }));
}
