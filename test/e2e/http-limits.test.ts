import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig, LOCAL_DEFAULTS } from "~/config.server";
import { freePort } from "../../server/free-port";
import { createDatabase } from "../support/database";
import { memoryOf, npmStart, pidListeningOn, waitForHealth, type StartedServer } from "../support/npm-start";
import { productionBuild } from "../support/production-build";
import { signedWebhookRequest, uniqueShop } from "../support/webhooks";

// The kernel's pick, not a fixed one: another checkout's run of this file on the same machine cannot take it.
let port: number;
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
let server: StartedServer;
let pid: number;
let databaseUrl: string;

beforeAll(async () => {
  await productionBuild();
  port = await freePort();
  // The only trusted proxy is an address this test never connects from: whatever X-Forwarded-For it sends is ignored.
  databaseUrl = await createDatabase(`limits_${process.env.VITEST_POOL_ID ?? 0}`, { replace: true });
  server = npmStart({ DATABASE_URL: databaseUrl, PORT: String(port), WORKER_CONCURRENCY: "0", TRUSTED_PROXY_ADDRESSES: "10.9.9.9", SHOPIFY_API_SECRET: getConfig().SHOPIFY_API_SECRET });
  // A busy machine starts the server slowly; the limits themselves are what is tested.
  expect((await waitForHealth(port, server.output, 100_000)).status).toBe(200);
  pid = pidListeningOn(port);
}, 120_000);
afterAll(() => server?.stop());

const MB = 1024 * 1024;
const CHUNK = Buffer.alloc(MB, "a");

interface Answer {
  status: number;
  type: string;
  body: string;
}

/**
 * POSTs `totalMb` of unsigned junk, declared up front or chunked, and resolves with the answer the server gave
 * while the body was still being sent (or after it was sent, for an honest server).
 */
function send(path: string, totalMb: number, { declared, extraHeaders = {} }: { declared: boolean; extraHeaders?: Record<string, string> }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "Content-Type": "application/json", "User-Agent": BROWSER, ...extraHeaders };
    if (declared) headers["Content-Length"] = String(totalMb * MB);
    const req = httpRequest({ host: "127.0.0.1", port, path, method: "POST", headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => {
        resolve({ status: response.statusCode ?? 0, type: response.headers["content-type"] ?? "", body });
        req.destroy();
      });
    });
    let sent = 0;
    let answered = false;
    req.on("response", () => (answered = true));
    const pump = () => {
      while (sent < totalMb) {
        sent += 1;
        if (sent === totalMb) return req.end(CHUNK);
        if (!req.write(CHUNK)) return req.once("drain", pump);
      }
    };
    // A server that cuts the connection after answering ends the upload with an error: the answer came first.
    req.on("error", (error) => (answered ? undefined : reject(error)));
    pump();
  });
}

/** The status alone. */
const upload = async (...args: Parameters<typeof send>) => (await send(...args)).status;

describe("the HTTP server's limits", () => {
  it("answers 16 concurrent 300 MB unsigned webhook posts 413 each before reading them, in bounded memory", async () => {
    const before = memoryOf(pid);
    // Shopify's headers, with a signature of the right shape that cannot match: only the body's size stops them.
    const shopifyHeaders = { "X-Shopify-Topic": "orders/create", "X-Shopify-Hmac-Sha256": Buffer.alloc(32).toString("base64"), "X-Shopify-Shop-Domain": "dakiya-demo.myshopify.com", "X-Shopify-Webhook-Id": "limits" };
    const declared = await Promise.all(Array.from({ length: 8 }, () => upload("/webhooks/orders/create", 300, { declared: true, extraHeaders: shopifyHeaders })));
    const chunked = await Promise.all(Array.from({ length: 8 }, () => upload("/webhooks/orders/create", 300, { declared: false, extraHeaders: shopifyHeaders })));
    expect([...declared, ...chunked]).toEqual(Array(16).fill(413));
    // Without them, or under another topic, a post is refused on its headers alone: no body is read at all.
    expect(await upload("/webhooks/orders/create", 300, { declared: false })).toBe(401);
    expect(await upload("/webhooks/shop/redact", 300, { declared: false, extraHeaders: shopifyHeaders })).toBe(401);
    const after = memoryOf(pid);
    // At most the 5 MB limit per upload in flight was ever held; 16 × 300 MB would be 4.8 GB.
    expect(after.peakMb - before.rssMb).toBeLessThan(200);
    expect((await fetch(`http://localhost:${port}/healthz`)).status).toBe(200);
  });

  it("refuses an oversized login form and any body over 1 MB outside webhooks", async () => {
    expect(await upload("/auth/login", 50, { declared: true })).toBe(413);
    expect(await upload("/auth/login", 50, { declared: false })).toBe(413);
    expect(await upload("/v1/create-order", 2, { declared: false })).toBe(413);
  });

  it("answers an oversized /v1 body in the courier service's JSON, declared, chunked or awaiting 100-continue", async () => {
    const expected = { success: false, message: "The request body is larger than 1024 KB, the limit for this address.", errors: [] };
    for (const declared of [true, false]) {
      const answer = await send("/v1/create-order", 3, { declared });
      expect(answer.status).toBe(413);
      expect(answer.type).toBe("application/json; charset=utf-8");
      expect(JSON.parse(answer.body)).toEqual(expected);
    }
    const continued = await new Promise<Answer>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, path: "/v1/create-order", method: "POST", headers: { "Content-Type": "application/json", "Content-Length": String(3 * MB), Expect: "100-continue" } }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, type: response.headers["content-type"] ?? "", body }));
      });
      req.on("continue", () => reject(new Error("The server asked for a body over its limit")));
      req.on("error", reject);
      req.flushHeaders();
    });
    expect(continued.status).toBe(413);
    expect(JSON.parse(continued.body)).toEqual(expected);
  });

  it("refuses a form posted from another site with 403, not a 500", async () => {
    const response = await fetch(`http://localhost:${port}/app/orders?shop=dakiya-demo.myshopify.com`, {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded", "User-Agent": BROWSER },
      body: "orderId=1",
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toMatch(/sent from another site/);
  });

  it("refuses an exit-iframe redirect to an outside host with 400, not a 500", async () => {
    for (const destination of ["https://evil.example/", "//evil.example/app", "javascript:alert(1)"]) {
      const response = await fetch(`http://localhost:${port}/auth/exit-iframe?shop=dakiya-demo.myshopify.com&host=ZGFraXlhLWRlbW8ubXlzaG9waWZ5LmNvbS9hZG1pbg&exitIframe=${encodeURIComponent(destination)}`, {
        headers: { "User-Agent": BROWSER },
      });
      expect(response.status, destination).toBe(400);
    }
  });

  it("logged no request's body or a stack with personal data while refusing all that", () => {
    expect(server.output()).not.toMatch(/aaaaaaaa|host header does not match/);
  });
});

describe("the caller's address the rate limits count", () => {
  const from = (forwardedFor: string | undefined, peer = "10.0.0.5") => ({ headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor }, socket: { remoteAddress: peer } }) as never;

  it("is the connection's peer unless the peer is a configured proxy, and then the first address left of the proxies", async () => {
    const { clientAddressOf, trustedProxySet } = await import("../../server/http");
    const balancer = trustedProxySet(["10.0.0.0/24", "fd00::/8", "192.0.2.7"]);
    // No proxies configured: a shopper cannot choose their own address by sending the header.
    expect(clientAddressOf(from("203.0.113.9"), trustedProxySet([]))).toBe("10.0.0.5");
    // A peer that is not a configured proxy: its header is not believed either, whatever it says.
    expect(clientAddressOf(from("203.0.113.9", "198.51.100.20"), balancer)).toBe("198.51.100.20");
    expect(clientAddressOf(from("10.0.0.9", "::ffff:198.51.100.20"), balancer)).toBe("198.51.100.20");
    // Behind the balancer: what it appended, not what the caller wrote before it.
    expect(clientAddressOf(from("1.2.3.4, 203.0.113.9"), balancer)).toBe("203.0.113.9");
    expect(clientAddressOf(from("203.0.113.9", "::ffff:10.0.0.5"), balancer)).toBe("203.0.113.9");
    // Through two trusted proxies (the CDN's address on the right is one of them too).
    expect(clientAddressOf(from("1.2.3.4, 198.51.100.7, 192.0.2.7"), balancer)).toBe("198.51.100.7");
    expect(clientAddressOf(from("2001:db8::1, fd00::3", "fd00::2"), balancer)).toBe("2001:db8::1");
    expect(clientAddressOf(from("[2001:db8::1]:4431, 203.0.113.9:5120"), balancer)).toBe("203.0.113.9");
    // No header, or one of nothing but proxies: the furthest proxy there is.
    expect(clientAddressOf(from(undefined), balancer)).toBe("10.0.0.5");
    expect(clientAddressOf(from("10.0.0.7"), balancer)).toBe("10.0.0.7");
    // An entry that is not an address ends the walk at the last proxy that vouched for it.
    expect(clientAddressOf(from("203.0.113.9, not-an-address"), balancer)).toBe("10.0.0.5");
  });

  it("ignores X-Forwarded-For from a peer that is not a configured proxy: the tracking page's limit counts the connection", async () => {
    const statuses: number[] = [];
    for (let lookup = 0; lookup < 31; lookup += 1) {
      const answer = await fetch(`http://localhost:${port}/track/XX${String(lookup).padStart(8, "0")}`, { headers: { "User-Agent": BROWSER, "X-Forwarded-For": `203.0.113.${lookup}` } });
      await answer.arrayBuffer();
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, 30).every((status) => status !== 429)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe("webhooks at the production server", () => {
  it("hands a delivery to its topic's route: signed, acknowledged once and its check enqueued once, also when redelivered; a forged signature a 401 saying so; a signed body that is not JSON acknowledged", async () => {
    const shop = uniqueShop("limits");
    const address = `http://127.0.0.1:${port}/webhooks/orders/create`;
    const webhookId = randomUUID();
    const delivery = (options: Partial<Parameters<typeof signedWebhookRequest>[1]> = {}) =>
      fetch(signedWebhookRequest(address, { topic: "orders/create", shop, payload: { id: 7001, admin_graphql_api_id: "gid://shopify/Order/7001" }, secret: getConfig().SHOPIFY_API_SECRET, webhookId, ...options }));

    expect((await delivery()).status).toBe(200);
    expect((await delivery()).status).toBe(200);
    const forged = await delivery({ webhookId: randomUUID(), hmac: Buffer.alloc(32, 7).toString("base64") });
    expect([forged.status, await forged.text()]).toEqual([401, "The webhook's HMAC does not match\n"]);
    const notJson = randomUUID();
    expect((await delivery({ webhookId: notJson, body: "not json" })).status).toBe(200);

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows: deliveries } = await client.query<{ id: string; problem: string | null }>(`SELECT id, problem FROM "WebhookDelivery" WHERE shop = $1 ORDER BY "receivedAt"`, [shop]);
      expect(deliveries).toEqual([
        { id: webhookId, problem: null },
        { id: notJson, problem: "the body is not JSON" },
      ]);
      const { rows: jobs } = await client.query<{ count: number }>(`SELECT count(*)::int AS count FROM pgboss.job WHERE name = 'order-check' AND data->>'shop' = $1`, [shop]);
      expect(jobs).toEqual([{ count: 1 }]);
    } finally {
      await client.end();
    }
  });
});

describe("the courier service at the production server", () => {
  // Calls under /v1 go to the service's route directly, not through Remix's route matching (server/http.ts): each
  // method still reaches the handler Remix would give it, and every answer is the service's own JSON.
  it("hands every call under /v1 to the service: a read, its HEAD without a body, OPTIONS, a write, a call without keys, an unknown address", async () => {
    const keys = { "X-Api-Key": LOCAL_DEFAULTS.SANDBOX_API_KEY, "X-Secret-Key": LOCAL_DEFAULTS.SANDBOX_SECRET_KEY };
    const call = async (path: string, init: RequestInit = {}) => {
      const answer = await fetch(`http://127.0.0.1:${port}${path}`, { ...init, headers: { ...keys, ...(init.headers as Record<string, string>) } });
      const text = await answer.text();
      return { status: answer.status, type: answer.headers.get("content-type"), body: text === "" ? "" : (JSON.parse(text) as { success: boolean; message: string }) };
    };
    const json = "application/json; charset=utf-8";

    expect(await call("/v1/track-order/NOSUCHAWB1")).toEqual({ status: 404, type: json, body: { success: false, message: "No shipment with awb NOSUCHAWB1", errors: [] } });
    // Remix's own query parameter means nothing to the service.
    expect(await call("/v1/track-order/NOSUCHAWB1?_data=routes%2Fv1.%24")).toEqual(await call("/v1/track-order/NOSUCHAWB1"));
    // The service answers GET alone at a read's address; HEAD is refused as it is, without a body.
    expect(await call("/v1/track-order/NOSUCHAWB1", { method: "HEAD" })).toEqual({ status: 405, type: json, body: "" });
    expect(await call("/v1/track-order/NOSUCHAWB1", { method: "OPTIONS" })).toEqual({ status: 405, type: json, body: { success: false, message: "/v1/track-order/NOSUCHAWB1 accepts GET, not OPTIONS", errors: [] } });
    const write = await call("/v1/calculate-rate", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(write).toMatchObject({ status: 422, type: json, body: { success: false, message: "The request has 9 invalid fields" } });
    const keyless = await fetch(`http://127.0.0.1:${port}/v1/track-order/NOSUCHAWB1`);
    expect([keyless.status, ((await keyless.json()) as { message: string }).message]).toEqual([401, "Send your credentials in the X-Api-Key and X-Secret-Key headers"]);
    for (const path of ["/v1/no-such-operation", "/v1"]) expect(await call(path)).toEqual({ status: 404, type: json, body: { success: false, message: `No operation at ${path}`, errors: [] } });
  });
});
