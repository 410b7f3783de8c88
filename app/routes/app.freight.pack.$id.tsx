import type { LoaderFunctionArgs } from "@remix-run/node";
import { renderDisputePack } from "~/reconciliation/dispute-pack.server";
import { authenticate } from "~/shopify.server";
import { rowIdOf } from "~/security/row-id";

/** GET /app/freight/pack/{shipment id} — the parcel's weight-dispute pack as a PDF; the shop's own parcels only (404 otherwise). */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const shipmentId = rowIdOf(params.id);
  const pack = shipmentId === null ? null : await renderDisputePack(session.shop, shipmentId);
  if (!pack) return new Response("There is no such parcel in this shop.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(new Uint8Array(pack.pdf), { headers: { "Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="${pack.filename}"`, "Cache-Control": "no-store" } });
};
