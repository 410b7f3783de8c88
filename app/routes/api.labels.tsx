import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { answerDocument, ensureShopName } from "~/documents/document-responses.server";
import { printLabels } from "~/documents/documents.server";
import { parseSelection } from "~/documents/document-requests";
import { authenticate } from "~/shopify.server";

/**
 * GET /api/labels?orders=… | ?shipments=… — the shipping labels of the named booked shipments, one PDF, behind
 * the admin's session token: what the print-action extensions' `s-admin-print-action` and the order block open.
 * `skip=unbooked` (the selection print action) leaves out orders with no label instead of refusing them all.
 * The loader answers the CORS preflight too (`authenticate.admin` does for OPTIONS).
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin, session, cors } = await authenticate.admin(request);
  const selection = parseSelection(new URL(request.url).searchParams);
  if (!selection.ok) return cors(json({ error: selection.error }, { status: 400 }));
  await ensureShopName(session.shop, admin);
  // The print action's own request (behind the admin's session token): the merchant printing, so it is recorded.
  return cors(await answerDocument(() => printLabels(session.shop, selection.selection, { skipUnprintable: selection.skipUnprintable, markPrinted: true })));
};
