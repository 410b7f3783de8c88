import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import { getConfig } from "./config.server";

declare global {
  // Remix's dev server re-evaluates modules, and the server process loads app modules both from the build and
  // from source (its workers): one client per process keeps the connection pool bounded.
  var __dakiyaPrisma: PrismaClient | undefined;
}

/**
 * DATABASE_URL is set before this module is imported by whoever started the process: server/database.ts
 * (the configured PostgreSQL, or the embedded one it starts) or the test set-up.
 */
function createPrismaClient(): PrismaClient {
  const config = getConfig();
  if (!config.DATABASE_URL) {
    throw new Error("DATABASE_URL is not set: start Dakiya with `npm start` (or `npm run demo`), which starts the embedded PostgreSQL when none is configured");
  }
  const adapter = new PrismaPg({ connectionString: config.DATABASE_URL, max: config.DATABASE_POOL_SIZE });
  return new PrismaClient({ adapter });
}

const prisma = globalThis.__dakiyaPrisma ?? createPrismaClient();
globalThis.__dakiyaPrisma = prisma;

export default prisma;
