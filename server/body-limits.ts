/**
 * The largest request body each address accepts, checked by the HTTP server before any route runs (and so
 * before a webhook's signature or a session is checked): by Content-Length when one is declared, else while
 * the body streams in. Over the limit → 413 and the connection is closed.
 *
 * Shopify's largest order payloads (250 line items with properties, discounts and fulfillments) are a few
 * hundred KB and documented as able to exceed 1 MB, so webhooks get 5 MB. Everything else Dakiya accepts —
 * forms, the extensions' JSON, the courier service's orders (which refuses more than 1 MB itself) — is far
 * smaller than 1 MB.
 */
export const WEBHOOK_BODY_LIMIT_BYTES = 5 * 1024 * 1024;
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export function bodyLimitFor(pathname: string): number {
  return pathname.startsWith("/webhooks/") ? WEBHOOK_BODY_LIMIT_BYTES : DEFAULT_BODY_LIMIT_BYTES;
}
