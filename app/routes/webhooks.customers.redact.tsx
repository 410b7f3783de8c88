import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { receiveWebhook } from "~/webhooks.server";

const CustomersRedactPayload = z.object({
  orders_to_redact: z.array(z.number().int().positive()).max(10_000).default([]),
});

export const action = async ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "customers/redact", ({ shop, payload }) => {
    const parsed = CustomersRedactPayload.safeParse(payload);
    if (!parsed.success) return { kind: "unusable", problem: `orders_to_redact is not a list of order ids (${parsed.error.issues[0]!.message})` };
    return { kind: "enqueue", queue: "customers-redact", data: { shop, orderIds: parsed.data.orders_to_redact } };
  });
