import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { BlockList, isIP, type AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { createRequestHandler, type ActionFunction, type AppLoadContext, type LoaderFunction, type ServerBuild } from "@remix-run/node";
import { loggablePath } from "../app/logging.server";
import { webhookHeaderRefusal, webhookTopicAt } from "../app/webhook-topics";
import { bodyLimitFor, streamedUploadLimit } from "./body-limits";
import { chooseEncoding, compressorFor, compressWhole, isCompressible, MIN_COMPRESSIBLE_BYTES, precompressedFile, staticContentType, WHOLE_ANSWER_BYTES } from "./compression";

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
   * The proxies in front of the app (TRUSTED_PROXY_ADDRESSES): addresses and CIDR ranges. X-Forwarded-For is
   * believed only from them; with none, the socket's peer is the caller.
   */
  trustedProxies?: readonly string[];
}

/** The configured proxies' addresses and ranges, as a set that answers "is this address one of them". */
export function trustedProxySet(entries: readonly string[]): BlockList | null {
  if (entries.length === 0) return null;
  const set = new BlockList();
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) set.addAddress(address, family);
    else set.addSubnet(address, Number(prefix), family);
  }
  return set;
}

/** An address as written by a socket or a proxy (`::ffff:10.0.0.5`, `10.0.0.5:4312`, `[::1]:80`), or null. */
function plainAddress(written: string | undefined): string | null {
  const value = written?.trim() ?? "";
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(value)?.[1];
  const bare = mapped ?? /^\[([0-9a-f:.]+)\](?::\d+)?$/i.exec(value)?.[1] ?? /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(value)?.[1] ?? value;
  return isIP(bare) === 0 ? null : bare;
}

const isTrusted = (set: BlockList, address: string) => set.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");

/**
 * The caller's address, for rate limits: the socket's peer, unless the peer is a trusted proxy; then X-Forwarded-For
 * is read from the right (each proxy appends the address it saw) past every trusted proxy, and the first address that
 * is not one is the caller's. Whatever stands further left was written by the caller and is not believed; an entry
 * that is not an address ends the walk at the last proxy that vouched for it.
 */
export function clientAddressOf(incoming: Pick<IncomingMessage, "headers" | "socket">, trusted: BlockList | null = null): string {
  const peer = plainAddress(incoming.socket.remoteAddress) ?? incoming.socket.remoteAddress ?? "unknown";
  if (!trusted || !isTrusted(trusted, peer)) return peer;
  const header = incoming.headers["x-forwarded-for"];
  const forwarded = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",").filter((part) => part.trim() !== "");
  let caller = peer;
  for (let index = forwarded.length - 1; index >= 0; index -= 1) {
    const address = plainAddress(forwarded[index]);
    if (address === null) return caller;
    caller = address;
    if (!isTrusted(trusted, address)) return caller;
  }
  return caller;
}


class BodyTooLarge extends Error {}

// Every answer of the courier service under /v1 is JSON with `success: false` on failure, also those the server
// gives before a route runs.
const isCourierServicePath = (pathname: string) => pathname === "/v1" || pathname.startsWith("/v1/");

interface Refusal {
  status: number;
  message: string;
  close?: boolean;
  headers?: Record<string, string>;
}

/** An answer the server gives by itself: plain text, or the courier service's JSON under /v1. */
function refuse(outgoing: ServerResponse, pathname: string, { status, message, close = false, headers = {} }: Refusal): void {
  if (outgoing.headersSent) return;
  const [type, body] = isCourierServicePath(pathname)
    ? ["application/json; charset=utf-8", JSON.stringify({ success: false, message, errors: [] })]
    : ["text/plain; charset=utf-8", `${message}\n`];
  outgoing.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store", ...headers, ...(close ? { Connection: "close" } : {}) });
  outgoing.end(body);
}

const pathnameOf = (incoming: IncomingMessage) => (incoming.url ?? "/").split("?")[0]!;
const tooLargeMessage = (limit: number) => `The request body is larger than ${Math.round(limit / 1024)} KB, the limit for this address.`;

// The methods the app answers; any other (TRACE, CONNECT, WebDAV's) is refused before it reaches a route.
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
// What a Host header may hold: a DNS name or an IPv4 or bracketed IPv6 address, and a port. Anything else (a
// user name as in `a@b`, a path, spaces) would make the request's URL something it is not.
const HOST_HEADER = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62})(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62}))*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

// After a 413 (or a webhook refused on its headers), the lingering close: how much more of the upload is read and dropped
// (then reading stops), for how long in all, and how long the client may stay silent or stalled, before the connection is cut.
const DRAIN_BYTES = 32 * 1024 * 1024;
const DRAIN_MS = 10_000;
const DRAIN_IDLE_MS = 2_000;

/** Answers a request whose body is not read, then closes the connection lingeringly (below). */
function refuseUnreadBody(incoming: IncomingMessage, outgoing: ServerResponse, { status, message }: { status: number; message: string }): void {
  // The answer goes out first, saying the connection closes (a client must not send its next request on it), then
  // the connection is half-closed: the client reads the answer and then the end. The rest of the upload is read and
  // dropped, never kept, until the client stops sending or the drain runs out. Cut at once instead, a client still
  // writing meets a reset (EPIPE) and can lose the answer it had not read yet.
  lingerOnUnreadBody(incoming);
  refuse(outgoing, pathnameOf(incoming), { status, message, close: true });
}

/**
 * The rest of a body nobody will read, dropped as it arrives while the answer goes out, and the connection closed
 * once the client is done sending (or the drain runs out): the answer is sent with `Connection: close`.
 */
function lingerOnUnreadBody(incoming: IncomingMessage): void {
  const socket = incoming.socket;
  // Node ends a `Connection: close` answer by destroying the socket once the answer is flushed, unread upload and
  // all — the reset this avoids. Only the sending half is closed; the drain below ends the rest.
  socket.destroySoon = () => socket.end();
  let drained = 0;
  const cut = () => socket.destroy();
  const total = setTimeout(cut, DRAIN_MS);
  let idle = setTimeout(cut, DRAIN_IDLE_MS);
  socket.once("close", () => {
    clearTimeout(total);
    clearTimeout(idle);
  });
  incoming.removeAllListeners("data");
  incoming.on("data", (chunk: Buffer) => {
    drained += chunk.byteLength;
    // Enough dropped: read no more. The client's writes now stall instead of meeting a reset, which would also
    // discard the answer it may not have read yet (a busy client reads it late); the idle wait ends the connection.
    if (drained > DRAIN_BYTES) return void incoming.pause();
    clearTimeout(idle);
    idle = setTimeout(cut, DRAIN_IDLE_MS);
  });
  // The whole upload read: nothing left that a close could reset, once the answer is out.
  incoming.once("end", () => (socket.writableFinished ? cut() : socket.once("finish", cut)));
  incoming.resume();
}

function tooLarge(incoming: IncomingMessage, outgoing: ServerResponse, limit: number): void {
  refuseUnreadBody(incoming, outgoing, { status: 413, message: tooLargeMessage(limit) });
}

/** A webhook refused on its headers: answered, with the lingering close of a 413; its body is never kept. */
function refuseUnread(incoming: IncomingMessage, outgoing: ServerResponse, { status, reason }: { status: number; reason: string }): void {
  refuseUnreadBody(incoming, outgoing, { status, message: `${reason}.` });
}

/** An upload handed to its route as it arrives, and whether it went over its limit on the way. */
interface StreamedBody {
  stream: ReadableStream<Uint8Array>;
  readonly overLimit: boolean;
}

/**
 * The body as a stream the route reads at its own pace: the socket is paused while the route has not taken what
 * came (a statement of 100,000 rows is held a few chunks at a time, never whole), and the stream fails once more than
 * `limit` bytes arrive, whatever Content-Length said.
 */
function streamBody(incoming: IncomingMessage, limit: number): StreamedBody {
  let size = 0;
  let overLimit = false;
  let settled = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        incoming.on("data", (chunk: Buffer) => {
          if (settled) return;
          size += chunk.byteLength;
          if (size > limit) {
            overLimit = settled = true;
            incoming.pause();
            controller.error(new BodyTooLarge());
            return;
          }
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
        });
        incoming.once("end", () => {
          if (settled) return;
          settled = true;
          controller.close();
        });
        incoming.once("error", (error) => {
          if (settled) return;
          settled = true;
          controller.error(error);
        });
      },
      pull() {
        incoming.resume();
      },
      cancel() {
        settled = true;
      },
    },
    { highWaterMark: 4 },
  );
  return {
    stream,
    get overLimit() {
      return overLimit;
    },
  };
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

/** Reads the start of a body until it holds `bytes` or ends; what was read comes back with the rest. */
async function peek(body: ReadableStream<Uint8Array>, bytes: number): Promise<{ head: Uint8Array[]; size: number; ended: boolean; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = body.getReader();
  const head: Uint8Array[] = [];
  let size = 0;
  while (size < bytes) {
    const { done, value } = await reader.read();
    if (done) return { head, size, ended: true, reader };
    head.push(value);
    size += value.byteLength;
  }
  return { head, size, ended: false, reader };
}

function isJson(response: Response): boolean {
  return /^application\/(?:[a-z.+-]*\+)?json\b/i.test(response.headers.get("content-type") ?? "");
}

/**
 * Data answers — the JSON of /api/… and /v1, and what loaders and actions send to the admin's pages — hold a shop's
 * orders or a shopper's details: never kept by a browser or a shared cache, unless the route chose otherwise.
 */
function isDataAnswer(response: Response): boolean {
  return isJson(response) || /^text\/remix-deferred\b/i.test(response.headers.get("content-type") ?? "") || response.headers.has("x-remix-response");
}

/**
 * Writes Remix's answer. Text is compressed when the client accepts it, the answer is not compressed already nor a
 * stream of events, and it is large enough to gain (a body with no declared length is read up to that size first);
 * `Vary` tells caches the answer depends on Accept-Encoding. A JSON answer is read whole up to WHOLE_ANSWER_BYTES and
 * sent in one write with its length; a longer one, or a page, streams.
 */
async function send(response: Response, outgoing: ServerResponse, incoming: IncomingMessage): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  if (!response.headers.has("cache-control") && isDataAnswer(response)) headers["cache-control"] = "no-store";
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  const declaredLength = response.headers.get("content-length");
  let encoding =
    response.body && incoming.method !== "HEAD" && !response.headers.has("content-encoding") && isCompressible(response.headers.get("content-type")) && (declaredLength === null || Number(declaredLength) >= MIN_COMPRESSIBLE_BYTES)
      ? chooseEncoding(incoming.headers["accept-encoding"])
      : null;
  if (!response.body) {
    outgoing.writeHead(response.status, response.statusText, headers);
    outgoing.end();
    return;
  }
  if (encoding) {
    // JSON is never streamed piece by piece (deferred pages have their own type), so it can be read whole.
    const { head, size, ended, reader } = await peek(response.body, isJson(response) ? WHOLE_ANSWER_BYTES : MIN_COMPRESSIBLE_BYTES);
    if (ended && size < MIN_COMPRESSIBLE_BYTES) encoding = null;
    else {
      headers["content-encoding"] = encoding;
      delete headers["content-length"];
      headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : "Accept-Encoding";
    }
    if (ended) {
      // The whole answer is in hand: one write with its length, compressed in one call.
      const whole = encoding ? await compressWhole(Buffer.concat(head), encoding) : Buffer.concat(head);
      outgoing.writeHead(response.status, response.statusText, { ...headers, "content-length": String(whole.byteLength) });
      outgoing.end(whole);
      return;
    }
    outgoing.writeHead(response.status, response.statusText, headers);
    const rest = async function* () {
      yield* head;
      for (let read = await reader.read(); !read.done; read = await reader.read()) yield read.value;
    };
    await new Promise<void>((resolve, reject) => {
      const source = Readable.from(rest()).on("error", reject);
      (encoding ? source.pipe(compressorFor(encoding)).on("error", reject) : source).pipe(outgoing).on("finish", resolve).on("error", reject);
    });
    return;
  }
  outgoing.writeHead(response.status, response.statusText, headers);
  await new Promise<void>((resolve, reject) => {
    Readable.fromWeb(response.body as import("node:stream/web").ReadableStream).on("error", reject).pipe(outgoing).on("finish", resolve).on("error", reject);
  });
}

function serveStatic(publicDir: string, pathname: string, incoming: IncomingMessage, outgoing: ServerResponse): boolean {
  if (!(pathname.startsWith("/build/") || pathname === "/favicon.svg")) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  const file = path.join(publicDir, path.normalize(decoded));
  if (!file.startsWith(publicDir + path.sep) || !existsSync(file)) return false;
  const stats = statSync(file);
  if (!stats.isFile()) return false;
  const contentType = staticContentType(file);
  const headers: Record<string, string> = {
    "Content-Type": contentType,
    // Remix fingerprints everything under /build/.
    "Cache-Control": pathname.startsWith("/build/") ? "public, max-age=31536000, immutable" : "public, max-age=3600",
  };
  const encoding = isCompressible(contentType) && stats.size >= MIN_COMPRESSIBLE_BYTES ? chooseEncoding(incoming.headers["accept-encoding"]) : null;
  if (encoding) {
    const precompressed = precompressedFile(file, encoding, stats);
    if (precompressed) {
      outgoing.writeHead(200, { ...headers, "Content-Encoding": encoding, "Content-Length": String(precompressed.size), Vary: "Accept-Encoding" });
      createReadStream(precompressed.path).pipe(outgoing);
    } else {
      outgoing.writeHead(200, { ...headers, "Content-Encoding": encoding, Vary: "Accept-Encoding" });
      createReadStream(file).pipe(compressorFor(encoding)).pipe(outgoing);
    }
    return true;
  }
  outgoing.writeHead(200, { ...headers, Vary: "Accept-Encoding" });
  createReadStream(file).pipe(outgoing);
  return true;
}

/**
 * A state-changing request a browser sent from another site's page: refused 403 here, as Remix itself refuses it
 * for pages (throwing, which would be a 500). The admin extensions' JSON routes under /api/ are the exception:
 * Shopify's admin calls them cross-origin, with a session token the route verifies, under CORS; and so are the app
 * proxy's (/proxy/), which Shopify sends signed for a form on the shop's own domain.
 */
function isCrossSiteWrite(method: string, url: URL, incoming: IncomingMessage): boolean {
  if (method === "GET" || method === "HEAD" || method === "OPTIONS" || url.pathname.startsWith("/api/")) return false;
  // Shopify's app proxy forwards a shopper's form from the shop's own domain, signed: the route checks the signature.
  if (url.pathname.startsWith("/proxy/")) return false;
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

/** Each route of the build by its address (`/webhooks/orders/create`, `/v1/*`): its own path after its parents'. */
function routesByAddress(build: Pick<ServerBuild, "routes">): Map<string, ServerBuild["routes"][string]["module"]> {
  const modules = new Map<string, ServerBuild["routes"][string]["module"]>();
  const addressOf = (id: string | undefined): string => {
    const route = id === undefined ? undefined : build.routes[id];
    if (!route) return "";
    const parent = addressOf(route.parentId);
    return route.path ? `${parent}/${route.path}` : parent;
  };
  for (const [id, route] of Object.entries(build.routes)) if (route) modules.set(addressOf(id), route.module);
  return modules;
}

/**
 * Each webhook topic's route action, by its address (`/webhooks/orders/create`), found once in the build. A delivery
 * is handed to its action directly: Remix would first match the request against the whole route tree, on every
 * request, where a webhook's address is exact and known (npm run bench: a quarter of a delivery's CPU; bench/findings.md). The route stays the one Remix serves (the dev server, a GET or HEAD there, tests calling the action).
 */
export function webhookActionsOf(build: Pick<ServerBuild, "routes">): Map<string, ActionFunction> {
  const actions = new Map<string, ActionFunction>();
  for (const [address, module] of routesByAddress(build)) if (module.action && webhookTopicAt(address)) actions.set(address, module.action);
  return actions;
}

/**
 * The embedded courier service's route (`/v1/*`), found once in the build, or null when the build has none. Every
 * call under /v1 is handed to it directly, for the reason webhooks are: Remix matched the whole route tree for each
 * call, twice (the request, then the resource route's own query), about a tenth of a tracking read's CPU in the app
 * (npm run bench, the tracking cycle's profile).
 */
export function courierServiceRouteOf(build: Pick<ServerBuild, "routes">): { loader: LoaderFunction; action: ActionFunction } | null {
  const module = routesByAddress(build).get("/v1/*");
  return module?.loader && module.action ? { loader: module.loader, action: module.action } : null;
}

// The methods Remix hands to a route's action; the rest (GET, HEAD, OPTIONS) go to its loader.
const MUTATIONS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const UNEXPECTED = () => new Response("Unexpected Server Error", { status: 500, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * A route's loader or action run as Remix runs a resource route's: its Response is the answer, a thrown Response too,
 * and anything else thrown is reported to the app's handleError (app/entry.server.tsx) and answered 500 (Shopify
 * delivers a webhook again). A HEAD request is answered without the body, as Remix does.
 */
async function runResourceRoute(handler: ActionFunction | LoaderFunction, request: Request, context: AppLoadContext, build: ServerBuild, params: Record<string, string> = {}): Promise<Response> {
  const args = { request, params, context };
  let answer: Response;
  try {
    const returned: unknown = await handler(args);
    if (!(returned instanceof Response)) throw new Error("A resource route answered something other than a Response");
    answer = returned;
  } catch (thrown) {
    if (!(thrown instanceof Response)) {
      build.entry.module.handleError?.(thrown, args);
      return UNEXPECTED();
    }
    answer = thrown;
  }
  return request.method === "HEAD" ? new Response(null, { headers: answer.headers, status: answer.status, statusText: answer.statusText }) : answer;
}

/**
 * Dakiya's HTTP server: the Remix build behind a body limit that holds before any route, signature check or
 * session lookup runs (server/body-limits.ts), the public build assets, and the caller's address for routes
 * that rate-limit by it (passed to loaders and actions as `context.clientAddress`).
 */
export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const handle = createRequestHandler(options.build, options.mode);
  const webhookActions = webhookActionsOf(options.build);
  const courierService = courierServiceRouteOf(options.build);
  const trusted = trustedProxySet(options.trustedProxies ?? []);
  const publicDir = path.resolve(options.publicDir ?? "public");

  async function onRequest(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const pathname = pathnameOf(incoming);
    const host = incoming.headers.host ?? `localhost:${options.port}`;
    if (!HOST_HEADER.test(host)) return refuse(outgoing, pathname, { status: 400, message: "The Host header must be a host name or address, with an optional port." });
    let url: URL;
    try {
      url = new URL(incoming.url ?? "/", `http://${host}`);
    } catch {
      return refuse(outgoing, pathname, { status: 400, message: "Malformed request address." });
    }
    const method = incoming.method ?? "GET";
    if (!METHODS.includes(method)) return refuse(outgoing, pathname, { status: 405, message: `The ${method} method is not served here.`, headers: { Allow: METHODS.join(", ") } });
    if ((method === "GET" || method === "HEAD") && serveStatic(publicDir, url.pathname, incoming, outgoing)) return;

    if (isCrossSiteWrite(method, url, incoming)) return refuse(outgoing, pathname, { status: 403, message: "Refused: this request was sent from another site." });

    const headers = headersOf(incoming);
    let body: Uint8Array | ReadableStream<Uint8Array> | undefined;
    let streamed: StreamedBody | null = null;
    if (method !== "GET" && method !== "HEAD") {
      // A webhook whose headers cannot be Shopify's for this address is refused on them: its body is never read.
      const refusal = url.pathname.startsWith("/webhooks/") ? webhookHeaderRefusal(url.pathname, headers) : null;
      if (refusal) return refuseUnread(incoming, outgoing, refusal);
      const limit = bodyLimitFor(url.pathname);
      const declared = incoming.headers["content-length"];
      if (declared !== undefined && !/^\d{1,15}$/.test(declared)) return refuse(outgoing, pathname, { status: 400, message: "Content-Length must be a number of bytes.", close: true });
      if (declared !== undefined && Number(declared) > limit) return tooLarge(incoming, outgoing, limit);
      if (streamedUploadLimit(url.pathname) !== null) {
        streamed = streamBody(incoming, limit);
        body = streamed.stream;
      } else {
        try {
          body = await readBody(incoming, limit);
        } catch (error) {
          if (error instanceof BodyTooLarge) return tooLarge(incoming, outgoing, limit);
          return refuse(outgoing, pathname, { status: 400, message: "The request body could not be read.", close: true });
        }
      }
    }

    const request = new Request(url, { method, headers, body: body as BodyInit | undefined, ...(streamed ? { duplex: "half" } : {}) } as RequestInit);
    const context = { clientAddress: clientAddressOf(incoming, trusted) };
    const webhookAction = method === "POST" ? webhookActions.get(url.pathname) : undefined;
    const courierCall = courierService && isCourierServicePath(url.pathname) ? (MUTATIONS.has(method) ? courierService.action : courierService.loader) : undefined;
    let response: Response;
    try {
      if (webhookAction) response = await runResourceRoute(webhookAction, request, context, options.build);
      else if (courierCall) response = await runResourceRoute(courierCall, request, context, options.build, { "*": url.pathname.replace(/^\/v1\/?/, "") });
      else response = await handle(request, context);
    } catch (error) {
      // An upload over its limit fails whatever was reading it: the answer is the limit's, not the route's.
      if (streamed?.overLimit) return tooLarge(incoming, outgoing, bodyLimitFor(url.pathname));
      throw error;
    }
    if (streamed?.overLimit) return tooLarge(incoming, outgoing, bodyLimitFor(url.pathname));
    // A route that answered before reading all of an upload (a refusal on its first rows): the rest is dropped as it
    // comes, and the connection closes after the answer.
    if (streamed && !incoming.readableEnded) {
      outgoing.setHeader("Connection", "close");
      lingerOnUnreadBody(incoming);
    }
    await send(response, outgoing, incoming);
  }

  const server = createServer((incoming, outgoing) => {
    onRequest(incoming, outgoing).catch((error: unknown) => {
      // Only the kind of failure: a request's body or a database error may carry a shopper's details.
      console.error(`Request ${incoming.method} ${loggablePath(pathnameOf(incoming))} failed: ${error instanceof Error ? error.name : typeof error}`);
      refuse(outgoing, pathnameOf(incoming), { status: 500, message: "Internal Server Error" });
    });
  });
  // A declared body larger than the limit is refused before the client sends it (Expect: 100-continue).
  server.on("checkContinue", (incoming, outgoing) => {
    const declared = Number(incoming.headers["content-length"] ?? 0);
    const limit = bodyLimitFor(pathnameOf(incoming));
    if (declared > limit) {
      // Refused before the client sends the body: no 100 Continue, and nothing to drain.
      refuse(outgoing, pathnameOf(incoming), { status: 413, message: tooLargeMessage(limit), close: true });
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
