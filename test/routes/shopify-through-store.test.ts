import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { loader as homeLoader } from "~/routes/app._index";
import { action as appUninstalled } from "~/routes/webhooks.app.uninstalled";
import { resetJobs, runJobs } from "../support/jobs";
import { responseOf } from "../support/webhooks";
import { serveRoutes, startStore } from "../support/store";
import { secretBox } from "~/settings/shop-settings.server";

let store: Awaited<ReturnType<typeof startStore>>;
let app: Awaited<ReturnType<typeof serveRoutes>>;

beforeAll(async () => {
  await resetJobs();
  app = await serveRoutes({ "/webhooks/app/uninstalled": appUninstalled });
  store = await startStore({ appUrl: app.url });
});
afterAll(async () => {
  await store.close();
  await app.close();
});

describe("the app against the local store", () => {
  it("installs by token exchange and answers an authenticated admin request", async () => {
    const response = await responseOf(async () => {
      return homeLoader({ request: store.adminRequest("/app"), params: {}, context: {} });
    });
    const home = await response.json();
    expect(home).toMatchObject({ shop: `Dakiya Demo Store (${store.domain})`, sandbox: true, autoBooking: false, needsAttention: 0 });
    // A shop just installed: nothing counted in any of the merchant's stages yet, and no COD with couriers.
    const counted = [...home.counts.orders, ...home.counts.shipments].map((stage: { count: number }) => stage.count);
    expect(counted.length).toBeGreaterThan(0);
    expect(counted.every((count: number) => count === 0)).toBe(true);
    expect(home.counts.cod).toMatchObject({ outPaise: 0, deliveredPaise: 0 });

    const session = await prisma.session.findUniqueOrThrow({ where: { id: `offline_${store.domain}` } });
    // Stored sealed, as every secret is: the row holds no token Shopify would take.
    expect(session.accessToken).toMatch(/^v1\./);
    expect(session.refreshToken).toMatch(/^v1\./);
    expect(secretBox().open(session.accessToken)).toMatch(/^shpat_/);
    expect(secretBox().open(session.refreshToken!)).toMatch(/^shprt_/);
    expect(store.shop.accessTokens.has(session.accessToken)).toBe(false);
    expect(store.shop.accessTokens.has(secretBox().open(session.accessToken))).toBe(true);
    expect(session.refreshTokenExpires?.getTime()).toBeGreaterThan(Date.now() + 80 * 86_400_000);
    expect(session.expires?.getTime()).toBeGreaterThan(Date.now());
  });

  it("refuses a session token signed with another secret", async () => {
    const forged = new Request(store.adminRequest("/app").url, { headers: { Authorization: "Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl" } });
    const response = await responseOf(() => homeLoader({ request: forged, params: {}, context: {} }));
    expect(response.status).toBe(401);
  });

  it("drops the shop's sessions on app/uninstalled sent by the store, once per webhook id", async () => {
    await responseOf(() => homeLoader({ request: store.adminRequest("/app"), params: {}, context: {} }));
    expect(await prisma.session.count({ where: { shop: store.domain } })).toBe(1);

    const report = await store.simulator.uninstallApp(store.domain, { webhookId: `uninstall-${store.domain}` });
    expect(report).toMatchObject({ delivered: true, attempts: [{ status: 200 }] });
    expect(await runJobs(["app-uninstalled"])).toEqual({ ran: 1, failed: [] });
    expect(await prisma.session.count({ where: { shop: store.domain } })).toBe(0);

    const redelivered = await store.simulator.deliver("app/uninstalled", store.domain, { webhookId: `uninstall-${store.domain}` });
    expect(redelivered.delivered).toBe(true);
    expect(await runJobs(["app-uninstalled"])).toEqual({ ran: 0, failed: [] });
    expect(await prisma.webhookDelivery.count({ where: { id: `uninstall-${store.domain}` } })).toBe(1);
  });

  it("sends Shopify's headers, and can deliver an older event after a newer one", async () => {
    const received: Record<string, string>[] = [];
    const recorder = await serveRoutes({
      "/webhooks/orders/create": async ({ request }) => {
        received.push(Object.fromEntries([...request.headers].filter(([name]) => name.startsWith("x-shopify-"))));
        return new Response(null, { status: 200 });
      },
    });
    try {
      const simulator = (await import("../../store/simulator")).createStoreSimulator({ app: (await import("../support/store")).appCredentials(), appUrl: recorder.url, shops: [store.shop] });
      const order = store.shop.orders[0]!;
      await simulator.deliver("orders/create", store.domain, { orderId: order.id, triggeredAt: "2026-03-10T10:05:00.000Z" });
      await simulator.deliver("orders/create", store.domain, { orderId: order.id, triggeredAt: "2026-03-10T10:00:00.000Z" });
      expect(received.map((headers) => headers["x-shopify-triggered-at"])).toEqual(["2026-03-10T10:05:00.000Z", "2026-03-10T10:00:00.000Z"]);
      expect(received[0]).toMatchObject({
        "x-shopify-topic": "orders/create",
        "x-shopify-shop-domain": store.domain,
        "x-shopify-api-version": "2026-10",
        "x-shopify-hmac-sha256": expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
        "x-shopify-webhook-id": expect.any(String),
        "x-shopify-event-id": expect.any(String),
      });
      expect(received[0]!["x-shopify-webhook-id"]).not.toBe(received[1]!["x-shopify-webhook-id"]);
    } finally {
      await recorder.close();
    }
  });

  it("retries a webhook the app did not accept, as Shopify does", async () => {
    let calls = 0;
    const flaky = await serveRoutes({
      "/webhooks/app/uninstalled": async (args) => {
        calls += 1;
        if (calls === 1) return new Response("busy", { status: 503 });
        return appUninstalled(args);
      },
    });
    try {
      const simulator = (await import("../../store/simulator")).createStoreSimulator({
        app: (await import("../support/store")).appCredentials(),
        appUrl: flaky.url,
        shops: [store.shop],
      });
      const report = await simulator.deliver("app/uninstalled", store.domain, { retryDelaysMs: [10, 10] });
      expect(report.attempts.map((attempt) => attempt.status)).toEqual([503, 200]);
      expect(report.delivered).toBe(true);
    } finally {
      await flaky.close();
    }
  });
});
