import { createHmac } from "node:crypto";

/**
 * Shopify's app proxy, as the local store plays it: a shopper's request to `{store}{pathPrefix}/…` is forwarded to
 * the app's proxy URL with `shop`, `path_prefix`, `timestamp` and `logged_in_customer_id` added to the query and a
 * `signature`: HMAC-SHA256 (hex, the app's secret) of every parameter as `key=value` sorted by key and joined with
 * nothing, a repeated key's values joined by commas (shopify.dev, "Authenticate app proxies").
 */
export function signAppProxyQuery(params: URLSearchParams, apiSecret: string): string {
  const values = new Map<string, string[]>();
  for (const [key, value] of params) if (key !== "signature") values.set(key, [...(values.get(key) ?? []), value]);
  const message = [...values.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, list]) => `${key}=${list.join(",")}`)
    .join("");
  return createHmac("sha256", apiSecret).update(message).digest("hex");
}

export interface ProxyForward {
  /** The app's proxy URL (`[app_proxy] url`), e.g. http://localhost:3000/proxy. */
  proxyUrl: string;
  apiSecret: string;
  shop: string;
  /** The store's proxy path, `/apps/dakiya` unless the merchant renamed it. */
  pathPrefix: string;
  /** What followed the proxy path in the shopper's request: `/delivery-estimate?pincode=…`. */
  pathAndQuery: string;
  loggedInCustomerId?: string;
  now?: Date;
}

/** The request Shopify sends the app for a shopper's request under the store's proxy path. */
export function proxiedUrl({ proxyUrl, apiSecret, shop, pathPrefix, pathAndQuery, loggedInCustomerId = "", now = new Date() }: ProxyForward): string {
  const url = new URL(`${proxyUrl.replace(/\/+$/, "")}${pathAndQuery.startsWith("/") ? "" : "/"}${pathAndQuery}`);
  // Shopify's own parameters replace any the shopper sent under their names.
  for (const key of ["shop", "path_prefix", "timestamp", "logged_in_customer_id", "signature"]) url.searchParams.delete(key);
  url.searchParams.set("shop", shop);
  url.searchParams.set("logged_in_customer_id", loggedInCustomerId);
  url.searchParams.set("path_prefix", pathPrefix);
  url.searchParams.set("timestamp", String(Math.floor(now.getTime() / 1000)));
  url.searchParams.set("signature", signAppProxyQuery(url.searchParams, apiSecret));
  return url.toString();
}
