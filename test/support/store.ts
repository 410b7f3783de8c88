import { getConfig } from "~/config.server";
import { signSessionToken, type AppCredentials } from "../../store/auth";
import { seedShop } from "../../store/seed";
import { setStoreSimulatorUrl } from "../../store/redirect-fetch";
import { createStoreSimulator, type StoreSimulatorOptions } from "../../store/simulator";
import { serveFetch, type FetchHandler } from "../../store/serve-fetch";
import { uniqueShop } from "./webhooks";

export function appCredentials(): AppCredentials {
  const config = getConfig();
  return { apiKey: config.SHOPIFY_API_KEY, apiSecret: config.SHOPIFY_API_SECRET, scopes: config.SCOPES };
}

/**
 * The store simulator on a real port, a fresh seeded shop of its own, and the Shopify library's
 * fetch pointed at it.
 */
export async function startStore(options: Partial<StoreSimulatorOptions> & { appUrl?: string; domain?: string } = {}) {
  const domain = options.domain ?? uniqueShop("store");
  const simulator = createStoreSimulator({ app: appCredentials(), appUrl: options.appUrl ?? "http://127.0.0.1:1", shops: [seedShop(domain)], ...options });
  const server = await serveFetch((request) => simulator.handle(request));
  setStoreSimulatorUrl(server.url);
  return {
    ...server,
    simulator,
    domain,
    shop: simulator.shop(domain),
    /** Installs the app on the shop (or another the store holds) as the admin does: the first authenticated request exchanges a session token. */
    async install(shop = domain) {
      const { authenticate } = await import("~/shopify.server");
      await authenticate.admin(this.adminRequest("/app", {}, shop));
    },
    /** A request as App Bridge's fetch sends it: Bearer session token for this shop (or another the store holds). */
    adminRequest(path: string, init: RequestInit = {}, shop = domain) {
      const token = signSessionToken(appCredentials(), shop);
      const headers = new Headers(init.headers);
      headers.set("Authorization", `Bearer ${token}`);
      return new Request(`${getConfig().SHOPIFY_APP_URL}${path}`, { ...init, headers });
    },
  };
}

/** Serves the app's webhook route modules over HTTP, as Shopify reaches them. */
export function serveRoutes(routes: Record<string, (args: { request: Request; params: Record<string, string>; context: Record<string, never> }) => Promise<Response>>): Promise<Awaited<ReturnType<typeof serveFetch>>> {
  const handler: FetchHandler = async (request) => {
    const route = routes[new URL(request.url).pathname];
    if (!route) return new Response("Not Found", { status: 404 });
    try {
      return await route({ request, params: {}, context: {} });
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  };
  return serveFetch(handler);
}

/**
 * What a shipping test needs: the embedded courier service where the app's configuration points
 * (COURIER_SANDBOX_URL) and a fresh store on the Plus plan's bucket, since such tests are about
 * booking, not throttling (store/simulator.test.ts is).
 */
export async function startShippingWorld(storeOptions: Parameters<typeof startStore>[0] = {}) {
  const { startAppCourierService } = await import("./courier-service");
  const courier = await startAppCourierService();
  const store = await startStore({ throttle: { maximumAvailable: 20_000, restoreRate: 1_000 }, ...storeOptions });
  return {
    courier,
    store,
    async close() {
      await store.close();
      await courier.close();
    },
  };
}
