import type { Shipment } from "@prisma/client";
import prisma from "~/db.server";
import { LOCK_SPACE, withAdvisoryLock } from "~/locks.server";
import type { StoredWords } from "~/locales/admin-language";
import { courierClientFor, courierCredentialsOf, getShopSettings } from "~/settings/shop-settings.server";
import { SHIPMENT_STATUS, type Actor } from "~/shipments/lifecycle";
import { listShipmentsForOrder } from "~/shipments/shipments.server";
import { markCancelled, markCancelledBeforeBooking, raiseAttention } from "~/shipments/shipment-changes.server";
import { CourierError } from "~/shipping/client.server";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { completeShipment, courierMessage, courierMessageWords, type ShipmentDestination } from "./book-shipment.server";

export interface CancelDeps {
  adminFor: (shop: string) => Promise<ShopAdmin>;
  now: () => Date;
}

export type CancelResult =
  /** Shopify does not know the order as cancelled (it is not, or not this shop's): nothing was done. */
  | { kind: "not_cancelled" }
  | { kind: "nothing_booked" }
  | { kind: "cancelled_with_courier"; awb: string }
  | { kind: "picked_up"; awb: string }
  /** The courier or Shopify could not be reached: the job retries. */
  | { kind: "retry"; reason: string };

/** What was cancelled in Shopify: the order, or the return (declined or cancelled); its words are `activity.stored.cancellations`. */
export type CancelledInShopify = "order" | "returnDeclined" | "returnCancelled";

/**
 * The courier side of a cancellation in Shopify, for every parcel booked under one key (an order's parcels, or a
 * return's pickup): not yet sent to the courier → cancelled before booking; booked and not picked up → cancelled with
 * the courier; picked up → Needs attention. Each parcel is tried however the others went: one result a parcel.
 */
export async function cancelShipmentsWithCourier(
  shop: string,
  orderGid: string,
  cancellation: { actor: Actor; reason: CancelledInShopify; destination: ShipmentDestination },
  deps: CancelDeps,
): Promise<CancelResult[]> {
  const parcels = (await listShipmentsForOrder(shop, orderGid)).filter((parcel) => parcel.status !== SHIPMENT_STATUS.FAILED);
  const results: CancelResult[] = [];
  for (const parcel of parcels) results.push(await cancelParcelWithCourier(parcel, cancellation, deps));
  return results;
}

/** The parcels' results as one: the one that matters most (retry, then picked up, then cancelled), else nothing booked. */
export function mostPressing(results: readonly CancelResult[]): CancelResult {
  return results.find((result) => result.kind === "retry") ?? results.find((result) => result.kind === "picked_up") ?? results.find((result) => result.kind === "cancelled_with_courier") ?? { kind: "nothing_booked" };
}

/** One parcel's cancellation with the courier, under the parcel's lock, so a booking in progress finishes (or stops) first. */
async function cancelParcelWithCourier(found: Shipment, { actor, reason: cancelled, destination }: { actor: Actor; reason: CancelledInShopify; destination: ShipmentDestination }, { adminFor, now }: CancelDeps): Promise<CancelResult> {
  const reason: StoredWords = { key: `activity.stored.cancellations.${cancelled}` };
  const shop = found.shop;
  return withAdvisoryLock(LOCK_SPACE.SHIPMENT, found.id, async () => {
    let shipment = await prisma.shipment.findUniqueOrThrow({ where: { id: found.id } });
    const settings = await getShopSettings(shop);
    const client = courierClientFor(courierCredentialsOf(settings));
    if (shipment.status === SHIPMENT_STATUS.FAILED) return { kind: "nothing_booked" };
    if (shipment.status === SHIPMENT_STATUS.BOOKING) {
      if (shipment.requestPayload === "") {
        await markCancelledBeforeBooking(shipment, { key: `activity.stored.cancelledBeforeBooking.${cancelled}` }, { actor, at: now() });
        return { kind: "nothing_booked" };
      }
      // The body may have reached the courier: resend it (the service replays the awb, or books now) to know.
      const completion = await completeShipment(shipment, { admin: await adminFor(shop), settings, client, now, actor, destination });
      shipment = completion.shipment;
      if (shipment.status === SHIPMENT_STATUS.FAILED) return { kind: "nothing_booked" };
      if (shipment.status === SHIPMENT_STATUS.BOOKING) return { kind: "retry", reason: shipment.lastError ?? "The courier could not be reached" };
    }
    // Cancelled before it was booked has no awb: nothing reached the courier.
    if (!shipment.awb) return { kind: "nothing_booked" };
    if (shipment.status === SHIPMENT_STATUS.CANCELLED) return { kind: "cancelled_with_courier", awb: shipment.awb };
    try {
      await client.cancelOrder(shipment.awb);
    } catch (error) {
      if (!(error instanceof CourierError)) throw error;
      if (error.kind === "conflict") {
        await raiseAttention(shipment, "cancelled_after_pickup", { actor, at: now() });
        return { kind: "picked_up", awb: shipment.awb };
      }
      if (error.kind === "not_found" || error.kind === "unauthorized" || error.kind === "invalid") {
        // The courier does not know this awb on the account the shop books with now (it changed accounts, say).
        await raiseAttention(shipment, "cancel_refused", { actor, at: now() }, { lastError: { key: "activity.stored.cancelRefused", values: { awb: shipment.awb, message: courierMessageWords(error) } } });
        return { kind: "picked_up", awb: shipment.awb };
      }
      return { kind: "retry", reason: courierMessage(error) };
    }
    const done = (await markCancelled(shipment, { actor, at: now() }, reason)) ?? (await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } }));
    return { kind: "cancelled_with_courier", awb: done.awb! };
  });
}
