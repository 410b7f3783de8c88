import type { ShopAdmin } from "./admin-graphql.server";
import { adminGraphql } from "./admin-graphql.server";
import { BOOKED_ORDER_METAFIELDS, type BookedOrderMetafieldKey } from "./booked-order-metafields";
import { isOpenFulfillmentOrder } from "./order-mapping";
import { FULFILLMENT_CREATE, FULFILLMENT_EVENT_CREATE, FULFILLMENT_EVENTS, MARK_ORDER_BOOKED, ORDER_FOR_BOOKING, RECORD_BOOKED_PARCELS, TAGS_ADD, type ShopifyOrder } from "./queries";
import type { FulfillmentEventInput } from "~/types/admin.types";
import type { FulfillmentEventsQuery } from "~/types/admin.generated";

export const BOOKED_TAG = "dakiya-booked";
/** On an order whose shipment Dakiya cancelled with the courier after the order was cancelled. */
export const COURIER_CANCELLED_TAG = "dakiya-courier-cancelled";

export interface TrackedShipment {
  orderGid: string;
  awb: string;
  courierName: string;
  trackingUrl: string;
  /** The parcel's fulfillment order; null for a booking made before parcels, which fulfills its whole location. */
  fulfillmentOrderGid: string | null;
  locationGid: string | null;
  notifyCustomer: boolean;
}

export type FulfillmentOutcome =
  | { kind: "fulfilled"; fulfillmentGid: string; created: boolean }
  | { kind: "refused"; message: string };

/**
 * Fulfills the parcel's fulfillment order with the awb as tracking (a booking made before parcels: every open
 * fulfillment order at its location).
 * fulfillmentCreate has no idempotency of its own, so the order's fulfillments are read first (or taken from the
 * read the same booking just made): one already carrying this awb is the result of an earlier attempt and is
 * returned as it is.
 * Throws when Shopify cannot be reached or throttles, so the caller can retry later.
 */
export async function fulfillWithTracking(admin: ShopAdmin, shipment: TrackedShipment, justRead?: ShopifyOrder): Promise<FulfillmentOutcome> {
  // An order read moments ago in the same booking is as fresh as reading it again, and saves Shopify's points.
  const order = justRead ?? (await adminGraphql(admin, ORDER_FOR_BOOKING, { id: shipment.orderGid })).order;
  if (!order) return { kind: "refused", message: "The order no longer exists in Shopify." };

  const existing = order.fulfillments.find((fulfillment) => fulfillment.status !== "CANCELLED" && fulfillment.trackingInfo.some((info) => info.number === shipment.awb));
  if (existing) return { kind: "fulfilled", fulfillmentGid: existing.id, created: false };

  const open = order.fulfillmentOrders.nodes.filter(
    (fo) =>
      isOpenFulfillmentOrder(fo) &&
      (shipment.fulfillmentOrderGid !== null ? fo.id === shipment.fulfillmentOrderGid : shipment.locationGid === null || fo.assignedLocation.location?.id === shipment.locationGid),
  );
  if (open.length === 0) {
    return {
      kind: "refused",
      message:
        shipment.fulfillmentOrderGid !== null
          ? "The parcel's fulfillment order is no longer open in Shopify; it may have been fulfilled, moved or merged there."
          : "The order has no open fulfillment order at the shipment's location; it may have been fulfilled or moved in Shopify.",
    };
  }

  const result = await adminGraphql(admin, FULFILLMENT_CREATE, {
      fulfillment: {
        lineItemsByFulfillmentOrder: open.map((fo) => ({ fulfillmentOrderId: fo.id })),
        // Shopify builds tracking links only for carriers it knows; the URL is always sent.
        trackingInfo: { company: shipment.courierName, number: shipment.awb, url: shipment.trackingUrl },
        notifyCustomer: shipment.notifyCustomer,
      },
      message: `Shipped with ${shipment.courierName}, awb ${shipment.awb}`,
  });
  const fulfillment = result.fulfillmentCreate?.fulfillment;
  if (!fulfillment) return { kind: "refused", message: (result.fulfillmentCreate?.userErrors ?? []).map((error) => error.message).join(" ") || "Shopify refused the fulfillment." };
  return { kind: "fulfilled", fulfillmentGid: fulfillment.id, created: true };
}

/** A parcel booked on the order, as its app metafields record it. */
export interface BookedParcel {
  awb: string;
  courierName: string;
  trackingUrl: string;
}

/**
 * Tags the order and records its parcels' awbs and couriers in app metafields (`BOOKED_ORDER_METAFIELDS`, which the
 * merchant reads on the order):
 * `awb` and `courier` list every parcel's (comma-separated, parcel 1 first), `tracking_url` is parcel 1's, and
 * `parcels` holds each parcel's awb, courier and tracking link as JSON. An order `tagged` already (an earlier parcel's
 * booking tagged it) has its metafields written alone: the tag is added once an order, 10 of Shopify's points a parcel.
 */
export async function markOrderBooked(admin: ShopAdmin, orderGid: string, parcels: readonly BookedParcel[], { tagged = false }: { tagged?: boolean } = {}): Promise<void> {
  const first = parcels[0];
  if (!first) return;
  const values: Record<BookedOrderMetafieldKey, string> = {
    awb: parcels.map((parcel) => parcel.awb).join(", "),
    courier: [...new Set(parcels.map((parcel) => parcel.courierName))].join(", "),
    tracking_url: first.trackingUrl,
    parcels: JSON.stringify(parcels.map(({ awb, courierName, trackingUrl }) => ({ awb, courier: courierName, tracking_url: trackingUrl }))),
  };
  const metafields = Object.entries(BOOKED_ORDER_METAFIELDS).map(([key, { type }]) => ({ ownerId: orderGid, namespace: "$app", key, type, value: values[key as BookedOrderMetafieldKey] }));
  if (tagged) await adminGraphql(admin, RECORD_BOOKED_PARCELS, { metafields });
  else await adminGraphql(admin, MARK_ORDER_BOOKED, { id: orderGid, tags: [BOOKED_TAG], metafields });
}

/** Tags an order whose shipment was cancelled with the courier, so the merchant sees it in Shopify too. */
export async function tagOrderCancelled(admin: ShopAdmin, shipment: { orderGid: string }): Promise<void> {
  await adminGraphql(admin, TAGS_ADD, { id: shipment.orderGid, tags: [COURIER_CANCELLED_TAG] });
}

/** An event on a fulfillment as Shopify holds it: what a tracking entry already posted is recognised by. */
export type FulfillmentEvent = NonNullable<FulfillmentEventsQuery["fulfillment"]>["events"]["nodes"][number];

/**
 * Shopify reserves a query's requested cost before running it: 50 events a page request about 50 points, where a
 * courier's history rarely reaches 20 events; the rest, added by the merchant or other apps, on further pages.
 */
const EVENTS_PAGE = 50;
const EVENTS_PAGES_AT_MOST = 20;

/** Every event on the fulfillment, oldest first; `fulfillment` is null when Shopify no longer has it. */
export async function readFulfillmentEvents(admin: ShopAdmin, fulfillmentGid: string): Promise<{ fulfillment: { id: string } | null; events: FulfillmentEvent[] }> {
  const events: FulfillmentEvent[] = [];
  let after: string | null = null;
  for (let page = 0; page < EVENTS_PAGES_AT_MOST; page += 1) {
    const { fulfillment }: FulfillmentEventsQuery = await adminGraphql(admin, FULFILLMENT_EVENTS, { id: fulfillmentGid, first: EVENTS_PAGE, after });
    if (!fulfillment) return { fulfillment: null, events };
    events.push(...fulfillment.events.nodes);
    if (!fulfillment.events.pageInfo.hasNextPage) return { fulfillment, events };
    after = fulfillment.events.pageInfo.endCursor;
  }
  // A thousand events on one parcel is not a courier's doing: the first thousand are compared, and an entry whose
  // twin lies further back could be posted again (none of a courier's histories comes near).
  return { fulfillment: { id: fulfillmentGid }, events };
}

/** Creates one event on a fulfillment; null when Shopify refuses it (a cancelled fulfillment takes no events). */
export async function createFulfillmentEvent(admin: ShopAdmin, input: FulfillmentEventInput): Promise<{ id: string } | null> {
  const result = await adminGraphql(admin, FULFILLMENT_EVENT_CREATE, { fulfillmentEvent: input });
  return result.fulfillmentEventCreate?.fulfillmentEvent ?? null;
}
