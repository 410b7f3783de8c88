import en from "~/locales/storefront.en.json";
import hi from "~/locales/storefront.hi.json";
import type { RateResult } from "~/shipping/contract";
import { rankRates } from "~/shipping/rate-ranking";
import { repeatedParameterOf } from "./app-proxy";
import { deliveryWindow, formatDeliveryDate, type DispatchCalendar } from "./delivery-date";

/**
 * The storefront's delivery estimate, from a route's quote and the merchant's settings: what the Delivery estimate
 * block shows and `GET {proxy}/delivery-estimate` answers (docs/storefront-api.md). Pure: no I/O, the clock passed in.
 */

export const STOREFRONT_LANGUAGES = ["en", "hi"] as const;
export type StorefrontLanguage = (typeof STOREFRONT_LANGUAGES)[number];
export type StorefrontStrings = typeof en;
// Typed against the English file: a key missing from the Hindi one fails the typecheck.
const STRINGS: Readonly<Record<StorefrontLanguage, StorefrontStrings>> = { en, hi };
export const storefrontStrings = (language: StorefrontLanguage) => STRINGS[language];

/** `hi`, `hi-IN`… pick Hindi; anything else English (the storefront passes its own locale, not the browser's). */
export function storefrontLanguage(requested: string | null | undefined): StorefrontLanguage {
  return requested?.trim().toLowerCase().split("-")[0] === "hi" ? "hi" : "en";
}

const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);

export const MAX_GRAMS = 1_000_000;
export const MAX_AMOUNT_PAISE = 1_000_000_000;

export interface EstimateQuery {
  pincode: string;
  /** The product's weight, when the page knows it. */
  grams: number | null;
  /** The value of what the shopper is looking at (a variant's price, the cart's total), for the COD limit. */
  amountPaise: number | null;
  /** The product variant looked at (`gid://shopify/ProductVariant/…`): its weight in Shopify, when `grams` is not given. */
  variantId?: string | null;
  language: StorefrontLanguage;
}

export type EstimateQueryResult = { ok: true; query: EstimateQuery } | { ok: false; field: string; message: string; language: StorefrontLanguage };

const WHOLE_NUMBER = /^\d{1,10}$/;

/**
 * Reads `pincode`, `grams`, `amount`, `variant` and `locale` from the query; a mistake is named in the shopper's
 * language. A parameter sent twice is one (the proxy's signature covers it only as one: app-proxy.ts).
 */
export function parseEstimateQuery(params: URLSearchParams): EstimateQueryResult {
  const language = storefrontLanguage(params.get("locale")?.slice(0, 16));
  const t = STRINGS[language].errors;
  const repeated = repeatedParameterOf(params);
  if (repeated) return { ok: false, field: repeated, message: fill(t.repeated, { name: repeated }), language };
  const rawPincode = (params.get("pincode") ?? "").replace(/\s+/g, "").slice(0, 64);
  if (!rawPincode) return { ok: false, field: "pincode", message: t.pincodeMissing, language };
  if (!/^[1-9]\d{5}$/.test(rawPincode)) return { ok: false, field: "pincode", message: t.pincodeFormat, language };
  const number = (name: string, max: number): number | null | undefined => {
    const raw = params.get(name);
    if (raw === null || raw === "") return null;
    if (!WHOLE_NUMBER.test(raw)) return undefined;
    const value = Number(raw);
    return value <= max ? value : undefined;
  };
  const grams = number("grams", MAX_GRAMS);
  if (grams === undefined) return { ok: false, field: "grams", message: t.grams, language };
  const amountPaise = number("amount", MAX_AMOUNT_PAISE);
  if (amountPaise === undefined) return { ok: false, field: "amount", message: t.amount, language };
  const rawVariant = params.get("variant");
  let variantId: string | null = null;
  if (rawVariant !== null && rawVariant !== "") {
    const id = /^(?:gid:\/\/shopify\/ProductVariant\/)?([1-9]\d{0,18})$/.exec(rawVariant.slice(0, 64))?.[1];
    if (!id) return { ok: false, field: "variant", message: t.variant, language };
    variantId = `gid://shopify/ProductVariant/${id}`;
  }
  return { ok: true, query: { pincode: rawPincode, grams, amountPaise, language, variantId } };
}

/**
 * Quotes are cached per weight band, not per gram, so a shop's catalogue makes a handful of keys per route. A
 * parcel is quoted at its band's upper weight: the estimate never promises what a heavier parcel in the band misses.
 */
export const WEIGHT_BANDS_GRAMS = [500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, MAX_GRAMS] as const;
export const weightBandOf = (grams: number) => WEIGHT_BANDS_GRAMS.find((band) => grams <= band) ?? MAX_GRAMS;

/** What the courier said of one route and weight band: all the estimate needs, small enough to cache by the thousand. */
export interface RouteQuote {
  serviceable: boolean;
  /** The courier Dakiya would recommend takes this many days, fastest and slowest (`edd` "3 - 5"). */
  courierDays: [number, number] | null;
  codAvailable: boolean;
}

/**
 * A cash-on-delivery quote lists the couriers that collect cash there: if it lists any, the route is served with COD;
 * if it lists none, `prepaid` says whether the route is served at all.
 */
export function toRouteQuote(codQuote: RateResult, prepaidQuote?: RateResult): RouteQuote {
  const codAvailable = codQuote.logistics.length > 0;
  const options = codAvailable ? codQuote.logistics : (prepaidQuote?.logistics ?? []);
  const recommended = rankRates(options).find((option) => option.isRecommended);
  if (!recommended) return { serviceable: false, courierDays: null, codAvailable: false };
  const [fastest = 0, slowest = fastest] = recommended.edd.split("-").map((part) => Number(part.trim()));
  return { serviceable: true, courierDays: [fastest, slowest], codAvailable };
}

export interface EstimateSettings extends DispatchCalendar {
  showCod: boolean;
  codMaxPaise: number | null;
}

export type EstimateStatus = "deliverable" | "unserviceable" | "unavailable" | "off";
export type CodStatus = "available" | "unavailable" | "over_limit" | "hidden";

/** The JSON the proxy answers (docs/storefront-api.md): stable names, dates as YYYY-MM-DD, money in paise. */
export interface EstimateAnswer {
  pincode: string;
  status: EstimateStatus;
  /** "Delivered by": the latest day the recommended courier promises, YYYY-MM-DD; null unless deliverable. */
  deliverBy: string | null;
  earliest: string | null;
  cod: CodStatus;
  codLimitPaise: number | null;
  language: StorefrontLanguage;
  /** The sentence to show, in `language`. */
  message: string;
  /** About cash on delivery, in `language`; null when the shop hides it or the route is not served. */
  codMessage: string | null;
  /** False when the courier's answer is older than the cache keeps answers fresh (it is being refreshed). */
  fresh: boolean;
  /** The weight quoted for, in grams: the upper end of the parcel's weight band (absent when nothing was quoted). */
  weightGrams?: number;
  /** "Try again shortly": what is needed is being fetched, or the shop's share of fetches is spent; ask again then. */
  retryAfterSeconds?: number;
}

const formatRupees = (paise: number, language: StorefrontLanguage) =>
  new Intl.NumberFormat(language === "hi" ? "hi-IN" : "en-IN", { style: "currency", currency: "INR", maximumFractionDigits: paise % 100 === 0 ? 0 : 2 }).format(paise / 100);

export function toEstimateAnswer({ query, quote, settings, now, fresh = true }: { query: EstimateQuery; quote: RouteQuote | null; settings: EstimateSettings; now: Date; fresh?: boolean }): EstimateAnswer {
  const { language, pincode } = query;
  const t = STRINGS[language];
  const base = { pincode, language, deliverBy: null, earliest: null, codLimitPaise: settings.codMaxPaise, codMessage: null, fresh };
  if (!quote) return { ...base, status: "unavailable", cod: "hidden", message: t.unavailable };
  if (!quote.serviceable || !quote.courierDays) return { ...base, status: "unserviceable", cod: "hidden", message: t.unserviceable };
  const window = deliveryWindow(now, settings, quote.courierDays);
  if (!window) return { ...base, status: "unavailable", cod: "hidden", message: t.unavailable };
  const cod: CodStatus = !settings.showCod
    ? "hidden"
    : !quote.codAvailable
      ? "unavailable"
      : settings.codMaxPaise !== null && query.amountPaise !== null && query.amountPaise > settings.codMaxPaise
        ? "over_limit"
        : "available";
  const codMessage =
    cod === "hidden"
      ? null
      : cod === "over_limit"
        ? fill(t.cod.overLimit, { limit: formatRupees(settings.codMaxPaise!, language) })
        : cod === "available"
          ? t.cod.available
          : t.cod.unavailable;
  return {
    ...base,
    status: "deliverable",
    deliverBy: window.latest,
    earliest: window.earliest,
    cod,
    codMessage,
    message: fill(t.deliverBy, { date: formatDeliveryDate(window.latest, language === "hi" ? "hi-IN" : "en-IN") }),
  };
}

export function offAnswer(query: EstimateQuery): EstimateAnswer {
  return { pincode: query.pincode, language: query.language, status: "off", deliverBy: null, earliest: null, cod: "hidden", codLimitPaise: null, message: STRINGS[query.language].off, codMessage: null, fresh: true };
}

/** "Try again in a moment": the variant's weight or the route's quote is not known yet (status `unavailable`). */
export function tryAgainAnswer(query: EstimateQuery, retryAfterSeconds: number): EstimateAnswer {
  return { pincode: query.pincode, language: query.language, status: "unavailable", deliverBy: null, earliest: null, cod: "hidden", codLimitPaise: null, message: STRINGS[query.language].tryAgain, codMessage: null, fresh: true, retryAfterSeconds };
}
