import { chmodSync, cpSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { initialiseEmbeddedCluster } from "../../server/embedded-postgres";
import { TEST_DB_DIR } from "./global-setup";

/**
 * A data directory for an embedded PostgreSQL of a test's own, already initialised (initdb run, never started): a
 * copy of one cluster the run initialises the first time it is asked for, instead of an initdb per start. The app
 * starts, migrates and stops on it as on a directory it created itself. One test still starts on a truly empty
 * directory, where the app runs initdb itself (test/e2e/production-server.test.ts).
 */
export async function initialisedDataDir(prefix: string): Promise<string> {
  const template = path.join(TEST_DB_DIR, "initialised-cluster");
  await initialiseEmbeddedCluster(template);
  const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), prefix)), "postgres");
  cpSync(template, dataDir, { recursive: true });
  // PostgreSQL refuses a data directory others may read; the copy's mode follows the process's umask.
  chmodSync(dataDir, 0o700);
  return dataDir;
}
