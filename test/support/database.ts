import pg from "pg";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** The suite's PostgreSQL, connected to its maintenance database (test/support/global-setup.ts). */
    postgresAdminUrl: string;
  }
}

import { TEMPLATE_DATABASE } from "./global-setup";

export function databaseUrl(name: string, adminUrl = inject("postgresAdminUrl")): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A database of its own on the suite's PostgreSQL: a copy of the migrated template (fast), or empty when a test
 * needs to see migrations applied. An existing one of that name is kept (a worker's database spans its files).
 */
export async function createDatabase(name: string, { empty = false, replace = false } = {}, adminUrl = inject("postgresAdminUrl")): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    if (replace) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (rowCount === 0) await client.query(`CREATE DATABASE "${name}"${empty ? "" : ` TEMPLATE "${TEMPLATE_DATABASE}"`}`);
  } finally {
    await client.end();
  }
  return databaseUrl(name, adminUrl);
}
