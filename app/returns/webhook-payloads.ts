import * as z from "zod";

/**
 * The return a returns/* webhook is about, from the ids its subscription includes (shopify.app.toml). As for
 * orders, the REST id and the GraphQL id must agree when both are there; anything else is unusable: acknowledged
 * and recorded with the reason, not retried. The job reads the return fresh from the Admin API, so nothing else in
 * the body is believed.
 */
const ReturnPayloadSchema = z.object({
  id: z.union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,20}$/)]).optional(),
  admin_graphql_api_id: z.string().regex(/^gid:\/\/shopify\/Return\/\d{1,20}$/).optional(),
});

export function returnGidFromPayload(payload: unknown): string | null {
  const parsed = ReturnPayloadSchema.safeParse(payload);
  if (!parsed.success) return null;
  const { id, admin_graphql_api_id: gid } = parsed.data;
  const fromId = id === undefined ? null : `gid://shopify/Return/${id}`;
  if (gid && fromId && gid !== fromId) return null;
  return gid ?? fromId;
}
