import { rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../server/embedded-postgres";
import { applyMigrations } from "../../server/migrate";

export const TEST_DB_DIR = path.resolve(".test-db");
export const TEMPLATE_DATABASE = "dakiya_template";

/**
 * One PostgreSQL for the whole suite — the same embedded server the app starts — with a template database
 * migrated by the app's own migrator (the migrator closes its connection: nobody may stay connected to a
 * template that is copied). Each worker copies the template (test/support/worker-database.ts).
 */
export default async function setup(project: TestProject) {
  rmSync(TEST_DB_DIR, { recursive: true, force: true });
  const server = await startEmbeddedPostgres({ dataDir: path.join(TEST_DB_DIR, "postgres"), database: TEMPLATE_DATABASE, settings: { max_connections: "300", fsync: "off", synchronous_commit: "off" } });
  await applyMigrations(server.url);
  const admin = new URL(server.url);
  admin.pathname = "/postgres";
  project.provide("postgresAdminUrl", admin.toString());
  return async () => {
    await server.stop();
  };
}
