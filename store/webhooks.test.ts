import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { asSubscribed, SUBSCRIBED_FIELDS, WEBHOOK_PATHS } from "./webhooks";

/** `[[webhooks.subscriptions]]` blocks of shopify.app.toml: topic, address and include_fields. */
function subscriptions(toml: string) {
  return toml
    .split("[[webhooks.subscriptions]]")
    .slice(1)
    .map((block) => ({
      topics: [...(/(?:^|\n)\s*(?:topics|compliance_topics)\s*=\s*\[([^\]]*)\]/.exec(block)?.[1] ?? "").matchAll(/"([^"]+)"/g)].map((match) => match[1]!),
      uri: /\n\s*uri\s*=\s*"([^"]+)"/.exec(block)?.[1],
      includeFields: /\n\s*include_fields\s*=\s*\[([^\]]*)\]/.exec(block) ? [.../\n\s*include_fields\s*=\s*\[([^\]]*)\]/.exec(block)![1]!.matchAll(/"([^"]+)"/g)].map((match) => match[1]!) : undefined,
    }));
}

describe("the local store's webhooks", () => {
  const declared = subscriptions(readFileSync("shopify.app.toml", "utf8"));

  it("sends each topic where shopify.app.toml subscribes it, with the fields it asks for", () => {
    for (const { topics, uri, includeFields } of declared) {
      for (const topic of topics) {
        expect(WEBHOOK_PATHS[topic], topic).toBe(uri);
        expect(SUBSCRIBED_FIELDS[topic], topic).toEqual(includeFields);
      }
    }
    expect(Object.keys(WEBHOOK_PATHS).sort()).toEqual(declared.flatMap(({ topics }) => topics).sort());
  });

  it("keeps only the subscribed fields of an order, as Shopify does with include_fields", () => {
    const order = { id: 1001, admin_graphql_api_id: "gid://shopify/Order/1001", cancelled_at: null, email: "asha@example.in", shipping_address: { phone: "+919812345678" } };
    expect(asSubscribed("orders/create", order)).toEqual({ id: 1001, admin_graphql_api_id: "gid://shopify/Order/1001" });
    expect(asSubscribed("orders/cancelled", order)).toEqual({ id: 1001, admin_graphql_api_id: "gid://shopify/Order/1001", cancelled_at: null });
    expect(asSubscribed("app/uninstalled", { id: 1, domain: "x.myshopify.com" })).toEqual({ id: 1, domain: "x.myshopify.com" });
  });
});
