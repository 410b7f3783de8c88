/**
 * The Admin API documents of returns (read_returns, write_returns). `npm run graphql:validate` checks each against
 * the 2026-10 schema. The order is read for the shopper's address only: the return's pickup is where the order
 * was delivered.
 */

/** A return with all its pickup needs: the shopper's address, the items coming back, and where they go. */
export const RETURN_FOR_PICKUP = `#graphql
  query ReturnForPickup($id: ID!) {
    return(id: $id) {
      id
      name
      status
      createdAt
      order {
        id
        name
        email
        phone
        shippingAddress { name firstName lastName company phone address1 address2 city province zip countryCodeV2 }
        billingAddress { phone }
        fulfillments(first: 5) {
          id
          location { id }
          fulfillmentLineItems(first: 10) { nodes { id } }
        }
      }
      returnLineItems(first: 10) {
        pageInfo { hasNextPage }
        nodes {
          ... on ReturnLineItem {
            id
            quantity
            returnReasonNote
            customerNote
            returnReasonDefinition { handle name }
            totalWeight { unit value }
            fulfillmentLineItem {
              id
              lineItem { id title sku discountedUnitPriceSet { shopMoney { amount } } }
            }
          }
        }
      }
      reverseFulfillmentOrders(first: 2) {
        nodes {
          id
          status
          lineItems(first: 10) { nodes { id totalQuantity fulfillmentLineItem { id } } }
          reverseDeliveries(first: 3) {
            nodes {
              id
              deliverable { ... on ReverseDeliveryShippingDeliverable { tracking { number url } } }
            }
          }
        }
      }
    }
  }
`;

/** Open or requested returns of orders changed since a time: the reconciliation's read. */
export const RECENT_ORDER_RETURNS = `#graphql
  query RecentOrderReturns($query: String!, $after: String) {
    orders(first: 25, after: $after, query: $query, sortKey: UPDATED_AT) {
      pageInfo { hasNextPage endCursor }
      nodes {
        id
        returns(first: 5, query: "status:open") { nodes { id status } }
      }
    }
  }
`;

export const REVERSE_DELIVERY_CREATE = `#graphql
  mutation ReverseDeliveryCreate(
    $reverseFulfillmentOrderId: ID!
    $reverseDeliveryLineItems: [ReverseDeliveryLineItemInput!]!
    $trackingInput: ReverseDeliveryTrackingInput
    $labelInput: ReverseDeliveryLabelInput
    $notifyCustomer: Boolean
  ) {
    reverseDeliveryCreateWithShipping(
      reverseFulfillmentOrderId: $reverseFulfillmentOrderId
      reverseDeliveryLineItems: $reverseDeliveryLineItems
      trackingInput: $trackingInput
      labelInput: $labelInput
      notifyCustomer: $notifyCustomer
    ) {
      reverseDelivery { id }
      userErrors { field message code }
    }
  }
`;

export const RETURN_PROCESS = `#graphql
  mutation ReturnProcess($input: ReturnProcessInput!) {
    returnProcess(input: $input) {
      return { id status }
      userErrors { field message code }
    }
  }
`;

export type ShopifyReturnStatus = "REQUESTED" | "OPEN" | "DECLINED" | "CANCELED" | "CLOSED";

export interface ShopifyReturnLine {
  id: string;
  quantity: number;
  returnReasonNote: string;
  customerNote: string | null;
  returnReasonDefinition: { handle: string; name: string } | null;
  totalWeight: { unit: string; value: number } | null;
  fulfillmentLineItem: { id: string; lineItem: { id: string; title: string; sku: string | null; discountedUnitPriceSet: { shopMoney: { amount: string } } } };
}

export interface ShopifyReturn {
  id: string;
  name: string;
  status: ShopifyReturnStatus;
  createdAt: string;
  order: {
    id: string;
    name: string;
    email: string | null;
    phone: string | null;
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
    fulfillments: { id: string; location: { id: string } | null; fulfillmentLineItems: { nodes: { id: string }[] } }[];
  };
  returnLineItems: { pageInfo: { hasNextPage: boolean }; nodes: ShopifyReturnLine[] };
  reverseFulfillmentOrders: {
    nodes: {
      id: string;
      status: "OPEN" | "CLOSED" | "CANCELED";
      lineItems: { nodes: { id: string; totalQuantity: number; fulfillmentLineItem: { id: string } | null }[] };
      reverseDeliveries: { nodes: { id: string; deliverable: { tracking: { number: string | null; url: string | null } | null } | null }[] };
    }[];
  };
}
