import type { ActionFunctionArgs } from "@remix-run/node";
import { orderGidFromPayload } from "~/orders/webhook-payloads";
import { receiveWebhook } from "~/webhooks.server";

// Acknowledged as soon as the order's check is durably enqueued; the check reads the order fresh from Shopify.
export const action = async ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "orders/create", ({ shop, payload }) => {
    const orderGid = orderGidFromPayload(payload);
    if (!orderGid) return { kind: "unusable", problem: "the payload carries no usable order id (id or admin_graphql_api_id)" };
    return { kind: "enqueue", queue: "order-check", data: { shop, orderGid } };
  });
