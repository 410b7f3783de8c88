import { createHmac, randomUUID } from "node:crypto";

export interface SignedWebhookOptions {
  topic: string;
  shop: string;
  payload: unknown;
  secret?: string;
  webhookId?: string;
  /** Overrides the computed signature, to prove forged deliveries are refused. */
  hmac?: string;
  /** A raw body sent (and signed) instead of the JSON of `payload`. */
  body?: string;
}

/** A webhook request exactly as Shopify sends one: HMAC over the raw body with the app's secret. */
export function signedWebhookRequest(url: string, options: SignedWebhookOptions): Request {
  const body = options.body ?? JSON.stringify(options.payload);
  const secret = options.secret ?? process.env.SHOPIFY_API_SECRET!;
  const hmac = options.hmac ?? createHmac("sha256", secret).update(body, "utf8").digest("base64");
  return new Request(url, {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Topic": options.topic,
      "X-Shopify-Hmac-Sha256": hmac,
      "X-Shopify-Shop-Domain": options.shop,
      "X-Shopify-API-Version": "2026-10",
      "X-Shopify-Webhook-Id": options.webhookId ?? randomUUID(),
      "X-Shopify-Event-Id": randomUUID(),
      "X-Shopify-Triggered-At": new Date().toISOString(),
    },
  });
}

/** Runs a Remix action and returns its Response whether it was returned or thrown. */
export async function responseOf(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

export function uniqueShop(prefix = "shop"): string {
  return `${prefix}-${randomUUID().slice(0, 8)}.myshopify.com`;
}
