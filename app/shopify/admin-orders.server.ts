import type { ShopAdmin } from "./admin-graphql.server";
import { adminGraphql as run } from "./admin-graphql.server";
import { withPlainText } from "./order-mapping";
import { ORDER_READ_LIMITS } from "./readiness-checks";
import { BOOKED_ORDER_CHANGES, LOCATIONS, ORDER_FOR_BOOKING, RECENTLY_UPDATED_ORDERS, type BookedOrderChanges, type ShopifyOrder } from "./queries";


// Every order read here has its text made storable (withPlainText): a NUL a checkout or an app wrote into a name, an
// address or a tag would otherwise fail each job that stores it, on every retry.

export async function getOrderForBooking(admin: ShopAdmin, orderGid: string): Promise<ShopifyOrder | null> {
  const { order } = await run(admin, ORDER_FOR_BOOKING, { id: orderGid });
  // Eleven line items (in the order and in each fulfillment order) take in most orders whole, for a fraction of the
  // points; a larger one is read again with as many as one query may ask for.
  const more = order && (order.lineItems.pageInfo.hasNextPage || order.fulfillmentOrders.nodes.some((fo) => fo.lineItems.pageInfo.hasNextPage));
  if (!more) return withPlainText(order);
  return withPlainText((await run(admin, ORDER_FOR_BOOKING, { id: orderGid, lineItemsFirst: ORDER_READ_LIMITS.lineItems, fulfillmentOrdersFirst: ORDER_READ_LIMITS.fulfillmentOrders })).order);
}

/** What can still change on a booked order that Dakiya must act on: cancellation, delivery address and phone. */
export async function getBookedOrderChanges(admin: ShopAdmin, orderGid: string): Promise<BookedOrderChanges | null> {
  return withPlainText((await run(admin, BOOKED_ORDER_CHANGES, { id: orderGid })).order);
}

export interface ShopLocation {
  id: string;
  name: string;
  city: string | null;
  zip: string | null;
}

export async function listLocations(admin: ShopAdmin): Promise<ShopLocation[]> {
  const { locations } = await run(admin, LOCATIONS);
  return locations.nodes.map((location) => ({ id: location.id, name: location.name, city: location.address.city, zip: location.address.zip }));
}

/** Orders created or updated since a time, oldest change first (Shopify's search: `updated_at:>=`). */
export async function listRecentlyUpdatedOrders(admin: ShopAdmin, { since, after }: { since: Date; after: string | null }): Promise<{ orders: { id: string; updatedAt: string }[]; nextCursor: string | null }> {
  const { orders } = await run(admin, RECENTLY_UPDATED_ORDERS, {
    after,
    query: `updated_at:>='${since.toISOString()}'`,
  });
  return { orders: orders.nodes, nextCursor: orders.pageInfo.hasNextPage ? orders.pageInfo.endCursor : null };
}
