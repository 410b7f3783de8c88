import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "~/shopify.server";
import { forStorefront } from "~/shopify/storefront-sessions.server";
import { proxyPathOf } from "~/storefront/app-proxy";
import { parseEstimateQuery, storefrontLanguage, storefrontStrings } from "~/storefront/delivery-estimate";
import { deliveryEstimates } from "~/storefront/delivery-estimate.server";

/** The browser may keep an answer this long: dates move at the shop's cut-off, so not for hours. */
const BROWSER_CACHE = "private, max-age=300";

const answer = (status: number, body: unknown, cacheControl = "no-store", headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": cacheControl, ...headers } });

/**
 * `GET {store's proxy path}/delivery-estimate?pincode=NNNNNN[&grams=…][&amount=…][&locale=hi]` through Shopify's
 * app proxy: the Delivery estimate block's answer, documented in docs/storefront-api.md. The library refuses an
 * unsigned, forged or stale (over 90 s) request with 400; a shop it has no session for (unknown, uninstalled) gets
 * 404 here, since the library hands such a request through. Nothing here reads Shopify or waits for the shop's
 * budgets: past the shop's share of courier quotes, or for a variant not read yet, the answer is "try again
 * shortly" with Retry-After (app/storefront/delivery-estimate.server.ts).
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await forStorefront(() => authenticate.public.appProxy(request));
  const params = new URL(request.url).searchParams;
  if (!session) {
    const language = storefrontLanguage(params.get("locale"));
    return answer(404, { error: "not_found", message: storefrontStrings(language).errors.notFound });
  }
  const parsed = parseEstimateQuery(params);
  if (!parsed.ok) return answer(400, { error: "invalid", field: parsed.field, message: parsed.message, language: parsed.language });

  const proxyPath = proxyPathOf(params);
  if (proxyPath) await deliveryEstimates.noteProxyPath(session.shop, proxyPath);
  const estimate = await deliveryEstimates.estimate(session.shop, parsed.query);
  const retry: Record<string, string> = estimate.retryAfterSeconds ? { "Retry-After": String(estimate.retryAfterSeconds) } : {};
  return answer(200, { ...estimate, proxyPath }, estimate.status === "unavailable" ? "no-store" : BROWSER_CACHE, retry);
};
