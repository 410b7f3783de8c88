import { randomUUID } from "node:crypto";
import type { ApiClient, PrismaClient } from "@prisma/client";
import { MAX_BODY_BYTES, MAX_JSON_DEPTH, MAX_JSON_ENTRIES, operationAt, SERVICE_OPERATIONS, type ServiceOperation } from "~/shipping/contract";
import { isSandboxAccountSecret, sandboxAccountOf, type CourierKeyPair } from "~/shipping/sandbox-accounts.server";
import { createAuthFailureLimiter, type AuthFailureLimiter } from "./auth-failure-limiter.server";
import { findApiClient } from "./credentials.server";
import { ServiceFailure, tooManyFailures } from "./failures";
import { ensureSandboxAccount } from "./sandbox-seed.server";
import { buildOpenApiDocument } from "./openapi";
import type { ShipmentService } from "./shipment-service.server";

export interface ServiceHttpDeps {
  db: PrismaClient;
  service: ShipmentService;
  /** Runs before the first authenticated request: the shared sandbox account and its warehouses exist. */
  ready: () => Promise<unknown>;
  /** The sandbox's master pair, whose derived keys open per-tenant sandbox accounts; none: only stored accounts. */
  sandbox?: CourierKeyPair;
  /**
   * The caller's network address, for the per-address limit on failed authentication; given by whatever
   * serves the handler and knows the socket. Without it, see `trustForwardedFor`.
   */
  clientAddressOf?: (request: Request) => string | null | undefined;
  /**
   * Set only when the app is behind a proxy that writes X-Forwarded-For itself (replacing what the caller
   * sent): its first hop is then the caller's address. Otherwise anyone could write the header, so every
   * caller without `clientAddressOf` is the one address "unknown".
   */
  trustForwardedFor?: boolean;
  /** Counts failed authentication; one per handler by default (in memory, per process). */
  authFailureLimiter?: AuthFailureLimiter;
  /**
   * The service's public address as configured (the app's SHOPIFY_APP_URL), named as the OpenAPI document's server;
   * never taken from the request's Host, which anyone can write.
   */
  publicUrl?: string;
}

const UNKNOWN_ADDRESS = "unknown";

function jsonResponse(status: number, body: unknown, retryAfterSeconds?: number): Response {
  const headers: Record<string, string> = { "Content-Type": "application/json; charset=utf-8" };
  // The unread rest of an oversized upload would otherwise poison the kept-alive connection.
  if (status === 413) headers.Connection = "close";
  if (retryAfterSeconds !== undefined) headers["Retry-After"] = String(retryAfterSeconds);
  return new Response(JSON.stringify(body), { status, headers });
}

/**
 * Why a parsed body is too deep or too wide to validate, or null. Iterative, so it cannot itself
 * overflow the stack it protects.
 */
function pathologicalJson(body: unknown): string | null {
  const pending: { value: unknown; depth: number }[] = [{ value: body, depth: 1 }];
  while (pending.length > 0) {
    const { value, depth } = pending.pop()!;
    if (!value || typeof value !== "object") continue;
    if (depth > MAX_JSON_DEPTH) return `body must not nest lists or objects more than ${MAX_JSON_DEPTH} levels deep`;
    const children = Array.isArray(value) ? value : Object.values(value);
    if (children.length > MAX_JSON_ENTRIES) return `body must not hold a list or object of more than ${MAX_JSON_ENTRIES} entries`;
    for (const child of children) pending.push({ value: child, depth: depth + 1 });
  }
  return null;
}

/** Reads at most 1 MB; a larger body is refused before it is parsed, a pathological one before it is validated. */
async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw new ServiceFailure(413, "The body is larger than 1 MB");
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new ServiceFailure(413, "The body is larger than 1 MB");
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ServiceFailure(400, "The body must be JSON", [{ field: "body", message: "body is not valid JSON" }]);
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw new ServiceFailure(400, "The body must be a JSON object", [{ field: "body", message: "body must be a JSON object" }]);
  }
  const pathological = pathologicalJson(body);
  if (pathological) throw new ServiceFailure(400, "The body is too deeply nested or too large to validate", [{ field: "body", message: pathological }]);
  return body as Record<string, unknown>;
}

interface CredentialStore {
  db: PrismaClient;
  /** The sandbox's master pair: keys derived from it open sandbox accounts (app/shipping/sandbox-accounts.server.ts). */
  sandbox?: CourierKeyPair;
}

/** The account the credentials open, or the 401 to answer. A valid sandbox account key opens its account on first use. */
async function checkCredentials({ db, sandbox }: CredentialStore, request: Request): Promise<ApiClient | ServiceFailure> {
  const apiKey = request.headers.get("x-api-key");
  const secretKey = request.headers.get("x-secret-key");
  if (!apiKey || !secretKey) {
    return new ServiceFailure(401, "Send your credentials in the X-Api-Key and X-Secret-Key headers", [
      ...(apiKey ? [] : [{ field: "X-Api-Key", message: "X-Api-Key header is missing" }]),
      ...(secretKey ? [] : [{ field: "X-Secret-Key", message: "X-Secret-Key header is missing" }]),
    ]);
  }
  const client = await findApiClient(db, apiKey, secretKey);
  if (client) return client;
  const account = sandbox ? sandboxAccountOf(sandbox.apiKey, apiKey) : null;
  if (sandbox && account && isSandboxAccountSecret(sandbox, apiKey, secretKey)) return ensureSandboxAccount(db, account, { apiKey, secretKey });
  return new ServiceFailure(401, "The api_key and secret_key do not match an account");
}

/** Authenticates under the brake on failures: 429 while the key or the address has failed too often. */
async function authenticate(request: Request, { store, limiter, address }: { store: CredentialStore; limiter: AuthFailureLimiter; address: string }): Promise<ApiClient> {
  const caller = { address, apiKey: request.headers.get("x-api-key") ?? "" };
  // Refused before any lookup while blocked, and judged again after it: see AuthFailureLimiter.settle.
  const wait = limiter.secondsToWait(caller);
  if (wait > 0) throw tooManyFailures(wait);
  const outcome = await checkCredentials(store, request);
  const settled = limiter.settle(caller, !(outcome instanceof ServiceFailure));
  if (settled > 0) throw tooManyFailures(settled);
  if (outcome instanceof ServiceFailure) throw outcome;
  return outcome;
}

function forwardedFor(request: Request): string | undefined {
  return request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || undefined;
}

/** A path segment as sent; a malformed escape is the client's mistake, answered 404 like any unknown id. */
function segment(parameter: string | undefined): string {
  try {
    return decodeURIComponent(parameter ?? "");
  } catch {
    throw new ServiceFailure(404, `No such resource: ${parameter}`);
  }
}

type Runner = (client: ApiClient, request: Request, parameter: string | undefined) => Promise<unknown>;

/**
 * What an unexpected failure may leave in the log: the kind of error, its code and where it was thrown.
 * Never its message: Prisma's quote the whole row (the shopper's name, phone and address), and a JSON
 * error quotes the text it choked on.
 */
export function describeFailure(error: unknown): { errorClass: string; code?: string; at: string[] } {
  if (!(error instanceof Error)) return { errorClass: typeof error, at: [] };
  const code = (error as { code?: unknown }).code;
  // The frames follow the message in the stack; a stack that does not show where the message ends gives none.
  const stack = error.stack ?? "";
  const end = stack.indexOf(error.message);
  const frames = end === -1 ? [] : stack.slice(end + error.message.length).split("\n");
  return {
    errorClass: error.constructor.name === "Error" ? error.name : error.constructor.name,
    ...(typeof code === "string" && /^[A-Z][A-Z0-9_]{0,39}$/.test(code) ? { code } : {}),
    at: frames.filter((line) => /^\s+at /.test(line)).slice(0, 3).map((line) => line.trim()),
  };
}

/** The Shipment Order Service's HTTP surface: a fetch-style handler mounted under /v1. */
export function createServiceHandler({ db, service, ready, sandbox, clientAddressOf, trustForwardedFor = false, authFailureLimiter, publicUrl }: ServiceHttpDeps) {
  const limiter = authFailureLimiter ?? createAuthFailureLimiter();
  // Built once: it depends on nothing a request carries.
  const openApiDocument = buildOpenApiDocument(publicUrl);
  // Cut to the longest written IPv6 address and then some: the limiter keeps thousands of them in memory.
  const addressOf = (request: Request) =>
    ((clientAddressOf ? clientAddressOf(request) : trustForwardedFor ? forwardedFor(request) : undefined) || UNKNOWN_ADDRESS).slice(0, 64);

  const run: Record<ServiceOperation, Runner> = {
    "create-order": async (client, request) => service.createOrder(client, await readJsonObject(request)),
    "calculate-rate": async (_client, request) => service.calculateRate(await readJsonObject(request)),
    "get-warehouse": (client, _request, parameter) => service.getWarehouse(client, segment(parameter)),
    "track-order": (client, _request, parameter) => service.trackOrder(client, segment(parameter)),
    "get-order": (client, _request, parameter) => service.getOrder(client, segment(parameter)),
    "cancel-order": async (client, request) => service.cancelOrder(client, await readJsonObject(request)),
    "sandbox/advance": async (client, request) => service.advance(client, await readJsonObject(request)),
    "sandbox/reattempt": async (client, request) => service.reattempt(client, await readJsonObject(request)),
    "sandbox/erase-account": async (client, request) => {
      await readJsonObject(request);
      return service.eraseAccount(client);
    },
    "sandbox/redact-orders": async (client, request) => service.redactOrders(client, await readJsonObject(request)),
    "sandbox/remittance-statement": async (client, request) => service.remittanceStatement(client, await readJsonObject(request)),
    "sandbox/freight-invoice": async (client, request) => service.freightInvoice(client, await readJsonObject(request)),
  };

  return async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname.replace(/\/+$/, "");
    // Ids and reasons only: see describeFailure.
    const context: { operation: string; apiClientId?: number } = { operation: "openapi" };
    try {
      if (path === "/v1/openapi.json") {
        if (request.method !== "GET") throw new ServiceFailure(405, `${path} accepts GET, not ${request.method}`);
        return jsonResponse(200, openApiDocument);
      }
      const found = operationAt(path);
      if (!found) throw new ServiceFailure(404, `No operation at ${path}`);
      const operation = found.operations.find((candidate) => SERVICE_OPERATIONS[candidate].method === request.method);
      if (!operation) throw new ServiceFailure(405, `${path} accepts ${found.operations.map((candidate) => SERVICE_OPERATIONS[candidate].method).join(", ")}, not ${request.method}`);
      context.operation = operation;
      await ready();
      const client = await authenticate(request, { store: { db, sandbox }, limiter, address: addressOf(request) });
      context.apiClientId = client.id;
      return jsonResponse(200, await run[operation](client, request, found.parameter));
    } catch (error) {
      if (error instanceof ServiceFailure) return jsonResponse(error.status, error.toBody(), error.retryAfterSeconds);
      const reference = randomUUID();
      console.error("Shipment Order Service failed", { reference, ...context, ...describeFailure(error) });
      return jsonResponse(500, { success: false, message: `The service failed; try again (reference ${reference})`, errors: [] });
    }
  };
}
