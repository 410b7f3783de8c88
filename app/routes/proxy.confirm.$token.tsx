import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { answerConfirmationRequest, confirmationFragment, FRAGMENT_HEADERS } from "~/cod/confirmation-page.server";
import { authenticate } from "~/shopify.server";
import { forStorefront } from "~/shopify/storefront-sessions.server";
import { repeatedParameterOf } from "~/storefront/app-proxy";

/**
 * `GET|POST {store's proxy path}/confirm/{token}`: the shopper's confirmation link on the shop's own domain, inside the
 * shop's theme. Signed by Shopify (checked by the library: 400); a parameter sent twice 400; a shop without a session
 * (unknown, uninstalled) 404; a link of another shop's is "not valid" here.
 */
const respond = async ({ request, params, context }: LoaderFunctionArgs | ActionFunctionArgs) => {
  const { session, liquid } = await forStorefront(() => authenticate.public.appProxy(request));
  if (!session) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  if (repeatedParameterOf(new URL(request.url).searchParams)) return new Response("Bad Request", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  const answer = await answerConfirmationRequest({ request, token: params.token, shop: session.shop, clientAddress: context.clientAddress ?? "unknown" });
  return liquid(confirmationFragment(answer), { status: answer.status, headers: { ...FRAGMENT_HEADERS, ...(answer.retryAfter ? { "Retry-After": String(answer.retryAfter) } : {}) } });
};

export const loader = respond;
export const action = respond;
