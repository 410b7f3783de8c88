import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "~/config.server";
import { loader as estimateLoader } from "~/routes/proxy.delivery-estimate";
import { deliveryEstimates } from "~/storefront/delivery-estimate.server";
import { resetJobs, runJobs } from "../support/jobs";
import { getStorefrontSettings, saveStorefrontSettings } from "~/storefront/storefront-settings.server";
import { proxiedUrl, signAppProxyQuery } from "../../store/app-proxy";
import { startShippingWorld } from "../support/store";
import { responseOf, uniqueShop } from "../support/webhooks";

/*
 * The delivery estimate as Shopify's app proxy reaches it: signed by the local store's proxy (store/app-proxy.ts)
 * with the app's secret, verified by the Shopify library, answered from the real courier service and database.
 */

let world: Awaited<ReturnType<typeof startShippingWorld>>;
beforeAll(async () => {
  await resetJobs();
  world = await startShippingWorld();
  await world.store.install();
  await saveStorefrontSettings(world.store.domain, {
    estimateEnabled: true,
    handlingDays: 1,
    cutoffMinutes: 14 * 60,
    closedWeekdays: [0],
    closedDates: [],
    showCod: true,
    codMaxPaise: 5_000_00,
    defaultWeightGrams: 500,
    trackOnShopDomain: false,
  });
  deliveryEstimates.forgetShop(world.store.domain);
});
afterAll(() => world.close());

const proxyUrl = () => `${getConfig().SHOPIFY_APP_URL}/proxy`;

function shopperRequest(pathAndQuery: string, options: { shop?: string; pathPrefix?: string; now?: Date; secret?: string } = {}) {
  const url = proxiedUrl({
    proxyUrl: proxyUrl(),
    apiSecret: options.secret ?? getConfig().SHOPIFY_API_SECRET,
    shop: options.shop ?? world.store.domain,
    pathPrefix: options.pathPrefix ?? "/apps/dakiya",
    pathAndQuery,
    now: options.now,
  });
  return new Request(url);
}

/**
 * A shopper's request whose address carried a parameter of Shopify's own (or any other) a second time: Shopify
 * forwards both and signs them as one, the values joined by commas (shopify.dev, "Authenticate app proxies").
 */
function withRepeatedParameter(request: Request, name: string, value: string): Request {
  const url = new URL(request.url);
  const first = new URLSearchParams([[name, value]]);
  for (const [key, existing] of url.searchParams) if (key !== "signature") first.append(key, existing);
  first.set("signature", signAppProxyQuery(first, getConfig().SHOPIFY_API_SECRET));
  url.search = first.toString();
  return new Request(url);
}

const estimate = (request: Request) => responseOf(() => estimateLoader({ request, params: {}, context: {} }) as Promise<Response>);

describe("the delivery estimate through the app proxy", () => {
  it("answers a signed request with the estimate as JSON the browser may keep for a while", async () => {
    const response = await estimate(shopperRequest("/delivery-estimate?pincode=560038&amount=129900"));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, max-age=300");
    const body = await response.json();
    expect(body).toMatchObject({ pincode: "560038", status: "deliverable", cod: "available", proxyPath: "/apps/dakiya", language: "en" });
    expect(body.deliverBy).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it.each([
    ["unsigned", () => new Request(`${proxyUrl()}/delivery-estimate?pincode=560038&shop=${world.store.domain}&path_prefix=/apps/dakiya&timestamp=${Math.floor(Date.now() / 1000)}`)],
    ["signed with another secret", () => shopperRequest("/delivery-estimate?pincode=560038", { secret: "not-the-app-secret" })],
    ["changed after signing", () => new Request(shopperRequest("/delivery-estimate?pincode=560038").url.replace("pincode=560038", "pincode=110001"))],
    ["signed 91 seconds ago", () => shopperRequest("/delivery-estimate?pincode=560038", { now: new Date(Date.now() - 91_000) })],
  ])("refuses a request %s with 400", async (_, request) => {
    const response = await estimate(request());
    expect(response.status).toBe(400);
  });

  it("answers a malformed PIN code with 400 saying what to fix, in the shopper's language", async () => {
    const english = await estimate(shopperRequest("/delivery-estimate?pincode=56003"));
    expect(english.status).toBe(400);
    expect(await english.json()).toMatchObject({ error: "invalid", field: "pincode", message: "A PIN code has 6 digits and does not start with 0, for example 560038" });
    const hindi = await estimate(shopperRequest("/delivery-estimate?pincode=abc&locale=hi"));
    expect(hindi.status).toBe(400);
    expect((await hindi.json()).message).toContain("पिन कोड");
    expect((await estimate(shopperRequest("/delivery-estimate?pincode=560038&grams=-1"))).status).toBe(400);
  });

  it("quotes a product variant at its weight in Shopify, read in the background, never on the shopper's request; names a malformed variant", async () => {
    const answerFor = async (query: string) => {
      const response = await estimate(shopperRequest(`/delivery-estimate?pincode=560038${query}`));
      expect(response.status).toBe(200);
      return { retryAfter: response.headers.get("retry-after"), cacheControl: response.headers.get("cache-control"), body: (await response.json()) as { status: string; message: string; weightGrams?: number; retryAfterSeconds?: number } };
    };
    const weightFor = async (query: string) => (await answerFor(query)).body.weightGrams;
    const shopifyReads = () => world.store.shop.usage.answers;

    // Variants Dakiya has not read yet: asked for in the background (together), the shoppers told to try again in a moment.
    const before = shopifyReads();
    const first = await Promise.all(["4400102", "4400103", "4409999"].map((variant) => answerFor(`&variant=${variant}`)));
    for (const answer of first) {
      expect(answer.body).toMatchObject({ status: "unavailable", message: "We're still checking this PIN code: try again in a moment", retryAfterSeconds: 5 });
      expect(answer).toMatchObject({ retryAfter: "5", cacheControl: "no-store" });
    }
    expect(shopifyReads()).toBe(before);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await runJobs(["storefront-variant-weights"])).failed).toEqual([]);
    // One read of Shopify for the three.
    expect(shopifyReads()).toBe(before + 1);
    // A variant not kept is looked for again a second on: by then, the shopper asking again finds it.
    await new Promise((resolve) => setTimeout(resolve, 1_100));

    // The diya set weighs 1,200 g in Shopify: quoted in the band up to 2 kg, by its id or its gid.
    expect(await weightFor("&variant=4400102")).toBe(2_000);
    expect(await weightFor(`&variant=${encodeURIComponent("gid://shopify/ProductVariant/4400102")}`)).toBe(2_000);
    // The page's own weight comes first; a variant with no weight gets the shop's default.
    expect(await weightFor("&variant=4400102&grams=450")).toBe(500);
    expect(await weightFor("&variant=4400103")).toBe(500);
    // None of this shop's: nothing is kept of it, and nothing more read on a shopper's request.
    expect((await answerFor("&variant=4409999")).body.status).toBe("unavailable");
    expect(shopifyReads()).toBe(before + 1);
    for (const variant of ["abc", "0", "-44001002", "gid://shopify/Product/44001002", "1".repeat(25)]) {
      const response = await estimate(shopperRequest(`/delivery-estimate?pincode=560038&variant=${encodeURIComponent(variant)}`));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: "invalid", field: "variant", message: "The variant must be a Shopify product variant's id, for example 44001001" });
    }
    const hindi = await estimate(shopperRequest("/delivery-estimate?pincode=560038&variant=abc&locale=hi"));
    expect((await hindi.json()).message).toContain("वेरिएंट");
  });

  it("refuses a parameter sent twice, which the signature covers only as one, and remembers nothing from it", async () => {
    const before = (await getStorefrontSettings(world.store.domain)).proxyPathPrefix;
    // A shopper's own `path_prefix` comes first: read as `get` reads it, it would become the store's tracking links' path.
    const smuggled = withRepeatedParameter(shopperRequest("/delivery-estimate?pincode=560038", { pathPrefix: "/apps/dakiya" }), "path_prefix", "/apps/elsewhere");
    expect(new URL(smuggled.url).searchParams.getAll("path_prefix")).toEqual(["/apps/elsewhere", "/apps/dakiya"]);
    const response = await estimate(smuggled);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid", field: "path_prefix", message: "The address names path_prefix more than once: open the page again from the store" });
    expect((await getStorefrontSettings(world.store.domain)).proxyPathPrefix).toBe(before);

    const twice = await estimate(withRepeatedParameter(shopperRequest("/delivery-estimate?pincode=560038&locale=hi"), "pincode", "110001"));
    expect(twice.status).toBe(400);
    expect(await twice.json()).toMatchObject({ field: "pincode", language: "hi" });
  });

  it("answers 404 for a shop Dakiya has no session for", async () => {
    const response = await estimate(shopperRequest("/delivery-estimate?pincode=560038", { shop: uniqueShop("never-installed") }));
    expect(response.status).toBe(404);
    expect((await response.json()).error).toBe("not_found");
  });

  it("takes the store's own proxy path when the merchant renamed it, and remembers it", async () => {
    const response = await estimate(shopperRequest("/delivery-estimate?pincode=400001", { pathPrefix: "/tools/pincode-check" }));
    expect(response.status).toBe(200);
    expect((await response.json()).proxyPath).toBe("/tools/pincode-check");
    expect((await getStorefrontSettings(world.store.domain)).proxyPathPrefix).toBe("/tools/pincode-check");
  });
});
