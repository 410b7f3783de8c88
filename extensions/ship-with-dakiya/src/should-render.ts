import type { Output as ShouldRenderOutput } from "@shopify/ui-extensions/admin.order-details.action.should-render";

/**
 * Whether "Ship with Dakiya" shows in the order's "More actions" menu. Runs on every order page, so it asks the
 * Admin API for two scalars and nothing else (`read_orders`).
 */
export const SHOULD_RENDER_QUERY = `#graphql
  query ShipWithDakiyaShouldRender($id: ID!) {
    order(id: $id) {
      displayFulfillmentStatus
      requiresShipping
    }
  }
`;

export interface ShouldRenderOrder {
  /** `OrderDisplayFulfillmentStatus`: FULFILLED once every item has left. */
  displayFulfillmentStatus: string;
  /** False when no line item needs physical shipping (gift cards, downloads). */
  requiresShipping: boolean;
}

export default async function shouldRender(): Promise<ShouldRenderOutput> {
  const orderGid = shopify.data.selected[0]?.id;
  if (!orderGid) return { display: false };
  let order: ShouldRenderOrder | null | undefined;
  try {
    const answer = await shopify.query<{ order: ShouldRenderOrder | null }>(SHOULD_RENDER_QUERY, {
      variables: { id: orderGid },
    });
    order = answer.data?.order;
  } catch {
    order = undefined;
  }
  // When the order cannot be read, show the action anyway: it asks the app and explains what stands in the way.
  if (!order) return { display: true };
  return { display: order.displayFulfillmentStatus !== "FULFILLED" && order.requiresShipping };
}
