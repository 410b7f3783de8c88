import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { extensionContext, getOrderShipping } from "~/extension-api/order-shipping.server";
import { parseOrderId } from "~/extension-api/requests";
import { authenticate } from "~/shopify.server";

/**
 * GET /api/orders/{id} — the order-page extensions' view of one order (`OrderShipping`, extensions/shared/api.ts).
 * A resource route (no component): Remix hands what `authenticate.admin` throws (the CORS preflight's 204, a 401
 * for a bad session token) straight back. Cross-origin from the admin, so every answer goes through `cors`.
 */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { admin, session, cors } = await authenticate.admin(request);
  const orderId = parseOrderId(params.id);
  if (!orderId.ok) return cors(json({ error: orderId.error }, { status: 400 }));
  return cors(json(await getOrderShipping(extensionContext(session.shop, admin), orderId.value)));
};
