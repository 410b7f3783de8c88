import type { ActionFunctionArgs } from "@remix-run/node";
import { orderGidFromPayload } from "~/orders/webhook-payloads";
import { receiveWebhook } from "~/webhooks.server";

// A paid order is checked again at once: a shopper asked to confirm cash on delivery who paid Shopify's invoice
// instead is waiting for it to ship prepaid. The check reads the order fresh; the body is only its id.
export const action = async ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "orders/paid", ({ shop, payload }) => {
    const orderGid = orderGidFromPayload(payload);
    if (!orderGid) return { kind: "unusable", problem: "the payload carries no usable order id (id or admin_graphql_api_id)" };
    return { kind: "enqueue", queue: "order-check", data: { shop, orderGid } };
  });
