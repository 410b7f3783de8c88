import { createDatabase } from "./database";

// One database per worker, copied from the migrated template, so workers never contend.
const worker = process.env.VITEST_POOL_ID ?? "0";
process.env.DATABASE_URL = await createDatabase(`dakiya_worker_${worker}`);

// The app books with the embedded courier service at COURIER_SANDBOX_URL; each worker serves its own.
process.env.COURIER_SANDBOX_URL = `http://127.0.0.1:${41000 + Number(worker)}`;
