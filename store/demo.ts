import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { describeDatabase, openDatabase } from "../server/database";
import { startAppServer } from "../server/http";
import { appCredentialsFromEnv, startLocalStore } from "./local-store";
import { installShopifyFetchRedirect, setStoreSimulatorUrl } from "./redirect-fetch";
import { readyOrders } from "./seed";

/**
 * `npm run demo`: the app's production build, its database (the embedded PostgreSQL unless DATABASE_URL is
 * set) and the local Shopify store in one process, so a person can click through Dakiya in a browser with no
 * Shopify account and no network.
 */
process.env.NODE_ENV ??= "development";
const appPort = Number(process.env.PORT ?? 3000);
const storePort = Number(process.env.STORE_PORT ?? 4000);
const appUrl = process.env.SHOPIFY_APP_URL ?? `http://localhost:${appPort}`;

const { getConfig } = await import("../app/config.server");
const database = await openDatabase(getConfig());
// A faster bucket than the Standard plan's, for the browser tests (docs/local-store.md): the bucket holds 20 s of it.
const restoreRate = Number(process.env.STORE_RESTORE_RATE ?? 0);
const throttle = restoreRate > 0 ? { restoreRate, maximumAvailable: restoreRate * 20 } : undefined;
const store = await startLocalStore({ port: storePort, app: appCredentialsFromEnv(), appUrl, throttle });
// The browser tests walk the order list's pages, which the seed alone does not fill.
const extraOrders = Number(process.env.DEMO_EXTRA_ORDERS ?? 0);
if (extraOrders > 0) store.simulator.shop(store.shop).orders.push(...readyOrders(extraOrders));
// Before the build loads the Shopify library, which keeps the fetch it finds.
installShopifyFetchRedirect();
setStoreSimulatorUrl(store.url);
// Only now: the app modules read DATABASE_URL, and the Shopify library the fetch, when they load.
const { startBackgroundWork, stopBackgroundWork } = await import("../server/background");

const build = (await import(pathToFileURL(path.resolve("build/index.js")).href)) as ServerBuild;
const app = await startAppServer({ build, mode: process.env.NODE_ENV, port: appPort });
await startBackgroundWork(getConfig().WORKER_CONCURRENCY || 4);

console.log(`Dakiya is running on ${appUrl} (courier sandbox at ${appUrl}/v1, health at ${appUrl}/healthz)
Database: ${describeDatabase(database)}
Local Shopify store: ${store.url} (shop ${store.shop})

Open the Shopify admin, with Dakiya inside it:  ${store.adminUrl}`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await app.close();
  await store.close();
  await stopBackgroundWork();
  await database.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
