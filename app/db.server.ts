import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import { getConfig } from "./config.server";

declare global {
  // Remix's dev server re-evaluates modules, and the server process loads app modules both from the build and
  // from source (its workers): one client per process keeps the connection pool bounded.
  var __dakiyaPrisma: PrismaClient | undefined;
}

/**
 * The database of this process. DATABASE_URL is set in the environment before this module is imported, by
 * whoever started the process: server/database.ts (the configured PostgreSQL, or the embedded one it starts)
 * or the test set-up — so it is read from the environment, not from the configuration parsed at start.
 */
export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start Dakiya with `npm start` (or `npm run demo`), which starts the embedded PostgreSQL when none is configured");
  return url;
}

function createPrismaClient(): PrismaClient {
  const adapter = new PrismaPg({ connectionString: databaseUrl(), max: getConfig().DATABASE_POOL_SIZE });
  return new PrismaClient({ adapter });
}

const prisma = globalThis.__dakiyaPrisma ?? createPrismaClient();
globalThis.__dakiyaPrisma = prisma;

export default prisma;
