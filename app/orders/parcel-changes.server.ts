import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { mergeFulfillmentOrders, moveFulfillmentOrder, splitFulfillmentOrders, type FulfillmentOrderChange } from "~/shopify/fulfillment-orders.server";
import { prepareOrder } from "~/orders/book-order.server";

/**
 * The merchant's changes to how an order ships, before booking: an item moved to another location, items put into a
 * parcel of their own, parcels from one location merged. Each is Shopify's own change (fulfillmentOrderMove, Split,
 * Merge), so Shopify's fulfillments match the boxes. Only a parcel of this order still to book may change: the order is
 * read, and a fulfillment order that is not one of its parcels to book is refused, naming why.
 */

export type ParcelChange =
  | { kind: "move"; fulfillmentOrderId: string; lineId: string; quantity: number; locationId: string }
  | { kind: "split"; fulfillmentOrderId: string; lineId: string; quantity: number }
  | { kind: "merge"; fulfillmentOrderIds: string[] };

export type ParcelChangeOutcome = FulfillmentOrderChange | { ok: false; reason: "not_a_parcel" | "nothing_to_merge" };

export async function changeParcels(shop: string, admin: ShopAdmin, orderGid: string, change: ParcelChange): Promise<ParcelChangeOutcome> {
  const prepared = await prepareOrder({ shop, admin }, { orderGid });
  const toBook = prepared.parcels.filter(({ booking }) => !booking).map(({ parcel }) => parcel);
  const ids = change.kind === "merge" ? change.fulfillmentOrderIds : [change.fulfillmentOrderId];
  if (ids.length === 0 || !ids.every((id) => toBook.some((parcel) => parcel.fulfillmentOrderId === id))) return { ok: false, reason: "not_a_parcel" };
  switch (change.kind) {
    case "move":
      return moveFulfillmentOrder(admin, change.fulfillmentOrderId, change.locationId, [{ id: change.lineId, quantity: change.quantity }]);
    case "split":
      return splitFulfillmentOrders(admin, [{ fulfillmentOrderId: change.fulfillmentOrderId, lines: [{ id: change.lineId, quantity: change.quantity }] }]);
    case "merge": {
      const distinct = [...new Set(change.fulfillmentOrderIds)];
      if (distinct.length < 2) return { ok: false, reason: "nothing_to_merge" };
      return mergeFulfillmentOrders(admin, distinct);
    }
  }
}
