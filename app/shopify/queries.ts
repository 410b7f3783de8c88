/**
 * Every Admin API document Dakiya sends. `npm run graphql:validate` checks each against the
 * published 2026-10 schema. No customer or product fields: `read_customers` and `read_products`
 * are not among the app's scopes (LineItem.weight, new in 2026-07, carries the weight instead).
 */

export const ORDER_FOR_BOOKING = `#graphql
  query OrderForBooking($id: ID!, $lineItemsFirst: Int = 30, $fulfillmentOrdersFirst: Int = 5, $foLineItemsFirst: Int = 30) {
    order(id: $id) {
      id
      name
      createdAt
      cancelledAt
      closed
      tags
      email
      phone
      paymentGatewayNames
      displayFinancialStatus
      displayFulfillmentStatus
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
      billingAddress {
        phone
      }
      currentTotalPriceSet { shopMoney { amount currencyCode } }
      totalDiscountsSet { shopMoney { amount } }
      totalShippingPriceSet { shopMoney { amount } }
      lineItems(first: $lineItemsFirst) {
        pageInfo { hasNextPage }
        nodes {
          id
          title
          sku
          quantity
          requiresShipping
          originalUnitPriceSet { shopMoney { amount } }
          discountedUnitPriceSet { shopMoney { amount } }
          taxLines { priceSet { shopMoney { amount } } }
          weight { unit value }
        }
      }
      fulfillmentOrders(first: $fulfillmentOrdersFirst, displayable: true) {
        nodes {
          id
          status
          assignedLocation { name location { id } }
          supportedActions { action }
          lineItems(first: $foLineItemsFirst) {
            nodes { id remainingQuantity lineItem { id } }
          }
        }
      }
      fulfillments(first: 10) {
        id
        status
        trackingInfo(first: 5) { company number url }
      }
    }
  }
`;

export const ORDERS_TO_SHIP = `#graphql
  query OrdersToShip($first: Int = 25, $after: String, $query: String) {
    orders(first: $first, after: $after, query: $query, sortKey: CREATED_AT, reverse: true) {
      pageInfo { hasNextPage endCursor }
      nodes {
        id
        name
        createdAt
        cancelledAt
        closed
        tags
        email
        phone
        paymentGatewayNames
        displayFinancialStatus
        displayFulfillmentStatus
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
        currentTotalPriceSet { shopMoney { amount currencyCode } }
        totalDiscountsSet { shopMoney { amount } }
        totalShippingPriceSet { shopMoney { amount } }
        lineItems(first: 15) {
          pageInfo { hasNextPage }
          nodes {
            id
            title
            sku
            quantity
            requiresShipping
            originalUnitPriceSet { shopMoney { amount } }
            discountedUnitPriceSet { shopMoney { amount } }
            taxLines { priceSet { shopMoney { amount } } }
            weight { unit value }
          }
        }
        fulfillmentOrders(first: 2, displayable: true) {
          nodes {
            id
            status
            assignedLocation { name location { id } }
            supportedActions { action }
            lineItems(first: 15) {
              nodes { id remainingQuantity lineItem { id } }
            }
          }
        }
        fulfillments(first: 3) {
          id
          status
          trackingInfo(first: 1) { company number url }
        }
      }
    }
  }
`;

export const LOCATIONS = `#graphql
  query Locations {
    locations(first: 50) {
      nodes {
        id
        name
        address { city zip }
      }
    }
  }
`;

export const FULFILLMENT_CREATE = `#graphql
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
`;

export const TAGS_ADD = `#graphql
  mutation TagsAdd($id: ID!, $tags: [String!]!) {
    tagsAdd(id: $id, tags: $tags) {
      userErrors { field message }
    }
  }
`;

export const METAFIELDS_SET = `#graphql
  mutation MetafieldsSet($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields { id key }
      userErrors { field message }
    }
  }
`;

type MoneyAmount = { shopMoney: { amount: string; currencyCode?: string } };

export interface ShopifyLineItem {
  id: string;
  title: string;
  sku: string | null;
  quantity: number;
  requiresShipping: boolean;
  originalUnitPriceSet: MoneyAmount;
  discountedUnitPriceSet: MoneyAmount;
  taxLines: { priceSet: MoneyAmount }[];
  weight: { unit: "GRAMS" | "KILOGRAMS" | "POUNDS" | "OUNCES"; value: number } | null;
}

export interface ShopifyFulfillmentOrder {
  id: string;
  status: string;
  assignedLocation: { name: string; location: { id: string } | null };
  supportedActions: { action: string }[];
  lineItems: { nodes: { id: string; remainingQuantity: number; lineItem: { id: string } }[] };
}

export interface ShopifyOrder {
  id: string;
  name: string;
  createdAt: string;
  cancelledAt: string | null;
  closed: boolean;
  tags: string[];
  email: string | null;
  phone: string | null;
  paymentGatewayNames: string[];
  displayFinancialStatus: string | null;
  displayFulfillmentStatus: string;
  shippingAddress: {
    name: string | null;
    firstName: string | null;
    lastName: string | null;
    company: string | null;
    phone: string | null;
    address1: string | null;
    address2: string | null;
    city: string | null;
    province: string | null;
    zip: string | null;
    countryCodeV2: string | null;
  } | null;
  billingAddress: { phone: string | null } | null;
  currentTotalPriceSet: MoneyAmount;
  totalDiscountsSet: MoneyAmount;
  totalShippingPriceSet: MoneyAmount;
  lineItems: { pageInfo: { hasNextPage: boolean }; nodes: ShopifyLineItem[] };
  fulfillmentOrders: { nodes: ShopifyFulfillmentOrder[] };
  fulfillments: { id: string; status: string; trackingInfo: { company: string | null; number: string | null; url: string | null }[] }[];
}
