import type { ActionFunctionArgs } from "@remix-run/node";
import * as z from "zod";
import { redactionKeysOf } from "~/cod/shopper-keys.server";
import { receiveWebhook } from "~/webhooks.server";

const DataRequestPayload = z.object({
  customer: z
    .object({ id: z.union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,20}$/)]), email: z.string().max(320).nullish(), phone: z.string().max(40).nullish() })
    .optional(),
  orders_requested: z.array(z.number().int().positive()).max(10_000).default([]),
});

// Recorded for the merchant, who downloads what Dakiya holds for those orders from Needs attention (app/privacy/).
export const action = async ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "customers/data_request", ({ shop, webhookId, triggeredAt, payload }) => {
    const parsed = DataRequestPayload.safeParse(payload);
    if (!parsed.success) return { kind: "unusable", problem: `orders_requested is not a list of order ids (${parsed.error.issues[0]!.message})` };
    const customerId = parsed.data.customer ? String(parsed.data.customer.id) : "";
    // Their phone and e-mail find their COD history by its keyed hashes; only the hashes are kept.
    const shopperKeys = redactionKeysOf(shop, parsed.data.customer ?? {});
    return {
      kind: "enqueue",
      queue: "customers-data-request",
      data: { shop, requestId: webhookId, customerId, orderIds: parsed.data.orders_requested, requestedAt: (triggeredAt ?? new Date()).toISOString(), ...(shopperKeys.length > 0 ? { shopperKeys } : {}) },
    };
  });
