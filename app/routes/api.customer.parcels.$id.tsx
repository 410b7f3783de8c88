import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { customerOfToken, fulfillmentGidOf } from "~/tracking/customer-requests";
import { getParcelForCustomer } from "~/tracking/customer-parcels.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { authenticate, unauthenticated } from "~/shopify.server";

/**
 * GET /api/customer/parcels/{fulfillment id} — one parcel for the order status page's extension
 * (extensions/dakiya-order-status), answered to the signed-in customer whose order it is and to no one else
 * (extensions/shared/customer-parcel.ts says what each answer means). `authenticate.public.customerAccount` checks the
 * session token (401 when it does not verify) and answers the browser's preflight; every answer carries its CORS headers.
 */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { sessionToken, cors } = await authenticate.public.customerAccount(request);
  const fulfillmentGid = fulfillmentGidOf(params.id);
  if (!fulfillmentGid) return cors(json({ error: "The id must be the number of a fulfillment's GID" }, { status: 400 }));
  const who = customerOfToken(sessionToken, getConfig().SHOP_CUSTOM_DOMAIN);
  if (who.kind === "no_shop") return cors(json({ error: "The session token names no shop" }, { status: 401 }));
  if (who.kind === "no_customer") return cors(json({ error: "Sign in to your account to see this parcel", code: "login_required" }, { status: 401 }));
  const found = await getParcelForCustomer({ shop: who.shop, customerGid: who.customerGid, fulfillmentGid }, { adminFor: async (shop) => shopAdmin(shop, (await unauthenticated.admin(shop)).admin) });
  if (found.kind === "shopify_busy") return cors(json({ error: "Shopify is busy; try again in a minute" }, { status: 503, headers: { "Retry-After": String(found.retryAfterSeconds) } }));
  if (found.kind === "none") return cors(json({ error: "No parcel of yours ships with this fulfillment" }, { status: 404 }));
  return cors(json({ parcel: found.parcel }));
};
