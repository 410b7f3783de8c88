import { completeShipment, courierMessage, courierMessageWords } from "~/booking/book-order.server";
import { SHIPMENT_STATUS, type Actor } from "~/shipments/lifecycle";
import { listShipmentsForOrder } from "~/booking/shipments.server";
import { markCancelled, markCancelledBeforeBooking, raiseAttention } from "~/shipments/shipment-changes.server";
import type { Shipment } from "@prisma/client";
import prisma from "~/db.server";
import { LOCK_SPACE, withAdvisoryLock } from "~/locks.server";
import { courierClientFor, courierCredentialsOf, getShopSettings } from "~/settings/shop-settings.server";
import { CourierError } from "~/shipping/client.server";
import { adminGraphql, type ShopAdmin } from "~/shopify/admin-graphql.server";
import { tagOrderCancelled } from "~/shopify/fulfillments.server";
import { recordCancellation } from "./order-records.server";
import { adminDocument } from "~/shopify/admin-document";
import type { OrderCancellationQuery, OrderCancellationQueryVariables } from "~/types/admin.generated";
import type { StoredWords } from "~/locales/admin-language";

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
 * The `order-cancelled` job, for an order cancelled in Shopify (orders/cancelled, or a cancellation any later
 * read saw). The cancellation is recorded first, so no booking of the order starts from then on. A shipment not yet
 * picked up is cancelled with the courier (`cancel-order`), becomes `cancelled`, and the order is tagged; one the
 * courier already has cannot be cancelled through its API and goes to Needs attention as "cancelled after pickup:
 * arrange return to origin". Works under the shipment's lock, so a booking in progress finishes (or stops) first.
 */
/** The shipment's history says the Shopify order's cancellation moved it. */
const CANCELLATION: Actor = { kind: "webhook", name: "orders/cancelled" };

export async function handleCancellation(shop: string, orderGid: string, { adminFor, now }: CancelDeps): Promise<CancelResult> {
  // The webhook's shop and topic headers are not signed: only Shopify's own answer for this shop makes it a cancellation.
  const cancelledAt = await cancelledAtInShopify(await adminFor(shop), orderGid);
  if (!cancelledAt) return { kind: "not_cancelled" };
  await recordCancellation(shop, orderGid, cancelledAt);
  return cancelShipmentWithCourier(shop, orderGid, { actor: CANCELLATION, reason: "order", tagOrder: true }, { adminFor, now });
}

/**
 * The courier side of a cancellation, for every parcel of an order or a return's pickup (keyed by its Return's id):
 * not yet booked → failed; booked and not picked up → cancelled with the courier; picked up → Needs attention. Each
 * parcel is tried however the others went; the result is the one that matters most (retry, then picked up, then
 * cancelled), and an order with a parcel cancelled with the courier is tagged once.
 */
export async function cancelShipmentWithCourier(
  shop: string,
  orderGid: string,
  { actor, reason: cancelled, tagOrder }: { actor: Actor; reason: CancelledInShopify; tagOrder: boolean },
  deps: CancelDeps,
): Promise<CancelResult> {
  const parcels = (await listShipmentsForOrder(shop, orderGid)).filter((parcel) => parcel.status !== SHIPMENT_STATUS.FAILED);
  const results: CancelResult[] = [];
  for (const parcel of parcels) results.push(await cancelParcelWithCourier(parcel, { actor, reason: cancelled }, deps));
  const cancelledOne = results.find((result): result is Extract<CancelResult, { kind: "cancelled_with_courier" }> => result.kind === "cancelled_with_courier");
  if (tagOrder && cancelledOne) await tagOrderCancelled(await deps.adminFor(shop), { orderGid });
  return results.find((result) => result.kind === "retry") ?? results.find((result) => result.kind === "picked_up") ?? cancelledOne ?? { kind: "nothing_booked" };
}

/** One parcel's cancellation with the courier, under the parcel's lock, so a booking in progress finishes (or stops) first. */
async function cancelParcelWithCourier(found: Shipment, { actor: CANCELLATION, reason: cancelled }: { actor: Actor; reason: CancelledInShopify }, { adminFor, now }: CancelDeps): Promise<CancelResult> {
  const reason: StoredWords = { key: `activity.stored.cancellations.${cancelled}` };
  const shop = found.shop;
  return withAdvisoryLock(LOCK_SPACE.SHIPMENT, found.id, async () => {
    let shipment = await prisma.shipment.findUniqueOrThrow({ where: { id: found.id } });
    const settings = await getShopSettings(shop);
    const client = courierClientFor(courierCredentialsOf(settings));
    if (shipment.status === SHIPMENT_STATUS.FAILED) return { kind: "nothing_booked" };
    if (shipment.status === SHIPMENT_STATUS.BOOKING) {
      if (shipment.requestPayload === "") {
        await markCancelledBeforeBooking(shipment, { key: `activity.stored.cancelledBeforeBooking.${cancelled}` }, { actor: CANCELLATION, at: now() });
        return { kind: "nothing_booked" };
      }
      // The body may have reached the courier: resend it (the service replays the awb, or books now) to know.
      const completion = await completeShipment(shipment, { admin: await adminFor(shop), settings, client, now, actor: CANCELLATION });
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
        await raiseAttention(shipment, "cancelled_after_pickup", { actor: CANCELLATION, at: now() });
        return { kind: "picked_up", awb: shipment.awb };
      }
      if (error.kind === "not_found" || error.kind === "unauthorized" || error.kind === "invalid") {
        // The courier does not know this awb on the account the shop books with now (it changed accounts, say).
        await raiseAttention(shipment, "cancel_refused", { actor: CANCELLATION, at: now() }, { lastError: { key: "activity.stored.cancelRefused", values: { awb: shipment.awb, message: courierMessageWords(error) } } });
        return { kind: "picked_up", awb: shipment.awb };
      }
      return { kind: "retry", reason: courierMessage(error) };
    }
    const done = (await markCancelled(shipment, { actor: CANCELLATION, at: now() }, reason)) ?? (await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } }));
    return { kind: "cancelled_with_courier", awb: done.awb! };
  });
}

const ORDER_CANCELLATION_QUERY = adminDocument<OrderCancellationQuery, OrderCancellationQueryVariables>(
  `#graphql
  query OrderCancellation($id: ID!) {
    order(id: $id) {
      id
      cancelledAt
    }
  }
`
);

/** When the shop's order was cancelled, as Shopify's Admin API says; null when it is not cancelled or not the shop's. */
async function cancelledAtInShopify(admin: ShopAdmin, orderGid: string): Promise<Date | null> {
  const { order } = await adminGraphql(admin, ORDER_CANCELLATION_QUERY, { id: orderGid });
  return order?.cancelledAt ? new Date(order.cancelledAt) : null;
}
