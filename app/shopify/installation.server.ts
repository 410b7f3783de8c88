import { SessionNotFoundError } from "@shopify/shopify-app-remix/server";
import prisma from "~/db.server";
import { ADMIN_API_VERSION } from "./api-version.server";
import { adminGraphql, type ShopAdmin } from "./admin-graphql.server";
import { adminDocument } from "./admin-document";
import type { AppInstallationProbeQuery, AppInstallationProbeQueryVariables } from "~/types/admin.generated";

const INSTALLATION_QUERY = adminDocument<AppInstallationProbeQuery, AppInstallationProbeQueryVariables>(
  `#graphql
  query AppInstallationProbe {
    shop {
      myshopifyDomain
    }
  }
`
);

export type Installation = "installed" | "uninstalled";

/**
 * Whether the app is still installed on the shop, in Shopify's own words rather than a webhook's unsigned headers:
 * app/uninstalled and shop/redact act only on an uninstalled shop. Uninstalling revokes every token the app holds
 * for the shop at once, so:
 * - no offline session: nothing can act for the shop — uninstalled;
 * - the Admin API answers with the offline token (refreshed first when it has expired) — installed;
 * - it answers 401 or 403, or the refresh is refused while Shopify answers — uninstalled;
 * - Shopify cannot be reached: thrown, and the job asks again later.
 */
export async function installationOf(shop: string, adminFor: (shop: string) => Promise<ShopAdmin>): Promise<Installation> {
  if ((await prisma.session.count({ where: { shop, isOnline: false } })) === 0) return "uninstalled";
  try {
    const { shop: answered } = await adminGraphql(await adminFor(shop), INSTALLATION_QUERY);
    return answered.myshopifyDomain.toLowerCase() === shop ? "installed" : "uninstalled";
  } catch (error) {
    if (error instanceof SessionNotFoundError) return "uninstalled";
    // Refused: the library throws Shopify's HTTP error as an HttpResponseError here (a Response in a request's context).
    const status = error instanceof Response ? error.status : (error as { response?: { code?: number } }).response?.code;
    if (status === 401 || status === 403) return "uninstalled";
    // The library answers every failed refresh with a bare 500, whether the grant was refused or Shopify was down.
    if (error instanceof Response && error.status === 500 && (await shopifyAnswers(shop))) return "uninstalled";
    throw error;
  }
}

/** Whether Shopify answers for the shop at all: an Admin API call without a token gets its 401 when it is up. */
async function shopifyAnswers(shop: string): Promise<boolean> {
  try {
    const response = await fetch(`https://${shop}/admin/api/${ADMIN_API_VERSION}/graphql.json`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}", signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel();
    return response.status < 500;
  } catch {
    return false;
  }
}

/**
 * app/scopes_update: the scopes the merchant has granted now, written on the shop's sessions, so the library asks
 * for the ones the app declares but the shop has not granted on the next request (and stops asking for ones it has).
 * The shop header is not signed and the body names no shop: a body replayed under another shop's header could at
 * worst make the library ask that shop's Shopify once more, which answers with the true scopes.
 */
export async function recordGrantedScopes(shop: string, scopes: readonly string[]): Promise<number> {
  const { count } = await prisma.session.updateMany({ where: { shop }, data: { scope: scopes.join(",") } });
  return count;
}
