import type { ShopSettings, StorefrontSettings } from "@prisma/client";
import { describeError } from "~/logging.server";
import { courierClientFor, courierCredentialsOf, defaultWarehouseIdOf, getShopSettings, presetsOf } from "~/settings/shop-settings.server";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import type { CourierClient } from "~/shipping/client.server";
import type { RateRequestInput } from "~/shipping/contract";
import { createAnswerCache, type AnswerCacheOptions } from "./answer-cache";
import { offAnswer, toEstimateAnswer, toRouteQuote, weightBandOf, type EstimateAnswer, type EstimateQuery, type RouteQuote } from "./delivery-estimate";
import { getStorefrontSettings, noteProxyPath } from "./storefront-settings.server";
import { variantGrams } from "./variant-weight.server";

export interface ShopStorefront {
  settings: ShopSettings;
  storefront: StorefrontSettings;
}

export interface DeliveryEstimatesOptions {
  clientFor?: (settings: ShopSettings) => CourierClient;
  loadShop?: (shop: string) => Promise<ShopStorefront>;
  /** A product variant's weight in grams, as Shopify has it (null: none); read through the shop's offline session. */
  variantWeight?: (shop: string, variantGid: string) => Promise<number | null>;
  now?: () => Date;
  /** Routes × weight bands kept, across all shops (a few hundred bytes each). */
  maxQuotes?: number;
  quoteFreshMs?: number;
  /** A courier that failed is not asked again for this key before then; the last answer stands meanwhile. */
  retryAfterMs?: number;
  shopFreshMs?: number;
}

/** The value quoted for: cash-on-delivery charges depend on it, the serviceability and days the estimate uses do not. */
const NOMINAL_AMOUNT_RUPEES = 1_000;

// The boxes are stored as JSON: read once per cached copy of the settings, not per shopper.
const sortedBoxes = new WeakMap<ShopSettings, ReturnType<typeof presetsOf>>();

/** The box a parcel of this weight goes in: the smallest of the merchant's boxes that takes it, else the default one. */
function boxFor(settings: ShopSettings, grams: number): { length: number; breadth: number; height: number } {
  let boxes = sortedBoxes.get(settings);
  if (!boxes) sortedBoxes.set(settings, (boxes = presetsOf(settings).sort((a, b) => a.maxWeightKg - b.maxWeightKg)));
  const preset = boxes.find((candidate) => candidate.maxWeightKg * 1000 >= grams);
  return preset ?? { length: settings.packageLength, breadth: settings.packageBreadth, height: settings.packageHeight };
}

const loadShopStorefront = async (shop: string): Promise<ShopStorefront> => {
  const [settings, storefront] = await Promise.all([getShopSettings(shop), getStorefrontSettings(shop)]);
  return { settings, storefront };
};

/**
 * The storefront's delivery estimates, answered from memory: shoppers outnumber merchants by orders of magnitude,
 * so the courier is asked once per shop, route (warehouse PIN code → destination PIN code) and weight band, and
 * that answer serves every shopper on the route for `quoteFreshMs`, then while it refreshes. When the courier is
 * down the last answer stands; with none, the answer says to check at checkout — never an error.
 */
export function createDeliveryEstimates(options: DeliveryEstimatesOptions = {}) {
  const now = options.now ?? (() => new Date());
  const clock = () => now().getTime();
  const clientFor = options.clientFor ?? ((settings: ShopSettings) => courierClientFor(courierCredentialsOf(settings)));
  const loadShop = options.loadShop ?? loadShopStorefront;
  const retryAfterMs = options.retryAfterMs ?? 60_000;
  const cacheOptions = (overrides: Partial<AnswerCacheOptions>): AnswerCacheOptions => ({ maxEntries: 10_000, freshMs: 60_000, retryAfterMs, now: clock, ...overrides });
  const quotes = createAnswerCache<RouteQuote>(cacheOptions({ maxEntries: options.maxQuotes ?? 50_000, freshMs: options.quoteFreshMs ?? 6 * 3_600_000 }));
  const pickupPincodes = createAnswerCache<number>(cacheOptions({ freshMs: 3_600_000 }));
  // Settings change rarely and are saved in the admin: a minute's delay on other processes is fine (this one forgets at once).
  const shops = createAnswerCache<ShopStorefront>(cacheOptions({ freshMs: options.shopFreshMs ?? 30_000, retryAfterMs: 5_000 }));
  const reported = new WeakSet<object>();
  // A variant's weight changes when the merchant edits the product: an hour's delay is fine for an estimate.
  const variantWeights = createAnswerCache<number | null>(cacheOptions({ freshMs: 3_600_000 }));

  /** The weight to quote: the page's, else the variant's in Shopify, else the shop's default; Shopify down: the default. */
  async function gramsFor(shop: string, query: EstimateQuery, defaultGrams: number, admin: ShopAdmin | undefined): Promise<number> {
    if (query.grams !== null) return query.grams;
    if (!query.variantId) return defaultGrams;
    const variantId = query.variantId;
    // Read with the Admin API client of the request (the app proxy's, on the shop's offline session).
    const variantWeight = options.variantWeight ?? ((_shop: string, variantGid: string) => (admin ? variantGrams(admin, variantGid) : Promise.resolve(null)));
    try {
      return (await variantWeights.get(`${shop}|${variantId}`, () => variantWeight(shop, variantId))).value ?? defaultGrams;
    } catch (error) {
      // Once per failure: the cache hands the same failure to every caller within its retry window.
      const seen = typeof error === "object" && error !== null && reported.has(error);
      if (!seen) console.warn(`Delivery estimate for ${shop}: a variant's weight could not be read (${describeError(error)})`);
      if (typeof error === "object" && error !== null) reported.add(error);
      return defaultGrams;
    }
  }


  async function quoteRoute(client: CourierClient, request: RateRequestInput): Promise<RouteQuote> {
    const codQuote = await client.calculateRate({ ...request, payment_mode: "cod" });
    if (codQuote.logistics.length > 0) return toRouteQuote(codQuote);
    return toRouteQuote(codQuote, await client.calculateRate({ ...request, payment_mode: "prepaid" }));
  }

  return {
    /** The shop's settings as the storefront sees them (cached briefly). */
    async shop(shop: string): Promise<ShopStorefront> {
      return (await shops.get(shop, () => loadShop(shop))).value;
    },

    /**
     * `evenWhenOff`: the admin's preview, which shows what shoppers would see before the merchant turns it on.
     * `admin`: the request's Admin API client, which reads a named variant's weight (none: the shop's default weight).
     */
    async estimate(shop: string, query: EstimateQuery, { evenWhenOff = false, admin }: { evenWhenOff?: boolean; admin?: ShopAdmin } = {}): Promise<EstimateAnswer> {
      const { settings, storefront } = await this.shop(shop);
      if (!storefront.estimateEnabled && !evenWhenOff) return offAnswer(query);
      const estimateSettings = { ...storefront, codMaxPaise: storefront.codMaxPaise };
      const warehouseId = defaultWarehouseIdOf(settings);
      const unavailable = () => toEstimateAnswer({ query, quote: null, settings: estimateSettings, now: now() });
      if (warehouseId === null) return unavailable();
      const client = clientFor(settings);
      try {
        const pickup = (await pickupPincodes.get(`${shop}|${warehouseId}`, async () => (await client.getWarehouse(warehouseId)).pincode)).value;
        const band = weightBandOf(await gramsFor(shop, query, storefront.defaultWeightGrams, admin));
        const box = boxFor(settings, band);
        const request: RateRequestInput = {
          shipment_type: "forward",
          payment_mode: "cod",
          pickup,
          delivery: Number(query.pincode),
          length: box.length,
          breadth: box.breadth,
          height: box.height,
          actual_weight: band / 1000,
          amount: NOMINAL_AMOUNT_RUPEES,
        };
        const quote = await quotes.get(`${shop}|${pickup}>${query.pincode}|${band}`, () => quoteRoute(client, request));
        return { ...toEstimateAnswer({ query, quote: quote.value, settings: estimateSettings, now: now(), fresh: quote.fresh }), weightGrams: band };
      } catch (error) {
        // The courier is down (or refused the route) and nothing was cached for it: the shopper checks at checkout.
        // Once per failure: the cache hands the same failure to every caller within its retry window.
        if (!reported.has(error as object)) console.warn(`Delivery estimate for ${shop} unavailable: ${describeError(error)}`);
        return unavailable();
      }
    },

    /** Records the store's proxy path from a request's `path_prefix` when it is new to this process's copy of the settings. */
    async noteProxyPath(shop: string, pathPrefix: string): Promise<void> {
      const { storefront } = await this.shop(shop);
      const at = now();
      if (await noteProxyPath(shop, pathPrefix, storefront, at)) {
        // The cached copy learns it too, or every request until the next reload would write it again.
        storefront.proxyPathPrefix = pathPrefix;
        storefront.proxyPathSeenAt = at;
      }
    },

    /** Forgets a shop's cached settings and answers (its settings were saved). */
    forgetShop(shop: string) {
      shops.forget(shop);
      quotes.forget(`${shop}|`);
      pickupPincodes.forget(`${shop}|`);
      variantWeights.forget(`${shop}|`);
    },

    stats() {
      return { quotes: quotes.size, courierQuotes: quotes.loads, pickupLookups: pickupPincodes.loads };
    },
  };
}

export type DeliveryEstimates = ReturnType<typeof createDeliveryEstimates>;

/** The process's one set of caches, shared by every storefront request. */
export const deliveryEstimates = createDeliveryEstimates();
