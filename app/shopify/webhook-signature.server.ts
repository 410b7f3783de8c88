import "@shopify/shopify-api/adapters/web-api";
import { LogSeverity, shopifyApi, WebhookValidationErrorReason } from "@shopify/shopify-api";
import { getConfig } from "~/config.server";
import { ADMIN_API_VERSION } from "./api-version.server";
import { domainTransformationsFor } from "./shop-domains";

/**
 * Webhook deliveries checked by Shopify's own library (`webhooks.validate` of @shopify/shopify-api): the body's
 * HMAC-SHA256 with the app's secret, and the headers Shopify sends with every delivery. It touches no session: the
 * Remix helper `authenticate.webhook` would also load (and may refresh) the shop's offline session, a Shopify round
 * trip that acknowledging a delivery does not need.
 */

type WebhookLibrary = ReturnType<typeof createWebhookLibrary>;

function createWebhookLibrary() {
  const config = getConfig();
  return shopifyApi({
    apiKey: config.SHOPIFY_API_KEY,
    apiSecretKey: config.SHOPIFY_API_SECRET,
    hostName: new URL(config.SHOPIFY_APP_URL).host,
    apiVersion: ADMIN_API_VERSION,
    isEmbeddedApp: true,
    scopes: config.scopes,
    domainTransformations: domainTransformationsFor(config.SHOP_CUSTOM_DOMAIN),
    // A forged delivery is answered 401 with the reason; the library's debug lines would only repeat it.
    logger: { level: LogSeverity.Error, log: async (_severity, message) => console.error(message) },
  });
}

let library: WebhookLibrary | undefined;
const webhookLibrary = () => (library ??= createWebhookLibrary());

export type WebhookSignatureCheck = { valid: true } | { valid: false; status: 400 | 401; reason: string };

/**
 * The delivery as the library reads it — method, URL and headers — with only Shopify's own headers: the library copies
 * every header it is handed, twice, which for a proxied request's dozen headers was most of its cost (npm run bench).
 */
function shopifyHeadersOf(request: Request): Request {
  const headers = new Headers();
  for (const [name, value] of request.headers) if (name.startsWith("x-shopify-")) headers.set(name, value);
  return { method: request.method, url: request.url, headers } as Request;
}

/** Whether Shopify signed this body and sent these headers with it, and if not, the answer that says why. */
export async function checkWebhookSignature(request: Request, rawBody: string): Promise<WebhookSignatureCheck> {
  const check = await webhookLibrary().webhooks.validate({ rawBody, rawRequest: shopifyHeadersOf(request) });
  if (check.valid) return { valid: true };
  switch (check.reason) {
    case WebhookValidationErrorReason.InvalidHmac:
      return { valid: false, status: 401, reason: "The webhook's HMAC does not match" };
    case WebhookValidationErrorReason.MissingHmac:
      return { valid: false, status: 401, reason: "X-Shopify-Hmac-Sha256 is missing" };
    case WebhookValidationErrorReason.MissingBody:
      return { valid: false, status: 400, reason: "The webhook has no body" };
    case WebhookValidationErrorReason.MissingHeaders:
      return { valid: false, status: 400, reason: `Shopify's webhook headers are missing: ${"missingHeaders" in check ? check.missingHeaders.join(", ") : "some"}` };
    default:
      return { valid: false, status: 400, reason: "The webhook is not one Shopify sent" };
  }
}
