import * as z from "zod";

/**
 * The order an orders/* webhook is about. Shopify sends both the REST id and the GraphQL id; either will do, and
 * they must agree when both are there. Anything else (a missing id, a string where a number belongs, an id of
 * another resource) is unusable: the delivery is acknowledged and recorded with the reason, not retried.
 */
const OrderPayloadSchema = z.object({
  id: z.union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,20}$/)]).optional(),
  admin_graphql_api_id: z.string().regex(/^gid:\/\/shopify\/Order\/\d{1,20}$/).optional(),
});

export function orderGidFromPayload(payload: unknown): string | null {
  const parsed = OrderPayloadSchema.safeParse(payload);
  if (!parsed.success) return null;
  const { id, admin_graphql_api_id: gid } = parsed.data;
  const fromId = id === undefined ? null : `gid://shopify/Order/${id}`;
  if (gid && fromId && gid !== fromId) return null;
  return gid ?? fromId;
}

const CancelledPayloadSchema = z.object({ cancelled_at: z.iso.datetime({ offset: true }) });

/** When an orders/* body says the order was cancelled; null when it says it is not (`cancelled_at` null or absent). */
export function cancelledAtFromPayload(payload: unknown): Date | null {
  const parsed = CancelledPayloadSchema.safeParse(payload);
  return parsed.success ? new Date(parsed.data.cancelled_at) : null;
}
