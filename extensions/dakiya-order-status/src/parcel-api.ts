import type { CustomerParcel } from "../../shared/customer-parcel";
import { customerParcelPath } from "../../shared/customer-parcel";

/**
 * The order status page's one call to the app: the parcel a fulfillment carries, with the customer account's session
 * token. Unlike the admin's, a customer account's `fetch` does not resolve the app's address, so the address is
 * absolute: the app's URL as SHOPIFY_APP_URL says when the extension is built (Shopify's CLI puts the build's
 * environment into the bundle), else the production address of shopify.app.toml's application_url.
 */

declare const process: { env: Record<string, string | undefined> };

const PRODUCTION_APP_URL = "https://dakiya.example.com";

export const APP_URL = ((): string => {
  try {
    return (process.env.SHOPIFY_APP_URL || PRODUCTION_APP_URL).replace(/\/+$/, "");
  } catch {
    // Not built with SHOPIFY_APP_URL: there is no `process` where extensions run.
    return PRODUCTION_APP_URL;
  }
})();

export type ParcelLoad = { kind: "parcel"; parcel: CustomerParcel } | { kind: "none" } | { kind: "login" } | { kind: "failed" };

const TIMEOUT_MS = 15_000;

const isParcel = (value: unknown): value is CustomerParcel => {
  const parcel = value as Partial<CustomerParcel> | null;
  return typeof parcel === "object" && parcel !== null && typeof parcel.name === "string" && typeof parcel.stage === "string" && Array.isArray(parcel.timeline);
};

/**
 * The fulfillment's parcel: shown; none (not a Dakiya parcel of this customer: the extension shows nothing); a
 * page opened without signing in; or a failure (network, timeout, an answer it cannot read), shown with Try again.
 */
export async function loadParcel(fulfillmentGid: string, sessionToken: () => Promise<string>): Promise<ParcelLoad> {
  let path: string;
  try {
    path = customerParcelPath(fulfillmentGid);
  } catch {
    return { kind: "none" };
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  try {
    const response = await fetch(`${APP_URL}${path}`, { headers: { Authorization: `Bearer ${await sessionToken()}` }, signal: controller.signal });
    if (response.status === 404) return { kind: "none" };
    const body = (await response.json().catch(() => null)) as { parcel?: unknown; code?: unknown } | null;
    if (response.status === 401 && body?.code === "login_required") return { kind: "login" };
    return response.ok && isParcel(body?.parcel) ? { kind: "parcel", parcel: body.parcel } : { kind: "failed" };
  } catch {
    return { kind: "failed" };
  } finally {
    clearTimeout(timer);
  }
}
