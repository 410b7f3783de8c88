import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "~/config.server";
import { signSessionToken } from "../../store/auth";
import { hostOf } from "../../store/shell-layout";
import { createDatabase } from "../support/database";
import { npmStart, waitForHealth, type StartedServer } from "../support/npm-start";
import { appCredentials, startStore } from "../support/store";
import { productionBuild } from "../support/production-build";

/*
 * Requests a browser, a scanner or a confused client sends that no route expects, against the production build under
 * `npm start`: each is a 4xx saying what is wrong, never a 500; nothing of the failure reaches the answer or the log
 * as a stack; the login form cannot be framed; data answers are never cached.
 */

const port = 3200 + Number(process.env.VITEST_POOL_ID ?? 0) * 10;
const appUrl = `http://localhost:${port}`;
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

let store: Awaited<ReturnType<typeof startStore>>;
let server: StartedServer;

/** A request exactly as written (fetch would refuse to send these headers and methods). */
function raw(method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path, headers: { "User-Agent": BROWSER, ...headers } }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  await productionBuild();
  store = await startStore({ appUrl });
  const config = getConfig();
  server = npmStart({
    DATABASE_URL: await createDatabase(`malformed_${process.env.VITEST_POOL_ID ?? 0}`, { replace: true }),
    NODE_ENV: "test",
    PORT: String(port),
    WORKER_CONCURRENCY: "0",
    SHOPIFY_APP_URL: appUrl,
    SHOPIFY_API_KEY: config.SHOPIFY_API_KEY,
    SHOPIFY_API_SECRET: config.SHOPIFY_API_SECRET,
    ENCRYPTION_KEY: process.env.ENCRYPTION_KEY!,
    NODE_OPTIONS: "--import ./store/register.ts",
    SHOPIFY_STORE_SIMULATOR_URL: store.url,
  });
  expect((await waitForHealth(port, server.output, 60_000)).status).toBe(200);
  const installed = await fetch(`${appUrl}/app?embedded=1&shop=${store.domain}&host=${hostOf(store.domain)}&id_token=${signSessionToken(appCredentials(), store.domain)}`, { headers: { "User-Agent": BROWSER } });
  expect(installed.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await store?.close();
});

describe("malformed requests", () => {
  it("a Host header that is not a host is a 400", async () => {
    for (const host of ["a@b", "a b", "example.com/path"]) {
      const answer = await raw("GET", "/", { Host: host });
      expect(answer.status, host).toBe(400);
      expect(answer.body).toMatch(/The Host header must be a host name/);
    }
  });

  it("TRACE and other methods the app does not serve are a 405 naming what it does serve; under /v1 as JSON", async () => {
    for (const method of ["TRACE", "PROPFIND"]) {
      const answer = await raw(method, "/app");
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    }
    const v1 = await raw("TRACE", "/v1/get-warehouse/1");
    expect(v1.status).toBe(405);
    expect(JSON.parse(v1.body)).toEqual({ success: false, message: "The TRACE method is not served here.", errors: [] });
  });

  it("a JSON login is a 415 saying to send the form; an unreadable form a 400", async () => {
    const json = await fetch(`${appUrl}/auth/login`, { method: "POST", headers: { "Content-Type": "application/json", "User-Agent": BROWSER }, body: JSON.stringify({ shop: store.domain }) });
    expect(json.status).toBe(415);
    expect(await json.text()).toMatch(/Log in with the form: send the shop domain as application\/x-www-form-urlencoded/);
    const broken = await fetch(`${appUrl}/auth/login`, { method: "POST", headers: { "Content-Type": "multipart/form-data; boundary=none", "User-Agent": BROWSER }, body: "not a multipart body" });
    expect(broken.status).toBe(400);
    // The form itself still logs in: an unknown shop is told what to enter.
    const form = await fetch(`${appUrl}/auth/login`, { method: "POST", headers: { "User-Agent": BROWSER }, body: new URLSearchParams({ shop: "" }) });
    expect(form.status).toBe(200);
    expect(await form.text()).toMatch(/Enter your store(&#x27;|')s domain to log in/);
  });

  it("a signed session token whose dest is not a shop is a 401, in the admin and under /api", async () => {
    for (const dest of ["evil.example", "not a url", "a@b.myshopify.com", `${store.domain}:8443`, `${store.domain}/admin`]) {
      const token = signSessionToken(appCredentials(), dest);
      const api = await fetch(`${appUrl}/api/orders/1`, { headers: { Authorization: `Bearer ${token}`, "User-Agent": BROWSER } });
      expect(api.status, dest).toBe(401);
      expect(await api.text()).toMatch(/does not name a shop/);
      const admin = await fetch(`${appUrl}/app?embedded=1&shop=${store.domain}&host=${hostOf(store.domain)}&id_token=${encodeURIComponent(token)}`, { headers: { "User-Agent": BROWSER } });
      expect(admin.status, dest).toBe(401);
    }
    // The shop's own token still opens the admin.
    const own = await fetch(`${appUrl}/app?embedded=1&shop=${store.domain}&host=${hostOf(store.domain)}&id_token=${signSessionToken(appCredentials(), store.domain)}`, { headers: { "User-Agent": BROWSER } });
    expect(own.status).toBe(200);
  });

  it("an unknown address such as /favicon.ico is a plain 404 page", async () => {
    const answer = await fetch(`${appUrl}/favicon.ico`, { headers: { "User-Agent": BROWSER } });
    expect(answer.status).toBe(404);
    expect(await answer.text()).toMatch(/There is no page at this address/);
  });

  it("a courier statement with rows that cannot be read is a 422 naming them; one over 32 MB a 413, declared or while it streams; a packing photo over 5 MB a 413", async () => {
    const headers = () => ({ Authorization: `Bearer ${signSessionToken(appCredentials(), store.domain)}`, "Content-Type": "text/csv", "User-Agent": BROWSER });
    const refused = await fetch(`${appUrl}/app/cod/upload?name=bad.csv`, { method: "POST", headers: headers(), body: "AWB No,COD Amount,UTR\r\n1561,seven,UTR1\r\n1562,799,\r\n" });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ outcome: "refused", details: ["Row 2, column “COD Amount”: seven is not an amount", "Row 3, column “UTR”: no UTR or bank reference"] });

    /** `megabytes` of statement rows after its header, chunked with no length declared, or declared; the answer. */
    const stream = (path: string, megabytes: number, declared: boolean) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const header = "AWB No,COD Amount,UTR,Remark 1,Remark 2,Remark 3,Remark 4\r\n";
        // Rows of a kilobyte (long remarks), each with an amount that cannot be read: the file is read to its end for its problems.
        const chunk = Buffer.from(`1561,seven,UTR1,${`,${"x".repeat(250)}`.repeat(4).slice(1)}\r\n`.repeat(1_024));
        const req = httpRequest({ host: "127.0.0.1", port, path, method: "POST", headers: { ...headers(), ...(declared ? { "Content-Length": String(header.length + megabytes * chunk.length) } : {}) } }, (response) => {
          let body = "";
          response.setEncoding("utf8");
          response.on("data", (text: string) => (body += text));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        });
        let answered = false;
        req.on("response", () => (answered = true));
        // A server that stops reading after answering cuts the rest of the upload: the answer came first.
        req.on("error", (error) => (answered ? undefined : reject(error)));
        let sent = 0;
        const pump = () => {
          while (!answered && sent < megabytes) {
            sent += 1;
            if (sent === megabytes) return req.end(chunk);
            if (!req.write(chunk)) return req.once("drain", pump);
          }
        };
        req.write(header);
        pump();
      });
    expect(await stream("/app/freight/upload?name=huge.csv", 40, true)).toMatchObject({ status: 413 });
    const streamed = await stream("/app/cod/upload?name=huge.csv", 40, false);
    expect(streamed.status, streamed.body).toBe(413);
    expect(await stream("/app/freight/photo/1", 6, true)).toMatchObject({ status: 413 });
  });

  it("logged none of it as a stack or a failure", () => {
    const output = server.output();
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toMatch(/ErrorResponseImpl|No route matches|failed: TypeError|Unexpected Server Error/);
  });
});

describe("answers a browser must not keep or frame", () => {
  it("the login form cannot be framed by another site", async () => {
    for (const path of ["/auth/login", `/auth/login?shop=${store.domain}&host=${hostOf(store.domain)}`]) {
      const answer = await fetch(`${appUrl}${path}`, { headers: { "User-Agent": BROWSER }, redirect: "manual" });
      if (answer.status !== 200) continue;
      expect(answer.headers.get("content-security-policy"), path).toBe("frame-ancestors 'none'");
      expect(answer.headers.get("x-frame-options"), path).toBe("DENY");
    }
    const form = await fetch(`${appUrl}/auth/login`, { headers: { "User-Agent": BROWSER } });
    expect(form.status).toBe(200);
    expect(form.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
  });

  it("JSON from /api/… and the admin's loaders carries Cache-Control: no-store", async () => {
    const token = () => signSessionToken(appCredentials(), store.domain);
    const api = await fetch(`${appUrl}/api/orders/${encodeURIComponent("gid://shopify/Order/1")}`, { headers: { Authorization: `Bearer ${token()}`, "User-Agent": BROWSER } });
    expect(api.headers.get("content-type")).toMatch(/json/);
    expect(api.headers.get("cache-control")).toBe("no-store");
    const loader = await fetch(`${appUrl}/app/orders?_data=routes%2Fapp.orders._index`, { headers: { Authorization: `Bearer ${token()}`, "User-Agent": BROWSER } });
    expect(loader.status).toBe(200);
    expect(loader.headers.get("content-type")).toMatch(/json/);
    expect(loader.headers.get("cache-control")).toBe("no-store");
    const v1 = await fetch(`${appUrl}/v1/get-warehouse/1`);
    expect(v1.headers.get("cache-control")).toBe("no-store");
  });
});
