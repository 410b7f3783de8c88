import { adminDocument } from "./admin-document";
import { adminGraphql, type ShopAdmin } from "./admin-graphql.server";
import type {
  FulfillmentOrderMergeMutation,
  FulfillmentOrderMergeMutationVariables,
  FulfillmentOrderMoveMutation,
  FulfillmentOrderMoveMutationVariables,
  FulfillmentOrderSplitMutation,
  FulfillmentOrderSplitMutationVariables,
  LocationsForMoveQuery,
  LocationsForMoveQueryVariables,
} from "~/types/admin.generated";

/**
 * Where an order's items ship from, changed in Shopify itself (so Shopify's fulfillments match the boxes): a
 * fulfillment order's items split off into one of their own, moved to another location, or merged back. Shopify's
 * refusals come back in its words; a throttle or an outage throws, for the caller to retry.
 */

const FULFILLMENT_ORDER_SPLIT = adminDocument<FulfillmentOrderSplitMutation, FulfillmentOrderSplitMutationVariables>(
  `#graphql
  mutation FulfillmentOrderSplit($splits: [FulfillmentOrderSplitInput!]!) {
    fulfillmentOrderSplit(fulfillmentOrderSplits: $splits) {
      fulfillmentOrderSplits { remainingFulfillmentOrder { id } }
      userErrors { message }
    }
  }
`
);

const FULFILLMENT_ORDER_MOVE = adminDocument<FulfillmentOrderMoveMutation, FulfillmentOrderMoveMutationVariables>(
  `#graphql
  mutation FulfillmentOrderMove($id: ID!, $locationId: ID!, $lines: [FulfillmentOrderLineItemInput!]) {
    fulfillmentOrderMove(id: $id, newLocationId: $locationId, fulfillmentOrderLineItems: $lines) {
      movedFulfillmentOrder { id }
      userErrors { message }
    }
  }
`
);

const FULFILLMENT_ORDER_MERGE = adminDocument<FulfillmentOrderMergeMutation, FulfillmentOrderMergeMutationVariables>(
  `#graphql
  mutation FulfillmentOrderMerge($ids: [FulfillmentOrderMergeInputMergeIntent!]!) {
    fulfillmentOrderMerge(fulfillmentOrderMergeInputs: [{ mergeIntents: $ids }]) {
      fulfillmentOrderMerges { fulfillmentOrder { id } }
      userErrors { message }
    }
  }
`
);

/** Where each of a fulfillment order's items could move: every other location, with Shopify's reason when it cannot. */
const LOCATIONS_FOR_MOVE = adminDocument<LocationsForMoveQuery, LocationsForMoveQueryVariables>(
  `#graphql
  query LocationsForMove($id: ID!) {
    fulfillmentOrder(id: $id) {
      id
      locationsForMove(first: 10) {
        nodes { location { id name } movable message }
      }
    }
  }
`
);

export type FulfillmentOrderChange = { ok: true } | { ok: false; message: string };

const refusal = (errors: readonly { message: string }[] | undefined): FulfillmentOrderChange =>
  errors && errors.length > 0 ? { ok: false, message: errors.map((error) => error.message).join(" ") } : { ok: true };

export interface LineQuantity {
  id: string;
  quantity: number;
}

/** Each of these fulfillment orders gives the lines named into a fulfillment order of their own, at its location. */
export async function splitFulfillmentOrders(admin: ShopAdmin, splits: readonly { fulfillmentOrderId: string; lines: readonly LineQuantity[] }[]): Promise<FulfillmentOrderChange> {
  const answer = await adminGraphql(admin, FULFILLMENT_ORDER_SPLIT, { splits: splits.map((split) => ({ fulfillmentOrderId: split.fulfillmentOrderId, fulfillmentOrderLineItems: [...split.lines] })) });
  return refusal(answer.fulfillmentOrderSplit?.userErrors);
}

/** The lines named (or all of it) ship from another location. */
export async function moveFulfillmentOrder(admin: ShopAdmin, fulfillmentOrderId: string, locationId: string, lines?: readonly LineQuantity[]): Promise<FulfillmentOrderChange> {
  const answer = await adminGraphql(admin, FULFILLMENT_ORDER_MOVE, { id: fulfillmentOrderId, locationId, ...(lines ? { lines: [...lines] } : {}) });
  return refusal(answer.fulfillmentOrderMove?.userErrors);
}

/** Fulfillment orders of one order at one location become one. */
export async function mergeFulfillmentOrders(admin: ShopAdmin, fulfillmentOrderIds: readonly string[]): Promise<FulfillmentOrderChange> {
  const answer = await adminGraphql(admin, FULFILLMENT_ORDER_MERGE, { ids: fulfillmentOrderIds.map((fulfillmentOrderId) => ({ fulfillmentOrderId })) });
  return refusal(answer.fulfillmentOrderMerge?.userErrors);
}

export interface MoveTarget {
  locationId: string;
  name: string;
  movable: boolean;
  /** Shopify's reason it cannot take the items. */
  message: string | null;
}

/** The locations a fulfillment order's items could move to; none when Shopify no longer has it. */
export async function locationsForMove(admin: ShopAdmin, fulfillmentOrderId: string): Promise<MoveTarget[]> {
  const { fulfillmentOrder } = await adminGraphql(admin, LOCATIONS_FOR_MOVE, { id: fulfillmentOrderId });
  return (fulfillmentOrder?.locationsForMove.nodes ?? []).map((node) => ({ locationId: node.location.id, name: node.location.name, movable: node.movable, message: node.message ?? null }));
}
