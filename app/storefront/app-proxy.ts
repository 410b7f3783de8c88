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

/**
 * The first parameter a proxied query names more than once, or null. Shopify signs a repeated parameter as one,
 * its values joined by commas, so the signature holds however the values are split — while `get` reads only the
 * first, which may be one a shopper added to the store's address (`?path_prefix=/apps/elsewhere`). Read as signed,
 * such a query has no single value to go by: it is refused rather than guessed at.
 */
export function repeatedParameterOf(params: URLSearchParams): string | null {
  const seen = new Set<string>();
  for (const key of params.keys()) {
    if (seen.has(key)) return key.slice(0, 64);
    seen.add(key);
  }
  return null;
}
