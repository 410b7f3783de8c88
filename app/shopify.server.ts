import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, AppDistribution, LogSeverity, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { getConfig } from "./config.server";
import prisma from "./db.server";
import { requestOrderReconcile } from "./orders/intake.server";

const config = getConfig();

const shopify = shopifyApp({
  apiKey: config.SHOPIFY_API_KEY,
  apiSecretKey: config.SHOPIFY_API_SECRET,
  apiVersion: ApiVersion.October26,
  scopes: config.scopes,
  appUrl: config.SHOPIFY_APP_URL,
  authPathPrefix: "/auth",
  sessionStorage: new PrismaSessionStorage(prisma),
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
  ...(config.SHOP_CUSTOM_DOMAIN ? { customShopDomains: [config.SHOP_CUSTOM_DOMAIN] } : {}),
});

export default shopify;
export const apiVersion = ApiVersion.October26;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const sessionStorage = shopify.sessionStorage;
