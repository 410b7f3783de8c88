import { getConfig } from "../app/config.server";
import { describeDatabase, openDatabase } from "./database";

/**
 * `npm run worker`: a process that only runs background jobs, beside any number of app processes on the same
 * PostgreSQL. WORKER_CONCURRENCY sets how many jobs it runs at once (8 when unset).
 */
process.env.NODE_ENV ??= "production";
const config = getConfig();
const database = await openDatabase(config).catch((error: Error) => {
  console.error(`The worker cannot open its database: ${error.message}`);
  process.exit(1);
});
// Only now: the app modules read DATABASE_URL when they load.
const { startBackgroundWork, stopBackgroundWork } = await import("./background");
const concurrency = config.WORKER_CONCURRENCY || 8;
await startBackgroundWork(concurrency);
console.info(`Dakiya worker running ${concurrency} jobs at once; database: ${describeDatabase(database)}`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.info(`${signal}: finishing running jobs`);
  await stopBackgroundWork();
  await database.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
