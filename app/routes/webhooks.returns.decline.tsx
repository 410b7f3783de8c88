import type { ActionFunctionArgs } from "@remix-run/node";
import { returnGidFromPayload } from "~/returns/webhook-payloads";
import { receiveWebhook } from "~/webhooks.server";

// The body only names the return: the job reads it from the Admin API for this shop and acts on what it finds.
export const action = async ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "returns/decline", ({ shop, payload }) => {
    const returnGid = returnGidFromPayload(payload);
    if (!returnGid) return { kind: "unusable", problem: "the payload carries no usable return id (id or admin_graphql_api_id)" };
    return { kind: "enqueue", queue: "return-check", data: { shop, returnGid } };
  });
