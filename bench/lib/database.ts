import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "../../server/embedded-postgres";
import { applyMigrations } from "../../server/migrate";
import { fileSystemOf } from "./machine";

export interface BenchDatabase {
  /** The migrated database the app under test uses. */
  url: string;
  /** True when the bench started an embedded PostgreSQL of its own (in the scratch directory). */
  embedded: boolean;
  /** Its data directory (so its processes' CPU can be counted), or null for DATABASE_URL. */
  dataDir: string | null;
  version: string;
  settings: string;
  storage: string;
  /** A query on a short-lived connection of the bench's own (counts, floors). */
  query<T extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<T[]>;
  /**
   * Stops the embedded PostgreSQL (a fast shutdown: every connection dropped, open transactions rolled back) and
   * starts it again on the same port after `downMs`; null when the bench did not start the server (DATABASE_URL).
   * Resolves once it accepts connections again, with when it went down and came back (performance.now()).
   */
  restart: ((downMs: number) => Promise<{ stoppedAt: number; backAt: number }>) | null;
  /** A fresh, migrated database beside the main one (the pages' demo gets its own), or the main one if that cannot be had. */
  scratchDatabase(name: string): Promise<{ url: string; note?: string }>;
  close(): Promise<void>;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** DATABASE_URL when set (migrated, used as it is), else an embedded PostgreSQL in the scratch directory. */
export async function openBenchDatabase(scratch: string): Promise<BenchDatabase> {
  const configured = process.env.DATABASE_URL;
  let embedded = configured ? null : await startEmbeddedPostgres({ dataDir: path.join(scratch, "postgres") });
  const url = configured ?? embedded!.url;
  await applyMigrations(url);
  const facts = await withClient(url, async (client) => {
    const setting = async (name: string) => (await client.query<{ setting: string }>("SELECT current_setting($1) AS setting", [name])).rows[0]!.setting;
    const names = ["fsync", "synchronous_commit", "wal_sync_method", "shared_buffers", "max_connections"];
    // One client runs one query at a time (pg deprecates queuing them on it).
    const values: string[] = [];
    for (const name of names) values.push(`${name}=${await setting(name)}`);
    return { version: await setting("server_version"), settings: values.join(", ") };
  });
  const storage = embedded
    ? `embedded PostgreSQL started by the bench, data in ${embedded.dataDir} on ${fileSystemOf(embedded.dataDir)}`
    : `DATABASE_URL at ${new URL(url).host} (file system not known to the bench)`;

  return {
    url,
    embedded: embedded !== null,
    dataDir: embedded?.dataDir ?? null,
    ...facts,
    storage,
    query: (sql, values) => withClient(url, async (client) => (await client.query(sql, values)).rows),
    restart: embedded?.owned
      ? async (downMs) => {
          const { dataDir, port } = embedded!;
          const stoppingAt = performance.now();
          await embedded!.stop();
          const stoppedAt = performance.now();
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, downMs - (stoppedAt - stoppingAt))));
          embedded = await startEmbeddedPostgres({ dataDir, port });
          return { stoppedAt: stoppingAt, backAt: performance.now() };
        }
      : null,
    async scratchDatabase(name) {
      const target = new URL(url);
      target.pathname = `/${name}`;
      try {
        await withClient(url, async (client) => {
          await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
          await client.query(`CREATE DATABASE "${name}"`);
        });
        await applyMigrations(target.toString());
        return { url: target.toString() };
      } catch (error) {
        return { url, note: `could not create a scratch database (${(error as Error).message}); the demo used the benchmarked database` };
      }
    },
    close: async () => embedded?.stop(),
  };
}
