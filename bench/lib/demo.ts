import { existsSync } from "node:fs";
import type { BenchContext } from "./context";
import { freePort } from "../../server/free-port";
import { startChild, type ChildServer } from "./processes";
import type { Section } from "./results";
import { processArguments } from "../../scripts/build-server";

/** Debian's Chromium, as the browser tests use it: never a downloaded browser. */
export const CHROMIUM = "/usr/bin/chromium";
/** Its flags for a measured load: nothing of its own in the background beside the page. */
export const CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"];

/** Without Chromium a browser measurement is reported as not measured, saying how to install it: true when missing. */
export function reportedMissingChromium(result: Section): boolean {
  if (existsSync(CHROMIUM)) return false;
  result.rows.push({ name: "all pages", result: "not measured", reference: "—", target: `Chromium at ${CHROMIUM}`, verdict: "FAIL" });
  result.notes.push("Install Debian's Chromium: apt-get install -y chromium.");
  return true;
}

/**
 * The demo as `npm run demo -- --no-journey` runs it (store/demo.ts bundled into build/processes/demo.js: the app's production build and the local
 * Shopify store with its admin and storefront), on a scratch database of its own (`dakiya_bench_<name>`), for the
 * measurements in a browser. The merchant's day is left out: it would book the seeded orders and keep the app busy.
 */
export async function startDemo(context: BenchContext, name: string): Promise<{ demo: ChildServer; storeUrl: string; note?: string }> {
  const scratch = await context.database.scratchDatabase(`dakiya_bench_${name}`);
  const appPort = await freePort();
  const storePort = await freePort();
  context.log(`starting the demo (build/processes/demo.js): app on ${appPort}, store on ${storePort}`);
  const demo = await startChild({
    command: process.execPath,
    args: [...processArguments("demo"), "--no-journey"],
    // The store simulator refuses to run in production; the app is still the production build.
    env: { NODE_ENV: "development", DATABASE_URL: scratch.url, PORT: String(appPort), STORE_PORT: String(storePort), SHOPIFY_APP_URL: `http://localhost:${appPort}` },
    readyLine: /Open the Shopify admin/,
    url: `http://localhost:${appPort}`,
  });
  return { demo, storeUrl: `http://localhost:${storePort}`, note: scratch.note };
}
