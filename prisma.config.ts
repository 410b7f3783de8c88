import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaLibSQL } from "@prisma/adapter-libsql";

// The JS engine drives migrations through the same libSQL adapter the app uses,
// so no Rust engine is ever downloaded. DATABASE_URL may be a SQLite file or a libSQL server.
const databaseUrl = process.env.DATABASE_URL ?? "file:./prisma/dev.db";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    return new PrismaLibSQL({ url: databaseUrl, authToken: process.env.DATABASE_AUTH_TOKEN });
  },
});
