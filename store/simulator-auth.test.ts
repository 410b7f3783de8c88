import { describe, expect, it } from "vitest";
import { signSessionToken } from "./auth";
import { seedShop } from "./seed";
import { createStoreSimulator } from "./simulator";

const app = { apiKey: "app-key", apiSecret: "app-secret", scopes: "read_orders" };
const shop = "auth-test.myshopify.com";
const simulator = createStoreSimulator({ app, appUrl: "http://127.0.0.1:1", shops: [seedShop(shop)] });

const exchange = (body: Record<string, string>) =>
  simulator.handle(new Request(`http://store/${shop}/admin/oauth/access_token`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ client_id: app.apiKey, client_secret: app.apiSecret, ...body }) }));

const graphql = (token?: string) =>
  simulator.handle(
    new Request(`http://store/${shop}/admin/api/2026-10/graphql.json`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(token ? { "X-Shopify-Access-Token": token } : {}) },
      body: JSON.stringify({ query: "{ shop { name } }" }),
    }),
  );

const tokenExchange = (subjectToken: string) =>
  exchange({
    grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
    subject_token: subjectToken,
    subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
    requested_token_type: "urn:shopify:params:oauth:token-type:offline-access-token",
    expiring: "1",
  });

describe("store simulator auth", () => {
  it("answers every Admin call without a valid access token with 401", async () => {
    expect((await graphql()).status).toBe(401);
    expect((await graphql("shpat_made_up")).status).toBe(401);
  });

  it("exchanges a session token signed with the app's secret for an expiring offline token", async () => {
    const response = await tokenExchange(signSessionToken(app, shop));
    expect(response.status).toBe(200);
    const tokens = (await response.json()) as { access_token: string; expires_in: number; refresh_token: string; refresh_token_expires_in: number };
    expect(tokens).toMatchObject({ expires_in: 3600, refresh_token_expires_in: 7_776_000 });
    const answer = await graphql(tokens.access_token);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ data: { shop: { name: "Dakiya Demo Store" } } });

    const refreshed = await exchange({ grant_type: "refresh_token", refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    // A refresh token is used once.
    expect((await exchange({ grant_type: "refresh_token", refresh_token: tokens.refresh_token })).status).toBe(400);
  });

  it("refuses a session token signed with another secret, or for another shop", async () => {
    expect((await tokenExchange(signSessionToken({ ...app, apiSecret: "not-the-secret" }, shop))).status).toBe(400);
    expect((await tokenExchange(signSessionToken(app, "someone-else.myshopify.com"))).status).toBe(400);
    const wrongClient = await simulator.handle(new Request(`http://store/${shop}/admin/oauth/access_token`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ client_id: app.apiKey, client_secret: "guess" }) }));
    expect(wrongClient.status).toBe(401);
  });
});
