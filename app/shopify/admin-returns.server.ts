import type { ShopAdmin } from "./admin-graphql.server";
import { adminGraphql as run } from "./admin-graphql.server";
import { withPlainText } from "./order-mapping";
import { RECENT_ORDER_RETURNS, RETURN_FOR_PICKUP, RETURN_PROCESS, REVERSE_DELIVERY_CREATE, type ShopifyReturn } from "./return-queries";

export const isReturnGid = (gid: string) => /^gid:\/\/shopify\/Return\/\d{1,20}$/.test(gid);

export async function getReturnForPickup(admin: ShopAdmin, returnGid: string): Promise<ShopifyReturn | null> {
  return withPlainText((await run(admin, RETURN_FOR_PICKUP, { id: returnGid })).return);
}

export interface ReverseDeliveryRequest {
  returnGid: string;
  awb: string;
  trackingUrl: string;
  labelUrl?: string | null;
  notifyCustomer: boolean;
}

export type ReverseDeliveryOutcome = { kind: "attached"; reverseDeliveryGid: string; created: boolean } | { kind: "refused"; message: string };

/**
 * Attaches the pickup to the return's open reverse fulfillment order as a reverse delivery with its tracking: the
 * shopper sees the number and Dakiya's tracking link in Shopify. reverseDeliveryCreateWithShipping has no
 * idempotency of its own, so the return is read first: a reverse delivery already carrying this awb is the result
 * of an earlier attempt and is returned as it is. Throws when Shopify cannot be reached, for the caller to retry.
 */
export async function attachReverseDelivery(admin: ShopAdmin, request: ReverseDeliveryRequest): Promise<ReverseDeliveryOutcome> {
  const ret = await getReturnForPickup(admin, request.returnGid);
  if (!ret) return { kind: "refused", message: "The return no longer exists in Shopify." };
  for (const rfo of ret.reverseFulfillmentOrders.nodes) {
    const existing = rfo.reverseDeliveries.nodes.find((delivery) => delivery.deliverable?.tracking?.number === request.awb);
    if (existing) return { kind: "attached", reverseDeliveryGid: existing.id, created: false };
  }
  const rfo = ret.reverseFulfillmentOrders.nodes.find((candidate) => candidate.status === "OPEN");
  if (!rfo) return { kind: "refused", message: `The return is ${ret.status.toLowerCase()} in Shopify: it has no open reverse fulfillment order to attach the pickup to.` };
  const create = (labelUrl: string | null | undefined) =>
    run(admin, REVERSE_DELIVERY_CREATE, {
      reverseFulfillmentOrderId: rfo.id,
      reverseDeliveryLineItems: rfo.lineItems.nodes.map((line) => ({ reverseFulfillmentOrderLineItemId: line.id, quantity: line.totalQuantity })),
      // Its tracking input has a number and a URL only: the courier's name reaches the shopper on Dakiya's tracking page.
      trackingInput: { number: request.awb, url: request.trackingUrl },
      ...(labelUrl ? { labelInput: { fileUrl: labelUrl } } : {}),
      notifyCustomer: request.notifyCustomer,
    });
  let result = await create(request.labelUrl);
  const refusedLabel = (result.reverseDeliveryCreateWithShipping?.userErrors ?? []).some((error) => error.field?.[0] === "labelInput");
  if (!result.reverseDeliveryCreateWithShipping?.reverseDelivery && request.labelUrl && refusedLabel) {
    // The pickup's tracking matters more than its label: Shopify refusing the label's file must not keep the shopper
    // from seeing that a courier is coming. The courier's agent brings a label to a pickup in any case.
    console.warn("Returns: Shopify refused the return label's file; the reverse delivery is attached without it");
    result = await create(null);
  }
  const reverseDelivery = result.reverseDeliveryCreateWithShipping?.reverseDelivery;
  if (!reverseDelivery) return { kind: "refused", message: (result.reverseDeliveryCreateWithShipping?.userErrors ?? []).map((error) => error.message).join(" ") || "Shopify refused the reverse delivery." };
  return { kind: "attached", reverseDeliveryGid: reverseDelivery.id, created: true };
}

export type Disposition = "RESTOCKED" | "PROCESSING_REQUIRED";

/**
 * Records what happens to the items that came back, as the merchant chose (restock at the location, or leave for
 * inspection): returnProcess with a disposition per line and no financial transfer, so nothing is refunded.
 */
export async function processReturnedItems(admin: ShopAdmin, returnGid: string, disposition: Disposition, locationGid: string | null): Promise<{ kind: "processed" } | { kind: "refused"; message: string }> {
  const ret = await getReturnForPickup(admin, returnGid);
  if (!ret) return { kind: "refused", message: "The return no longer exists in Shopify." };
  if (ret.status !== "OPEN") return { kind: "processed" };
  const rfoLines = ret.reverseFulfillmentOrders.nodes.flatMap((rfo) => rfo.lineItems.nodes);
  const returnLineItems = ret.returnLineItems.nodes.flatMap((line) => {
    const rfoLine = rfoLines.find((candidate) => candidate.fulfillmentLineItem?.id === line.fulfillmentLineItem.id);
    if (!rfoLine) return [];
    return [{
      id: line.id,
      quantity: line.quantity,
      dispositions: [{ reverseFulfillmentOrderLineItemId: rfoLine.id, quantity: line.quantity, dispositionType: disposition, ...(locationGid ? { locationId: locationGid } : {}) }],
    }];
  });
  if (returnLineItems.length === 0) return { kind: "refused", message: "The return's items could not be matched to its reverse fulfillment order." };
  const result = await run(admin, RETURN_PROCESS, { input: { returnId: returnGid, returnLineItems, notifyCustomer: false } });
  if (!result.returnProcess?.return) return { kind: "refused", message: (result.returnProcess?.userErrors ?? []).map((error) => error.message).join(" ") || "Shopify refused to process the return." };
  return { kind: "processed" };
}

/** Open returns of the orders changed since a time: the reconciliation finds returns whose webhook never came. */
export async function listOpenReturnsOfRecentOrders(admin: ShopAdmin, { since, after }: { since: Date; after: string | null }) {
  const { orders } = await run(admin, RECENT_ORDER_RETURNS, {
    after,
    query: `updated_at:>='${since.toISOString()}'`,
  });
  return { returns: orders.nodes.flatMap((order) => order.returns.nodes), nextCursor: orders.pageInfo.hasNextPage ? orders.pageInfo.endCursor : null };
}
