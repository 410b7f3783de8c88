import path from "node:path";
import { pathToFileURL } from "node:url";
import { broadcastDevReady, type ServerBuild } from "@remix-run/node";
import { getConfig } from "../app/config.server";
import { describeDatabase, openDatabase } from "./database";
import { startAppServer } from "./http";

/**
 * `npm start` (and the server half of `npm run dev`): the configured PostgreSQL or the embedded one, pending
 * migrations, then the production build of the app on PORT and, unless WORKER_CONCURRENCY is 0, background job
 * workers. SIGINT/SIGTERM stop it in order: no new requests, in-flight requests and jobs finish, then the
 * database it started is shut down cleanly.
 */
// As remix-serve does: an operator's `npm start` is production unless told otherwise.
process.env.NODE_ENV ??= "production";
const config = getConfig();
const database = await openDatabase(config).catch((error: Error) => {
  console.error(`Dakiya cannot open its database: ${error.message}`);
  process.exit(1);
});
// Only now: the app modules read DATABASE_URL when they load.
const { startBackgroundWork, stopBackgroundWork } = await import("./background");
const build = (await import(pathToFileURL(path.resolve("build/index.js")).href)) as ServerBuild;
const server = await startAppServer({ build, mode: config.NODE_ENV, port: config.PORT, trustedProxies: config.TRUSTED_PROXY_ADDRESSES });
if (config.WORKER_CONCURRENCY > 0) await startBackgroundWork(config.WORKER_CONCURRENCY);
const workers = config.WORKER_CONCURRENCY > 0 ? `${config.WORKER_CONCURRENCY} background jobs at once` : "no background jobs (WORKER_CONCURRENCY=0)";
console.info(`Dakiya is serving on ${config.SHOPIFY_APP_URL} (port ${config.PORT}), ${workers}; database: ${describeDatabase(database)}`);
if (config.NODE_ENV === "development") await broadcastDevReady(build);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.info(`${signal}: stopping`);
  await server.close();
  await stopBackgroundWork();
  await database.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
