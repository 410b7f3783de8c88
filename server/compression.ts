import { readFileSync, type Stats } from "node:fs";
import type { Transform } from "node:stream";
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync } from "node:zlib";

export type ContentEncoding = "br" | "gzip";

/**
 * The encoding to answer in, from the request's Accept-Encoding: brotli where the client takes it (every current
 * browser over HTTPS), else gzip, else none. A q-value of 0 refuses an encoding; `*` stands for any not named.
 */
export function chooseEncoding(acceptEncoding: string | undefined): ContentEncoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.slice(0, 1024).split(",")) {
    const [name, ...parameters] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = parameters.map((parameter) => /^\s*q=([0-9.]+)\s*$/.exec(parameter)).find(Boolean);
    const weight = q ? Number(q[1]) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: ContentEncoding) => weights.get(name) ?? weights.get("*") ?? 0;
  const br = weightOf("br");
  const gzip = weightOf("gzip");
  if (br > 0 && br >= gzip) return "br";
  if (gzip > 0) return "gzip";
  return null;
}

/** Text compresses; images, fonts and PDFs are compressed already. */
export function isCompressible(contentType: string | null | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === "text/event-stream") return false;
  return type.startsWith("text/") || type === "application/json" || type.endsWith("+json") || type === "application/javascript" || type === "image/svg+xml" || type === "application/xml";
}

// Below this a compressed answer is no smaller once the encoding's own framing is counted.
export const MIN_COMPRESSIBLE_BYTES = 1024;

/**
 * A compressor for an answer produced as it goes (pages, JSON). Each chunk is flushed as it is written, so a page
 * that streams (deferred data) still reaches the browser piece by piece; the level is a middle one, as the work is
 * done for every request.
 */
export function compressorFor(encoding: ContentEncoding): Transform {
  if (encoding === "br") {
    return createBrotliCompress({
      flush: constants.BROTLI_OPERATION_FLUSH,
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
    });
  }
  return createGzip({ level: 6, flush: constants.Z_SYNC_FLUSH });
}

interface CompressedAsset {
  mtimeMs: number;
  size: number;
  body: Buffer;
}

// Fingerprinted build assets never change under one name, so each is compressed once, at the strongest level, and
// kept. Bounded all the same: a deployment's assets are a few megabytes.
const ASSET_CACHE_BYTES = 64 * 1024 * 1024;
const assetCache = new Map<string, CompressedAsset>();
let assetCacheBytes = 0;

/** The file (as the caller found it on disk) compressed with `encoding`, from memory after the first request. */
export function compressedAsset(file: string, encoding: ContentEncoding, { mtimeMs, size }: Pick<Stats, "mtimeMs" | "size">): Buffer {
  const key = `${encoding}:${file}`;
  const cached = assetCache.get(key);
  if (cached && cached.mtimeMs === mtimeMs && cached.size === size) return cached.body;
  const raw = readFileSync(file);
  const body =
    encoding === "br"
      ? brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.byteLength } })
      : gzipSync(raw, { level: 9 });
  if (cached) {
    assetCacheBytes -= cached.body.byteLength;
    assetCache.delete(key);
  }
  if (assetCacheBytes + body.byteLength <= ASSET_CACHE_BYTES) {
    assetCache.set(key, { mtimeMs, size, body });
    assetCacheBytes += body.byteLength;
  }
  return body;
}
