import { createCallerLimiter, type CallerLimits } from "~/caller-limits.server";
import { noteRefusal } from "./storefront-refusals.server";

/**
 * Tracking lookups by number on the shop's own domain (`{proxy}/track/{awb}` without the parcel's link). Shoppers
 * arrive through Shopify's proxy from Shopify's addresses, so the address names nobody; the one caller the proxy
 * does name is a logged-in customer (`logged_in_customer_id`, inside Shopify's signature): each counts on their
 * own. Everyone else shares the shop's allowance, with room for a busy shop, so awbs cannot be tried in bulk
 * through one store. A shopper following their parcel's link is counted by that parcel alone
 * (app/tracking/public-tracking.server.ts): a flood here never holds them up. Refusals are counted for Home.
 */
export const STORE_LOOKUP_LIMITS = {
  perCustomer: { limit: 30, windowMs: 60_000, maxTracked: 10_000 },
  perShop: { limit: 600, windowMs: 60_000, maxTracked: 10_000 },
} satisfies Record<string, CallerLimits>;

const byKey = (key: string) => key;
const customerLimiter = createCallerLimiter({ limits: STORE_LOOKUP_LIMITS.perCustomer, keyOf: byKey });
const shopLimiter = createCallerLimiter({ limits: STORE_LOOKUP_LIMITS.perShop, keyOf: byKey });

/** Shopify's customer ids are whole numbers; the parameter is empty when nobody is logged in. */
const CUSTOMER_ID = /^[1-9]\d{0,19}$/;

/** Counts one lookup by number on the shop's domain and answers the seconds to wait, 0 when it may go on. */
export function takeStoreLookupByNumber(shop: string, loggedInCustomerId: string | null): number {
  const customer = loggedInCustomerId && CUSTOMER_ID.test(loggedInCustomerId) ? loggedInCustomerId : null;
  const wait = customer ? customerLimiter.take(`${shop}|${customer}`) : shopLimiter.take(shop);
  if (wait > 0) noteRefusal(shop, "trackingLookups");
  return wait;
}
