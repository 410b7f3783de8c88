import { createAdminShell } from "./admin-shell";
import type { ThrottleSettings } from "./admin-api";
import type { AppCredentials } from "./auth";
import { readyOrders, SEED_SHOP, seedShop } from "./seed";
import { serveFetch } from "./serve-fetch";
import { createStoreSimulator } from "./simulator";
import { createStorefront } from "./storefront";
import { loadStoreState, saveStoreState } from "./store-state";

export interface LocalStoreOptions {
  port: number;
  app: AppCredentials;
  appUrl: string;
  throttle?: Partial<ThrottleSettings>;
  /** Ready orders (#2001…) added after the seed, for a second page of orders (`readyOrders`). */
  extraOrders?: number;
  /** The store's app proxy path (Shopify lets merchants rename it); `/apps/dakiya` by default. */
  proxyPath?: string;
  /**
   * Where the store keeps its shops between runs (store/store-state.ts): restored from it when it exists, saved to
   * it after every change. Without it the store lives in memory and starts seeded every time.
   */
  stateFile?: string;
}

/** The simulator and its admin shell on one port, seeded with the demo shop or restored as a previous run left it. */
export async function startLocalStore({ port, app, appUrl, throttle, extraOrders = 0, stateFile, proxyPath }: LocalStoreOptions) {
  const restored = stateFile ? loadStoreState(stateFile) : null;
  const shops = restored ?? [seededDemoShop(extraOrders)];
  const simulator = createStoreSimulator({ app, appUrl, throttle, shops, onChange: stateFile ? () => saveStoreState(stateFile, simulator.shops.values()) : undefined });
  if (stateFile && !restored) saveStoreState(stateFile, simulator.shops.values());
  const shell = createAdminShell({ app, appUrl, defaultShop: SEED_SHOP, shopName: (shop) => simulator.shops.get(shop)?.name, simulator });
  const storefront = createStorefront({
    shop: SEED_SHOP,
    shopName: simulator.shops.get(SEED_SHOP)?.name ?? SEED_SHOP,
    appProxyUrl: `${appUrl.replace(/\/+$/, "")}/proxy`,
    apiSecret: app.apiSecret,
    proxyPath,
  });
  const server = await serveFetch(async (request) => (await storefront(request)) ?? (await shell(request)) ?? simulator.handle(request), port);
  const localUrl = server.url.replace("127.0.0.1", "localhost");
  return { ...server, simulator, shop: SEED_SHOP, restored: restored !== null, adminUrl: `${localUrl}/admin`, productUrl: `${localUrl}/products/handloom-cotton-kurta` };
}

export type LocalStore = Awaited<ReturnType<typeof startLocalStore>>;

function seededDemoShop(extraOrders: number) {
  const shop = seedShop();
  shop.orders.push(...readyOrders(extraOrders));
  return shop;
}

export function appCredentialsFromEnv(): AppCredentials {
  return {
    apiKey: process.env.SHOPIFY_API_KEY ?? "dakiya-local-client-id",
    apiSecret: process.env.SHOPIFY_API_SECRET ?? "dakiya-local-client-secret",
    scopes: process.env.SCOPES ?? "read_orders,write_orders,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders,write_fulfillments,read_locations,read_products,write_app_proxy,read_returns,write_returns,read_customers",
  };
}
