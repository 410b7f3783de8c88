import { adminDocument } from "./admin-document";
import type { FulfillmentOrderFieldsFragment, LineItemShippingFieldsFragment, OrderForBookingQuery, OrderForBookingQueryVariables, RecentlyUpdatedOrdersQuery, RecentlyUpdatedOrdersQueryVariables, BookedOrderChangesQuery, BookedOrderChangesQueryVariables, LocationsQuery, LocationsQueryVariables, FulfillmentCreateWithTrackingMutation, FulfillmentCreateWithTrackingMutationVariables, FulfillmentEventsQuery, FulfillmentEventsQueryVariables, FulfillmentEventCreateMutation, FulfillmentEventCreateMutationVariables, TagsAddMutation, TagsAddMutationVariables, MarkOrderBookedMutation, MarkOrderBookedMutationVariables, RecordBookedParcelsMutation, RecordBookedParcelsMutationVariables } from "~/types/admin.generated";

/**
 * Every Admin API document Dakiya sends. `npm run graphql:validate` checks each against the
 * published 2026-10 schema. No customer or product fields: an order is read for what the courier needs
 * (LineItem.weight, new in 2026-07, carries the weight); the order's customer is read only for the order status page.
 */

/** Where and to whom an order goes, and whether it still stands: all a booked order's re-check needs. */
const ORDER_CONTACT_FIELDS = `#graphql
  fragment OrderContactFields on Order {
    id
    name
    createdAt
    updatedAt
    cancelledAt
    tags
    phone
    shippingAddress {
      name
      firstName
      lastName
      company
      phone
      address1
      address2
      city
      province
      zip
      countryCodeV2
    }
    billingAddress { phone }
  }
`;

/** What the order mapping reads of every order, whether listed or about to be booked. */
const ORDER_SHIPPING_FIELDS =
  `#graphql
  fragment OrderShippingFields on Order {
    ...OrderContactFields
    legacyResourceId
    closed
    email
    paymentGatewayNames
    displayFinancialStatus
    displayFulfillmentStatus
    currentTotalPriceSet { shopMoney { amount currencyCode } }
    totalDiscountsSet { shopMoney { amount } }
    totalShippingPriceSet { shopMoney { amount } }
    totalOutstandingSet { shopMoney { amount } }
  }
` + ORDER_CONTACT_FIELDS;

/** What the order mapping reads of every line item, whether listed or about to be booked. */
const LINE_ITEM_SHIPPING_FIELDS = `#graphql
  fragment LineItemShippingFields on LineItem {
    id
    title
    sku
    quantity
    currentQuantity
    unfulfilledQuantity
    requiresShipping
    weight { unit value }
  }
`;

/** A fulfillment order as a parcel: where it ships from, what it may still do, and which items remain in it. */
const FULFILLMENT_ORDER_FIELDS = `#graphql
  fragment FulfillmentOrderFields on FulfillmentOrder {
    id
    status
    assignedLocation { name location { id } }
    supportedActions { action }
    fulfillmentHolds { handle heldByRequestingApp }
    lineItems(first: $lineItemsFirst) {
      pageInfo { hasNextPage }
      nodes { id remainingQuantity lineItem { id } }
    }
  }
`;

export const ORDER_FOR_BOOKING = adminDocument<OrderForBookingQuery, OrderForBookingQueryVariables>(
  `#graphql
  query OrderForBooking($id: ID!, $lineItemsFirst: Int = 11, $fulfillmentOrdersFirst: Int = 5) {
    order(id: $id) {
      ...OrderShippingFields
      lineItems(first: $lineItemsFirst) {
        pageInfo { hasNextPage }
        nodes {
          ...LineItemShippingFields
          originalUnitPriceSet { shopMoney { amount } }
          discountedUnitPriceSet { shopMoney { amount } }
          taxLines { priceSet { shopMoney { amount } } }
        }
      }
      fulfillmentOrders(first: $fulfillmentOrdersFirst, displayable: true) {
        pageInfo { hasNextPage }
        nodes { ...FulfillmentOrderFields }
      }
      fulfillments(first: 5) {
        id
        status
        trackingInfo(first: 3) { company number url }
      }
    }
  }
` +
  ORDER_SHIPPING_FIELDS +
  LINE_ITEM_SHIPPING_FIELDS +
  FULFILLMENT_ORDER_FIELDS
);

/** The reconciliation's page: which orders were created or changed since a time, and when; 52 points for 50. */
export const RECENTLY_UPDATED_ORDERS = adminDocument<RecentlyUpdatedOrdersQuery, RecentlyUpdatedOrdersQueryVariables>(
  `#graphql
  query RecentlyUpdatedOrders($first: Int = 50, $after: String, $query: String) {
    orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
      pageInfo { hasNextPage endCursor }
      nodes { id updatedAt }
    }
  }
`
);

/**
 * A booked order re-checked after it changed in Shopify: whether it was cancelled, where and to whom it goes, and
 * which of its fulfillment orders are still open (each should be a parcel Dakiya booked), a few points where
 * ORDER_FOR_BOOKING costs about thirty (Dakiya's own fulfillment, tag and metafields change every booked order once).
 */
export const BOOKED_ORDER_CHANGES = adminDocument<BookedOrderChangesQuery, BookedOrderChangesQueryVariables>(
  `#graphql
  query BookedOrderChanges($id: ID!) {
    order(id: $id) {
      ...OrderContactFields
      fulfillmentOrders(first: 5, displayable: true) {
        pageInfo { hasNextPage }
        nodes { id status }
      }
    }
  }
` + ORDER_CONTACT_FIELDS
);


export const LOCATIONS = adminDocument<LocationsQuery, LocationsQueryVariables>(
  `#graphql
  query Locations {
    locations(first: 50) {
      nodes {
        id
        name
        address { city zip }
      }
    }
  }
`
);

export const FULFILLMENT_CREATE = adminDocument<FulfillmentCreateWithTrackingMutation, FulfillmentCreateWithTrackingMutationVariables>(
  `#graphql
  mutation FulfillmentCreateWithTracking($fulfillment: FulfillmentInput!, $message: String) {
    fulfillmentCreate(fulfillment: $fulfillment, message: $message) {
      fulfillment {
        id
        status
        trackingInfo(first: 5) { company number url }
      }
      userErrors { field message }
    }
  }
`
);

/** The events a fulfillment already has: what a sync checks before posting, so nothing is posted twice. */
export const FULFILLMENT_EVENTS = adminDocument<FulfillmentEventsQuery, FulfillmentEventsQueryVariables>(
  `#graphql
  query FulfillmentEvents($id: ID!, $first: Int = 50, $after: String) {
    fulfillment(id: $id) {
      id
      status
      events(first: $first, after: $after, sortKey: HAPPENED_AT) {
        pageInfo { hasNextPage endCursor }
        nodes { id status happenedAt message }
      }
    }
  }
`
);

export const FULFILLMENT_EVENT_CREATE = adminDocument<FulfillmentEventCreateMutation, FulfillmentEventCreateMutationVariables>(
  `#graphql
  mutation FulfillmentEventCreate($fulfillmentEvent: FulfillmentEventInput!) {
    fulfillmentEventCreate(fulfillmentEvent: $fulfillmentEvent) {
      fulfillmentEvent { id status happenedAt }
      userErrors { field message }
    }
  }
`
);

export const TAGS_ADD = adminDocument<TagsAddMutation, TagsAddMutationVariables>(
  `#graphql
  mutation TagsAdd($id: ID!, $tags: [String!]!) {
    tagsAdd(id: $id, tags: $tags) {
      userErrors { field message }
    }
  }
`
);

/** The booked order's tag and app metafields, in one request (two mutations, run in order): its first parcel's. */
export const MARK_ORDER_BOOKED = adminDocument<MarkOrderBookedMutation, MarkOrderBookedMutationVariables>(
  `#graphql
  mutation MarkOrderBooked($id: ID!, $tags: [String!]!, $metafields: [MetafieldsSetInput!]!) {
    tagsAdd(id: $id, tags: $tags) {
      userErrors { field message }
    }
    metafieldsSet(metafields: $metafields) {
      metafields { id key }
      userErrors { field message }
    }
  }
`
);

/** The app metafields alone: a later parcel of an order already tagged, 10 points where the tag costs 10 more. */
export const RECORD_BOOKED_PARCELS = adminDocument<RecordBookedParcelsMutation, RecordBookedParcelsMutationVariables>(
  `#graphql
  mutation RecordBookedParcels($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields { id key }
      userErrors { field message }
    }
  }
`
);

type BookingOrder = NonNullable<OrderForBookingQuery["order"]>;
type BookingLineItem = BookingOrder["lineItems"]["nodes"][number];

/** A line item as booking reads it; the orders list reads the same without prices. */
export type ShopifyLineItem = LineItemShippingFieldsFragment & Partial<Pick<BookingLineItem, "originalUnitPriceSet" | "discountedUnitPriceSet" | "taxLines">>;

export type ShopifyFulfillmentOrder = FulfillmentOrderFieldsFragment;

/** An order as booking reads it (ORDER_FOR_BOOKING): what the mapping onto the courier's fields takes. */
export type ShopifyOrder = Omit<BookingOrder, "lineItems"> & { lineItems: { pageInfo: { hasNextPage: boolean }; nodes: ShopifyLineItem[] } };

export type BookedOrderChanges = NonNullable<BookedOrderChangesQuery["order"]>;
