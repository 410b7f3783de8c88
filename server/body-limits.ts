import { STREAMED_UPLOADS } from "../app/reconciliation/upload-limits";
import { WEBHOOK_BODY_LIMITS, webhookTopicAt } from "../app/webhook-topics";

/**
 * The largest request body each address accepts, checked by the HTTP server before any route runs (and so
 * before a webhook's signature or a session is checked): by Content-Length when one is declared, else while
 * the body streams in. Over the limit → 413 and the connection is closed.
 *
 * Each webhook topic gets what Shopify sends for it (app/webhook-topics.ts); an address that receives no webhook
 * is refused on its headers before its body is read. The merchant's uploads (a courier's statement, a packing photo)
 * have limits of their own and reach their route as a stream, read as it arrives (app/reconciliation/upload-limits.ts).
 * Everything else Dakiya accepts — forms, the extensions' JSON, the courier service's orders (which refuses more
 * than 1 MB itself) — is far smaller than 1 MB.
 */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
/** The largest body any webhook topic accepts. */
export const WEBHOOK_BODY_LIMIT_BYTES = Math.max(...Object.values(WEBHOOK_BODY_LIMITS));

/** The upload limit of an address whose body is streamed to its route; null for every other address. */
export function streamedUploadLimit(pathname: string): number | null {
  return STREAMED_UPLOADS.find((upload) => upload.path.test(pathname))?.limit ?? null;
}

export function bodyLimitFor(pathname: string): number {
  const topic = webhookTopicAt(pathname);
  return topic ? WEBHOOK_BODY_LIMITS[topic] : (streamedUploadLimit(pathname) ?? DEFAULT_BODY_LIMIT_BYTES);
}
