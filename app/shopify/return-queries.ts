import { adminDocument } from "./admin-document";
import type { ReturnForPickupQuery, ReturnForPickupQueryVariables, RecentOrderReturnsQuery, RecentOrderReturnsQueryVariables, ReverseDeliveryCreateMutation, ReverseDeliveryCreateMutationVariables, ReturnProcessMutation, ReturnProcessMutationVariables } from "~/types/admin.generated";

/**
 * The Admin API documents of returns (read_returns, write_returns). `npm run graphql:validate` checks each against
 * the 2026-10 schema. The order is read for the shopper's address only: the return's pickup is where the order
 * was delivered.
 */

/** A return with all its pickup needs: the shopper's address, the items coming back, and where they go. */
export const RETURN_FOR_PICKUP = adminDocument<ReturnForPickupQuery, ReturnForPickupQueryVariables>(
  `#graphql
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
        tags
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
`
);

/** Open or requested returns of orders changed since a time: the reconciliation's read. */
export const RECENT_ORDER_RETURNS = adminDocument<RecentOrderReturnsQuery, RecentOrderReturnsQueryVariables>(
  `#graphql
  query RecentOrderReturns($query: String!, $after: String) {
    orders(first: 25, after: $after, query: $query, sortKey: UPDATED_AT) {
      pageInfo { hasNextPage endCursor }
      nodes {
        id
        returns(first: 5, query: "status:open") { nodes { id status } }
      }
    }
  }
`
);

export const REVERSE_DELIVERY_CREATE = adminDocument<ReverseDeliveryCreateMutation, ReverseDeliveryCreateMutationVariables>(
  `#graphql
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
`
);

export const RETURN_PROCESS = adminDocument<ReturnProcessMutation, ReturnProcessMutationVariables>(
  `#graphql
  mutation ReturnProcess($input: ReturnProcessInput!) {
    returnProcess(input: $input) {
      return { id status }
      userErrors { field message code }
    }
  }
`
);

/** A return as the pickup reads it (RETURN_FOR_PICKUP), with its order, the items coming back and their reverse fulfillment orders. */
export type ShopifyReturn = NonNullable<ReturnForPickupQuery["return"]>;
export type ShopifyReturnStatus = ShopifyReturn["status"];
export type ShopifyReturnLine = ShopifyReturn["returnLineItems"]["nodes"][number];
