import { createAdminShell } from "./admin-shell";
import type { ThrottleSettings } from "./admin-api";
import type { AppCredentials } from "./auth";
import { SEED_SHOP } from "./seed";
import { serveFetch } from "./serve-fetch";
import { createStoreSimulator } from "./simulator";

/** The simulator and its admin shell on one port, seeded with the demo shop. */
export async function startLocalStore({ port, app, appUrl, throttle }: { port: number; app: AppCredentials; appUrl: string; throttle?: Partial<ThrottleSettings> }) {
  const simulator = createStoreSimulator({ app, appUrl, throttle });
  const shell = createAdminShell({ app, appUrl, defaultShop: SEED_SHOP, shopName: (shop) => simulator.shops.get(shop)?.name, simulator });
  const server = await serveFetch(async (request) => (await shell(request)) ?? simulator.handle(request), port);
  return { ...server, simulator, shop: SEED_SHOP, adminUrl: `${server.url.replace("127.0.0.1", "localhost")}/admin` };
}

export function appCredentialsFromEnv(): AppCredentials {
  return {
    apiKey: process.env.SHOPIFY_API_KEY ?? "dakiya-local-client-id",
    apiSecret: process.env.SHOPIFY_API_SECRET ?? "dakiya-local-client-secret",
    scopes: process.env.SCOPES ?? "read_orders,write_orders,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders,write_fulfillments,read_locations",
  };
}
