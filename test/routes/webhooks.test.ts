import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { action as appUninstalled } from "~/routes/webhooks.app.uninstalled";
import { action as customersDataRequest } from "~/routes/webhooks.customers.data_request";
import { action as customersRedact } from "~/routes/webhooks.customers.redact";
import { action as shopRedact } from "~/routes/webhooks.shop.redact";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { queuedJobs, resetJobs, runJobs } from "../support/jobs";
import { responseOf, signedWebhookRequest, uniqueShop } from "../support/webhooks";

const APP = "http://localhost:3999";

async function storeSession(shop: string) {
  await prisma.session.create({
    data: { id: `offline_${shop}`, shop, state: "installed", accessToken: "shpat_test", scope: "read_orders" },
  });
}

const uninstalled = (shop: string, options: { webhookId?: string; secret?: string; body?: string } = {}) => {
  const request = signedWebhookRequest(`${APP}/webhooks/app/uninstalled`, { topic: "app/uninstalled", shop, payload: { id: 1, domain: shop }, ...options });
  return responseOf(() => appUninstalled({ request, params: {}, context: {} }));
};

let courier: RunningCourierService;
beforeAll(async () => {
  await resetJobs();
  // shop/redact erases the shop's sandbox account over HTTP.
  courier = await startAppCourierService();
});
afterAll(() => courier.close());

describe("webhooks", () => {
  it("refuses a forged app/uninstalled with 401 and writes nothing", async () => {
    const shop = uniqueShop();
    await storeSession(shop);

    const response = await uninstalled(shop, { secret: "someone-elses-secret" });

    expect(response.status).toBe(401);
    expect(await prisma.webhookDelivery.count({ where: { shop } })).toBe(0);
    expect(await queuedJobs("app-uninstalled", shop)).toHaveLength(0);
    expect(await prisma.session.count({ where: { shop } })).toBe(1);
  });

  it("app/uninstalled is acknowledged at once and its job drops that shop's sessions and no other shop's", async () => {
    const shop = uniqueShop();
    const otherShop = uniqueShop("other");
    await storeSession(shop);
    await storeSession(otherShop);

    expect((await uninstalled(shop)).status).toBe(200);
    expect(await prisma.webhookDelivery.count({ where: { shop } })).toBe(1);
    expect(await queuedJobs("app-uninstalled", shop)).toHaveLength(1);

    expect((await runJobs(["app-uninstalled"])).failed).toEqual([]);
    expect(await prisma.session.count({ where: { shop } })).toBe(0);
    expect(await prisma.session.count({ where: { shop: otherShop } })).toBe(1);
  });

  it("treats a redelivery of the same webhook id as already handled, also when deliveries arrive at once", async () => {
    const shop = uniqueShop();
    const webhookId = `redelivered-${shop}`;
    const answers = await Promise.all(Array.from({ length: 8 }, () => uninstalled(shop, { webhookId })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(await prisma.webhookDelivery.count({ where: { id: webhookId } })).toBe(1);
    expect(await queuedJobs("app-uninstalled", shop)).toHaveLength(1);
    await runJobs(["app-uninstalled"]);

    // A reinstall between two deliveries must survive the stale redelivery.
    await storeSession(shop);
    expect((await uninstalled(shop, { webhookId })).status).toBe(200);
    expect(await queuedJobs("app-uninstalled", shop)).toHaveLength(0);
    expect(await prisma.session.count({ where: { shop } })).toBe(1);
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

  it("shop/redact forgets the shop", async () => {
    const shop = uniqueShop();
    await storeSession(shop);
    const request = signedWebhookRequest(`${APP}/webhooks/shop/redact`, { topic: "shop/redact", shop, payload: { shop_id: 1, shop_domain: shop } });

    expect((await responseOf(() => shopRedact({ request, params: {}, context: {} }))).status).toBe(200);
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
