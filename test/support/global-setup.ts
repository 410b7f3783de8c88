import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../server/embedded-postgres";
import { applyMigrations } from "../../server/migrate";

const RUNS_DIR = path.resolve(".test-db");
/**
 * The run's own directory, so two runs in one checkout (a file run from an editor while the suite runs) never share
 * a server; set by the setup, read by the test workers it starts.
 */
export const TEST_DB_DIR = (process.env.DAKIYA_TEST_RUN_DIR ??= path.join(RUNS_DIR, String(process.pid)));
export const TEMPLATE_DATABASE = "dakiya_template";

/**
 * The suite's server, started by the first project that sets up and stopped when the last one is done. Vitest loads
 * this file once per project, each copy with its own module state, so the server is kept on the process itself.
 */
type SharedServer = { admin: Promise<{ url: string; stop: () => Promise<void> }>; users: number };
const holder = globalThis as typeof globalThis & { dakiyaTestServer?: SharedServer | null };

/**
 * One PostgreSQL for the whole suite — the same embedded server the app starts — with a template database
 * migrated by the app's own migrator (the migrator closes its connection: nobody may stay connected to a
 * template that is copied). Each worker copies the template (test/support/worker-database.ts). Every project of the
 * app's tests (vitest.config.ts) sets up with this file; they share the one server.
 */
export default async function setup(project: TestProject) {
  const shared = (holder.dakiyaTestServer ??= { admin: startServer(), users: 0 });
  shared.users += 1;
  const { url } = await shared.admin;
  project.provide("postgresAdminUrl", url);
  return async () => {
    if (--shared.users > 0) return;
    holder.dakiyaTestServer = null;
    const { stop } = await shared.admin;
    await stop();
  };
}

async function startServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  removeFinishedRuns();
  rmSync(TEST_DB_DIR, { recursive: true, force: true });
  const server = await startEmbeddedPostgres({ dataDir: path.join(TEST_DB_DIR, "postgres"), database: TEMPLATE_DATABASE, settings: { max_connections: "300", fsync: "off", synchronous_commit: "off" } });
  await applyMigrations(server.url);
  const admin = new URL(server.url);
  admin.pathname = "/postgres";
  return {
    url: admin.toString(),
    async stop() {
      await server.stop();
      rmSync(TEST_DB_DIR, { recursive: true, force: true });
    },
  };
}

/** What runs that were killed left behind: directories named by a process that is gone. */
function removeFinishedRuns(): void {
  if (!existsSync(RUNS_DIR)) return;
  for (const entry of readdirSync(RUNS_DIR)) {
    if (/^\d+$/.test(entry) && !isRunning(Number(entry))) rmSync(path.join(RUNS_DIR, entry), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
