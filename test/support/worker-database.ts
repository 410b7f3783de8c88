import { isMainThread } from "node:worker_threads";
import { createDatabase } from "./database";

// One database per worker, copied from the migrated template, so workers never contend. Threads and processes are
// numbered apart (vitest.config.ts runs a pool of each side by side, each counting its workers from 1).
const worker = Number(process.env.VITEST_POOL_ID ?? 0) + (isMainThread ? 10 : 0);
process.env.DATABASE_URL = await createDatabase(`dakiya_worker_${worker}`);

// The app books with the embedded courier service at COURIER_SANDBOX_URL; each worker serves its own.
process.env.COURIER_SANDBOX_URL = `http://127.0.0.1:${41000 + worker}`;
