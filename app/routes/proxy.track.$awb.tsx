import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ANSWER_FORM_BYTES, answerFailedAttempt, answerFormRefused, failedAttemptAnswerView, type FailedAttemptAnswerView } from "~/tracking/failed-attempt-answer.server";
import { readPublicForm } from "~/security/public-form.server";
import { TRACKING_LINK_TOKEN_PARAM } from "~/shipping/tracking-url";
import { authenticate } from "~/shopify.server";
import { forStorefront } from "~/shopify/storefront-sessions.server";
import { proxyPathOf, repeatedParameterOf } from "~/storefront/app-proxy";
import { deliveryEstimates } from "~/storefront/delivery-estimate.server";
import { renderShopTracking, renderShopTrackingMessage, renderShopTrackingNotFound } from "~/tracking/shop-tracking.server";
import { takeStoreLookupByNumber } from "~/storefront/shop-tracking-limits.server";
import { lookUpTracking } from "~/tracking/public-tracking.server";
import { pickLanguage, retryMessage, stringsFor, type Language } from "~/tracking/tracking-locale";

/**
 * `GET {store's proxy path}/track/{awb}`: the public tracking page on the shop's own domain, inside the shop's theme
 * (Shopify renders the `application/liquid` answer in the theme's layout). Only the shop's own shipments; the app's
 * `/track/{awb}` serves links sent before. Signature checked by the library (400); a parameter sent twice, which
 * the signature covers only as one, 400 too; no session (unknown or uninstalled shop): 404. A shopper following
 * their parcel's link is never limited by anyone else's lookups; lookups by number are (per logged-in customer,
 * else per shop: app/storefront/shop-tracking-limits.server.ts).
 */
export const loader = async ({ request, params }: LoaderFunctionArgs) => shopTrackingPage(request, params.awb);

/**
 * `POST {store's proxy path}/track/{awb}?token=…`: the shopper's answer to a failed delivery from the form on the
 * page, as on the app's own page (app/routes/track.$awb.tsx): only from the holder of the parcel's own link, while it
 * is in a failed attempt; a 403 otherwise.
 */
export const action = async ({ request, params }: ActionFunctionArgs) => {
  const read = await readPublicForm(request, ANSWER_FORM_BYTES);
  if (!read.ok) return answerFormRefused(read.problem);
  const form = read.fields;
  return shopTrackingPage(request, params.awb, async (holder, language) => {
    const answered = await answerFailedAttempt(params.awb, holder, form, language);
    return answered.kind === "refused" ? { refused: true } : { view: answered.view, status: answered.kind === "invalid" ? 422 : answered.kind === "closed" ? 409 : 200 };
  });
};

type Answering = (holder: { token: string | null; shop: string }, language: Language) => Promise<{ refused: true } | { view: FailedAttemptAnswerView; status: number }>;

async function shopTrackingPage(request: Request, rawAwb: string | undefined, answering?: Answering) {
  const { session, liquid } = await forStorefront(() => authenticate.public.appProxy(request));
  const url = new URL(request.url);
  const language = pickLanguage(url.searchParams.get("lang"), request.headers.get("accept-language"));
  if (!session) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  if (repeatedParameterOf(url.searchParams)) {
    const t = stringsFor(language).badRequest;
    return liquid(renderShopTrackingMessage(language, t.title, t.body), { status: 400, headers: { "Cache-Control": "no-store" } });
  }

  const proxyPath = proxyPathOf(url.searchParams);
  if (proxyPath) await deliveryEstimates.noteProxyPath(session.shop, proxyPath);

  const token = url.searchParams.get(TRACKING_LINK_TOKEN_PARAM);
  const lookup = await lookUpTracking(rawAwb, {
    shop: session.shop,
    token,
    takeByNumber: () => takeStoreLookupByNumber(session.shop, url.searchParams.get("logged_in_customer_id")),
  });
  if (lookup.kind === "limited") {
    const message = retryMessage(language, lookup.wait, lookup.byLink ? "network" : "store");
    return liquid(renderShopTrackingMessage(language, stringsFor(language).rateLimited.title, message), { status: 429, headers: { "Retry-After": String(lookup.wait), "Cache-Control": "no-store" } });
  }
  if (lookup.kind === "not_found") return liquid(renderShopTrackingNotFound(language), { status: 404, headers: { "Cache-Control": "no-store" } });
  const holder = { token, shop: session.shop };
  const answered = answering && lookup.tracking.detail === "full" ? await answering(holder, language) : null;
  if (answering && (!answered || "refused" in answered)) {
    const t = stringsFor(language).answer;
    return liquid(renderShopTrackingMessage(language, t.refusedTitle, t.refused), { status: 403, headers: { "Cache-Control": "no-store" } });
  }
  const answerView = answered && "view" in answered ? answered.view : lookup.tracking.detail === "full" ? await failedAttemptAnswerView(rawAwb, holder) : null;
  return liquid(renderShopTracking(lookup.tracking, language, answerView), { status: answered && "status" in answered ? answered.status : 200, headers: { "Cache-Control": answerView ? "no-store" : "private, max-age=60" } });
}
