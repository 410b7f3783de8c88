import { readdirSync, readFileSync, statSync, utimesSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseEncoding, isCompressible, WHOLE_ANSWER_BYTES } from "../../server/compression";
import { createDatabase } from "../support/database";
import { npmStart, waitForHealth, type StartedServer } from "../support/npm-start";
import { productionBuild } from "../support/production-build";

const port = 4600 + Number(process.env.VITEST_POOL_ID ?? 0) * 10;
let server: StartedServer;

beforeAll(async () => {
  await productionBuild();
  server = npmStart({ DATABASE_URL: await createDatabase(`compression_${process.env.VITEST_POOL_ID ?? 0}`, { replace: true }), PORT: String(port), WORKER_CONCURRENCY: "0" });
  expect((await waitForHealth(port, server.output)).status).toBe(200);
}, 60_000);
afterAll(() => server?.stop());

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/** The bytes as they cross the wire (fetch would decode them). */
function get(pathname: string, acceptEncoding?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0 Safari/537.36" };
    if (acceptEncoding) headers["Accept-Encoding"] = acceptEncoding;
    httpRequest({ host: "127.0.0.1", port, path: pathname, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes: Buffer.concat(chunks) }));
      response.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

function decoded(answer: RawAnswer): Buffer {
  if (answer.headers["content-encoding"] === "br") return brotliDecompressSync(answer.bytes);
  if (answer.headers["content-encoding"] === "gzip") return gunzipSync(answer.bytes);
  return answer.bytes;
}

function largestStylesheet(): string {
  const assets = path.resolve("public/build/_assets");
  const [largest] = readdirSync(assets)
    .filter((file) => file.endsWith(".css") && !file.endsWith(".css.map"))
    .map((file) => ({ file, size: statSync(path.join(assets, file)).size }))
    .sort((a, b) => b.size - a.size);
  return `/build/_assets/${largest!.file}`;
}

describe("compressed answers", () => {
  it("picks brotli, then gzip, and honours a refusal", () => {
    expect(chooseEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(chooseEncoding("gzip")).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(chooseEncoding("identity")).toBeNull();
    expect(chooseEncoding("*;q=0")).toBeNull();
    expect(chooseEncoding(undefined)).toBeNull();
    expect(isCompressible("text/html; charset=utf-8")).toBe(true);
    expect(isCompressible("application/json")).toBe(true);
    expect(isCompressible("text/event-stream")).toBe(false);
    expect(isCompressible("application/pdf")).toBe(false);
  });

  it("sends the stylesheet as the build compressed it, brotli, cached for a year, and the same bytes once decoded", async () => {
    const stylesheet = largestStylesheet();
    const plain = await get(stylesheet);
    const compressed = await get(stylesheet, "gzip, deflate, br");
    expect(compressed.status).toBe(200);
    expect(compressed.headers["content-encoding"]).toBe("br");
    expect(compressed.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(compressed.headers.vary).toContain("Accept-Encoding");
    expect(Number(compressed.headers["content-length"])).toBe(compressed.bytes.byteLength);
    expect(compressed.bytes.equals(readFileSync(path.resolve(`public${stylesheet}.br`)))).toBe(true);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(decoded(compressed).equals(plain.bytes)).toBe(true);
    expect(compressed.bytes.byteLength).toBeLessThan(plain.bytes.byteLength / 4);
    const gzipped = await get(stylesheet, "gzip");
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(decoded(gzipped).equals(plain.bytes)).toBe(true);
  });

  it("compresses an asset changed since the build as it streams, never sending the stale compressed copy", async () => {
    const stylesheet = largestStylesheet();
    const file = path.resolve(`public${stylesheet}`);
    const { atime, mtime } = statSync(file);
    utimesSync(file, atime, new Date(Date.now() + 60_000));
    try {
      const compressed = await get(stylesheet, "br");
      expect(compressed.headers["content-encoding"]).toBe("br");
      expect(compressed.headers["content-length"]).toBeUndefined();
      expect(decoded(compressed).equals(readFileSync(file))).toBe(true);
    } finally {
      utimesSync(file, atime, mtime);
    }
  });

  it("compresses pages as they stream and JSON whole, with its length, gzip for a client without brotli", async () => {
    const page = await get("/auth/login", "gzip");
    expect(page.status).toBe(200);
    expect(page.headers["content-encoding"]).toBe("gzip");
    expect(page.headers.vary).toContain("Accept-Encoding");
    expect(page.headers["content-length"]).toBeUndefined();
    expect(decoded(page).toString("utf8")).toContain("<html");

    // The service's document (about 55 KB) is under WHOLE_ANSWER_BYTES: compressed in one call, sent in one write.
    const identity = await get("/v1/openapi.json");
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.bytes.byteLength).toBeLessThan(WHOLE_ANSWER_BYTES);
    for (const encoding of ["br", "gzip"]) {
      const document = await get("/v1/openapi.json", encoding);
      expect(document.headers["content-encoding"]).toBe(encoding);
      expect(document.headers.vary).toContain("Accept-Encoding");
      expect(Number(document.headers["content-length"])).toBe(document.bytes.byteLength);
      expect(document.bytes.byteLength).toBeLessThan(identity.bytes.byteLength / 4);
      expect(JSON.parse(decoded(document).toString("utf8"))).toEqual(JSON.parse(identity.bytes.toString("utf8")));
    }
  });

  it("leaves a small answer as it is", async () => {
    const ping = await get("/ping", "br");
    expect(ping.headers["content-encoding"]).toBeUndefined();
    expect(ping.bytes.toString("utf8")).toBe("ok");
  });
});
