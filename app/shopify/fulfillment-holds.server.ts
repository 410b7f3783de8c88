import type {
  FulfillmentOrderHoldMutation,
  FulfillmentOrderHoldMutationVariables,
  FulfillmentOrderReleaseHoldMutation,
  FulfillmentOrderReleaseHoldMutationVariables,
  OrderFulfillmentHoldsQuery,
  OrderFulfillmentHoldsQueryVariables,
} from "~/types/admin.generated";
import { adminDocument } from "./admin-document";
import { adminGraphql, type ShopAdmin } from "./admin-graphql.server";
import { COD_CONFIRMATION_HOLD } from "./order-mapping";

/**
 * Dakiya's fulfillment holds on an order in Shopify: while one stands on a fulfillment order, nothing ships from it —
 * not from Dakiya, and not by hand in Shopify (fulfillmentCreate refuses a fulfillment order ON_HOLD). Each of
 * Dakiya's holds has its own handle (unique per app and fulfillment order, at most 64 characters; an app may keep 10
 * holds on one): the review hold of a Flow workflow, and the hold while the shopper confirms cash on delivery.
 */

export const HOLD_HANDLES = {
  /** Held for the merchant's review (Shopify Flow's "Hold for review"). */
  review: "dakiya-review",
  /** Held until the shopper confirms their cash-on-delivery order (or the merchant stops waiting). */
  codConfirmation: COD_CONFIRMATION_HOLD,
} as const;

export type HoldHandle = (typeof HOLD_HANDLES)[keyof typeof HOLD_HANDLES];

const ORDER_FULFILLMENT_HOLDS = adminDocument<OrderFulfillmentHoldsQuery, OrderFulfillmentHoldsQueryVariables>(
  `#graphql
  query OrderFulfillmentHolds($id: ID!) {
    order(id: $id) {
      id
      name
      fulfillmentOrders(first: 20) {
        nodes {
          id
          status
          supportedActions { action }
          fulfillmentHolds { id handle heldByRequestingApp }
        }
      }
    }
  }
`
);

const FULFILLMENT_ORDER_HOLD = adminDocument<FulfillmentOrderHoldMutation, FulfillmentOrderHoldMutationVariables>(
  `#graphql
  mutation FulfillmentOrderHold($id: ID!, $hold: FulfillmentOrderHoldInput!) {
    fulfillmentOrderHold(id: $id, fulfillmentHold: $hold) {
      fulfillmentHold { id handle }
      userErrors { field message code }
    }
  }
`
);

const FULFILLMENT_ORDER_RELEASE_HOLD = adminDocument<FulfillmentOrderReleaseHoldMutation, FulfillmentOrderReleaseHoldMutationVariables>(
  `#graphql
  mutation FulfillmentOrderReleaseHold($id: ID!, $holdIds: [ID!]) {
    fulfillmentOrderReleaseHold(id: $id, holdIds: $holdIds) {
      fulfillmentOrder { id status }
      userErrors { field message code }
    }
  }
`
);

export type HoldOutcome =
  | { kind: "not_found" }
  /** Nothing of the order is left to hold: every fulfillment order is shipped, closed or cancelled. */
  | { kind: "nothing_to_hold"; orderName: string }
  /** Shopify refused every hold, in its words. */
  | { kind: "refused"; orderName: string; message: string }
  /** Held: the holds with this handle now on the order (placed now, or found from an earlier try), and how many fulfillment orders are held. */
  | { kind: "held"; orderName: string; holdIds: string[]; fulfillmentOrders: number };

/**
 * Puts a hold with `handle` on every fulfillment order of the order that can still ship. A fulfillment order that
 * already carries this handle (an earlier try that Dakiya did not hear back from) keeps it and counts as held.
 */
export async function holdOrder(admin: ShopAdmin, orderGid: string, { handle, reason, reasonNotes }: { handle: HoldHandle; reason: "OTHER" | "HIGH_RISK_OF_FRAUD" | "INCORRECT_ADDRESS" | "AWAITING_PAYMENT"; reasonNotes: string }): Promise<HoldOutcome> {
  const { order } = await adminGraphql(admin, ORDER_FULFILLMENT_HOLDS, { id: orderGid });
  if (!order) return { kind: "not_found" };
  const ours = (fo: (typeof order.fulfillmentOrders.nodes)[number]) => fo.fulfillmentHolds.filter((hold) => hold.handle === handle && hold.heldByRequestingApp);
  const already = order.fulfillmentOrders.nodes.filter((fo) => ours(fo).length > 0);
  const holdable = order.fulfillmentOrders.nodes.filter((fo) => ours(fo).length === 0 && fo.supportedActions.some((supported) => supported.action === "HOLD"));
  if (holdable.length === 0 && already.length === 0) return { kind: "nothing_to_hold", orderName: order.name };
  const holdIds = already.flatMap((fo) => ours(fo).map((hold) => hold.id));
  const refused: string[] = [];
  let held = already.length;
  for (const fo of holdable) {
    const answer = await adminGraphql(admin, FULFILLMENT_ORDER_HOLD, { id: fo.id, hold: { reason, reasonNotes: reasonNotes.slice(0, 255), handle, notifyMerchant: false } });
    const placed = answer.fulfillmentOrderHold?.fulfillmentHold;
    if (placed) {
      holdIds.push(placed.id);
      held += 1;
      continue;
    }
    const errors = answer.fulfillmentOrderHold?.userErrors ?? [];
    // Placed by a try whose answer was lost: the next read of the order finds it.
    if (errors.some((error) => error.code === "DUPLICATE_FULFILLMENT_HOLD_HANDLE")) held += 1;
    else refused.push(errors.map((error) => error.message).join(" ") || "Shopify did not hold it.");
  }
  if (held === 0) return { kind: "refused", orderName: order.name, message: refused.join(" ").slice(0, 500) };
  return { kind: "held", orderName: order.name, holdIds, fulfillmentOrders: held };
}

/**
 * Releases Dakiya's holds with `handle` on the order (others' holds stay). Returns how many fulfillment orders it
 * released; one whose hold is gone already (released in Shopify by the merchant) counts as done.
 */
export async function releaseOrderHolds(admin: ShopAdmin, orderGid: string, handle: HoldHandle): Promise<{ released: number; refused: string[] } | null> {
  const { order } = await adminGraphql(admin, ORDER_FULFILLMENT_HOLDS, { id: orderGid });
  if (!order) return null;
  let released = 0;
  const refused: string[] = [];
  for (const fo of order.fulfillmentOrders.nodes) {
    const holdIds = fo.fulfillmentHolds.filter((hold) => hold.handle === handle && hold.heldByRequestingApp).map((hold) => hold.id);
    if (holdIds.length === 0) continue;
    const answer = await adminGraphql(admin, FULFILLMENT_ORDER_RELEASE_HOLD, { id: fo.id, holdIds });
    const errors = answer.fulfillmentOrderReleaseHold?.userErrors ?? [];
    if (errors.length > 0) refused.push(errors.map((error) => error.message).join(" "));
    else released += 1;
  }
  return { released, refused };
}
