import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { packingPhotoOf } from "~/reconciliation/freight-audit.server";
import { attachPackingPhoto, detachPackingPhoto } from "~/reconciliation/packing-photos.server";
import { authenticate } from "~/shopify.server";
import { rowIdOf } from "~/security/row-id";

/**
 * /app/freight/photo/{shipment id} — a parcel's packing photo, the shop's own only. GET: the image (never cached, never
 * sniffed as anything else). POST: the image's bytes as the body (JPEG or PNG, at most 5 MB, told by its header):
 * 201, or 422 naming why not, 413 too large, 404 not the shop's parcel. DELETE: removes it.
 */

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const shipmentId = rowIdOf(params.id);
  const photo = shipmentId === null ? null : await packingPhotoOf(session.shop, shipmentId);
  if (!photo) return new Response("No such photo.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(new Uint8Array(photo.bytes), { headers: { "Content-Type": photo.contentType, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Content-Disposition": "inline" } });
};

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const shipmentId = rowIdOf(params.id);
  if (shipmentId === null) return json({ ok: false, code: "not_found" }, { status: 404 });
  if (request.method === "DELETE") return json({ ok: await detachPackingPhoto(session.shop, shipmentId) });
  const outcome = await attachPackingPhoto(session.shop, shipmentId, request.body);
  if (outcome.ok) return json({ ok: true }, { status: 201 });
  return json(outcome, { status: outcome.code === "not_found" ? 404 : outcome.code === "too_large" ? 413 : 422 });
};
