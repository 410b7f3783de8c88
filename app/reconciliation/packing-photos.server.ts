import prisma from "~/db.server";
import { readPhoto, type PhotoReading } from "./packing-photo";
import { removePackingPhoto, savePackingPhoto } from "./reconciliation-records.server";
import { PHOTO_MAX_BYTES } from "./upload-limits";

/**
 * The merchant's packing photo of a parcel, as uploaded (the body is the image's bytes): read up to its limit, told
 * to be a JPEG or PNG by its own header, and kept for the parcel's dispute pack — for a parcel of the shop's that has
 * an awb only.
 */
export type PhotoOutcome = { ok: true } | { ok: false; code: Exclude<PhotoReading, { ok: true }>["code"] | "not_found" };

async function readUpTo(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

const ownParcel = (shop: string, shipmentId: number) => prisma.shipment.findFirst({ where: { id: shipmentId, shop, awb: { not: null } }, select: { id: true } });

export async function attachPackingPhoto(shop: string, shipmentId: number, body: ReadableStream<Uint8Array> | null, now = new Date()): Promise<PhotoOutcome> {
  if (!(await ownParcel(shop, shipmentId))) return { ok: false, code: "not_found" };
  const bytes = body ? await readUpTo(body, PHOTO_MAX_BYTES) : new Uint8Array();
  if (bytes === null) return { ok: false, code: "too_large" };
  const photo = readPhoto(bytes);
  if (!photo.ok) return photo;
  await savePackingPhoto(shop, shipmentId, { contentType: photo.contentType, bytes, width: photo.width, height: photo.height }, now);
  return { ok: true };
}

export async function detachPackingPhoto(shop: string, shipmentId: number): Promise<boolean> {
  return removePackingPhoto(shop, shipmentId);
}
