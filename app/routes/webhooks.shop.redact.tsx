import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "~/webhooks.server";

// 48 hours after uninstall: everything Dakiya keeps about the shop is erased by a job (app/privacy/).
export const action = async ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "shop/redact", ({ shop }) => ({ kind: "enqueue", queue: "shop-redact", data: { shop } }));
