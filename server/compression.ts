import { statSync, type Stats } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Transform } from "node:stream";
import { promisify } from "node:util";
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from "node:zlib";

const brotliCompressAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

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

/** The types of the files served from public/ (what `npm run build` writes there). */
const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

export function staticContentType(file: string): string {
  return CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream";
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
 * Answers up to this size are read whole before they are sent: one compression call and one write with its length
 * cost a fraction of a compressing stream's set-up, which the small JSON answers of /v1 and of the admin's loaders
 * would otherwise pay on every request.
 */
export const WHOLE_ANSWER_BYTES = 64 * 1024;

/** An answer held whole, compressed in one call at the same levels as `compressorFor`. */
export function compressWhole(body: Uint8Array, encoding: ContentEncoding): Promise<Buffer> {
  if (encoding === "br") {
    return brotliCompressAsync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength },
    });
  }
  return gzipAsync(body, { level: 6 });
}

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

const PRECOMPRESSED_SUFFIX: Record<ContentEncoding, string> = { br: ".br", gzip: ".gz" };

/**
 * The file as `npm run build` compressed it beside itself (`file.br`, `file.gz`), when that is there and was made
 * from this file (not older than it); null otherwise, and the answer is compressed as it streams. The strongest
 * levels take seconds of CPU for the build's scripts (brotli 11: about 12 s for all of them here), so they are paid
 * once at build time, never by the first requests after a start, which would wait behind them with every other request.
 */
export function precompressedFile(file: string, encoding: ContentEncoding, source: Pick<Stats, "mtimeMs">): { path: string; size: number } | null {
  const candidate = file + PRECOMPRESSED_SUFFIX[encoding];
  try {
    const stats = statSync(candidate);
    return stats.isFile() && stats.mtimeMs >= source.mtimeMs ? { path: candidate, size: stats.size } : null;
  } catch {
    return null;
  }
}

/** Writes `file.br` (brotli 11) and `file.gz` (gzip 9) beside every compressible file under `directory`. */
export async function precompressDirectory(directory: string, contentTypeOf: (file: string) => string | undefined): Promise<{ files: number; bytes: number; brotliBytes: number }> {
  const files = (await readdir(directory, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && !/\.(br|gz)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => isCompressible(contentTypeOf(file)));
  const totals = { files: 0, bytes: 0, brotliBytes: 0 };
  // zlib's asynchronous calls run in its thread pool: every core works on a file at once.
  await Promise.all(
    files.map(async (file) => {
      const raw = await readFile(file);
      if (raw.byteLength < MIN_COMPRESSIBLE_BYTES) return;
      const [brotli, gzipped] = await Promise.all([
        brotliCompressAsync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: raw.byteLength } }),
        gzipAsync(raw, { level: 9 }),
      ]);
      await Promise.all([writeFile(file + PRECOMPRESSED_SUFFIX.br, brotli), writeFile(file + PRECOMPRESSED_SUFFIX.gzip, gzipped)]);
      totals.files += 1;
      totals.bytes += raw.byteLength;
      totals.brotliBytes += brotli.byteLength;
    }),
  );
  return totals;
}
