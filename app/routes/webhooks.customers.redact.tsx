import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { redactCustomer } from "~/privacy/personal-data.server";
import { receiveWebhook } from "~/webhooks.server";

const CustomersRedactPayload = z.object({
  orders_to_redact: z.array(z.number().int()).default([]),
});

export const action = async ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, async ({ shop, payload }) => {
    const { orders_to_redact } = CustomersRedactPayload.parse(payload);
    await redactCustomer(shop, orders_to_redact);
  });
