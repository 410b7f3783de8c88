/**
 * The webhook topics Dakiya subscribes to (shopify.app.toml), each at its own address, with the largest body it
 * accepts, and the checks of Shopify's headers that can be made before the body is read. Pure: the HTTP server
 * (server/http.ts) refuses a delivery whose headers are wrong without reading its body, and the routes
 * (app/webhooks.server.ts) check the same again with the signature.
 *
 * Shopify's HMAC covers the body only: the topic, shop and id headers are not signed, so a delivery is believed
 * only where its signed body agrees with them (app/webhooks.server.ts, and each topic's job).
 */

const KB = 1024;

/**
 * Topic → the largest body Shopify sends for it, with room to spare:
 * - orders/*: the subscriptions' `include_fields` (shopify.app.toml) send the order's ids and `cancelled_at` only,
 *   under 200 bytes; the limit leaves room for Shopify adding its own fields, never for a whole order;
 * - returns/*: likewise only the return's ids and status, under 200 bytes;
 * - customers/*: a customer's id, e-mail and phone and up to a few thousand order ids (about 20 bytes each);
 * - app/uninstalled: the shop object, 2–3 KB; app/scopes_update: the previous and current scopes; shop/redact: the
 *   shop's id and domain.
 */
export const WEBHOOK_BODY_LIMITS = {
  "orders/create": 16 * KB,
  "orders/cancelled": 16 * KB,
  "orders/paid": 16 * KB,
  "returns/request": 16 * KB,
  "returns/approve": 16 * KB,
  "returns/decline": 16 * KB,
  "returns/cancel": 16 * KB,
  "returns/close": 16 * KB,
  "returns/process": 16 * KB,
  "customers/data_request": 512 * KB,
  "customers/redact": 512 * KB,
  "app/uninstalled": 64 * KB,
  "app/scopes_update": 16 * KB,
  "shop/redact": 16 * KB,
} as const;

export type WebhookTopic = keyof typeof WEBHOOK_BODY_LIMITS;

/** The address of each topic's subscription: `/webhooks/orders/create` for orders/create. */
export const webhookPathOf = (topic: WebhookTopic) => `/webhooks/${topic}`;

/** The topic whose address this is, or null. */
export function webhookTopicAt(pathname: string): WebhookTopic | null {
  const topic = pathname.startsWith("/webhooks/") ? pathname.slice("/webhooks/".length) : "";
  return Object.hasOwn(WEBHOOK_BODY_LIMITS, topic) ? (topic as WebhookTopic) : null;
}

export const MYSHOPIFY_DOMAIN = /^[a-z0-9][a-z0-9-]{0,60}\.myshopify\.com$/;
/** Any host name: a shop on a custom domain (SHOP_CUSTOM_DOMAIN) is checked exactly by the route. */
const HOST_NAME = /^[a-z0-9][a-z0-9.-]{0,253}$/;
export const WEBHOOK_ID = /^[A-Za-z0-9._:-]{1,255}$/;
/** A base64 HMAC-SHA256: 32 bytes, 44 characters. */
const HMAC_HEADER = /^[A-Za-z0-9+/]{43}=$/;

export interface HeaderRefusal {
  status: 400 | 401 | 404;
  reason: string;
}

interface HeaderSource {
  get(name: string): string | null;
}

/**
 * What is wrong with a delivery's headers for the address it was sent to, or null. Checked before the body is read:
 * a request that cannot be a delivery of this topic costs no more than its headers.
 */
export function webhookHeaderRefusal(pathname: string, headers: HeaderSource): HeaderRefusal | null {
  const topic = webhookTopicAt(pathname);
  if (!topic) return { status: 404, reason: "No webhook is received at this address" };
  const signature = headers.get("x-shopify-hmac-sha256");
  if (!signature || !HMAC_HEADER.test(signature)) return { status: 401, reason: "X-Shopify-Hmac-Sha256 is missing or not a base64 HMAC-SHA256" };
  const sentTopic = headers.get("x-shopify-topic");
  if (!sentTopic) return { status: 400, reason: "X-Shopify-Topic is missing" };
  // Shopify sends each topic to its own address: any other topic here is a body replayed under another topic.
  if (sentTopic !== topic) return { status: 401, reason: `X-Shopify-Topic ${JSON.stringify(sentTopic.slice(0, 64))} is not ${topic}, the topic of this address` };
  if (!HOST_NAME.test((headers.get("x-shopify-shop-domain") ?? "").toLowerCase())) return { status: 400, reason: "X-Shopify-Shop-Domain is missing or not a shop domain" };
  if (!WEBHOOK_ID.test(headers.get("x-shopify-webhook-id") ?? "")) return { status: 400, reason: "X-Shopify-Webhook-Id is missing or malformed" };
  return null;
}

/**
 * The shop a signed body names, where it names one, as Shopify writes it: `shop_domain` (compliance topics),
 * `myshopify_domain` (the shop object of app/uninstalled). The shop object's `domain` is its primary domain, which
 * is the myshopify one unless the merchant connected a domain of their own: it names the shop only while it is a
 * myshopify domain. Lower-cased; none when the body names no shop.
 */
export function shopsNamedBy(payload: unknown): string[] {
  if (typeof payload !== "object" || payload === null) return [];
  const body = payload as Record<string, unknown>;
  const named: string[] = [];
  for (const field of ["shop_domain", "myshopify_domain"] as const) {
    if (body[field] !== undefined && body[field] !== null) named.push(String(body[field]).toLowerCase());
  }
  if (typeof body.domain === "string" && MYSHOPIFY_DOMAIN.test(body.domain.toLowerCase())) named.push(body.domain.toLowerCase());
  return named;
}
