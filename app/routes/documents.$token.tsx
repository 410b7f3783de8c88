import type { LoaderFunctionArgs } from "@remix-run/node";
import { answerDocument } from "~/documents/document-responses.server";
import { verifyDocumentLink } from "~/documents/document-links.server";
import { printLabels, printManifest } from "~/documents/documents.server";

/**
 * GET /documents/{signed token} — a document opened outside the app's session (a download in a new tab, the
 * demo's files): only through a link Dakiya signed minutes ago for this shop and these shipments. Anything else
 * answers 404 and says nothing of why.
 */
export const loader = async ({ params }: LoaderFunctionArgs) => {
  const grant = verifyDocumentLink((params.token ?? "").replace(/\.pdf$/, ""));
  if (!grant) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  return answerDocument(() => (grant.kind === "labels" ? printLabels(grant.shop, { shipmentIds: grant.shipmentIds }) : printManifest(grant.shop, grant.manifestId)));
};
