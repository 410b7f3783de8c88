import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { npmStart, pidListeningOn, waitForHealth, waitForOutput, type StartedServer } from "../support/npm-start";

/*
 * Stopping Dakiya as an operator does: Ctrl-C in the terminal (SIGINT to every process of the foreground group,
 * the embedded PostgreSQL's too) and SIGTERM to the app alone (a process manager). Workers and pools stop in
 * order, the database it started shuts down cleanly, and the log ends with a line, not a stack trace.
 */

const port = 3170 + Number(process.env.VITEST_POOL_ID ?? 0) * 5;
let running: StartedServer | undefined;
let dataDir: string | undefined;

beforeAll(() => {
  if (!existsSync("build/index.js")) throw new Error("These tests run the production build: npm run build first");
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
  if (dataDir) rmSync(path.dirname(dataDir), { recursive: true, force: true });
  dataDir = undefined;
});

async function startWithEmbeddedDatabase(): Promise<StartedServer> {
  dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), "dakiya-shutdown-")), "postgres");
  running = npmStart({ EMBEDDED_DATABASE_DIR: dataDir, PORT: String(port), WORKER_CONCURRENCY: "2" });
  expect((await waitForHealth(port, running.output, 60_000)).status).toBe(200);
  await waitForOutput(/Dakiya is serving/, running.output, 30_000);
  return running;
}

async function expectCleanStop(server: StartedServer, signal: string): Promise<void> {
  const code = await server.exited;
  const output = server.output();
  // npm itself ends by the terminal's SIGINT (no exit code); the app under it exits 0.
  if (signal === "SIGTERM") expect(code).toBe(0);
  expect(output).toContain(`${signal}: stopping`);
  // No stack trace, no unheard error: PostgreSQL's "terminating connection" (57P01) included.
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toMatch(/Unhandled|uncaught|57P01|terminating connection/i);
  for (let waited = 0; existsSync(path.join(dataDir!, "postmaster.pid")) && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(existsSync(path.join(dataDir!, "postmaster.pid"))).toBe(false);
}

describe("stopping npm start", () => {
  it("Ctrl-C (SIGINT to the whole terminal group) stops workers, pools and the embedded PostgreSQL cleanly", { timeout: 120_000 }, async () => {
    const server = await startWithEmbeddedDatabase();
    // Let the workers' pollers and the queue's LISTEN connection settle in.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    process.kill(-server.child.pid!, "SIGINT");
    await expectCleanStop(server, "SIGINT");
  });

  it("SIGTERM to the app alone stops it and the PostgreSQL it started", { timeout: 120_000 }, async () => {
    const server = await startWithEmbeddedDatabase();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    process.kill(pidListeningOn(port), "SIGTERM");
    await expectCleanStop(server, "SIGTERM");
  });
});
