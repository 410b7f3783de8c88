import type { ActionFunctionArgs } from "@remix-run/node";
import * as z from "zod";
import { receiveWebhook } from "~/webhooks.server";

// Shopify's body: `{ "id", "previous": [scopes], "current": [scopes], "updated_at" }`.
const ScopesPayloadSchema = z.object({ current: z.array(z.string().regex(/^[a-z_]{1,64}$/)).max(100) });

export const action = async ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, "app/scopes_update", ({ shop, payload }) => {
    const parsed = ScopesPayloadSchema.safeParse(payload);
    if (!parsed.success) return { kind: "unusable", problem: "the body has no list of current scopes" };
    return { kind: "enqueue", queue: "scopes-updated", data: { shop, scopes: parsed.data.current } };
  });
