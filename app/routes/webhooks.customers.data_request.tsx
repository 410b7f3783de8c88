import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "~/webhooks.server";

// Dakiya holds no customer data beyond what the merchant's own Shopify order already shows,
// so the request is acknowledged; the merchant answers the customer from Shopify.
export const action = async ({ request }: ActionFunctionArgs) => receiveWebhook(request, "customers/data_request", () => ({ kind: "acknowledge" }));
