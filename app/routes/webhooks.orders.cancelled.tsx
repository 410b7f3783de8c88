import type { ActionFunctionArgs } from "@remix-run/node";
import { orderGidFromPayload } from "~/orders/webhook-payloads";
import { receiveWebhook } from "~/webhooks.server";

// The cancellation is recorded in the acknowledging transaction itself, so no booking of the order can start after
// this answer; the courier side (cancel-order, or needs attention after pickup) is the job's.
export const action = async ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "orders/cancelled", ({ shop, payload }) => {
    const orderGid = orderGidFromPayload(payload);
    if (!orderGid) return { kind: "unusable", problem: "the payload carries no usable order id (id or admin_graphql_api_id)" };
    return { kind: "enqueue", queue: "order-cancelled", data: { shop, orderGid }, cancelsOrder: true };
  });
