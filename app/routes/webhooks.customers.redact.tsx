import type { ActionFunctionArgs } from "@remix-run/node";
import * as z from "zod";
import { redactionKeysOf } from "~/cod/shopper-keys.server";
import { receiveWebhook } from "~/webhooks.server";

const CustomersRedactPayload = z.object({
  customer: z.object({ email: z.string().max(320).nullish(), phone: z.string().max(40).nullish() }).optional(),
  orders_to_redact: z.array(z.number().int().positive()).max(10_000).default([]),
});

// The customer's phone and e-mail travel on only as the keyed hashes Dakiya's COD history keeps them as: the job's
// data never holds them in clear.
export const action = async ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "customers/redact", ({ shop, payload }) => {
    const parsed = CustomersRedactPayload.safeParse(payload);
    if (!parsed.success) return { kind: "unusable", problem: `orders_to_redact is not a list of order ids (${parsed.error.issues[0]!.message})` };
    const shopperKeys = redactionKeysOf(shop, parsed.data.customer ?? {});
    return { kind: "enqueue", queue: "customers-redact", data: { shop, orderIds: parsed.data.orders_to_redact, ...(shopperKeys.length > 0 ? { shopperKeys } : {}) } };
  });
