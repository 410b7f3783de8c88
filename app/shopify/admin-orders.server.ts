import type { ShopAdmin } from "./admin-graphql.server";
import { adminGraphql as run } from "./admin-graphql.server";
import { withPlainText } from "./order-mapping";
import { BOOKED_ORDER_CHANGES, LOCATIONS, ORDER_FOR_BOOKING, ORDERS_TO_SHIP, RECENTLY_UPDATED_ORDERS, type BookedOrderChanges, type ShopifyOrder } from "./queries";

/**
 * Line items read again when an order has more than the first read's 11: enough to count what needs shipping when
 * some need none (a gift card, a digital item) or are fulfilled already, within the single query's 1,000 points.
 */
const MANY_LINE_ITEMS = 50;

// Every order read here has its text made storable (withPlainText): a NUL a checkout or an app wrote into a name, an
// address or a tag would otherwise fail each job that stores it, on every retry.

export async function getOrderForBooking(admin: ShopAdmin, orderGid: string): Promise<ShopifyOrder | null> {
  const { order } = await run(admin, ORDER_FOR_BOOKING, { id: orderGid });
  // Eleven tell a shipment of at most ten from a longer one in most orders, for a fraction of the points.
  if (!order?.lineItems.pageInfo.hasNextPage) return withPlainText(order);
  return withPlainText((await run(admin, ORDER_FOR_BOOKING, { id: orderGid, lineItemsFirst: MANY_LINE_ITEMS })).order);
}

/** What can still change on a booked order that Dakiya must act on: cancellation, delivery address and phone. */
export async function getBookedOrderChanges(admin: ShopAdmin, orderGid: string): Promise<BookedOrderChanges | null> {
  return withPlainText((await run(admin, BOOKED_ORDER_CHANGES, { id: orderGid })).order);
}

/** Orders with something left to ship, newest first: not yet shipped, or partly. */
export const ORDERS_TO_SHIP_SEARCH = "status:open fulfillment_status:unfulfilled";

export interface OrdersPage {
  orders: ShopifyOrder[];
  nextCursor: string | null;
}

export async function listOrdersToShip(admin: ShopAdmin, after: string | null, pageSize = 20): Promise<OrdersPage> {
  const { orders } = await run(admin, ORDERS_TO_SHIP, {
    first: pageSize,
    after,
    query: ORDERS_TO_SHIP_SEARCH,
  });
  return { orders: withPlainText(orders.nodes), nextCursor: orders.pageInfo.hasNextPage ? orders.pageInfo.endCursor : null };
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
