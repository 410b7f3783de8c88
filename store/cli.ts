import { appCredentialsFromEnv, startLocalStore } from "./local-store";

// `npm run store`: the local Shopify store on its own, for an app started separately.
const port = Number(process.env.STORE_PORT ?? 4000);
const appUrl = process.env.SHOPIFY_APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
const store = await startLocalStore({ port, app: appCredentialsFromEnv(), appUrl });

console.log(`Local Shopify store: ${store.url}
  shop:         ${store.shop} (seeded with ${store.simulator.shop(store.shop).orders.length} orders)
  Admin API:    ${store.url}/${store.shop}/admin/api/2026-10/graphql.json
  webhooks to:  ${appUrl}/webhooks/…
  admin shell:  ${store.adminUrl}

Start the app against it (development only) in another terminal:
  SHOPIFY_STORE_SIMULATOR_URL=${store.url} npm run dev:store
or run both at once with: npm run demo`);
