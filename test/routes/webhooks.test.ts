import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { action as scopesUpdate } from "~/routes/webhooks.app.scopes_update";
import { action as appUninstalled } from "~/routes/webhooks.app.uninstalled";
import { action as customersDataRequest } from "~/routes/webhooks.customers.data_request";
import { action as customersRedact } from "~/routes/webhooks.customers.redact";
import { action as shopRedact } from "~/routes/webhooks.shop.redact";
import { seedShop } from "../../store/seed";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { queuedJobs, resetJobs, runJobs } from "../support/jobs";
import { serveRoutes, startStore } from "../support/store";
import { responseOf, signedWebhookRequest, uniqueShop } from "../support/webhooks";

const APP = "http://localhost:3999";

async function storeSession(shop: string) {
  await prisma.session.create({
    data: { id: `offline_${shop}`, shop, state: "installed", accessToken: "shpat_test", scope: "read_orders" },
  });
}

const uninstalled = (shop: string, options: { webhookId?: string; secret?: string; body?: string } = {}) => {
  const request = signedWebhookRequest(`${APP}/webhooks/app/uninstalled`, { topic: "app/uninstalled", shop, payload: { id: 1, domain: shop, myshopify_domain: shop }, ...options });
  return responseOf(() => appUninstalled({ request, params: {}, context: {} }));
};

let courier: RunningCourierService;
let app: Awaited<ReturnType<typeof serveRoutes>>;
let store: Awaited<ReturnType<typeof startStore>>;
beforeAll(async () => {
  await resetJobs();
  // shop/redact erases the shop's sandbox account over HTTP.
  courier = await startAppCourierService();
  // Shopify itself, which tells the jobs whether the app is still installed; it sends app/uninstalled here.
  app = await serveRoutes({ "/webhooks/app/uninstalled": appUninstalled });
  store = await startStore({ appUrl: app.url });
});
afterAll(async () => {
  await store.close();
  await app.close();
  await courier.close();
});

/** A shop of the store with the app installed on it (an offline session by token exchange). */
async function installedShop(prefix = "shop"): Promise<string> {
  const shop = uniqueShop(prefix);
  store.simulator.addShop(seedShop(shop));
  await store.install(shop);
  return shop;
}

describe("webhooks", () => {
  it("app/scopes_update records the scopes the merchant granted on the shop's sessions, and refuses a body without them", async () => {
    const shop = await installedShop("scopes");
    const otherShop = await installedShop("scopes-other");
    const granted = ["read_orders", "write_orders", "read_locations", "write_app_proxy"];
    const send = (payload: unknown, webhookId: string) =>
      responseOf(() => scopesUpdate({ request: signedWebhookRequest(`${APP}/webhooks/app/scopes_update`, { topic: "app/scopes_update", shop, payload, webhookId }), params: {}, context: {} }));

    expect((await send({ id: 1, previous: ["read_orders"], current: granted, updated_at: new Date().toISOString() }, `scopes-${shop}`)).status).toBe(200);
    expect((await runJobs(["scopes-updated"])).failed).toEqual([]);
    expect((await prisma.session.findMany({ where: { shop } })).map((session) => session.scope)).toEqual([granted.join(",")]);
    expect((await prisma.session.findMany({ where: { shop: otherShop } })).map((session) => session.scope)).not.toEqual([granted.join(",")]);

    // Not a list of scopes: acknowledged (Shopify would redeliver it for hours) and recorded with why, nothing changed.
    expect((await send({ id: 2, current: "read_orders; DROP" }, `scopes-bad-${shop}`)).status).toBe(200);
    expect(await queuedJobs("scopes-updated", shop)).toHaveLength(0);
    expect((await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: `scopes-bad-${shop}` } })).problem).toBe("the body has no list of current scopes");
    expect((await prisma.session.findMany({ where: { shop } })).map((session) => session.scope)).toEqual([granted.join(",")]);
  });

  it("refuses a forged app/uninstalled with 401 and writes nothing", async () => {
    const shop = uniqueShop();
    await storeSession(shop);

    const response = await uninstalled(shop, { secret: "someone-elses-secret" });

    expect(response.status).toBe(401);
    expect(await prisma.webhookDelivery.count({ where: { shop } })).toBe(0);
    expect(await queuedJobs("app-uninstalled", shop)).toHaveLength(0);
    expect(await prisma.session.count({ where: { shop } })).toBe(1);
  });

  it("app/uninstalled is acknowledged at once and its job drops that shop's sessions and no other shop's, once Shopify no longer takes its token", async () => {
    const shop = await installedShop();
    const otherShop = await installedShop("other");

    // Signed, but the app is still installed: a body replayed, or a reinstall since. The sessions stay.
    expect((await uninstalled(shop)).status).toBe(200);
    expect(await prisma.webhookDelivery.count({ where: { shop } })).toBe(1);
    expect(await queuedJobs("app-uninstalled", shop)).toHaveLength(1);
    expect((await runJobs(["app-uninstalled"])).failed).toEqual([]);
    expect(await prisma.session.count({ where: { shop } })).toBe(1);

    expect(await store.simulator.uninstallApp(shop)).toMatchObject({ delivered: true });
    expect((await runJobs(["app-uninstalled"])).failed).toEqual([]);
    expect(await prisma.session.count({ where: { shop } })).toBe(0);
    expect(await prisma.session.count({ where: { shop: otherShop } })).toBe(1);
  });

  it("asks Shopify with a refreshed token when the stored one has expired: kept while the refresh works, dropped once it is refused", async () => {
    const shop = await installedShop();
    const expire = () => prisma.session.update({ where: { id: `offline_${shop}` }, data: { expires: new Date(Date.now() - 60_000) } });
    await expire();
    expect((await uninstalled(shop)).status).toBe(200);
    expect((await runJobs(["app-uninstalled"])).failed).toEqual([]);
    expect(await prisma.session.findUniqueOrThrow({ where: { id: `offline_${shop}` } })).toMatchObject({ expires: expect.any(Date) });
    expect((await prisma.session.findUniqueOrThrow({ where: { id: `offline_${shop}` } })).expires!.getTime()).toBeGreaterThan(Date.now());

    await expire();
    await store.simulator.uninstallApp(shop);
    expect((await runJobs(["app-uninstalled"])).failed).toEqual([]);
    expect(await prisma.session.count({ where: { shop } })).toBe(0);
  });

  it("treats a redelivery of the same webhook id as already handled, also when deliveries arrive at once", async () => {
    const shop = await installedShop();
    const webhookId = `redelivered-${shop}`;
    store.simulator.shop(shop).accessTokens.clear();
    store.simulator.shop(shop).refreshTokens.clear();
    const answers = await Promise.all(Array.from({ length: 8 }, () => uninstalled(shop, { webhookId })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(await prisma.webhookDelivery.count({ where: { id: webhookId } })).toBe(1);
    expect(await queuedJobs("app-uninstalled", shop)).toHaveLength(1);
    expect((await runJobs(["app-uninstalled"])).failed).toEqual([]);
    expect(await prisma.session.count({ where: { shop } })).toBe(0);

    // A reinstall between two deliveries must survive the stale redelivery.
    await store.install(shop);
    expect((await uninstalled(shop, { webhookId })).status).toBe(200);
    expect(await queuedJobs("app-uninstalled", shop)).toHaveLength(0);
    expect(await prisma.session.count({ where: { shop } })).toBe(1);
  });

  it("keeps no claim of a delivery whose job the database refused, so Shopify's redelivery is handled in full", async () => {
    const shop = uniqueShop("refused");
    const webhookId = `refused-${shop}`;
    // The database refuses this shop's jobs, as it would a job table it cannot write.
    await prisma.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION refuse_job_of_shop() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.data->>'shop' = TG_ARGV[0] THEN RAISE EXCEPTION 'job refused for %', TG_ARGV[0]; END IF; RETURN NEW; END $$`);
    await prisma.$executeRawUnsafe(`CREATE TRIGGER refuse_job_of_shop BEFORE INSERT ON pgboss.job FOR EACH ROW EXECUTE FUNCTION refuse_job_of_shop('${shop}')`);
    try {
      await expect(uninstalled(shop, { webhookId })).rejects.toThrow(`job refused for ${shop}`);
    } finally {
      await prisma.$executeRawUnsafe(`DROP TRIGGER refuse_job_of_shop ON pgboss.job`);
    }
    expect(await prisma.webhookDelivery.count({ where: { id: webhookId } })).toBe(0);
    expect(await queuedJobs("app-uninstalled", shop)).toHaveLength(0);

    expect((await uninstalled(shop, { webhookId })).status).toBe(200);
    expect(await prisma.webhookDelivery.count({ where: { id: webhookId } })).toBe(1);
    expect(await queuedJobs("app-uninstalled", shop)).toHaveLength(1);
  });

  it("refuses a signed body replayed under another topic or for another shop, and changes nothing", async () => {
    const victim = await installedShop("victim");
    const sender = uniqueShop("sender");
    const replays = [
      // Another shop's genuine bodies, sent with the victim's domain in the unsigned header.
      { route: appUninstalled, path: "app/uninstalled", topic: "app/uninstalled", payload: { id: 1, domain: sender, myshopify_domain: sender } },
      { route: shopRedact, path: "shop/redact", topic: "shop/redact", payload: { shop_id: 1, shop_domain: sender } },
      { route: customersRedact, path: "customers/redact", topic: "customers/redact", payload: { shop_id: 1, shop_domain: sender, customer: { id: 5 }, orders_to_redact: [1001] } },
      // The victim's own bodies, under a topic they were not sent for.
      { route: shopRedact, path: "shop/redact", topic: "app/uninstalled", payload: { id: 1, domain: victim, myshopify_domain: victim } },
      { route: appUninstalled, path: "app/uninstalled", topic: "customers/redact", payload: { shop_id: 1, shop_domain: victim, orders_to_redact: [] } },
    ];
    for (const replay of replays) {
      const request = signedWebhookRequest(`${APP}/webhooks/${replay.path}`, { topic: replay.topic, shop: victim, payload: replay.payload });
      const response = await responseOf(() => replay.route({ request, params: {}, context: {} }));
      expect(response.status, `${replay.topic} at ${replay.path}`).toBe(401);
    }
    expect(await prisma.webhookDelivery.count({ where: { shop: victim } })).toBe(0);
    for (const queue of ["app-uninstalled", "shop-redact", "customers-redact"] as const) expect(await queuedJobs(queue, victim)).toHaveLength(0);

    // A body that names no other shop gets through the route, and the job asks Shopify before dropping anything.
    const request = signedWebhookRequest(`${APP}/webhooks/shop/redact`, { topic: "shop/redact", shop: victim, payload: { shop_id: 1 } });
    expect((await responseOf(() => shopRedact({ request, params: {}, context: {} }))).status).toBe(200);
    expect((await uninstalled(victim, { body: JSON.stringify({ id: 1 }) })).status).toBe(200);
    expect((await runJobs(["app-uninstalled", "shop-redact"])).failed).toEqual([]);
    expect(await prisma.session.count({ where: { shop: victim } })).toBe(1);
  });

  it("acknowledges a signed body that is not JSON, and records why it was not handled", async () => {
    const shop = uniqueShop();
    const response = await uninstalled(shop, { webhookId: `garbled-${shop}`, body: "{not json" });
    expect(response.status).toBe(200);
    expect(await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: `garbled-${shop}` } })).toMatchObject({ shop, problem: "the body is not JSON" });
    expect(await queuedJobs("app-uninstalled", shop)).toHaveLength(0);
  });

  it("acknowledges customers/redact with ids of the wrong type, and records why", async () => {
    const shop = uniqueShop();
    const request = signedWebhookRequest(`${APP}/webhooks/customers/redact`, {
      topic: "customers/redact",
      shop,
      webhookId: `bad-ids-${shop}`,
      payload: { shop_id: 1, shop_domain: shop, customer: { id: 5 }, orders_to_redact: ["1001", { id: 2 }] },
    });
    expect((await responseOf(() => customersRedact({ request, params: {}, context: {} }))).status).toBe(200);
    expect((await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: `bad-ids-${shop}` } })).problem).toMatch(/orders_to_redact is not a list of order ids/);
  });

  it("refuses 400 a signed delivery with no webhook id or shop, and 405 anything but POST", async () => {
    const shop = uniqueShop();
    const request = signedWebhookRequest(`${APP}/webhooks/app/uninstalled`, { topic: "app/uninstalled", shop, payload: {} });
    request.headers.delete("x-shopify-webhook-id");
    expect((await responseOf(() => appUninstalled({ request, params: {}, context: {} }))).status).toBe(400);
    const get = new Request(`${APP}/webhooks/app/uninstalled`);
    expect((await responseOf(() => appUninstalled({ request: get, params: {}, context: {} }))).status).toBe(405);
  });

  it("shop/redact forgets an uninstalled shop, and nothing of a shop the app is installed on", async () => {
    const shop = await installedShop();
    const redact = () => {
      const request = signedWebhookRequest(`${APP}/webhooks/shop/redact`, { topic: "shop/redact", shop, payload: { shop_id: 1, shop_domain: shop } });
      return responseOf(() => shopRedact({ request, params: {}, context: {} }));
    };

    expect((await redact()).status).toBe(200);
    expect((await runJobs(["shop-redact"])).failed).toEqual([]);
    expect(await prisma.session.count({ where: { shop } })).toBe(1);

    await store.simulator.uninstallApp(shop);
    expect((await redact()).status).toBe(200);
    expect((await runJobs(["shop-redact"])).failed).toEqual([]);
    expect(await prisma.session.count({ where: { shop } })).toBe(0);
  });

  it("answers the customer compliance topics after verifying them", async () => {
    const shop = uniqueShop();
    const redact = signedWebhookRequest(`${APP}/webhooks/customers/redact`, {
      topic: "customers/redact",
      shop,
      payload: { shop_id: 1, shop_domain: shop, customer: { id: 5 }, orders_to_redact: [1001, 1002] },
    });
    const dataRequest = signedWebhookRequest(`${APP}/webhooks/customers/data_request`, {
      topic: "customers/data_request",
      shop,
      payload: { shop_id: 1, shop_domain: shop, customer: { id: 5 }, orders_requested: [1001] },
    });
    const forged = signedWebhookRequest(`${APP}/webhooks/customers/redact`, {
      topic: "customers/redact",
      shop,
      payload: { shop_id: 1, shop_domain: shop, customer: { id: 5 }, orders_to_redact: [] },
      hmac: "bm90IGEgc2lnbmF0dXJl",
    });

    expect((await responseOf(() => customersRedact({ request: redact, params: {}, context: {} }))).status).toBe(200);
    expect(await queuedJobs("customers-redact", shop)).toHaveLength(1);
    expect((await responseOf(() => customersDataRequest({ request: dataRequest, params: {}, context: {} }))).status).toBe(200);
    expect((await responseOf(() => customersRedact({ request: forged, params: {}, context: {} }))).status).toBe(401);
  });
});
