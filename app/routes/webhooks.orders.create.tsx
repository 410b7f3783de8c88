import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "~/webhooks.server";

// Recorded and acknowledged within Shopify's 5 s; orders are read fresh from the Admin API when shipped.
export const action = async ({ request }: ActionFunctionArgs) => receiveWebhook(request, "orders/create", () => ({ kind: "acknowledge" }));
