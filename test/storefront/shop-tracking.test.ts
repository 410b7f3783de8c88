import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "~/config.server";
import prisma from "~/db.server";
import { loader as homeLoader } from "~/routes/app._index";
import { loader as storefrontPageLoader } from "~/routes/app.storefront";
import { loader as shopTrackLoader } from "~/routes/proxy.track.$awb";
import { loader as trackLoader } from "~/routes/track.$awb";
import { saveStorefrontSettings, shopDomainTrackingUrl } from "~/storefront/storefront-settings.server";
import { STORE_LOOKUP_LIMITS } from "~/storefront/shop-tracking-limits.server";
import { flushRefusals } from "~/storefront/storefront-refusals.server";
import { proxiedUrl, signAppProxyQuery } from "../../store/app-proxy";
import { startStore } from "../support/store";
import { responseOf, uniqueShop } from "../support/webhooks";

/*
 * The tracking page on the shop's own domain, through the app proxy as the local store signs it: the shop's own
 * shipments only, rendered as Liquid for the shop's theme, and the link new fulfillments get once the merchant
 * turns it on.
 */

let store: Awaited<ReturnType<typeof startStore>>;
const run = `${Date.now() % 1_000_000}${randomInt(1_000)}`.padEnd(9, "0");
const AWB = `7${run}01`;
const OTHER_SHOPS_AWB = `7${run}02`;
// The token of the link the courier sandbox handed out with the booking: the shipping email's link carries it.
const TOKEN = "Vw3kQp9ZxL2mNc7RtY5bHa";

async function seedShipment(shop: string, awb: string) {
  await prisma.shipment.create({
    data: {
      shop,
      orderGid: `gid://shopify/Order/${awb}`,
      orderName: "#4001",
      status: "fulfilled",
      requestPayload: JSON.stringify({ order_id: "#4001", name: "Meera Nair", mobile: "9895012345", address_line_1: "TC 12/345, Pattom", city: "Thiruvananthapuram", pincode: "695004" }),
      courierEnvironment: "test",
      awb,
      trackingUrl: `${getConfig().SHOPIFY_APP_URL}/track/${awb}?token=${TOKEN}`,
      courierId: 1,
      courierName: "Delhivery Surface",
      paymentMode: "prepaid",
      courierStatusCode: 6,
      courierStatusLabel: "In transit",
      courierStatusAt: new Date(),
      syncedAt: new Date(),
      nextSyncAt: new Date(Date.now() + 3_600_000),
      trackingEvents: {
        create: [{ shop, fingerprint: `${awb}-1`, code: 6, label: "In transit", activity: "Left the {{ shop.name }} hub for Meera Nair", location: "Kochi", happenedAt: new Date() }],
      },
    },
  });
}

beforeAll(async () => {
  store = await startStore();
  await store.install();
  await seedShipment(store.domain, AWB);
  await seedShipment(uniqueShop("another"), OTHER_SHOPS_AWB);
});
afterAll(() => store.close());

const shopperRequest = (path: string, { pathPrefix = "/apps/dakiya", signed = true, loggedInCustomerId = "" } = {}) => {
  const url = proxiedUrl({ proxyUrl: `${getConfig().SHOPIFY_APP_URL}/proxy`, apiSecret: signed ? getConfig().SHOPIFY_API_SECRET : "forged", shop: store.domain, pathPrefix, pathAndQuery: path, loggedInCustomerId });
  return new Request(url, { headers: { "Accept-Language": "en-IN" } });
};
const track = (request: Request, awb: string) => responseOf(() => shopTrackLoader({ request, params: { awb }, context: {} }) as Promise<Response>);

describe("tracking on the shop's own domain", () => {
  it("shows the shop's parcel as Liquid for the theme, with the courier's words unable to run as Liquid", async () => {
    const response = await track(shopperRequest(`/track/${AWB}?token=${TOKEN}`), AWB);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/liquid");
    const body = await response.text();
    expect(body).toContain(AWB);
    expect(body).toContain("Thiruvananthapuram");
    expect(body).not.toContain("{{");
    expect(body).toContain("&#123;&#123; shop.name &#125;&#125;");
    // The shopper's name is redacted from the courier's words, as on /track.
    expect(body).not.toContain("Meera");
  });

  it("shows only the stage to an awb typed or guessed without the link's token", async () => {
    for (const path of [`/track/${AWB}`, `/track/${AWB}?token=AAAAAAAAAAAAAAAAAAAAAA`]) {
      const response = await track(shopperRequest(path), AWB);
      expect(response.status).toBe(200);
      const body = await response.text();
      expect(body).toContain(AWB);
      expect(body).not.toContain("Thiruvananthapuram");
      expect(body).not.toContain("Kochi");
    }
  });

  it("shows no other shop's parcel, and refuses a forged request", async () => {
    expect((await track(shopperRequest(`/track/${OTHER_SHOPS_AWB}`), OTHER_SHOPS_AWB)).status).toBe(404);
    expect((await track(shopperRequest(`/track/${AWB}`, { signed: false }), AWB)).status).toBe(400);
  });

  it("refuses a parameter sent twice, which Shopify signs as one, and takes no proxy path from it", async () => {
    await saveStorefrontSettings(store.domain, { estimateEnabled: false, handlingDays: 1, cutoffMinutes: 840, closedWeekdays: [0], closedDates: [], showCod: true, codMaxPaise: null, defaultWeightGrams: 500, trackOnShopDomain: true });
    const before = (await prisma.storefrontSettings.findUniqueOrThrow({ where: { shop: store.domain } })).proxyPathPrefix;
    // A shopper's own `path_prefix` first, Shopify's after it, the signature over both as Shopify makes it.
    const url = new URL(shopperRequest(`/track/${AWB}?token=${TOKEN}`).url);
    const twice = new URLSearchParams([["path_prefix", "/apps/elsewhere"], ...[...url.searchParams].filter(([key]) => key !== "signature")]);
    twice.set("signature", signAppProxyQuery(twice, getConfig().SHOPIFY_API_SECRET));
    url.search = twice.toString();
    const response = await track(new Request(url, { headers: { "Accept-Language": "en-IN" } }), AWB);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("This address is not valid");
    expect((await prisma.storefrontSettings.findUniqueOrThrow({ where: { shop: store.domain } })).proxyPathPrefix).toBe(before);
    expect(await shopDomainTrackingUrl(store.domain, AWB)).not.toContain("/apps/elsewhere");
    await saveStorefrontSettings(store.domain, { estimateEnabled: false, handlingDays: 1, cutoffMinutes: 840, closedWeekdays: [0], closedDates: [], showCod: true, codMaxPaise: null, defaultWeightGrams: 500, trackOnShopDomain: false });
  });

  it("writes the shop-domain link on new fulfillments once turned on and the store's path is known; /track keeps working", async () => {
    expect(await shopDomainTrackingUrl(store.domain, AWB)).toBeNull();
    await saveStorefrontSettings(store.domain, { estimateEnabled: false, handlingDays: 1, cutoffMinutes: 840, closedWeekdays: [0], closedDates: [], showCod: true, codMaxPaise: null, defaultWeightGrams: 500, trackOnShopDomain: true });
    // The path Shopify sends with each proxied request is what the link uses (here a renamed one).
    expect((await track(shopperRequest(`/track/${AWB}`, { pathPrefix: "/a/parcel" }), AWB)).status).toBe(200);
    // The link keeps the token of the courier's own link, so the page on the shop's domain shows the details too.
    expect(await shopDomainTrackingUrl(store.domain, AWB, `${getConfig().SHOPIFY_APP_URL}/track/${AWB}?token=${TOKEN}`)).toBe(`https://${store.domain}/a/parcel/track/${AWB}?token=${TOKEN}`);
    // A courier whose link has no token of Dakiya's: a new random one, different each time.
    const [first, second] = [await shopDomainTrackingUrl(store.domain, AWB, "https://courier.example/t/1"), await shopDomainTrackingUrl(store.domain, AWB, null)];
    expect(first).toMatch(new RegExp(`^https://${store.domain.replace(/\./g, "\\.")}/a/parcel/track/${AWB}\\?token=[A-Za-z0-9_-]{22}$`));
    expect(second).not.toBe(first);

    // The shop has its own domain: the Storefront page reads it from Shopify, and links are written on it from then.
    store.shop.primaryDomainHost = "chai-point.example.in";
    const page = (await (await storefrontPageLoader({ request: store.adminRequest("/app/storefront"), params: {}, context: {} })).json()) as { settings: { trackingHost: string } };
    expect(page.settings.trackingHost).toBe("chai-point.example.in");
    expect(await shopDomainTrackingUrl(store.domain, AWB, `${getConfig().SHOPIFY_APP_URL}/track/${AWB}?token=${TOKEN}`)).toBe(`https://chai-point.example.in/a/parcel/track/${AWB}?token=${TOKEN}`);
    const appPage = await responseOf(() => trackLoader({ request: new Request(`${getConfig().SHOPIFY_APP_URL}/track/${AWB}`), params: { awb: AWB }, context: { clientAddress: `10.9.${randomInt(250)}.${randomInt(250)}` } }) as Promise<Response>);
    expect(appPage.status).toBe(200);
  });
});

describe("tracking on the shop's own domain under a flood of lookups by number", () => {
  // Last in this file: the flood uses up the shop's lookups by number for a minute.
  it("keeps a shopper's link open at once while a visitor tries awbs faster than 20 a second, and shows the flood on Home", async () => {
    const guesses = STORE_LOOKUP_LIMITS.perShop.limit + 100;
    const started = Date.now();
    const statuses: number[] = [];
    // In waves of 50 at once: far faster than 20 lookups a second.
    for (let wave = 0; wave < guesses; wave += 50) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, index) => {
          const awb = `9${String(randomInt(1e12)).padStart(12, "0")}${index}`;
          return track(shopperRequest(`/track/${awb}`), awb);
        }),
      );
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(guesses / ((Date.now() - started) / 1000)).toBeGreaterThan(20);
    // The shop's allowance (less the few lookups by number the tests above made), then 429: never anything else.
    const turnedAway = statuses.filter((status) => status === 429).length;
    expect(statuses.filter((status) => status === 404).length).toBeGreaterThan(STORE_LOOKUP_LIMITS.perShop.limit - 10);
    expect(statuses.filter((status) => status === 404).length + turnedAway).toBe(guesses);

    // The next lookup by number waits, told so in words; the shopper following the link from their shipping email does not.
    const refused = await track(shopperRequest(`/track/${AWB}`), AWB);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refused.text()).toContain("Many parcels are being looked up on this store just now");
    const opening = Date.now();
    const followed = await track(shopperRequest(`/track/${AWB}?token=${TOKEN}`), AWB);
    expect(followed.status).toBe(200);
    expect(Date.now() - opening).toBeLessThan(1_000);
    expect(await followed.text()).toContain("Thiruvananthapuram");
    // A logged-in customer is a caller the proxy names (inside Shopify's signature): counted on their own.
    expect((await track(shopperRequest(`/track/${AWB}`, { loggedInCustomerId: "6203004" }), AWB)).status).toBe(200);

    await flushRefusals();
    const home = (await (await homeLoader({ request: store.adminRequest("/app"), params: {}, context: {} })).json()) as { storefrontRefusals: { trackingLookups: number } };
    expect(home.storefrontRefusals.trackingLookups).toBe(turnedAway + 1);
  }, 60_000);
});
