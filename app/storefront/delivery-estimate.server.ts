import type { ShopSettings, StorefrontSettings } from "@prisma/client";
import { describeError } from "~/logging.server";
import { courierClientFor, courierCredentialsOf, defaultWarehouseIdOf, getShopSettings, presetsOf } from "~/settings/shop-settings.server";
import { createCallerLimiter } from "~/caller-limits.server";
import type { CourierClient } from "~/shipping/client.server";
import type { RateRequestInput } from "~/shipping/contract";
import { createAnswerCache, type AnswerCacheOptions } from "./answer-cache";
import { offAnswer, toEstimateAnswer, toRouteQuote, tryAgainAnswer, weightBandOf, type EstimateAnswer, type EstimateQuery, type RouteQuote } from "./delivery-estimate";
import { getStorefrontSettings, noteProxyPath } from "./storefront-settings.server";
import { listenForStorefrontChanges, type StorefrontChangeListener } from "~/settings/settings-changes.server";
import { noteRefusal } from "./storefront-refusals.server";
import { keptVariantWeight, requestVariantWeights, VARIANT_WEIGHT_BATCH, VARIANT_WEIGHT_STALE_MS, type KeptVariantWeight } from "./variant-weights.server";

export interface ShopStorefront {
  settings: ShopSettings;
  storefront: StorefrontSettings;
}

export interface DeliveryEstimatesOptions {
  clientFor?: (settings: ShopSettings) => CourierClient;
  loadShop?: (shop: string) => Promise<ShopStorefront>;
  /** A product variant's weight as Dakiya keeps it (null: not read yet); the database by default. */
  keptWeight?: (shop: string, variantGid: string) => Promise<KeptVariantWeight | null>;
  /** Asks for variants to be read from Shopify in the background; false when this window's read is already asked for. */
  requestWeights?: (shop: string, variantGids: readonly string[]) => Promise<boolean>;
  now?: () => Date;
  /** Routes × weight bands kept, across all shops (a few hundred bytes each). */
  maxQuotes?: number;
  /** Routes × weight bands kept of one shop: its share, which its own new routes push its own answers out of. */
  maxQuotesPerShop?: number;
  /** Courier quotes for routes not in memory, per shop and minute, for the storefront (the admin's preview aside). */
  quotesPerMinute?: number;
  quoteFreshMs?: number;
  /** A courier that failed is not asked again for this key before then; the last answer stands meanwhile. */
  retryAfterMs?: number;
  shopFreshMs?: number;
  /**
   * Hears the settings changes saved by any process (settings-changes.server.ts), started on first use: each shop's
   * copy is forgotten at once. Without it, another process's save reaches this one within `shopFreshMs`.
   */
  listen?: (onChange: (shop: string | null) => void) => StorefrontChangeListener;
}

/** The shoppers' share of a shop's courier account and memory, per process (docs/ARCHITECTURE.md, Limits). */
export const STOREFRONT_SHARE = { quotesPerMinute: 60, maxQuotes: 50_000, maxQuotesPerShop: 5_000 };

/** The value quoted for: cash-on-delivery charges depend on it, the serviceability and days the estimate uses do not. */
const NOMINAL_AMOUNT_RUPEES = 1_000;

/** How soon a shopper told "try again shortly" about a variant not read yet may expect it read. */
const VARIANT_RETRY_SECONDS = 5;
/**
 * A variant asked for this long ago and still not kept is one Shopify does not have (or not readable now): it is
 * quoted at the shop's default weight, as a variant without a weight is, and asked for again ten minutes on.
 */
const VARIANT_GIVE_UP_MS = 2 * 60_000;
/** Shoppers asking about variants within this long of each other share one background read. */
const ASK_TOGETHER_MS = 50;
/** Variants waiting to be asked for, per shop: one background read's worth. */
const MAX_WANTED_PER_SHOP = VARIANT_WEIGHT_BATCH;

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

/** No weight kept for a variant yet. */
class VariantNotKept extends Error {
  override name = "VariantNotKept";
}

/** The shop's courier quotes for the storefront were used up for this minute (a refresh waits; its answer stands). */
class QuotesSpent extends Error {
  override name = "QuotesSpent";
}

/** "Try again shortly": the weight or the quote is not known yet, and the shop's share of reads is spent. */
type Deferred = { deferred: number };

/**
 * The storefront's delivery estimates, answered from memory: shoppers outnumber merchants by orders of magnitude,
 * so the courier is asked once per shop, route (warehouse PIN code → destination PIN code) and weight band, and
 * that answer serves every shopper on the route for `quoteFreshMs`, then while it refreshes. When the courier is
 * down the last answer stands; with none, the answer says to check at checkout — never an error.
 *
 * Anonymous traffic is the shop's guest, not its owner: a shopper's request never reads Shopify (a variant's weight
 * comes from Dakiya's copy, read in the background: variant-weights.server.ts), asks the courier about new routes
 * at most `quotesPerMinute` times a minute per shop, and keeps at most `maxQuotesPerShop` answers of one shop in
 * memory. Past that it answers from what is known, or "try again shortly" (`retryAfterSeconds`), at once: it never
 * waits behind the merchant's work, and the merchant's budgets are never spent by a visitor's loop.
 */
export function createDeliveryEstimates(options: DeliveryEstimatesOptions = {}) {
  const now = options.now ?? (() => new Date());
  const clock = () => now().getTime();
  const clientFor = options.clientFor ?? ((settings: ShopSettings) => courierClientFor(courierCredentialsOf(settings)));
  const loadShop = options.loadShop ?? loadShopStorefront;
  const keptWeight = options.keptWeight ?? keptVariantWeight;
  const requestWeights = options.requestWeights ?? requestVariantWeights;
  const retryAfterMs = options.retryAfterMs ?? 60_000;
  const maxQuotes = options.maxQuotes ?? STOREFRONT_SHARE.maxQuotes;
  const cacheOptions = (overrides: Partial<AnswerCacheOptions>): AnswerCacheOptions => ({ maxEntries: 10_000, maxPerPartition: 1_000, freshMs: 60_000, retryAfterMs, now: clock, ...overrides });
  const quotes = createAnswerCache<RouteQuote>(cacheOptions({ maxEntries: maxQuotes, maxPerPartition: options.maxQuotesPerShop ?? Math.min(STOREFRONT_SHARE.maxQuotesPerShop, maxQuotes), freshMs: options.quoteFreshMs ?? 6 * 3_600_000 }));
  const pickupPincodes = createAnswerCache<number>(cacheOptions({ freshMs: 3_600_000 }));
  // Settings change rarely and are saved in the admin: every process forgets its copy when a save is announced, and
  // reads it again after half a minute whatever happens.
  const shops = createAnswerCache<ShopStorefront>(cacheOptions({ freshMs: options.shopFreshMs ?? 30_000, retryAfterMs: 5_000 }));
  let listener: StorefrontChangeListener | null = null;
  const reported = new WeakSet<object>();
  // Dakiya's copy of a variant's weight, in memory for a while; a variant not kept is looked for again a second later.
  const variantWeights = createAnswerCache<KeptVariantWeight>(cacheOptions({ maxEntries: 20_000, maxPerPartition: 2_000, freshMs: 10 * 60_000, retryAfterMs: 1_000 }));
  const quoteBudget = createCallerLimiter({ limits: { limit: options.quotesPerMinute ?? STOREFRONT_SHARE.quotesPerMinute, windowMs: 60_000, maxTracked: 10_000 }, keyOf: (shop) => shop, now: clock });
  /** Per shop: the variants to ask for, when this process last asked, and whether an ask is about to go. */
  const wanted = new Map<string, { variantGids: Set<string>; askedAt: number; scheduled: boolean }>();
  /** When each variant was first asked for (bounded: a visitor's made-up ids push out the oldest). */
  const firstAsked = createAnswerCache<number>(cacheOptions({ maxEntries: 20_000, maxPerPartition: 2_000, freshMs: 10 * 60_000 }));

  /**
   * Notes a variant to be read, and asks for one background read of the shop's waiting variants: a moment later, so
   * shoppers asking at the same time share it, and not again for a few seconds.
   */
  function askFor(shop: string, variantGid: string) {
    let entry = wanted.get(shop);
    if (!entry) {
      if (wanted.size >= 10_000) return;
      wanted.set(shop, (entry = { variantGids: new Set(), askedAt: 0, scheduled: false }));
    }
    if (entry.variantGids.size < MAX_WANTED_PER_SHOP) entry.variantGids.add(variantGid);
    if (entry.scheduled || clock() - entry.askedAt < VARIANT_RETRY_SECONDS * 1000) return;
    entry.scheduled = true;
    const waiting = entry;
    setTimeout(() => {
      waiting.scheduled = false;
      waiting.askedAt = clock();
      const asked = [...waiting.variantGids];
      requestWeights(shop, asked).then(
        (queued) => {
          if (queued) for (const gid of asked) waiting.variantGids.delete(gid);
          if (waiting.variantGids.size === 0) wanted.delete(shop);
        },
        (error: unknown) => console.warn(`Delivery estimate for ${shop}: variants' weights could not be asked for (${describeError(error)})`),
      );
    }, ASK_TOGETHER_MS).unref();
  }

  /**
   * The weight to quote: the page's, else the variant's as Dakiya keeps it, else the shop's default. A variant not
   * read yet is asked for in the background and the shopper is told to try again shortly; one still unknown long
   * after (Shopify has no such variant) gets the default weight.
   */
  async function gramsFor(shop: string, query: EstimateQuery, defaultGrams: number): Promise<number | Deferred> {
    if (query.grams !== null) return query.grams;
    if (!query.variantId) return defaultGrams;
    const key = `${shop}|${query.variantId}`;
    try {
      const kept = await variantWeights.get(key, async () => (await keptWeight(shop, query.variantId!)) ?? Promise.reject(new VariantNotKept()));
      // Weights change when the merchant edits a product: an old copy answers while a fresh one is read.
      if (clock() - kept.value.readAt.getTime() > VARIANT_WEIGHT_STALE_MS) askFor(shop, query.variantId);
      return kept.value.grams ?? defaultGrams;
    } catch (error) {
      if (!(error instanceof VariantNotKept)) {
        if (!reported.has(error as object)) console.warn(`Delivery estimate for ${shop}: a variant's kept weight could not be read (${describeError(error)})`);
        if (typeof error === "object" && error !== null) reported.add(error);
        return defaultGrams;
      }
      // When it was first asked for; once that is ten minutes old it is renewed behind, and the variant asked for again.
      const since = (await firstAsked.get(key, async () => clock())).value;
      if (clock() - since >= VARIANT_GIVE_UP_MS) return defaultGrams;
      askFor(shop, query.variantId);
      return { deferred: VARIANT_RETRY_SECONDS };
    }
  }

  async function quoteRoute(client: CourierClient, request: RateRequestInput): Promise<RouteQuote> {
    const codQuote = await client.calculateRate({ ...request, payment_mode: "cod" });
    if (codQuote.logistics.length > 0) return toRouteQuote(codQuote);
    return toRouteQuote(codQuote, await client.calculateRate({ ...request, payment_mode: "prepaid" }));
  }

  return {
    /** The shop's settings as the storefront sees them (cached until a change is announced, or briefly). */
    async shop(shop: string): Promise<ShopStorefront> {
      listener ??= options.listen?.((changed) => (changed === null ? this.forgetAll() : this.forgetShop(changed))) ?? null;
      return (await shops.get(shop, () => loadShop(shop))).value;
    },

    /**
     * `evenWhenOff`: the admin's preview, which shows what shoppers would see before the merchant turns it on (and is
     * not counted in the shoppers' share of courier quotes).
     */
    async estimate(shop: string, query: EstimateQuery, { evenWhenOff = false }: { evenWhenOff?: boolean } = {}): Promise<EstimateAnswer> {
      const { settings, storefront } = await this.shop(shop);
      if (!storefront.estimateEnabled && !evenWhenOff) return offAnswer(query);
      // The admin's preview is the merchant's own: not counted in the shoppers' share of courier quotes.
      const fromShopper = !evenWhenOff;
      const estimateSettings = { ...storefront, codMaxPaise: storefront.codMaxPaise };
      const warehouseId = defaultWarehouseIdOf(settings);
      const unavailable = () => toEstimateAnswer({ query, quote: null, settings: estimateSettings, now: now() });
      const tryAgain = (seconds: number) => {
        noteRefusal(shop, "estimates");
        return tryAgainAnswer(query, seconds);
      };
      if (warehouseId === null) return unavailable();
      const client = clientFor(settings);
      try {
        const pickup = (await pickupPincodes.get(`${shop}|${warehouseId}`, async () => (await client.getWarehouse(warehouseId)).pincode)).value;
        const grams = await gramsFor(shop, query, storefront.defaultWeightGrams);
        if (typeof grams !== "number") return tryAgain(grams.deferred);
        const band = weightBandOf(grams);
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
        const key = `${shop}|${pickup}>${query.pincode}|${band}`;
        // A route not in memory costs the shop's courier account a call: counted (nothing awaited between the look
        // and the load, so concurrent shoppers on one new route share the one call and the one count).
        const known = quotes.has(key);
        if (!known && fromShopper) {
          const wait = quoteBudget.take(shop);
          if (wait > 0) return tryAgain(wait);
        }
        const quote = await quotes.get(key, () => (known && fromShopper && quoteBudget.take(shop) > 0 ? Promise.reject(new QuotesSpent()) : quoteRoute(client, request)));
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
      firstAsked.forget(`${shop}|`);
    },

    /** Forgets every shop's copy (changes may have been missed). */
    forgetAll() {
      for (const cache of [shops, quotes, pickupPincodes, variantWeights, firstAsked]) cache.clear();
    },

    /** Stops hearing other processes' changes (shutdown, tests). */
    async close() {
      await listener?.close();
      listener = null;
    },

    stats() {
      return { quotes: quotes.size, courierQuotes: quotes.loads, pickupLookups: pickupPincodes.loads };
    },
  };
}

export type DeliveryEstimates = ReturnType<typeof createDeliveryEstimates>;

/** The process's one set of caches, shared by every storefront request, forgetting a shop's when any process saves its settings. */
export const deliveryEstimates = createDeliveryEstimates({ listen: (onChange) => listenForStorefrontChanges(onChange) });
