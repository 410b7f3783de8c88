import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { appCredentialsFromEnv, startLocalStore } from "./local-store";
import { installShopifyFetchRedirect, setStoreSimulatorUrl } from "./redirect-fetch";
import { serveFetch } from "./serve-fetch";

/**
 * `npm run demo`: the app's production build and the local Shopify store in one process, so a
 * person can click through Dakiya in a browser with no Shopify account and no network.
 */
process.env.NODE_ENV ??= "development";
const appPort = Number(process.env.PORT ?? 3000);
const storePort = Number(process.env.STORE_PORT ?? 4000);
const appUrl = process.env.SHOPIFY_APP_URL ?? `http://localhost:${appPort}`;

const store = await startLocalStore({ port: storePort, app: appCredentialsFromEnv(), appUrl });
// Before the build loads the Shopify library, which keeps the fetch it finds.
installShopifyFetchRedirect();
setStoreSimulatorUrl(store.url);

const { createRequestHandler } = await import("@remix-run/node");
const build = await import(pathToFileURL(path.resolve("build/index.js")).href);
const handleRemix = createRequestHandler(build, process.env.NODE_ENV);

const CONTENT_TYPES: Record<string, string> = { ".js": "text/javascript", ".css": "text/css", ".map": "application/json", ".ico": "image/x-icon", ".png": "image/png", ".svg": "image/svg+xml" };

await serveFetch((request) => {
  const { pathname } = new URL(request.url);
  const file = path.join("public", path.normalize(pathname).replace(/^(\.\.[/\\])+/, ""));
  if ((pathname.startsWith("/build/") || pathname === "/favicon.svg") && existsSync(file)) {
    return new Response(readFileSync(file), { headers: { "Content-Type": CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream", "Cache-Control": "public, max-age=31536000, immutable" } });
  }
  return handleRemix(request);
}, appPort);

console.log(`Dakiya is running on ${appUrl} (courier sandbox at ${appUrl}/v1, health at ${appUrl}/healthz)
Local Shopify store: ${store.url} (shop ${store.shop})

Open the Shopify admin, with Dakiya inside it:  ${store.adminUrl}`);
