import { copyFileSync, existsSync } from "node:fs";
import path from "node:path";

// One SQLite file per worker, copied from the migrated template, so workers never contend.
const workerDb = path.resolve(".test-db", `worker-${process.env.VITEST_POOL_ID ?? "0"}.db`);
if (!existsSync(workerDb)) copyFileSync(path.resolve(".test-db", "template.db"), workerDb);
process.env.DATABASE_URL = `file:${workerDb}`;

// The app books with the embedded courier service at COURIER_SANDBOX_URL; each worker serves its own.
process.env.COURIER_SANDBOX_URL = `http://127.0.0.1:${41000 + Number(process.env.VITEST_POOL_ID ?? "0")}`;
