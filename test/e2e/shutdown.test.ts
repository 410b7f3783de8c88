import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { npmStart, pidListeningOn, waitForHealth, waitForOutput, type StartedServer } from "../support/npm-start";
import { initialisedDataDir } from "../support/initialised-cluster";
import { productionBuild } from "../support/production-build";
import { demoNodeArguments } from "./support/demo";

/*
 * Stopping Dakiya as an operator does: Ctrl-C in the terminal (SIGINT to every process of the foreground group,
 * the embedded PostgreSQL's too) and SIGTERM to the app alone (a process manager). Workers and pools stop in
 * order, the database it started shuts down cleanly, and the log ends with a line, not a stack trace. The same for
 * `npm run worker` and `npm run demo`; and a browser asking for a file that is not there is no stack in the log.
 */

const port = 3400 + Number(process.env.VITEST_POOL_ID ?? 0) * 10;
let running: StartedServer | undefined;
let dataDir: string | undefined;

beforeAll(async () => {
  await productionBuild();
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
  if (dataDir) rmSync(path.dirname(dataDir), { recursive: true, force: true });
  dataDir = undefined;
});

/** A request a browser makes on its own, for files no route serves. */
const STATIC_MISSES = ["/favicon.ico", "/apple-touch-icon.png", "/robots.txt", "/build/missing-chunk.js"];

/** Each miss a 404 that adds at most one line to the log, and no stack trace. */
async function expectQuiet404s(appPort: number, output: () => string): Promise<void> {
  const before = output().split("\n").length;
  for (const missing of STATIC_MISSES) {
    const response = await fetch(`http://localhost:${appPort}${missing}`, { headers: { Accept: "image/avif,image/webp,image/*,*/*;q=0.8" } });
    expect(response.status, missing).toBe(404);
    await response.arrayBuffer();
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  const added = output().split("\n").slice(before - 1).filter((line) => line.trim() !== "");
  expect(added.length).toBeLessThanOrEqual(STATIC_MISSES.length);
  expect(added.join("\n")).not.toMatch(/^\s+at |Error:/m);
}

async function startWithEmbeddedDatabase(): Promise<StartedServer> {
  dataDir = await initialisedDataDir("dakiya-shutdown-");
  running = npmStart({ EMBEDDED_DATABASE_DIR: dataDir, PORT: String(port), WORKER_CONCURRENCY: "2" });
  expect((await waitForHealth(port, running.output, 60_000)).status).toBe(200);
  await waitForOutput(/Dakiya is serving/, running.output, 30_000);
  return running;
}

/**
 * Until the job queue's LISTEN connection and its pollers are in the embedded PostgreSQL the process started (found
 * from its data directory's postmaster.pid and credentials): a stop from then on must stop them too.
 */
async function untilSettled(): Promise<void> {
  const { password } = JSON.parse(readFileSync(path.join(dataDir!, "dakiya-credentials.json"), "utf8")) as { password: string };
  const port = Number(readFileSync(path.join(dataDir!, "postmaster.pid"), "utf8").split("\n")[3]);
  const client = new pg.Client({ connectionString: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres` });
  await client.connect();
  try {
    for (const deadline = Date.now() + 30_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
      const { rows } = await client.query<{ listening: boolean; polled: boolean }>(
        `SELECT bool_or(query ILIKE 'LISTEN %') AS listening, bool_or(query ILIKE '%SKIP LOCKED%' OR query ILIKE '%active_group_count_map%') AS polled
           FROM pg_stat_activity WHERE application_name = 'dakiya-jobs'`,
      );
      if (rows[0]!.listening && rows[0]!.polled) return;
      if (Date.now() > deadline) throw new Error(`The job queue never listened and polled: ${JSON.stringify(rows[0])}`);
    }
  } finally {
    await client.end();
  }
}

async function expectCleanStop(server: StartedServer, signal: string, said = `${signal}: stopping`): Promise<void> {
  const code = await server.exited;
  const output = server.output();
  // npm itself ends by the terminal's SIGINT (no exit code); the app under it exits 0.
  if (signal === "SIGTERM") expect(code).toBe(0);
  expect(output).toContain(said);
  // No stack trace, no unheard error: PostgreSQL's "terminating connection" (57P01) included.
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toMatch(/Unhandled|uncaught|57P01|terminating connection/i);
  // The terminal's own process (npm, tsx) may end before the app under it has stopped everything: on a machine busy
  // with other suites, PostgreSQL's shutdown checkpoint alone can take seconds.
  for (let waited = 0; existsSync(path.join(dataDir!, "postmaster.pid")) && waited < 30_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(existsSync(path.join(dataDir!, "postmaster.pid"))).toBe(false);
}

describe("stopping npm start", () => {
  it("Ctrl-C (SIGINT to the whole terminal group) stops workers, pools and the embedded PostgreSQL cleanly", { timeout: 120_000 }, async () => {
    const server = await startWithEmbeddedDatabase();
    await expectQuiet404s(port, server.output);
    await untilSettled();
    process.kill(-server.child.pid!, "SIGINT");
    await expectCleanStop(server, "SIGINT");
  });

  it("Ctrl-C while the app is too busy to notice at once still stops it cleanly, never a kill that leaves PostgreSQL running", { timeout: 120_000 }, async () => {
    const server = await startWithEmbeddedDatabase();
    await untilSettled();
    // A process that is not scheduled for a moment (a busy machine, a long task on its event loop) hears the signal
    // late: nothing between the terminal and the app may take that as a hang and kill it.
    const app = pidListeningOn(port);
    process.kill(app, "SIGSTOP");
    process.kill(-server.child.pid!, "SIGINT");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    process.kill(app, "SIGCONT");
    await expectCleanStop(server, "SIGINT");
  });

  it("SIGTERM to the app alone stops it and the PostgreSQL it started", { timeout: 120_000 }, async () => {
    const server = await startWithEmbeddedDatabase();
    await untilSettled();
    process.kill(pidListeningOn(port), "SIGTERM");
    await expectCleanStop(server, "SIGTERM");
  });
});

/** A process of its own, in a group of its own as a terminal starts it, on a fresh embedded PostgreSQL. */
async function startInTerminal(command: string, args: string[], env: Record<string, string>): Promise<StartedServer> {
  dataDir = await initialisedDataDir("dakiya-shutdown-");
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(NODE_ENV|PORT|DATABASE_|EMBEDDED_DATABASE_DIR|SHOPIFY_|COURIER_|SANDBOX_|WORKER_|STORE_|DEMO_)/.test(name)));
  const child = spawn(command, args, { env: { ...inherited, EMBEDDED_DATABASE_DIR: dataDir, ...env } as Record<string, string> as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  running = {
    child,
    exited,
    output: () => output,
    async stop() {
      if (child.pid && child.exitCode === null) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          return;
        }
        await exited;
      }
    },
  };
  return running;
}

describe("stopping the worker and the demo", () => {
  it("Ctrl-C on npm run worker lets its jobs finish and stops the embedded PostgreSQL, with no stack trace", { timeout: 120_000 }, async () => {
    const worker = await startInTerminal("npm", ["run", "worker"], { WORKER_CONCURRENCY: "2" });
    await waitForOutput(/Dakiya worker running 2 jobs at once/, worker.output, 60_000);
    await untilSettled();
    process.kill(-worker.child.pid!, "SIGINT");
    await expectCleanStop(worker, "SIGINT", "SIGINT: finishing running jobs");
  });

  it("Ctrl-C on the demo stops the app, its jobs, the local store and the embedded PostgreSQL, with no stack trace; a missing file is one line", { timeout: 120_000 }, async () => {
    // `npm run demo` is the build, then this (as its script runs it): the part that runs until Ctrl-C.
    const demoPort = port + 3;
    const demo = await startInTerminal(process.execPath, [...demoNodeArguments(), "--no-journey"], {
      PORT: String(demoPort),
      STORE_PORT: String(demoPort + 1),
      SHOPIFY_APP_URL: `http://localhost:${demoPort}`,
      DEMO_STORE_STATE: "",
    });
    await waitForOutput(/Open the Shopify admin/, demo.output, 60_000);
    await expectQuiet404s(demoPort, demo.output);
    await untilSettled();
    process.kill(-demo.child.pid!, "SIGINT");
    await expectCleanStop(demo, "SIGINT");
  });
});
