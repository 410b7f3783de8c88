import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { describeDatabase, openDatabase } from "../server/database";
import { startAppServer } from "../server/http";
import { listMigrations } from "../server/migrate";
import { appCredentialsFromEnv, startLocalStore } from "./local-store";
import { installShopifyFetchRedirect, setStoreSimulatorUrl } from "./redirect-fetch";

/**
 * `npm run demo`: the app's production build, its database (the embedded PostgreSQL unless DATABASE_URL is
 * set) and the local Shopify store in one process, so a person can click through Dakiya in a browser with no
 * Shopify account and no network. Unless `--no-journey` (or `--fast`) is given, it first plays a merchant's day
 * on it (store/journey.ts) and draws it as a live table; then it serves until Ctrl-C.
 */
const flags = new Set(process.argv.slice(2));
const playsJourney = !flags.has("--no-journey") && !flags.has("--fast");
process.env.NODE_ENV ??= "development";
// The journey watches parcels move within seconds, so the app polls the courier every second or few instead of
// every ten minutes (each stage multiplies this base, app/tracking/courier-progress.ts).
if (playsJourney) process.env.TRACKING_SYNC_SECONDS ??= "1";
const appPort = Number(process.env.PORT ?? 3000);
const storePort = Number(process.env.STORE_PORT ?? 4000);
const appUrl = process.env.SHOPIFY_APP_URL ?? `http://localhost:${appPort}`;
// The day's labels and pickup manifests are written here as PDF files.
const documentsDir = path.resolve(process.env.DEMO_OUTPUT_DIR || ".data/demo-output");

const { getConfig } = await import("../app/config.server");
const config = getConfig();
const database = await openDatabase(config);

// The store keeps its shop beside the embedded database, so the two stay a pair across runs: a new database (its
// first migration applied just now) gets a new store too. DEMO_STORE_STATE names another file ("" keeps it in memory).
const stateFile = process.env.DEMO_STORE_STATE ?? (config.DATABASE_URL ? "" : path.join(path.dirname(config.EMBEDDED_DATABASE_DIR), "local-store.json"));
const isNewDatabase = database.migrations.applied.includes(listMigrations()[0]!.name);
if (stateFile && isNewDatabase && existsSync(stateFile)) rmSync(stateFile);

// A faster bucket than the Standard plan's, for the browser tests (docs/local-store.md): the bucket holds 20 s of it.
const restoreRate = Number(process.env.STORE_RESTORE_RATE ?? 0);
const throttle = restoreRate > 0 ? { restoreRate, maximumAvailable: restoreRate * 20 } : undefined;
const app = appCredentialsFromEnv();
// The browser tests walk the order list's pages, which the seed alone does not fill.
const extraOrders = Number(process.env.DEMO_EXTRA_ORDERS ?? 0);
const store = await startLocalStore({ port: storePort, app, appUrl, throttle, extraOrders, stateFile: stateFile || undefined });
// Before the build loads the Shopify library, which keeps the fetch it finds.
installShopifyFetchRedirect();
setStoreSimulatorUrl(store.url);
// Only now: the app modules read DATABASE_URL, and the Shopify library the fetch, when they load.
const { startBackgroundWork, stopBackgroundWork } = await import("../server/background");

const build = (await import(pathToFileURL(path.resolve("build/index.js")).href)) as ServerBuild;
const server = await startAppServer({ build, mode: process.env.NODE_ENV, port: appPort });
await startBackgroundWork(config.WORKER_CONCURRENCY || 4);

console.log(`Dakiya is running on ${appUrl} (courier sandbox at ${appUrl}/v1, health at ${appUrl}/healthz)
Database: ${describeDatabase(database)}
Local Shopify store: ${store.url} (shop ${store.shop}${stateFile ? `, ${store.restored ? "as the last run left it" : "seeded"}, kept in ${stateFile}` : ""})
`);

let closeJourneyView = () => {};
let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  closeJourneyView();
  console.log(`${signal}: stopping`);
  await server.close();
  // The running jobs talk to the store (fulfillments, tracking events): they finish before it closes.
  await stopBackgroundWork();
  await store.close();
  await database.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));

if (playsJourney) await playTheDay();

// Ctrl-C during the day stops everything: nothing more to say.
if (!stopping) console.log(`Open the Shopify admin, with Dakiya inside it:  ${store.adminUrl}${
  playsJourney
    ? `
  · Orders to ship: #1015 was held by the rules; open it, compare the rates and book it by hand
  · Shipments: every awb with its tracking link, which opens the shopper's tracking page (${appUrl}/track/…); select shipments to Print labels, or Print manifest for a pickup
  · Orders (Shopify's own): a booked order's page has Print → Dakiya shipping label
  · Needs attention: the parcel that was not delivered and the one returning to the warehouse
  · Storefront: turn the delivery estimate on, then try a PIN code on the shop's product page (${store.productUrl})
Ctrl-C stops Dakiya. The next \`npm run demo\` continues from here; \`npm run demo -- --no-journey\` only serves the admin.`
    : ""
}`);

async function playTheDay(): Promise<void> {
  const { createJourneyView, JourneyError, observeOrders, playJourney } = await import("./journey");
  const { describeError } = await import("../app/logging.server");
  const { courierClientFor, sandboxCredentialsFor } = await import("../app/settings/shop-settings.server");
  const { enqueue } = await import("../app/jobs/job-queue.server");
  const view = createJourneyView(process.stdout, 0);
  closeJourneyView = () => view.close();
  console.log("A merchant's day with Dakiya (skip it with `npm run demo -- --no-journey`):");
  try {
    const outcome = await playJourney({
      appUrl,
      app,
      simulator: store.simulator,
      shop: store.shop,
      courier: courierClientFor(sandboxCredentialsFor(store.shop)),
      observe: (orderGids) => observeOrders(store.shop, orderGids),
      requestTrackingSweep: async () => void (await enqueue("tracking-sweep", {})),
      view,
      documentsDir,
    });
    view.close();
    const seconds = Math.round(performance.now() / 1000);
    console.log(
      outcome.done === outcome.total
        ? `\n✓ Every order is where the day leaves it: ${outcome.done} of ${outcome.total}, ${seconds} s after start.\n`
        : `\n✗ ${outcome.total - outcome.done} of ${outcome.total} orders are not where the day should leave them: ${outcome.offCourse} went elsewhere (marked ✗)${outcome.unfinished.length ? `, still on the way: ${outcome.unfinished.join(", ")}` : ""}. The admin shows each.\n`,
    );
    if (outcome.documents.length > 0) console.log(`The day's NDR instructions for the courier, and its labels and pickup manifests ready to print, are in ${documentsDir}:\n${outcome.documents.map((file) => `  · ${path.basename(file)}`).join("\n")}\n`);
  } catch (error) {
    view.close();
    if (stopping) return;
    // Only the journey's own messages are printed whole: another error's message may quote a row (app/logging.server.ts).
    console.log(`\n✗ The day stopped: ${error instanceof JourneyError ? error.message : describeError(error)}. The admin is still served.\n`);
  }
}
