import type { LoaderFunctionArgs } from "@remix-run/node";
import { answerDocument } from "~/documents/document-responses.server";
import { verifyDocumentLink, type DocumentGrant } from "~/documents/document-links.server";
import { printLabels, printManifest, printReturnLabel, type RenderedDocument } from "~/documents/documents.server";

/**
 * GET /documents/{signed token} — a document opened outside the app's session (a download in a new tab, the
 * demo's files, a return's label from Shopify): only through a link Dakiya signed for this shop and these shipments. Anything else
 * answers 404 and says nothing of why.
 */
export const loader = async ({ params }: LoaderFunctionArgs) => {
  const grant = verifyDocumentLink((params.token ?? "").replace(/\.pdf$/, ""));
  if (!grant) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  return answerDocument(() => render(grant));
};

function render(grant: DocumentGrant): Promise<RenderedDocument> {
  if (grant.kind === "labels") return printLabels(grant.shop, { shipmentIds: grant.shipmentIds });
  if (grant.kind === "return-label") return printReturnLabel(grant.shop, grant.shipmentId);
  return printManifest(grant.shop, grant.manifestId);
}
