import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "~/webhooks.server";

export const action = async ({ request }: ActionFunctionArgs) => receiveWebhook(request, "orders/cancelled", () => ({ kind: "acknowledge" }));
