import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { webhookHeaderRefusal } from "../app/webhook-topics";
import { bodyLimitFor } from "./body-limits";

export interface AppServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export interface AppServerOptions {
  build: ServerBuild;
  mode: string;
  port: number;
  host?: string;
  publicDir?: string;
  /**
   * How many proxies in front of the app append to X-Forwarded-For (TRUSTED_PROXY_HOPS). 0: the socket's peer is
   * the caller. Behind one load balancer, 1: the address it appended is the caller's; anything further left was
   * written by the caller and is not trusted.
   */
  trustedProxyHops?: number;
}

/** The caller's address, for rate limits: the socket's peer, or the one the trusted proxies saw. */
export function clientAddressOf(incoming: Pick<IncomingMessage, "headers" | "socket">, trustedProxyHops = 0): string {
  const peer = incoming.socket.remoteAddress ?? "unknown";
  if (trustedProxyHops <= 0) return peer;
  const header = incoming.headers["x-forwarded-for"];
  const forwarded = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",").map((part) => part.trim()).filter(Boolean);
  const chain = [...forwarded, peer];
  return chain[Math.max(0, chain.length - 1 - trustedProxyHops)] ?? peer;
}

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

class BodyTooLarge extends Error {}

function plain(outgoing: ServerResponse, { status, message, close = false }: { status: number; message: string; close?: boolean }): void {
  if (outgoing.headersSent) return;
  outgoing.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": Buffer.byteLength(message), ...(close ? { Connection: "close" } : {}) });
  outgoing.end(message);
}

// After a 413, how much more of the upload is read and dropped, and for how long, before the connection is cut.
const DRAIN_BYTES = 32 * 1024 * 1024;
const DRAIN_MS = 3_000;

function tooLarge(incoming: IncomingMessage, outgoing: ServerResponse, limit: number): void {
  // The answer goes out first, then the connection is half-closed (the client reads the 413 and then the end);
  // the rest of the upload is read and dropped, never kept, until the client gives up or the drain runs out. Cut
  // at once instead, a client still writing would meet a reset and could lose the answer it had not read yet.
  plain(outgoing, { status: 413, message: `The request body is larger than ${Math.round(limit / 1024)} KB, the limit for this address.\n` });
  const socket = incoming.socket;
  outgoing.once("finish", () => socket.end());
  let drained = 0;
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, DRAIN_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  incoming.removeAllListeners("data");
  incoming.on("data", (chunk: Buffer) => {
    drained += chunk.byteLength;
    if (drained > DRAIN_BYTES) cut();
  });
  incoming.resume();
}

/**
 * Answers without reading the body. As after a 413, the answer goes out first and the connection is then half-closed,
 * and what the client still sends is dropped as it arrives (never kept) for a bounded time and size: a client still
 * writing reads the answer rather than meeting a reset.
 */
function refuseUnread(incoming: IncomingMessage, outgoing: ServerResponse, { status, reason }: { status: number; reason: string }): void {
  plain(outgoing, { status, message: `${reason}.\n` });
  const socket = incoming.socket;
  outgoing.once("finish", () => socket.end());
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, DRAIN_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  let dropped = 0;
  incoming.on("data", (chunk: Buffer) => {
    dropped += chunk.byteLength;
    if (dropped > DRAIN_BYTES) cut();
  });
  incoming.resume();
}

/** The body, read up to `limit` bytes; more than that is refused while streaming, whatever Content-Length said. */
function readBody(incoming: IncomingMessage, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        incoming.removeAllListeners("data");
        chunks.length = 0;
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    incoming.once("end", () => resolve(Buffer.concat(chunks, size)));
    incoming.once("error", reject);
  });
}

function headersOf(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  for (let index = 0; index < incoming.rawHeaders.length; index += 2) headers.append(incoming.rawHeaders[index]!, incoming.rawHeaders[index + 1]!);
  return headers;
}

async function send(response: Response, outgoing: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  outgoing.writeHead(response.status, response.statusText, headers);
  if (!response.body) {
    outgoing.end();
    return;
  }
  await new Promise<void>((resolve, reject) => {
    Readable.fromWeb(response.body as import("node:stream/web").ReadableStream).on("error", reject).pipe(outgoing).on("finish", resolve).on("error", reject);
  });
}

function serveStatic(publicDir: string, pathname: string, outgoing: ServerResponse): boolean {
  if (!(pathname.startsWith("/build/") || pathname === "/favicon.svg")) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  const file = path.join(publicDir, path.normalize(decoded));
  if (!file.startsWith(publicDir + path.sep) || !existsSync(file) || !statSync(file).isFile()) return false;
  outgoing.writeHead(200, {
    "Content-Type": CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream",
    // Remix fingerprints everything under /build/.
    "Cache-Control": pathname.startsWith("/build/") ? "public, max-age=31536000, immutable" : "public, max-age=3600",
  });
  createReadStream(file).pipe(outgoing);
  return true;
}

/**
 * A state-changing request a browser sent from another site's page: refused 403 here, as Remix itself refuses it
 * for pages (throwing, which would be a 500). The admin extensions' JSON routes under /api/ are the exception:
 * Shopify's admin calls them cross-origin, with a session token the route verifies, under CORS.
 */
function isCrossSiteWrite(method: string, url: URL, incoming: IncomingMessage): boolean {
  if (method === "GET" || method === "HEAD" || method === "OPTIONS" || url.pathname.startsWith("/api/")) return false;
  const origin = incoming.headers.origin;
  if (!origin || origin === "null") return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  const forwarded = (incoming.headers["x-forwarded-host"] as string | undefined)?.split(",")[0]?.trim();
  return originHost !== (forwarded || incoming.headers.host);
}

/**
 * Dakiya's HTTP server: the Remix build behind a body limit that holds before any route, signature check or
 * session lookup runs (server/body-limits.ts), the public build assets, and the caller's address for routes
 * that rate-limit by it (passed to loaders and actions as `context.clientAddress`).
 */
export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const handle = createRequestHandler(options.build, options.mode);
  const publicDir = path.resolve(options.publicDir ?? "public");

  async function onRequest(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const host = incoming.headers.host ?? `localhost:${options.port}`;
    let url: URL;
    try {
      url = new URL(incoming.url ?? "/", `http://${host}`);
    } catch {
      return plain(outgoing, { status: 400, message: "Malformed request address.\n" });
    }
    const method = incoming.method ?? "GET";
    if ((method === "GET" || method === "HEAD") && serveStatic(publicDir, url.pathname, outgoing)) return;

    if (isCrossSiteWrite(method, url, incoming)) return plain(outgoing, { status: 403, message: "Refused: this request was sent from another site.\n" });

    let body: Uint8Array | undefined;
    if (method !== "GET" && method !== "HEAD") {
      // A webhook whose headers cannot be Shopify's for this address is refused on them: its body is never read.
      const refusal = url.pathname.startsWith("/webhooks/") ? webhookHeaderRefusal(url.pathname, headersOf(incoming)) : null;
      if (refusal) return refuseUnread(incoming, outgoing, refusal);
      const limit = bodyLimitFor(url.pathname);
      const declared = incoming.headers["content-length"];
      if (declared !== undefined && !/^\d{1,15}$/.test(declared)) return plain(outgoing, { status: 400, message: "Content-Length must be a number of bytes.\n", close: true });
      if (declared !== undefined && Number(declared) > limit) return tooLarge(incoming, outgoing, limit);
      try {
        body = await readBody(incoming, limit);
      } catch (error) {
        if (error instanceof BodyTooLarge) return tooLarge(incoming, outgoing, limit);
        return plain(outgoing, { status: 400, message: "The request body could not be read.\n", close: true });
      }
    }

    const request = new Request(url, { method, headers: headersOf(incoming), body: body as BodyInit | undefined });
    const response = await handle(request, { clientAddress: clientAddressOf(incoming, options.trustedProxyHops) });
    await send(response, outgoing);
  }

  const server = createServer((incoming, outgoing) => {
    onRequest(incoming, outgoing).catch((error: unknown) => {
      // Only the kind of failure: a request's body or a database error may carry a shopper's details.
      console.error(`Request ${incoming.method} ${(incoming.url ?? "").split("?")[0]} failed: ${error instanceof Error ? error.name : typeof error}`);
      plain(outgoing, { status: 500, message: "Internal Server Error\n" });
    });
  });
  // A declared body larger than the limit is refused before the client sends it (Expect: 100-continue).
  server.on("checkContinue", (incoming, outgoing) => {
    const declared = Number(incoming.headers["content-length"] ?? 0);
    const limit = bodyLimitFor((incoming.url ?? "/").split("?")[0]!);
    if (declared > limit) {
      // Refused before the client sends the body: no 100 Continue, and nothing to drain.
      plain(outgoing, { status: 413, message: `The request body is larger than ${Math.round(limit / 1024)} KB, the limit for this address.\n`, close: true });
      return;
    }
    outgoing.writeContinue();
    server.emit("request", incoming, outgoing);
  });
  server.requestTimeout = 60_000;
  server.headersTimeout = 20_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "0.0.0.0", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      }),
  };
}
