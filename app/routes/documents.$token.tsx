import type { LoaderFunctionArgs } from "@remix-run/node";
import { createCallerLimiter, type CallerLimits } from "~/caller-limits.server";
import { answerDocument } from "~/documents/document-responses.server";
import { verifyDocumentLink, type DocumentGrant } from "~/documents/document-links.server";
import { printLabels, printManifest, printReturnLabel, type RenderedDocument } from "~/documents/documents.server";

/**
 * GET /documents/{signed token} — a document opened outside the app's session (a download in a new tab, the
 * demo's files, a return's label from Shopify): only through a link Dakiya signed for this shop and these shipments. Anything else
 * answers 404 and says nothing of why.
 */
export const loader = async ({ params, context }: LoaderFunctionArgs) => {
  const wait = documentOpenLimiter.take(context.clientAddress ?? "unknown");
  if (wait > 0) return plainText(429, `More than ${DOCUMENT_OPEN_LIMITS.limit} documents were opened from this address in a minute. Open this one again in ${wait} seconds.`, { "Retry-After": String(wait) });
  const grant = verifyDocumentLink((params.token ?? "").replace(/\.pdf$/, ""));
  if (!grant) return plainText(404, "Not found");
  return answerDocument(() => render(grant));
};

/**
 * Each open renders a PDF, and a link may travel beyond the merchant (a return's label, sent to the shopper): per
 * caller, well above a warehouse printing the day's labels and manifests, and every request counts, a guessed
 * link too.
 */
export const DOCUMENT_OPEN_LIMITS: CallerLimits = { limit: 60, windowMs: 60_000, maxTracked: 10_000 };
const documentOpenLimiter = createCallerLimiter({ limits: DOCUMENT_OPEN_LIMITS });

const plainText = (status: number, text: string, headers: Record<string, string> = {}) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers } });

function render(grant: DocumentGrant): Promise<RenderedDocument> {
  if (grant.kind === "labels") return printLabels(grant.shop, { shipmentIds: grant.shipmentIds });
  if (grant.kind === "return-label") return printReturnLabel(grant.shop, grant.shipmentId);
  return printManifest(grant.shop, grant.manifestId);
}
