import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveWebhook } from "~/webhooks.server";

export const action = async ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "app/uninstalled", ({ shop }) => ({ kind: "enqueue", queue: "app-uninstalled", data: { shop } }));
