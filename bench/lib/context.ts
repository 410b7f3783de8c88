import { LOCAL_DEFAULTS } from "../../app/config.server";
import type { BenchDatabase } from "./database";
import { cpuMsOf, sampleCpu } from "./cpu";
import { startLoadGenerator, type LoadGenerator, type LoadSummary } from "./load-client";
import type { RequestKind } from "../load/requests";
import { freePort } from "../../server/free-port";
import { startChild, type ChildServer } from "./processes";
import { processArguments } from "../../scripts/build-server";

/** Every measurement's view of the run: the database, the app server, the load generator, shared floors. */
export interface BenchContext {
  database: BenchDatabase;
  scratch: string;
  /** A short id of this bench run, in every id it sends (webhook ids, order ids, shop domains). */
  runId: string;
  /** The app's secrets: the local defaults, which the app under test runs with. */
  secrets: typeof LOCAL_DEFAULTS;
  /**
   * The production build served by server/start.ts in a child process, started on first use, with no background
   * workers (WORKER_CONCURRENCY=0), as each instance of a scaled deployment: what it measures is the HTTP path.
   */
  app(): Promise<ChildServer>;
  /** One `npm run worker` (server/worker.ts) on the same database, started on first use: it runs the jobs the app enqueues. */
  worker(): Promise<ChildServer>;
  load(): Promise<LoadGenerator>;
  /**
   * A load run against the app server, with the CPU the server (and the bench's own PostgreSQL) spent per
   * request sent, warm-up included: what a request costs, whatever else shares the machine.
   */
  runOnApp(request: RequestKind, run: Parameters<LoadGenerator["run"]>[2]): Promise<AppRun>;
  /** GET /ping on the app at `connections` (closed model), measured once per run and shared. */
  bareRoute(connections: number): Promise<AppRun>;
  /** Node's HTTP server alone (bench/load/bare-node-server.ts) at `connections`: the floor under the bare route. */
  bareNode(connections: number): Promise<AppRun>;
  /** Seconds of measurement per closed-model run, and of warm-up before it. */
  durations: { seconds: number; warmupSeconds: number };
  /**
   * `--full`: the full counts (1,000 bookings, 10,000 tracked shipments, 200 new orders), which
   * take longer than a 10-minute run allows; otherwise each measurement uses counts that fit it.
   */
  full: boolean;
  log(line: string): void;
  close(): Promise<void>;
}

export interface AppRun extends LoadSummary {
  firstIndex: number;
  /** CPU milliseconds per request sent: the app server's Node process, and PostgreSQL's (null on DATABASE_URL). */
  cpu: { node: number; postgres: number | null };
}

export interface ContextOptions {
  database: BenchDatabase;
  scratch: string;
  runId: string;
  /** Extra NODE_OPTIONS for the app server, e.g. --cpu-prof (BENCH_CPU_PROF). */
  appNodeOptions?: string;
  /** Extra arguments to the app server's node, for flags NODE_OPTIONS refuses, e.g. --trace-gc (BENCH_APP_NODE_ARGS). */
  appNodeArgs?: string[];
  /** Extra environment for the app server (BENCH_APP_ENV), e.g. DATABASE_POOL_SIZE=20, to try a setting. */
  appEnv?: Record<string, string>;
  durations: { seconds: number; warmupSeconds: number };
  full: boolean;
}

export function createContext(options: ContextOptions): BenchContext {
  let app: Promise<ChildServer> | undefined;
  let worker: Promise<ChildServer> | undefined;
  let load: Promise<LoadGenerator> | undefined;
  const bare = new Map<number, Promise<AppRun>>();
  const bareNode = new Map<number, Promise<AppRun>>();
  const log = (line: string) => console.log(`  ${line}`);

  const context: BenchContext = {
    database: options.database,
    scratch: options.scratch,
    runId: options.runId,
    secrets: LOCAL_DEFAULTS,
    durations: options.durations,
    full: options.full,
    log,
    app() {
      app ??= (async () => {
        const port = await freePort();
        log(`starting the production build (build/processes/start.js, as npm start runs it) on port ${port}`);
        // `npm start` without npm's wrapper process: one Node process, as in production.
        return startChild({
          command: process.execPath,
          args: [...(options.appNodeArgs ?? []), ...processArguments("start")],
          env: {
            NODE_ENV: "production",
            PORT: String(port),
            DATABASE_URL: options.database.url,
            SHOPIFY_APP_URL: `http://localhost:${port}`,
            WORKER_CONCURRENCY: "0",
            ...(options.appNodeOptions ? { NODE_OPTIONS: options.appNodeOptions } : {}),
            ...options.appEnv,
          },
          readyLine: /Dakiya is serving/,
          url: `http://127.0.0.1:${port}`,
        });
      })();
      return app;
    },
    worker() {
      worker ??= (async () => {
        const server = await context.app();
        log("starting one worker (build/processes/worker.js, as npm run worker runs it)");
        return startChild({
          command: process.execPath,
          args: processArguments("worker"),
          env: {
            NODE_ENV: "production",
            DATABASE_URL: options.database.url,
            SHOPIFY_APP_URL: server.url.replace("127.0.0.1", "localhost"),
            ...(options.appNodeOptions ? { NODE_OPTIONS: options.appNodeOptions } : {}),
            // The same settings as the app it works for; its concurrency is its own.
            ...options.appEnv,
            WORKER_CONCURRENCY: options.appEnv?.WORKER_CONCURRENCY && options.appEnv.WORKER_CONCURRENCY !== "0" ? options.appEnv.WORKER_CONCURRENCY : "8",
          },
          readyLine: /worker running \d+ jobs at once/,
          url: "",
        });
      })();
      return worker;
    },
    load() {
      load ??= startLoadGenerator();
      return load;
    },
    async runOnApp(request, run) {
      const server = await context.app();
      const load = await context.load();
      const before = sampleCpu(server.pid, options.database.dataDir);
      const summary = await load.run(server.url, request, run);
      const after = sampleCpu(server.pid, options.database.dataDir);
      // A backend that exits between the samples takes its CPU with it: never below zero.
      const per = (used: number) => Math.max(0, used) / Math.max(1, summary.sent);
      return { ...summary, cpu: { node: per(after.node - before.node), postgres: after.postgres === null || before.postgres === null ? null : per(after.postgres - before.postgres) } };
    },
    bareRoute(connections) {
      let measured = bare.get(connections);
      if (!measured) {
        measured = (async () => {
          log(`bare route GET /ping at ${connections} connections`);
          return context.runOnApp({ kind: "ping" }, { model: "closed", connections, ...options.durations });
        })();
        bare.set(connections, measured);
      }
      return measured;
    },
    bareNode(connections) {
      let measured = bareNode.get(connections);
      if (!measured) {
        measured = (async () => {
          log(`Node's HTTP server alone at ${connections} connections`);
          const server = await startChild({ command: process.execPath, args: ["--import", "tsx", "bench/load/bare-node-server.ts"], env: {}, readyLine: /bare node server on \d+/, url: "" });
          try {
            const port = /bare node server on (\d+)/.exec(server.output())![1];
            const load = await context.load();
            const before = cpuMsOf(server.pid);
            const summary = await load.run(`http://127.0.0.1:${port}`, { kind: "ping" }, { model: "closed", connections, ...options.durations });
            return { ...summary, cpu: { node: Math.max(0, cpuMsOf(server.pid) - before) / Math.max(1, summary.sent), postgres: null } };
          } finally {
            await server.stop();
          }
        })();
        bareNode.set(connections, measured);
      }
      return measured;
    },
    async close() {
      await (await load?.catch(() => undefined))?.close();
      await (await worker?.catch(() => undefined))?.stop();
      await (await app?.catch(() => undefined))?.stop();
    },
  };
  return context;
}
