import { PHOTO_MAX_BYTES } from "./upload-limits";

/**
 * A packing photo as uploaded: untrusted bytes that must be a JPEG or PNG image of bounded size, told by their own
 * header (never by the name or the type the browser claims). Pure.
 *
 * A JPEG goes into the dispute pack's PDF as it is (never decoded); a PNG may be decoded there, so its pixels are held
 * to fewer.
 */
export const PHOTO_LIMITS = { maxBytes: PHOTO_MAX_BYTES, maxJpegSide: 10_000, maxPngSide: 3_000 } as const;

export type PhotoReading = { ok: true; contentType: "image/jpeg" | "image/png"; width: number; height: number } | { ok: false; code: "empty" | "too_large" | "not_an_image" | "too_many_pixels" };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** The JPEG markers that start a frame and carry its size (SOF0–SOF15 but DHT, JPG and DAC). */
const FRAME_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpegSize(bytes: Uint8Array): { width: number; height: number } | null {
  let position = 2;
  // Marker segments up to the frame header; each says how long it is, so this walks at most the file.
  while (position + 9 < bytes.length) {
    if (bytes[position] !== 0xff) return null;
    const marker = bytes[position + 1]!;
    if (marker === 0xff) {
      position += 1;
      continue;
    }
    const length = (bytes[position + 2]! << 8) | bytes[position + 3]!;
    if (length < 2) return null;
    if (FRAME_MARKERS.has(marker)) return { height: (bytes[position + 5]! << 8) | bytes[position + 6]!, width: (bytes[position + 7]! << 8) | bytes[position + 8]! };
    position += 2 + length;
  }
  return null;
}

export function readPhoto(bytes: Uint8Array): PhotoReading {
  if (bytes.length === 0) return { ok: false, code: "empty" };
  if (bytes.length > PHOTO_LIMITS.maxBytes) return { ok: false, code: "too_large" };
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    const size = jpegSize(bytes);
    if (!size || size.width === 0 || size.height === 0) return { ok: false, code: "not_an_image" };
    if (size.width > PHOTO_LIMITS.maxJpegSide || size.height > PHOTO_LIMITS.maxJpegSide) return { ok: false, code: "too_many_pixels" };
    return { ok: true, contentType: "image/jpeg", ...size };
  }
  if (bytes.length >= 24 && PNG_SIGNATURE.every((byte, index) => bytes[index] === byte) && String.fromCharCode(...bytes.subarray(12, 16)) === "IHDR") {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const [width, height] = [view.getUint32(16), view.getUint32(20)];
    if (width === 0 || height === 0) return { ok: false, code: "not_an_image" };
    if (width > PHOTO_LIMITS.maxPngSide || height > PHOTO_LIMITS.maxPngSide) return { ok: false, code: "too_many_pixels" };
    return { ok: true, contentType: "image/png", width, height };
  }
  return { ok: false, code: "not_an_image" };
}
