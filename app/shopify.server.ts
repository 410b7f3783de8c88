import "@shopify/shopify-app-remix/adapters/node";
import { AppDistribution, LogSeverity, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { getConfig } from "./config.server";
import prisma from "./db.server";
import { requestOrderReconcile } from "./orders/intake.server";
import { ADMIN_API_VERSION } from "./shopify/api-version.server";
import { domainTransformationsFor, isShopDomain } from "./shopify/shop-domains";
import { withStorefrontSessionCache } from "./shopify/storefront-sessions.server";
import { withSealedTokens } from "./security/sealed-sessions.server";
import { secretBox } from "./settings/shop-settings.server";

const config = getConfig();

const shopify = shopifyApp({
  apiKey: config.SHOPIFY_API_KEY,
  apiSecretKey: config.SHOPIFY_API_SECRET,
  apiVersion: ADMIN_API_VERSION,
  scopes: config.scopes,
  appUrl: config.SHOPIFY_APP_URL,
  authPathPrefix: "/auth",
  // Offline sessions read on behalf of the storefront are kept a few seconds (storefront-sessions.server.ts).
  // Shopify's tokens are stored sealed (app/security/sealed-sessions.server.ts).
  sessionStorage: withStorefrontSessionCache(withSealedTokens(new PrismaSessionStorage(prisma), secretBox)),
  distribution: AppDistribution.AppStore,
  // The library notes every authenticated request at Info; outside development only what needs a look is logged.
  logger: { level: config.NODE_ENV === "development" ? LogSeverity.Info : LogSeverity.Warning },
  hooks: {
    // A new install (or a reinstall): read the shop's recent orders, so Orders to ship fills in at once.
    afterAuth: async ({ session }) => {
      await requestOrderReconcile(session.shop, { onlyIfNeverDone: false });
    },
  },
  future: {
    unstable_newEmbeddedAuthStrategy: true,
    expiringOfflineAccessTokens: true,
  },
  domainTransformations: domainTransformationsFor(config.SHOP_CUSTOM_DOMAIN),
});

export default shopify;
export const apiVersion = ADMIN_API_VERSION;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
const isShopHost = (host: string) => isShopDomain(host, config.SHOP_CUSTOM_DOMAIN);

/** The session token a request carries, as the library finds it: the Authorization header, else `id_token`. */
function sessionTokenOf(request: Request): string | null {
  const bearer = request.headers.get("authorization")?.match(/^Bearer (.+)$/)?.[1];
  return bearer ?? new URL(request.url).searchParams.get("id_token");
}

/**
 * A session token names the shop in `dest` (https://my-store.myshopify.com); the library reads it with `new URL`
 * and would fail (a 500) on one that is not a URL, or ask whatever host it names for an access token. A token
 * whose `dest` is not a shop's address is refused 401 before the library sees it; the signature and the rest of
 * the token are the library's to check.
 */
function refuseTokenForNoShop(request: Request): void {
  const token = sessionTokenOf(request);
  if (!token) return;
  let dest: unknown;
  try {
    dest = (JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as { dest?: unknown }).dest;
  } catch {
    // Not a JWT at all: the library refuses it.
    return;
  }
  let url: URL | null = null;
  try {
    url = typeof dest === "string" ? new URL(dest) : null;
  } catch {
    url = null;
  }
  const namesAShop = url !== null && url.protocol === "https:" && !url.username && !url.password && !url.port && (url.pathname === "/" || url.pathname === "") && !url.search && isShopHost(url.hostname);
  if (!namesAShop) throw new Response("The session token does not name a shop (its dest must be https://<shop>.myshopify.com).", { status: 401, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

export const authenticate: typeof shopify.authenticate = {
  ...shopify.authenticate,
  admin: ((request: Request) => {
    refuseTokenForNoShop(request);
    return shopify.authenticate.admin(request);
  }) as typeof shopify.authenticate.admin,
};
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const sessionStorage = shopify.sessionStorage;
