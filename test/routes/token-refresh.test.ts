import { shopAdmin } from "~/shopify/admin-graphql.server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { loader as homeLoader } from "~/routes/app._index";
import { unauthenticated } from "~/shopify.server";
import { getShopOverview } from "~/shopify/shop.server";
import { startStore } from "../support/store";
import { secretBox } from "~/settings/shop-settings.server";

let store: Awaited<ReturnType<typeof startStore>>;
beforeAll(async () => {
  store = await startStore();
  await homeLoader({ request: store.adminRequest("/app"), params: {}, context: {} });
});
afterAll(() => store.close());

describe("expiring offline access tokens", () => {
  it("refreshes an expired access token with the stored refresh token, for background work too", async () => {
    const id = `offline_${store.domain}`;
    const installed = await prisma.session.findUniqueOrThrow({ where: { id } });
    // The hour has passed: Shopify no longer accepts the access token.
    store.shop.accessTokens.delete(secretBox().open(installed.accessToken));
    await prisma.session.update({ where: { id }, data: { expires: new Date(Date.now() - 60_000) } });

    const { admin } = await unauthenticated.admin(store.domain);
    expect((await getShopOverview(shopAdmin(store.domain, admin))).myshopifyDomain).toBe(store.domain);

    const refreshed = await prisma.session.findUniqueOrThrow({ where: { id } });
    expect(refreshed.accessToken).not.toBe(installed.accessToken);
    expect(refreshed.refreshToken).not.toBe(installed.refreshToken);
    expect(secretBox().open(refreshed.refreshToken!)).toMatch(/^shprt_/);
    expect(refreshed.expires!.getTime()).toBeGreaterThan(Date.now());
  });
});
