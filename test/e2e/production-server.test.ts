import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../support/database";
import { npmStart as startServer, waitForHealth, waitForOutput, type StartedServer } from "../support/npm-start";
import { productionBuild } from "../support/production-build";

const basePort = 3950 + Number(process.env.VITEST_POOL_ID ?? 0) * 10;
let running: StartedServer | undefined;

function npmStart(env: Record<string, string>) {
  running = startServer(env);
  return running;
}

beforeAll(async () => {
  await productionBuild();
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** An empty database on the suite's PostgreSQL: npm start must migrate it. */
const freshDatabase = (name: string) => createDatabase(`${name}_${process.env.VITEST_POOL_ID ?? 0}_${Date.now()}`, { empty: true });

describe("npm start on the production build", () => {
  it("migrates a fresh database and serves with only DATABASE_URL and PORT set", async () => {
    const port = basePort;
    const server = npmStart({ DATABASE_URL: await freshDatabase("start"), PORT: String(port) });
    const health = await waitForHealth(port, server.output);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok", database: "reachable" });
    const openapi = await fetch(`http://localhost:${port}/v1/openapi.json`);
    expect(openapi.status).toBe(200);
    const rates = await fetch(`http://localhost:${port}/v1/calculate-rate`, {
      method: "POST",
      headers: { "X-Api-Key": "sandbox_api_key", "X-Secret-Key": "sandbox_secret_key", "Content-Type": "application/json" },
      body: JSON.stringify({ shipment_type: "forward", payment_mode: "cod", pickup: 421302, delivery: 110001, length: 10, breadth: 10, height: 10, actual_weight: 1, amount: 500 }),
    });
    expect(((await rates.json()) as { total_logistics: number }).total_logistics).toBe(4);
  }, 60_000);

  it("with no DATABASE_URL starts its own PostgreSQL, reuses its data on the next start, and stops it on SIGTERM", async () => {
    const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), "dakiya-embedded-")), "postgres");
    try {
      const port = basePort + 3;
      const first = npmStart({ EMBEDDED_DATABASE_DIR: dataDir, PORT: String(port) });
      expect((await waitForHealth(port, first.output)).status).toBe(200);
      expect(await waitForOutput(/Dakiya is serving/, first.output)).toMatch(/database: embedded PostgreSQL on 127\.0\.0\.1:\d+ .*applied \d+_baseline/);
      const booked = await fetch(`http://localhost:${port}/v1/get-warehouse/1`, { headers: { "X-Api-Key": "sandbox_api_key", "X-Secret-Key": "sandbox_secret_key" } });
      expect(booked.status).toBe(200);

      process.kill(-first.child.pid!, "SIGTERM");
      await first.exited;
      // A clean shutdown removes the server's pid file.
      for (let waited = 0; existsSync(path.join(dataDir, "postmaster.pid")) && waited < 10_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(existsSync(path.join(dataDir, "postmaster.pid"))).toBe(false);
      expect(first.output()).toContain("SIGTERM: stopping");

      const second = npmStart({ EMBEDDED_DATABASE_DIR: dataDir, PORT: String(port) });
      expect((await waitForHealth(port, second.output)).status).toBe(200);
      expect(await waitForOutput(/Dakiya is serving/, second.output)).toMatch(/database: embedded PostgreSQL/);
      expect(second.output()).not.toMatch(/applied/);
    } finally {
      rmSync(path.dirname(dataDir), { recursive: true, force: true });
    }
  }, 90_000);

  it("answers 404 under /v1 when the embedded courier service is switched off", async () => {
    const port = basePort + 1;
    const server = npmStart({ DATABASE_URL: await freshDatabase("off"), PORT: String(port), COURIER_SERVICE_ENABLED: "false" });
    expect((await waitForHealth(port, server.output)).status).toBe(200);
    const response = await fetch(`http://localhost:${port}/v1/get-warehouse/1`, { headers: { "X-Api-Key": "sandbox_api_key", "X-Secret-Key": "sandbox_secret_key" } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ success: false, message: "The embedded courier service is switched off", errors: [] });
  }, 60_000);

  it("stops with one line naming a malformed variable", async () => {
    const server = npmStart({ DATABASE_URL: await freshDatabase("bad"), PORT: String(basePort + 2), COURIER_TIMEOUT_MS: "soon" });
    expect(await server.exited).not.toBe(0);
    const lines = server.output().split("\n").filter((line) => line.startsWith("Invalid configuration"));
    expect(lines).toEqual(['Invalid configuration: COURIER_TIMEOUT_MS must be a number of milliseconds (got "soon")']);
  }, 60_000);
});
