import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded-postgres";
import { applyMigrations, type MigrationReport } from "./migrate";

export interface OpenDatabase {
  url: string;
  /** The embedded server, when this process started or joined one. */
  embedded: EmbeddedPostgres | null;
  migrations: MigrationReport;
  /** Stops the embedded server if this process started it; a configured DATABASE_URL is left alone. */
  close(): Promise<void>;
}

/**
 * The database of this process: DATABASE_URL when set, else the embedded PostgreSQL in EMBEDDED_DATABASE_DIR
 * (started, or joined when another Dakiya process already runs it). Pending migrations are applied, and
 * DATABASE_URL is set for the modules loaded after this (app/db.server.ts reads it once).
 */
export async function openDatabase(env: { DATABASE_URL?: string; EMBEDDED_DATABASE_DIR: string }): Promise<OpenDatabase> {
  const embedded = env.DATABASE_URL ? null : await startEmbeddedPostgres({ dataDir: env.EMBEDDED_DATABASE_DIR });
  const url = env.DATABASE_URL ?? embedded!.url;
  try {
    const migrations = await applyMigrations(url);
    process.env.DATABASE_URL = url;
    return { url, embedded, migrations, close: () => embedded?.stop() ?? Promise.resolve() };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}

export function describeDatabase(database: OpenDatabase): string {
  const applied = database.migrations.applied.length > 0 ? `, applied ${database.migrations.applied.join(", ")}` : "";
  const where = database.embedded
    ? `embedded PostgreSQL on 127.0.0.1:${database.embedded.port} (data in ${database.embedded.dataDir}${database.embedded.owned ? "" : ", shared with another Dakiya process"})`
    : `PostgreSQL at ${new URL(database.url).host}`;
  return `${where}${applied}`;
}
