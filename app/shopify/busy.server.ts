import { json } from "@remix-run/node";
import { ShopifyUnavailableError } from "./admin-graphql.server";

export const SHOPIFY_BUSY_STATUS = 429;

/** What a screen shows when Shopify could not be reached in time: data for ShopifyBusyBoundary. */
export interface ShopifyBusy {
  shopifyBusy: string;
}

export function shopifyBusyResponse(error: ShopifyUnavailableError): Response {
  const message =
    error.reason === "throttled"
      ? "Shopify is busy with this shop's requests right now. Try again in a minute; nothing was lost."
      : "Shopify did not answer. Try again in a minute; nothing was lost.";
  return json({ shopifyBusy: message } satisfies ShopifyBusy, { status: SHOPIFY_BUSY_STATUS, headers: { "Retry-After": String(error.retryAfterSeconds) } });
}

/**
 * Runs a loader's or action's work; when Shopify stays throttled or down past Dakiya's own waits, throws a 429
 * the page's boundary shows as "Shopify is busy" — a plain banner with a retry, never a 500.
 */
export async function whenShopifyAnswers<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ShopifyUnavailableError) throw shopifyBusyResponse(error);
    throw error;
  }
}
