import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaClient } from "@prisma/client";
import { getConfig } from "./config.server";

declare global {
  // Remix's dev server re-evaluates modules; one client per process keeps SQLite connections bounded.
  var __dakiyaPrisma: PrismaClient | undefined;
}

function createPrismaClient(): PrismaClient {
  const config = getConfig();
  const adapter = new PrismaLibSQL({ url: config.DATABASE_URL, authToken: config.DATABASE_AUTH_TOKEN });
  return new PrismaClient({ adapter });
}

const prisma = globalThis.__dakiyaPrisma ?? createPrismaClient();
globalThis.__dakiyaPrisma = prisma;

export default prisma;
