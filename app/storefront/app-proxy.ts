/**
 * The storefront reaches Dakiya through Shopify's app proxy: `https://{shop}{path_prefix}/…` is forwarded to the
 * app's proxy URL (`[app_proxy]` in shopify.app.toml) with `shop`, `path_prefix`, `timestamp`,
 * `logged_in_customer_id` and a `signature` added to the query. Merchants may rename the prefix and subpath per
 * store, so the path shoppers see is whatever `path_prefix` says, never a constant.
 */

/** Shopify's prefixes (`apps`, `a`, `community`, `tools`) and a subpath of letters, digits, `-` and `_`. */
const PROXY_PATH = /^\/(?:apps|a|community|tools)\/[A-Za-z0-9_-]{1,64}$/;

/** The store's proxy path from a proxied request's `path_prefix`, or null when it is missing or not one. */
export function proxyPathOf(params: URLSearchParams): string | null {
  const pathPrefix = params.get("path_prefix");
  return pathPrefix && PROXY_PATH.test(pathPrefix) ? pathPrefix : null;
}
