import { describe, expect, it } from "vitest";
import { bodyLimitFor, DEFAULT_BODY_LIMIT_BYTES } from "../server/body-limits";
import { shopsNamedBy, webhookHeaderRefusal } from "./webhook-topics";

const shopifyHeaders = (overrides: Record<string, string | null> = {}) => {
  const headers = new Headers({
    "X-Shopify-Topic": "shop/redact",
    "X-Shopify-Hmac-Sha256": Buffer.alloc(32, 7).toString("base64"),
    "X-Shopify-Shop-Domain": "asha-stores.myshopify.com",
    "X-Shopify-Webhook-Id": "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043",
  });
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return headers;
};

describe("a webhook's headers, before its body is read", () => {
  it("lets Shopify's headers for the address's own topic through", () => {
    expect(webhookHeaderRefusal("/webhooks/shop/redact", shopifyHeaders())).toBeNull();
  });

  it("refuses another topic than the address's, a missing or malformed signature, shop or id, and an unknown address", () => {
    expect(webhookHeaderRefusal("/webhooks/shop/redact", shopifyHeaders({ "X-Shopify-Topic": "app/uninstalled" }))).toMatchObject({ status: 401, reason: expect.stringMatching(/not shop\/redact/) });
    expect(webhookHeaderRefusal("/webhooks/shop/redact", shopifyHeaders({ "X-Shopify-Topic": null }))?.status).toBe(400);
    expect(webhookHeaderRefusal("/webhooks/shop/redact", shopifyHeaders({ "X-Shopify-Hmac-Sha256": null }))?.status).toBe(401);
    expect(webhookHeaderRefusal("/webhooks/shop/redact", shopifyHeaders({ "X-Shopify-Hmac-Sha256": "c2hvcnQ=" }))?.status).toBe(401);
    expect(webhookHeaderRefusal("/webhooks/shop/redact", shopifyHeaders({ "X-Shopify-Shop-Domain": "asha stores" }))?.status).toBe(400);
    expect(webhookHeaderRefusal("/webhooks/shop/redact", shopifyHeaders({ "X-Shopify-Webhook-Id": null }))?.status).toBe(400);
    expect(webhookHeaderRefusal("/webhooks/products/create", shopifyHeaders({ "X-Shopify-Topic": "products/create" }))?.status).toBe(404);
  });

  it("gives each topic a body limit of its own, and no more than orders need", () => {
    // The order topics send only the fields their subscriptions include (shopify.app.toml): never a whole order.
    expect(bodyLimitFor("/webhooks/orders/create")).toBe(16 * 1024);
    expect(bodyLimitFor("/webhooks/orders/cancelled")).toBe(16 * 1024);
    expect(bodyLimitFor("/webhooks/app/scopes_update")).toBeLessThanOrEqual(16 * 1024);
    expect(bodyLimitFor("/webhooks/shop/redact")).toBeLessThanOrEqual(16 * 1024);
    expect(bodyLimitFor("/webhooks/app/uninstalled")).toBeLessThanOrEqual(64 * 1024);
    expect(bodyLimitFor("/webhooks/unknown")).toBe(DEFAULT_BODY_LIMIT_BYTES);
  });
});

describe("the shop a signed body names", () => {
  it("reads shop_domain and myshopify_domain, and domain only while it is a myshopify domain", () => {
    expect(shopsNamedBy({ shop_id: 1, shop_domain: "Asha-Stores.myshopify.com" })).toEqual(["asha-stores.myshopify.com"]);
    expect(shopsNamedBy({ domain: "asha.example", myshopify_domain: "asha-stores.myshopify.com" })).toEqual(["asha-stores.myshopify.com"]);
    expect(shopsNamedBy({ domain: "other.myshopify.com" })).toEqual(["other.myshopify.com"]);
    expect(shopsNamedBy({ id: 1, cancelled_at: null })).toEqual([]);
    expect(shopsNamedBy(undefined)).toEqual([]);
  });
});
