import { describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { action as appUninstalled } from "~/routes/webhooks.app.uninstalled";
import { action as shopRedact } from "~/routes/webhooks.shop.redact";
import { action as customersRedact } from "~/routes/webhooks.customers.redact";
import { action as customersDataRequest } from "~/routes/webhooks.customers.data_request";
import { responseOf, signedWebhookRequest, uniqueShop } from "../support/webhooks";

const APP = "http://localhost:3999";

async function storeSession(shop: string) {
  await prisma.session.create({
    data: { id: `offline_${shop}`, shop, state: "installed", accessToken: "shpat_test", scope: "read_orders" },
  });
}

describe("webhooks", () => {
  it("refuses a forged app/uninstalled with 401 and writes nothing", async () => {
    const shop = uniqueShop();
    await storeSession(shop);
    const request = signedWebhookRequest(`${APP}/webhooks/app/uninstalled`, {
      topic: "app/uninstalled",
      shop,
      payload: { id: 1, domain: shop },
      secret: "someone-elses-secret",
    });

    const response = await responseOf(() => appUninstalled({ request, params: {}, context: {} }));

    expect(response.status).toBe(401);
    expect(await prisma.session.count({ where: { shop } })).toBe(1);
    expect(await prisma.webhookDelivery.count({ where: { shop } })).toBe(0);
  });

  it("app/uninstalled drops that shop's sessions and no other shop's", async () => {
    const shop = uniqueShop();
    const otherShop = uniqueShop("other");
    await storeSession(shop);
    await storeSession(otherShop);
    const request = signedWebhookRequest(`${APP}/webhooks/app/uninstalled`, {
      topic: "app/uninstalled",
      shop,
      payload: { id: 1, domain: shop },
    });

    const response = await responseOf(() => appUninstalled({ request, params: {}, context: {} }));

    expect(response.status).toBe(200);
    expect(await prisma.session.count({ where: { shop } })).toBe(0);
    expect(await prisma.session.count({ where: { shop: otherShop } })).toBe(1);
    expect(await prisma.webhookDelivery.count({ where: { shop } })).toBe(1);
  });

  it("treats a redelivery of the same webhook id as already handled", async () => {
    const shop = uniqueShop();
    const webhookId = `redelivered-${shop}`;
    const deliver = () =>
      responseOf(() =>
        appUninstalled({
          request: signedWebhookRequest(`${APP}/webhooks/app/uninstalled`, {
            topic: "app/uninstalled",
            shop,
            webhookId,
            payload: { id: 1, domain: shop },
          }),
          params: {},
          context: {},
        }),
      );

    expect((await deliver()).status).toBe(200);
    // A reinstall between the two deliveries must survive the stale redelivery.
    await storeSession(shop);
    expect((await deliver()).status).toBe(200);
    expect(await prisma.session.count({ where: { shop } })).toBe(1);
    expect(await prisma.webhookDelivery.count({ where: { id: webhookId } })).toBe(1);
  });

  it("shop/redact forgets the shop", async () => {
    const shop = uniqueShop();
    await storeSession(shop);
    const request = signedWebhookRequest(`${APP}/webhooks/shop/redact`, {
      topic: "shop/redact",
      shop,
      payload: { shop_id: 1, shop_domain: shop },
    });

    const response = await responseOf(() => shopRedact({ request, params: {}, context: {} }));

    expect(response.status).toBe(200);
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
    expect((await responseOf(() => customersDataRequest({ request: dataRequest, params: {}, context: {} }))).status).toBe(200);
    expect((await responseOf(() => customersRedact({ request: forged, params: {}, context: {} }))).status).toBe(401);
  });
});
