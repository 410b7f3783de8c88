import { describe, expect, it } from "vitest";
import { createAdminShell } from "./admin-shell";
import type { AppCredentials } from "./auth";
import { SEED_SHOP, seedShop } from "./seed";
import { createStoreSimulator } from "./simulator";

const APP: AppCredentials = { apiKey: "shell-test-key", apiSecret: "shell-test-secret", scopes: "read_orders" };

function shellFor(shop = seedShop()) {
  const simulator = createStoreSimulator({ app: APP, appUrl: "http://127.0.0.1:1", shops: [shop] });
  const handle = createAdminShell({ app: APP, appUrl: "http://127.0.0.1:1", defaultShop: SEED_SHOP, shopName: (domain) => (domain === shop.domain ? shop.name : undefined), simulator });
  return { shop, open: async (path: string) => (await handle(new Request(`http://localhost:4000${path}`)))! };
}

describe("the local admin's own pages", () => {
  it("Orders lists every order of the shop with its payment and fulfillment status, each linked to its page", async () => {
    const { shop, open } = shellFor();
    const answer = await open("/admin/orders");
    expect(answer.status).toBe(200);
    const html = await answer.text();
    for (const order of shop.orders) expect(html).toContain(`/admin/orders/${order.legacyResourceId}?shop=${SEED_SHOP}">${order.name}</a>`);
    const row = (name: string) => html.split("<tr>").find((cells) => cells.includes(`>${name}</a>`)) ?? "";
    expect(row("#1011")).toMatch(/Payment pending.*Partially fulfilled/s);
    expect(row("#1013")).toMatch(/Cancelled/);
  });

  it("Orders offers each order for selection, and Print with the apps' print actions once some are selected", async () => {
    const { shop, open } = shellFor();
    const html = await (await open("/admin/orders")).text();
    for (const order of shop.orders) expect(html).toContain(`<input type="checkbox" data-select-order value="${order.id}" aria-label="Select ${order.name}">`);
    expect(html).toContain('<input type="checkbox" data-select-all-orders aria-label="Select all orders">');
    expect(html).toMatch(/<div class="bulk-actions" data-bulk-actions hidden>.*<button type="button" aria-expanded="false" aria-controls="print-menu-entries">Print<\/button>.*<button type="button" data-print-action="dakiya-print-labels">Dakiya shipping labels<\/button>/s);
    expect(html).toContain(`data-target="admin.order-index.selection-print-action.render"`);
  });

  it("an order's page shows each fulfillment's carrier, tracking number and link, and its shipping events in order", async () => {
    const { shop, open } = shellFor();
    const order = shop.orders.find((each) => each.name === "#1011")!;
    const events = order.fulfillments[0]!.events;
    events.push({ id: "gid://shopify/FulfillmentEvent/2", status: "OUT_FOR_DELIVERY", message: "Out for delivery", happenedAt: "2026-11-21T09:00:00.000Z", estimatedDeliveryAt: null, city: "Jaipur" });
    events.push({ id: "gid://shopify/FulfillmentEvent/1", status: "IN_TRANSIT", message: "Shipment picked up", happenedAt: "2026-11-20T10:00:00.000Z", estimatedDeliveryAt: null, city: "Jaipur" });
    const html = await (await open(`/admin/orders/${order.legacyResourceId}`)).text();
    expect(html).toContain('India Post · tracking number <strong>EM123456789IN</strong> · <a href="https://www.indiapost.gov.in/">');
    const inTransit = html.indexOf("<td>2026-11-20 10:00</td><td>In transit</td><td>Shipment picked up</td><td>Jaipur</td>");
    const outForDelivery = html.indexOf("<td>2026-11-21 09:00</td><td>Out for delivery</td><td>Out for delivery</td><td>Jaipur</td>");
    expect(inTransit).toBeGreaterThan(0);
    expect(outForDelivery).toBeGreaterThan(inTransit);
  });

  it("writes what an order carries as text, and links only web addresses", async () => {
    const shop = seedShop();
    const order = shop.orders[0]!;
    order.name = "<img src=x onerror=alert(1)>";
    order.tags = ['"><script>alert(1)</script>'];
    order.fulfillments.push({ ...structuredClone(shop.orders.find((each) => each.fulfillments.length > 0)!.fulfillments[0]!), trackingInfo: [{ company: "Evil", number: "1", url: "javascript:alert(1)" }] });
    const { open } = shellFor(shop);
    const html = await (await open(`/admin/orders/${order.legacyResourceId}`)).text();
    expect(html).not.toMatch(/<img src=x|<script>alert|href="javascript:/);
    expect(html).toContain("Evil · tracking number <strong>1</strong><");
  });

  it("frames the app page the navigation names, and only pages of the app; an unknown order is a 404", async () => {
    const { open } = shellFor();
    expect(await (await open("/admin?app=/app/shipments")).text()).toMatch(/<iframe id="app" title="Dakiya" src="\/app\/shipments\?embedded=1&amp;shop=dakiya-demo\.myshopify\.com&amp;host=[\w-]+&amp;id_token=[\w.-]+">/);
    expect(await (await open("/admin?app=https://evil.example/app")).text()).toMatch(/<iframe id="app" title="Dakiya" src="\/app\?embedded=1&amp;/);
    expect((await open("/admin/orders/1")).status).toBe(404);
  });
});

describe("the local admin's way to the app", () => {
  /** The app's origin, as its server answers: compressed where the browser asks, two cookies on the page. */
  async function startApp() {
    const { createServer } = await import("node:http");
    const zlib = await import("node:zlib");
    const page = Buffer.from(`<html><head><script src="https://cdn.shopify.com/shopifycloud/app-bridge.js"></script></head><body>${"Orders to ship ".repeat(200)}</body></html>`);
    const script = Buffer.from(`console.log(${JSON.stringify("x".repeat(5_000))});`);
    const seen: { acceptEncoding?: string; te?: string }[] = [];
    const server = createServer((request, response) => {
      seen.push({ acceptEncoding: request.headers["accept-encoding"], te: request.headers.te as string | undefined });
      const brotli = /\bbr\b/.test(request.headers["accept-encoding"] ?? "");
      if (request.url === "/app") {
        response.setHeader("Set-Cookie", ["a=1; Path=/", "b=2; Path=/"]);
        response.writeHead(200, { "Content-Type": "text/html; charset=utf-8", ...(brotli ? { "Content-Encoding": "br" } : {}) });
        response.end(brotli ? zlib.brotliCompressSync(page) : page);
        return;
      }
      const body = brotli ? zlib.brotliCompressSync(script) : script;
      response.writeHead(200, { "Content-Type": "text/javascript", "Content-Length": String(body.length), ...(brotli ? { "Content-Encoding": "br" } : {}) });
      response.end(request.method === "HEAD" ? undefined : body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    return { url, seen, script, close: () => new Promise<void>((resolve) => server.close(() => resolve())), zlib };
  }

  it("passes the app's compressed answers on as they came, and swaps App Bridge's script in a compressed page", async () => {
    const app = await startApp();
    try {
      const shop = seedShop();
      const handle = createAdminShell({ app: APP, appUrl: app.url, defaultShop: SEED_SHOP, shopName: () => shop.name });
      const get = async (path: string, init: RequestInit = {}) => (await handle(new Request(`http://localhost:4000${path}`, { headers: { "Accept-Encoding": "gzip, deflate, br, zstd", TE: "trailers" }, ...init })))!;

      const script = await get("/build/app.js");
      expect(script.headers.get("content-encoding")).toBe("br");
      const bytes = Buffer.from(await script.arrayBuffer());
      expect(bytes.length).toBeLessThan(app.script.length / 10);
      expect(app.zlib.brotliDecompressSync(bytes).equals(app.script)).toBe(true);
      // Only what the shell can read again is asked for, and no hop-by-hop header goes on.
      expect(app.seen[0]).toEqual({ acceptEncoding: "br, gzip", te: undefined });

      const page = await get("/app");
      expect(page.headers.get("content-encoding")).toBe("br");
      expect(page.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
      const html = app.zlib.brotliDecompressSync(Buffer.from(await page.arrayBuffer())).toString("utf8");
      expect(html).toContain('<script src="/__shell/app-bridge.js"></script>');
      expect(html).not.toContain("cdn.shopify.com");

      const head = await get("/build/app.js", { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-length")).toBe(String(bytes.length));
    } finally {
      await app.close();
    }
  });
});
