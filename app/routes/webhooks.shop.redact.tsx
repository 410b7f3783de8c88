import type { ActionFunctionArgs } from "@remix-run/node";
import { forgetShop } from "~/privacy/personal-data.server";
import { receiveWebhook } from "~/webhooks.server";

export const action = async ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, async ({ shop }) => {
    await forgetShop(shop);
  });
