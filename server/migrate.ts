import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

/**
 * Applies pending Prisma migrations (prisma/migrations/<name>/migration.sql) in name order, each in its own
 * transaction, and records them in Prisma's own `_prisma_migrations` table, exactly as `prisma migrate deploy`
 * does — which cannot run through the pg adapter on Prisma 6.19 (prisma/orm#27403). Because the table is
 * Prisma's, `prisma migrate status` and `deploy` take over unchanged once that is fixed.
 *
 * Several instances starting together take the same advisory lock Prisma takes, so each migration is applied
 * once; the others wait, then find nothing pending.
 */

export const MIGRATIONS_DIR = path.resolve("prisma", "migrations");
// Prisma Migrate's own advisory lock key.
const MIGRATE_LOCK_KEY = 72707369;

const CREATE_MIGRATIONS_TABLE = `
  CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"            VARCHAR(64) NOT NULL,
    "finished_at"         TIMESTAMPTZ,
    "migration_name"      VARCHAR(255) NOT NULL,
    "logs"                TEXT,
    "rolled_back_at"      TIMESTAMPTZ,
    "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

export interface MigrationReport {
  applied: string[];
  /** Applied earlier, but the file changed since: reported, never re-run (Prisma warns the same way). */
  modified: string[];
}

export async function applyMigrations(databaseUrl: string, dir = MIGRATIONS_DIR): Promise<MigrationReport> {
  const migrations = listMigrations(dir);
  const client = new pg.Client({ connectionString: databaseUrl });
  // A connection PostgreSQL drops between statements would otherwise be an uncaught 'error' event: the next
  // statement fails instead, and the start reports which migration it was.
  client.on("error", () => undefined);
  await client.connect();
  const report: MigrationReport = { applied: [], modified: [] };
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATE_LOCK_KEY]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`,
    );
    const failed = rows.find((row) => row.finished_at === null && row.rolled_back_at === null);
    if (failed) {
      throw new Error(`Migration ${failed.migration_name} was started but never finished; resolve it (prisma migrate resolve) before starting Dakiya`);
    }
    const done = new Map(rows.filter((row) => row.finished_at !== null && row.rolled_back_at === null).map((row) => [row.migration_name, row.checksum]));
    for (const migration of migrations) {
      const checksum = done.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) report.modified.push(migration.name);
        continue;
      }
      const id = randomUUID();
      try {
        await client.query("BEGIN");
        await client.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`, [id, migration.checksum, migration.name]);
        await client.query(migration.sql);
        await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw new Error(`Migration ${migration.name} failed and was rolled back: ${(error as Error).message}`);
      }
      report.applied.push(migration.name);
    }
    return report;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATE_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}
