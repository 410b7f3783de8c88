import { cancelShipmentsWithCourier, mostPressing, type CancelDeps, type CancelResult } from "~/booking/cancel-booking.server";
import type { Actor } from "~/shipments/lifecycle";
import { adminGraphql, type ShopAdmin } from "~/shopify/admin-graphql.server";
import { tagOrderCancelled } from "~/shopify/fulfillments.server";
import { adminDocument } from "~/shopify/admin-document";
import type { OrderCancellationQuery, OrderCancellationQueryVariables } from "~/types/admin.generated";
import { ORDER_PARCELS } from "./book-order.server";
import { recordCancellation } from "./order-records.server";

export type { CancelDeps, CancelResult };

/** The shipment's history says the Shopify order's cancellation moved it. */
const CANCELLATION: Actor = { kind: "webhook", name: "orders/cancelled" };

/**
 * The `order-cancelled` job, for an order cancelled in Shopify (orders/cancelled, or a cancellation any later
 * read saw). The cancellation is recorded first, so no booking of the order starts from then on. Each parcel not yet
 * picked up is cancelled with the courier (`cancel-order`) and becomes `cancelled`, and the order is tagged; one the
 * courier already has cannot be cancelled through its API and goes to Needs attention as "cancelled after pickup:
 * arrange return to origin". Works under each parcel's lock, so a booking in progress finishes (or stops) first.
 */
export async function handleCancellation(shop: string, orderGid: string, { adminFor, now }: CancelDeps): Promise<CancelResult> {
  // The webhook's shop and topic headers are not signed: only Shopify's own answer for this shop makes it a cancellation.
  const cancelledAt = await cancelledAtInShopify(await adminFor(shop), orderGid);
  if (!cancelledAt) return { kind: "not_cancelled" };
  await recordCancellation(shop, orderGid, cancelledAt);
  const results = await cancelShipmentsWithCourier(shop, orderGid, { actor: CANCELLATION, reason: "order", destination: ORDER_PARCELS }, { adminFor, now });
  // An order with a parcel cancelled with the courier is tagged once.
  if (results.some((result) => result.kind === "cancelled_with_courier")) await tagOrderCancelled(await adminFor(shop), { orderGid });
  return mostPressing(results);
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
