import { isShopDomain } from "~/shopify/shop-domains";

/**
 * What the order status page's requests carry, parsed at the edge. Pure.
 */

/** "123" → "gid://shopify/Fulfillment/123"; null for anything else. */
export function fulfillmentGidOf(id: string | undefined): string | null {
  return id && /^\d{1,20}$/.test(id) ? `gid://shopify/Fulfillment/${id}` : null;
}

const CUSTOMER_GID = /^gid:\/\/shopify\/Customer\/\d{1,20}$/;

/**
 * The shop and the customer a customer account's session token names: `dest` is the shop's domain (without a
 * scheme, in these tokens; one with https:// is read alike) and `sub` the signed-in customer's GID, absent when the
 * page was opened without signing in or the app may not read customer data.
 */
export function customerOfToken(token: { dest?: unknown; sub?: unknown }, customDomain: string | undefined): { kind: "customer"; shop: string; customerGid: string } | { kind: "no_shop" } | { kind: "no_customer" } {
  const dest = typeof token.dest === "string" ? token.dest.replace(/^https:\/\//, "").replace(/\/$/, "") : "";
  if (!isShopDomain(dest, customDomain)) return { kind: "no_shop" };
  return typeof token.sub === "string" && CUSTOMER_GID.test(token.sub) ? { kind: "customer", shop: dest, customerGid: token.sub } : { kind: "no_customer" };
}
