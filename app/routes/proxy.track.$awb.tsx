import type { LoaderFunctionArgs } from "@remix-run/node";
import { TRACKING_LINK_TOKEN_PARAM } from "~/shipping/tracking-url";
import { authenticate } from "~/shopify.server";
import { forStorefront } from "~/shopify/storefront-sessions.server";
import { proxyPathOf } from "~/storefront/app-proxy";
import { deliveryEstimates } from "~/storefront/delivery-estimate.server";
import { renderShopTracking, renderShopTrackingNotFound } from "~/storefront/shop-tracking.server";
import { createCallerLimiter } from "~/caller-limits.server";
import { getPublicTracking } from "~/tracking/public-tracking.server";
import { pickLanguage, retryMessage } from "~/tracking/tracking-locale";

/**
 * Every shopper arrives through Shopify's proxy, from Shopify's addresses: lookups are counted per shop, with room
 * for a busy shop's shoppers, so awbs cannot be tried in bulk through one store.
 */
const shopLookupLimiter = createCallerLimiter({ limits: { limit: 600, windowMs: 60_000, maxTracked: 10_000 } });

/**
 * `GET {store's proxy path}/track/{awb}`: the public tracking page on the shop's own domain, inside the shop's theme
 * (Shopify renders the `application/liquid` answer in the theme's layout). Only the shop's own shipments; the app's
 * `/track/{awb}` serves links sent before. Signature checked by the library (400); no session (unknown or
 * uninstalled shop): 404.
 */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session, liquid } = await forStorefront(() => authenticate.public.appProxy(request));
  const url = new URL(request.url);
  const language = pickLanguage(url.searchParams.get("lang"), request.headers.get("accept-language"));
  if (!session) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

  const proxyPath = proxyPathOf(url.searchParams);
  if (proxyPath) await deliveryEstimates.noteProxyPath(session.shop, proxyPath);

  const wait = shopLookupLimiter.take(session.shop);
  if (wait > 0) return liquid(`<p>${retryMessage(language, wait)}</p>`, { status: 429, headers: { "Retry-After": String(wait), "Cache-Control": "no-store" } });

  const tracking = await getPublicTracking(params.awb, { shop: session.shop, token: url.searchParams.get(TRACKING_LINK_TOKEN_PARAM) });
  if (!tracking) return liquid(renderShopTrackingNotFound(language), { status: 404, headers: { "Cache-Control": "no-store" } });
  return liquid(renderShopTracking(tracking, language), { headers: { "Cache-Control": "private, max-age=60" } });
};
