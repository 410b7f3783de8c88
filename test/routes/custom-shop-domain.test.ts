// The runtime adapter the app itself loads for Shopify's library (app/shopify/webhook-signature.server.ts): one adapter is
// global to a process, so a test must not swap in another under the app's webhooks.
import "@shopify/shopify-api/adapters/web-api";
import { ApiVersion, shopifyApi } from "@shopify/shopify-api";
import { describe, expect, it } from "vitest";
import { getConfig } from "~/config.server";
import prisma from "~/db.server";
import { action as appUninstalled } from "~/routes/webhooks.app.uninstalled";
import { domainTransformationsFor, isShopDomain } from "~/shopify/shop-domains";
import { responseOf, signedWebhookRequest } from "../support/webhooks";

// The test environment sets SHOP_CUSTOM_DOMAIN (vitest.config.ts), as a split-domain deployment would.
const CUSTOM = "shops.dakiya.test";

function library(customDomain: string | undefined) {
  return shopifyApi({
    apiKey: "dakiya-test-api-key",
    apiSecretKey: "dakiya-test-api-secret",
    hostName: "localhost:3999",
    apiVersion: ApiVersion.October26,
    isEmbeddedApp: true,
    domainTransformations: domainTransformationsFor(customDomain),
    logger: { log: () => undefined },
  });
}

describe("shops on a custom domain (SHOP_CUSTOM_DOMAIN)", () => {
  it("is one definition: the Shopify library accepts the shops Dakiya accepts, and no others", () => {
    expect(getConfig().SHOP_CUSTOM_DOMAIN).toBe(CUSTOM);
    const withCustom = library(CUSTOM).utils;
    const without = library(undefined).utils;
    for (const shop of ["asha-sarees.shops.dakiya.test", "asha-sarees.myshopify.com"]) {
      expect(isShopDomain(shop, CUSTOM), shop).toBe(true);
      expect(withCustom.sanitizeShop(shop), shop).toBe(shop);
    }
    expect(without.sanitizeShop("asha-sarees.shops.dakiya.test")).toBeNull();
    for (const shop of ["asha.evil.test", "shops.dakiya.test", "a.b.shops.dakiya.test.evil.test", "asha.shops-dakiya.test"]) {
      expect(isShopDomain(shop, CUSTOM), shop).toBe(false);
      expect(withCustom.sanitizeShop(shop), shop).toBeNull();
    }
    expect(isShopDomain("asha-sarees.shops.dakiya.test", undefined)).toBe(false);
  });

  it("accepts a custom-domain shop's webhooks and refuses a shop outside it", async () => {
    const shop = `webhook-${Date.now()}.${CUSTOM}`;
    const deliver = (domain: string, webhookId: string) =>
      responseOf(() => appUninstalled({ request: signedWebhookRequest("http://localhost:3999/webhooks/app/uninstalled", { topic: "app/uninstalled", shop: domain, payload: { id: 1, domain, myshopify_domain: domain }, webhookId }), params: {}, context: {} }));
    expect((await deliver(shop, `custom-${shop}`)).status).toBe(200);
    expect(await prisma.webhookDelivery.count({ where: { shop } })).toBe(1);
    expect((await deliver("webhook.elsewhere.test", `custom-elsewhere-${shop}`)).status).toBe(400);
  });
});
