import type { ActionFunctionArgs } from "@remix-run/node";
import { cancelledAtFromPayload, orderGidFromPayload } from "~/orders/webhook-payloads";
import { receiveWebhook } from "~/webhooks.server";

// Only a body that says the order is cancelled is work, and the job acts only once Shopify's Admin API confirms it
// for this shop (the topic and shop headers are not signed): it records the cancellation first, then the courier
// side (cancel-order, or needs attention after pickup).
export const action = async ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "orders/cancelled", ({ shop, payload }) => {
    const orderGid = orderGidFromPayload(payload);
    if (!orderGid) return { kind: "unusable", problem: "the payload carries no usable order id (id or admin_graphql_api_id)" };
    if (!cancelledAtFromPayload(payload)) return { kind: "unusable", problem: "the payload does not say the order is cancelled (cancelled_at)" };
    return { kind: "enqueue", queue: "order-cancelled", data: { shop, orderGid } };
  });
