import { installShopifyFetchRedirect, setStoreSimulatorUrl } from "./redirect-fetch.ts";

// Loaded with `node --import` by `npm run demo:store`: honoured only outside production.
const url = process.env.SHOPIFY_STORE_SIMULATOR_URL;
if (url && process.env.NODE_ENV !== "production") {
  installShopifyFetchRedirect();
  setStoreSimulatorUrl(url);
}
