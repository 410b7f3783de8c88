import * as z from "zod";
// The admin extensions' own contract (extensions/shared/api.ts) is the one definition of these routes: the server
// takes its limit and, in order-shipping.server.ts, answers its types, so the two cannot drift apart.
import { BULK_SHIP_LIMIT } from "../../extensions/shared/api";
import { orderGidOf } from "~/booking/overrides";

/**
 * What the extension routes accept (`/api/orders/…`), parsed at the edge. Pure. A request these refuse is the
 * caller's mistake: the routes answer it 400 with the reason, never a 5xx, and never as a business outcome.
 */

const ORDER_GID = /^gid:\/\/shopify\/Order\/\d{1,20}$/;

export const BookBodySchema = z.object({
  courierId: z.number({ error: "courierId must be a number: the courierId of one of the order's rates" }).int({ error: "courierId must be a whole number" }).positive({ error: "courierId must be positive" }),
});

/** Sync takes no parameters; the contract sends `{}`. */
export const SyncBodySchema = z.object({});

export const BulkShipBodySchema = z.object({
  orderIds: z
    .array(z.string({ error: "Each order id must be a string" }).regex(ORDER_GID, { error: "Each order id must be an order GID, gid://shopify/Order/<number>" }), {
      error: "orderIds must be a list of order GIDs",
    })
    .min(1, { error: "Send at least one order" })
    .max(BULK_SHIP_LIMIT, { error: `At most ${BULK_SHIP_LIMIT} orders per request; send the rest in another` }),
});

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** The order GID for a route's `{id}`: the number in the order's GID, nothing else. */
export function parseOrderId(id: string | undefined): Parsed<string> {
  const orderGid = orderGidOf(id ?? "");
  return orderGid ? { ok: true, value: orderGid } : { ok: false, error: `The order id must be the number in the order's GID, not ${JSON.stringify((id ?? "").slice(0, 40))}` };
}

/** A JSON body of the given shape; the first thing wrong with it, in words, otherwise. */
export async function parseJsonBody<T>(request: Request, schema: z.ZodType<T>): Promise<Parsed<T>> {
  let raw: unknown;
  try {
    raw = JSON.parse(await request.text());
  } catch {
    return { ok: false, error: "The body must be JSON" };
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { ok: false, error: "The body must be a JSON object" };
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  // Every message of the schemas above names its field and says what is wrong with it.
  return { ok: false, error: parsed.error.issues[0]!.message };
}
