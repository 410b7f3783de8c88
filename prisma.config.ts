import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";

// The JS engine drives Prisma's CLI through the same pg adapter the app uses, so no Rust engine is ever
// downloaded. Migrations are applied by the app itself (server/migrate.ts): `prisma migrate deploy` through
// the adapter fails on Prisma 6.19 (prisma/orm#27403). `prisma migrate diff` between datamodels works offline.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL ?? "postgresql://localhost/dakiya" });
  },
});
