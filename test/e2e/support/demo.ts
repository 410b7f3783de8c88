import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { createDatabase } from "../../support/database";
import { TEST_DB_DIR } from "../../support/global-setup";
import { productionBuild } from "../../support/production-build";

export interface Demo {
  /** The local Shopify admin with Dakiya framed in it. */
  adminUrl: string;
  /** Where the app itself serves (its tracking pages, its courier sandbox under /v1). */
  appUrl: string;
  /** The demo's database, for a test to wait on the app's background work. */
  databaseUrl: string;
  /** Where the day's end writes its labels and manifests (DEMO_OUTPUT_DIR). */
  documentsDir: string;
  /** Everything the demo printed so far: the first place to look when a page answers 500. */
  output(): string;
  stop(): Promise<void>;
}

export interface DemoOptions {
  /** Names the demo's database and keeps its ports apart from other files' demos in the same worker. */
  name: string;
  /** Ready orders added after the seed (store/seed.ts `readyOrders`), e.g. to fill a second page of orders. */
  extraOrders?: number;
  /** The store's API bucket restore rate in points a second (default: the Standard plan's 100). */
  restoreRate?: number;
  /** The app's port for pool 0; each pool adds 10 (default 3901). A file of its own picks a range no other file uses. */
  basePort?: number;
  /**
   * Plays the merchant's day first (store/journey.ts), as `npm run demo` does, and keeps the store's shop in a file
   * beside the database; `startDemo` returns once the day is over and the admin is served. Without it the demo only
   * serves the admin (`--no-journey`), on a store in memory.
   */
  journey?: boolean;
  /** Starts on the database and store a previous demo of the same name left (a second `npm run demo`). */
  resume?: boolean;
  /** How long the demo may take to print the admin's address (default 180 s, for a slow machine busy with other suites; the day takes longer). */
  readyTimeoutMs?: number;
}

/**
 * What `npm run demo` runs after its build (the node arguments of its script in package.json), so a test starts the
 * demo exactly as the script does.
 */
export function demoNodeArguments(): string[] {
  const script = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts.demo ?? "";
  const match = /^npm run build && node (.+)$/.exec(script);
  if (!match) throw new Error(`package.json's demo script is no longer "npm run build && node …": ${script}`);
  return match[1]!.split(/\s+/);
}

/**
 * `npm run demo`'s code (`store/demo.ts`, bundled into build/processes/demo.js) on the production build: the app, a fresh database copied from the
 * suite's migrated template, and the local Shopify store with its admin shell, in a process of its own.
 */
export async function startDemo({ name, extraOrders = 0, restoreRate, basePort = 3901, journey = false, resume = false, readyTimeoutMs = 180_000 }: DemoOptions): Promise<Demo> {
  await productionBuild();
  const worker = Number(process.env.VITEST_POOL_ID ?? 0);
  const appPort = basePort + worker * 10;
  const storePort = appPort + 1;
  const database = await createDatabase(`${name}_${worker}`, { replace: !resume });
  const storeState = path.join(TEST_DB_DIR, `${name}_${worker}-store.json`);
  const documentsDir = path.join(TEST_DB_DIR, `${name}_${worker}-documents`);
  if (!resume) {
    rmSync(storeState, { force: true });
    rmSync(documentsDir, { recursive: true, force: true });
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Not production: the Shopify library's requests are redirected to the local store only outside production.
    NODE_ENV: "development",
    DATABASE_URL: database,
    PORT: String(appPort),
    STORE_PORT: String(storePort),
    SHOPIFY_APP_URL: `http://localhost:${appPort}`,
    DEMO_EXTRA_ORDERS: String(extraOrders),
    DEMO_STORE_STATE: journey ? storeState : "",
    DEMO_OUTPUT_DIR: documentsDir,
    ...(restoreRate ? { STORE_RESTORE_RATE: String(restoreRate) } : {}),
  };
  // The demo's own local defaults, not the unit tests' values: among them the courier's 8 s timeout, where the unit
  // tests' 2 s made a busy machine's demo stop its day on a courier call that was slow, not lost.
  for (const inherited of ["COURIER_SANDBOX_URL", "COURIER_TIMEOUT_MS", "SANDBOX_API_KEY", "SANDBOX_SECRET_KEY", "SHOPIFY_API_KEY", "SHOPIFY_API_SECRET"]) delete env[inherited];

  const child: ChildProcess = spawn(process.execPath, [...demoNodeArguments(), ...(journey ? [] : ["--no-journey"])], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The demo did not start within ${readyTimeoutMs / 1000} s:\n${output}`)), readyTimeoutMs);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Open the Shopify admin")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", collect);
    child.stderr!.on("data", collect);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`The demo exited with ${code}:\n${output}`));
    });
  });

  return {
    adminUrl: `http://localhost:${storePort}/admin`,
    appUrl: `http://localhost:${appPort}`,
    databaseUrl: database,
    documentsDir,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
