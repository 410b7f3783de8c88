import prisma from "~/db.server";
import { adminDocument } from "~/shopify/admin-document";
import { adminGraphql, ShopifyUnavailableError, type ShopAdmin } from "~/shopify/admin-graphql.server";
import type { OrderCustomerQuery, OrderCustomerQueryVariables } from "~/types/admin.generated";
import type { CustomerParcel } from "../../extensions/shared/customer-parcel";
import { toCustomerParcel } from "./customer-parcel";
import { isShopInstalled } from "./sync.server";

/**
 * A parcel for the shopper's order status page (customer accounts): found by the Shopify fulfillment that carries it
 * (one per parcel), and shown only to the customer who placed its order, as the customer account's session token
 * names them (`sub`). Whose order it is comes from Shopify (`Order.customer`, read_customers) the first time a
 * shopper opens one of its parcels, and is kept with the order: one read per order, ever.
 */

const ORDER_CUSTOMER = adminDocument<OrderCustomerQuery, OrderCustomerQueryVariables>(
  `#graphql
  query OrderCustomer($id: ID!) {
    order(id: $id) {
      id
      customer { id }
    }
  }
`
);

export interface CustomerParcelDeps {
  /** An Admin API client on the shop's offline session. */
  adminFor: (shop: string) => Promise<ShopAdmin>;
}

/**
 * The customer who placed the order (null for a guest), from Dakiya's record or, once, from Shopify. A shop that
 * uninstalled the app has no token to ask with: nobody's.
 */
async function customerOf(shop: string, orderGid: string, { adminFor }: CustomerParcelDeps): Promise<string | null> {
  const record = await prisma.orderRecord.findUnique({ where: { shop_orderGid: { shop, orderGid } }, select: { customerGid: true } });
  if (record?.customerGid) return record.customerGid;
  if (!(await isShopInstalled(shop))) return null;
  const { order } = await adminGraphql(await adminFor(shop), ORDER_CUSTOMER, { id: orderGid });
  const customerGid = order?.customer?.id ?? null;
  // Kept also on an order booked before Dakiya checked it: a record that is only this stays out of the lists (unchecked).
  if (customerGid) await prisma.orderRecord.upsert({ where: { shop_orderGid: { shop, orderGid } }, create: { shop, orderGid, customerGid }, update: { customerGid } });
  return customerGid;
}

export type CustomerParcelLookup = { kind: "parcel"; parcel: CustomerParcel } | { kind: "none" } | { kind: "shopify_busy"; retryAfterSeconds: number };

/**
 * The parcel the fulfillment carries, if it is a Dakiya parcel of this customer's order; none otherwise — not
 * Dakiya's, another customer's, a guest's order, or no such fulfillment — alike, so nothing is learnt from trying.
 * Shopify busy when whose order it is must be read from it: said so, to try again shortly.
 */
export async function getParcelForCustomer({ shop, customerGid, fulfillmentGid }: { shop: string; customerGid: string; fulfillmentGid: string }, deps: CustomerParcelDeps): Promise<CustomerParcelLookup> {
  const shipment = await prisma.shipment.findFirst({ where: { shop, fulfillmentGid, direction: "forward" } });
  if (!shipment) return { kind: "none" };
  try {
    if ((await customerOf(shop, shipment.orderGid, deps)) !== customerGid) return { kind: "none" };
  } catch (error) {
    if (error instanceof ShopifyUnavailableError) return { kind: "shopify_busy", retryAfterSeconds: error.retryAfterSeconds };
    throw error;
  }
  const entries = await prisma.trackingEvent.findMany({ where: { shop, shipmentId: shipment.id }, select: { code: true, activity: true, location: true, happenedAt: true } });
  return { kind: "parcel", parcel: toCustomerParcel(shipment, entries) };
}
