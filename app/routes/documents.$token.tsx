import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createCallerLimiter, type CallerLimits } from "~/caller-limits.server";
import { answerDocument } from "~/documents/document-responses.server";
import { verifyDocumentLink, type DocumentGrant } from "~/documents/document-links.server";
import { printLabels, printManifest, printReturnLabel, type RenderedDocument } from "~/documents/documents.server";

/**
 * GET /documents/{signed token} — a document opened outside the app's session (a download in a new tab, the
 * demo's files, a return's label from Shopify): only through a link Dakiya signed for this shop and these shipments.
 * Anything else answers 404 and says nothing of why. Opening changes nothing: link previewers, mail scanners and
 * a merchant's second look fetch it too. "Printed" is recorded by the merchant's print (the Shipments page's Print
 * labels, Shopify's Print menu) or by a POST to the same link.
 */
export const loader = ({ params, context }: LoaderFunctionArgs) => open(params.token, context.clientAddress, { markPrinted: false });

/** POST /documents/{signed token} — the same document, printed: a labels link's labels are recorded as printed. */
export const action = ({ params, context }: ActionFunctionArgs) => open(params.token, context.clientAddress, { markPrinted: true });

async function open(rawToken: string | undefined, clientAddress: string | undefined, { markPrinted }: { markPrinted: boolean }): Promise<Response> {
  const token = (rawToken ?? "").replace(/\.pdf$/, "");
  const grant = verifyDocumentLink(token);
  if (!grant) {
    const wait = linkGuessLimiter.take(clientAddress ?? "unknown");
    if (wait > 0) return plainText(429, `Too many document links from this address were not found. Try again in ${wait} seconds.`, { "Retry-After": String(wait) });
    return plainText(404, "Not found");
  }
  const wait = linkOpenLimiter.take(token);
  if (wait > 0) return plainText(429, `This document was opened ${DOCUMENT_LINK_LIMITS.opensPerLink.limit} times in a minute. Open it again in ${wait} seconds.`, { "Retry-After": String(wait) });
  return answerDocument(() => render(grant, { markPrinted }));
}

/**
 * Each open renders a PDF. Signed links are counted each on its own, not by caller: Shopify fetches every shop's
 * return labels from its own few addresses. A link that does not verify is a guess, counted by the caller that sent it.
 */
export const DOCUMENT_LINK_LIMITS = {
  opensPerLink: { limit: 30, windowMs: 60_000, maxTracked: 10_000 },
  guessesPerCaller: { limit: 60, windowMs: 60_000, maxTracked: 10_000 },
} satisfies Record<string, CallerLimits>;
// A link is counted by its signature, which no other link shares; only its one canonical spelling verifies.
const linkOpenLimiter = createCallerLimiter({ limits: DOCUMENT_LINK_LIMITS.opensPerLink, keyOf: (token) => token.slice(token.lastIndexOf(".") + 1) });
const linkGuessLimiter = createCallerLimiter({ limits: DOCUMENT_LINK_LIMITS.guessesPerCaller });

const plainText = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers } });

function render(grant: DocumentGrant, { markPrinted }: { markPrinted: boolean }): Promise<RenderedDocument> {
  if (grant.kind === "labels") return printLabels(grant.shop, { shipmentIds: grant.shipmentIds }, { markPrinted });
  if (grant.kind === "return-label") return printReturnLabel(grant.shop, grant.shipmentId);
  return printManifest(grant.shop, grant.manifestId);
}
