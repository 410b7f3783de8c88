import path from "node:path";
import { parse } from "graphql";
import pg from "pg";
import { PgBoss } from "pg-boss";
import { EMPTY_DRAFT } from "../../app/automation/rules-form";
import { loadConfig } from "../../app/config.server";
import { jobKey, shopOf, type JobData, type QueueName } from "../../app/jobs/queues";
import { loadAdminSchema } from "../../graphql/admin-schema";
import { requestedCost, type ThrottleSettings } from "../../store/admin-api";
import { signSessionToken, type AppCredentials } from "../../store/auth";
import { seedShop } from "../../store/seed";
import { serveFetch } from "../../store/serve-fetch";
import { hostOf } from "../../store/shell-layout";
import { createStoreSimulator, type StoreSimulator } from "../../store/simulator";
import type { BenchContext } from "./context";
import { cpuMsOf, postgresPids } from "./cpu";
import { freePort } from "../../server/free-port";
import { startChild, type ChildServer } from "./processes";
import type { DetailTable } from "./results";
import { processArguments } from "../../scripts/build-server";

/**
 * Dakiya as a merchant's shop meets it, for the measurements that need Shopify: the store simulator (in the bench's
 * process, on a loopback port, throttled like a Shopify plan), the production build served by server/start.ts with no
 * workers, and one `npm run worker` process (server/worker.ts) running the real job handlers, both on a scratch
 * database of their own. Every Shopify call of both processes goes to the simulator through store/register.ts
 * (NODE_OPTIONS=--import ./store/register.ts with SHOPIFY_STORE_SIMULATOR_URL), which refuses NODE_ENV=production:
 * so they run with NODE_ENV=test, serving the same build. The courier is the sandbox the app process serves at /v1.
 */

/** Shopify's Standard plan: a 2,000-point bucket restored at 100 points a second (the simulator's default). */
export const STANDARD_PLAN: ThrottleSettings = { maximumAvailable: 2_000, restoreRate: 100 };
/** Shopify Plus: ten times that. For measurements about our own costs, not about being paced by Shopify. */
export const PLUS_PLAN: ThrottleSettings = { maximumAvailable: 20_000, restoreRate: 1_000 };

// Shopify's library turns away what looks like a bot; the admin is a browser.
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";

/** Points and answers per Admin API operation (by operation name), read from each answer's `extensions.cost`. */
export type OperationUsage = Map<string, { answers: number; points: number; throttled: number }>;

/** CPU milliseconds used so far by each process of the world. */
export interface WorldCpu {
  app: number;
  worker: number;
  /** The whole PostgreSQL cluster (null on DATABASE_URL). */
  postgres: number | null;
  /** The bench's own process, where the store simulator runs. */
  simulator: number;
}

/** What each process spent between two samples. */
export function cpuSince(after: WorldCpu, before: WorldCpu): WorldCpu {
  const delta = (later: number, earlier: number) => Math.max(0, later - earlier);
  return {
    app: delta(after.app, before.app),
    worker: delta(after.worker, before.worker),
    postgres: after.postgres === null || before.postgres === null ? null : delta(after.postgres, before.postgres),
    simulator: delta(after.simulator, before.simulator),
  };
}

/** The operations that answered (or were throttled) between two readings of `usageByOperation`, costliest first. */
export function usageSince(after: OperationUsage, before: OperationUsage): [string, { answers: number; points: number; throttled: number }][] {
  return [...after.entries()]
    .map(([operation, entry]): [string, { answers: number; points: number; throttled: number }] => {
      const earlier = before.get(operation) ?? { answers: 0, points: 0, throttled: 0 };
      return [operation, { answers: entry.answers - earlier.answers, points: entry.points - earlier.points, throttled: entry.throttled - earlier.throttled }];
    })
    .filter(([, entry]) => entry.answers > 0 || entry.throttled > 0)
    .sort((a, b) => b[1].points - a[1].points);
}

/** What a query requests of the bucket before it runs (the simulator's cost rules, Shopify's published ones). */
export const requestedCostOf = (query: string, variables: Record<string, unknown> = {}) => requestedCost(loadAdminSchema(), parse(query), { variables });

/** The points each operation cost over a run, and per unit of work (a booking, an order). */
export function operationsTable(operations: ReturnType<typeof usageSince>, units: number, unit: string): DetailTable {
  const grouped = (value: number) => Math.round(value).toLocaleString("en-US");
  return {
    title: "Shopify points by operation (the actual cost of each answer, as the simulator charged it)",
    header: ["operation", "answers", "points", `points ${unit}`, "throttled answers"],
    rows: operations.map(([operation, entry]) => [operation, grouped(entry.answers), grouped(entry.points), (entry.points / Math.max(1, units)).toFixed(1), String(entry.throttled)]),
  };
}

/**
 * When the schedule's reconciliation of recent orders (every ten minutes, on the clock) fell inside a run, what it
 * did there: it reads the shop's recent orders and checks again those it finds changed, which includes every order
 * the run booked (the booking's own writes changed it). Null when it did not run.
 */
export function reconciliationNote(operations: ReturnType<typeof usageSince>, orders: number): string | null {
  const byName = new Map(operations);
  const pages = byName.get("RecentlyUpdatedOrders");
  if (!pages) return null;
  const rereads = Math.max(0, (byName.get("OrderForBooking")?.answers ?? 0) - orders);
  return `The schedule's reconciliation of recent orders ran during this run (it comes at every ten-minute mark): ${pages.answers} page(s) of recent orders (RecentlyUpdatedOrders), then ${rereads} orders read again (OrderForBooking beyond one an order) — booked orders, changed in Shopify by their booking's own writes (bench/findings.md). Those checks spend the shop's points and take its job slots (at most three of a shop's jobs run at once: JOBS_PER_SHOP) from new orders.`;
}

/** Each process's CPU over a run, per unit of work. */
export function cpuTable(used: WorldCpu, units: number, unit: string): DetailTable {
  const per = (ms: number) => `${(ms / Math.max(1, units)).toFixed(1)} ms`;
  return {
    title: `CPU ${unit} (from /proc over the run)`,
    header: ["app server (webhooks, courier service)", "worker (jobs)", "PostgreSQL", "bench process (store simulator)"],
    rows: [[per(used.app), per(used.worker), used.postgres === null ? "—" : per(used.postgres), per(used.simulator)]],
  };
}

/** Whether each order was booked exactly once: one shipment and awb here, the same awb at the courier, one fulfillment in Shopify. */
export interface BookedOnce {
  exactlyOnce: boolean;
  shipments: number;
  awbs: number;
  fulfilled: number;
  atCourier: number;
  courierMatches: boolean;
  fulfillmentsRight: number;
}

export function describeOnce(once: BookedOnce, orders: number): string {
  const count = (value: number) => value.toLocaleString("en-US");
  return `${count(once.shipments)} shipments for ${count(orders)} orders (${count(once.awbs)} distinct awbs, ${count(once.fulfilled)} fulfilled); ${count(once.atCourier)} orders at the courier${once.courierMatches ? ", the same awbs" : ", NOT the same awbs"}; ${count(once.fulfillmentsRight)} Shopify orders with exactly one fulfillment carrying their awb`;
}

export interface StoreWorld {
  app: ChildServer;
  worker: ChildServer;
  simulator: StoreSimulator;
  /** Per shop: what each Admin API operation cost, as the simulator charged it. */
  usageByOperation(shop: string): OperationUsage;
  query<T extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<T[]>;
  cpu(): WorldCpu;
  /**
   * Adds a shop with the seed's two warehouses and no orders, installs the app on it as the admin does (the first
   * embedded request exchanges a session token) and waits for the install's read of its orders to finish.
   */
  installShop(shop: string): Promise<void>;
  /**
   * Puts a job in the world's queue as the app's `enqueue` does (the same key, so the same work is never queued
   * twice): e.g. the tracking sweep the worker's schedule runs every minute, run now.
   */
  enqueue<Q extends QueueName>(queue: Q, data: JobData<Q>): Promise<void>;
  /** Checks the orders placed were each booked exactly once, in the app, at the courier and in Shopify. */
  bookedOnce(shop: string, orderGids: string[]): Promise<BookedOnce>;
  /** Turns auto-booking on with one rule, "book everything with the recommended courier", from its screen's action. */
  enableAutoBooking(shop: string): Promise<void>;
  close(): Promise<void>;
}

const operationOf = (query: string) => /^\s*(?:query|mutation)\s+(\w+)/m.exec(query.replace(/^\s*#graphql\s*/, ""))?.[1] ?? "(anonymous)";

export async function startStoreWorld(
  context: BenchContext,
  { name, throttle, workerConcurrency = 8, appNodeOptions = "" }: { name: string; throttle: ThrottleSettings; workerConcurrency?: number; appNodeOptions?: string },
): Promise<StoreWorld> {
  const scratch = await context.database.scratchDatabase(`dakiya_bench_${name}`);
  if (scratch.note) context.log(scratch.note);
  // The configuration the app and the worker run with: the local defaults (the bench passes them no secrets).
  const defaults = loadConfig({});
  const credentials: AppCredentials = { apiKey: defaults.SHOPIFY_API_KEY, apiSecret: defaults.SHOPIFY_API_SECRET, scopes: defaults.SCOPES };
  const appPort = await freePort();
  const appUrl = `http://localhost:${appPort}`;
  const simulator = createStoreSimulator({ app: credentials, appUrl, throttle, shops: [] });
  const usage = new Map<string, OperationUsage>();
  const store = await serveFetch(async (request) => {
    const shop = /^\/([^/]+\.myshopify\.com)\/admin\/api\//.exec(new URL(request.url).pathname)?.[1];
    if (!shop || request.method !== "POST") return simulator.handle(request);
    const sent = (await request.clone().json().catch(() => ({}))) as { query?: string };
    const response = await simulator.handle(request);
    const answer = (await response.clone().json().catch(() => ({}))) as { errors?: { extensions?: { code?: string } }[]; extensions?: { cost?: { actualQueryCost?: number | null } } };
    const byOperation = usage.get(shop) ?? new Map();
    usage.set(shop, byOperation);
    const operation = operationOf(sent.query ?? "");
    const entry = byOperation.get(operation) ?? { answers: 0, points: 0, throttled: 0 };
    if (answer.errors?.some((error) => error.extensions?.code === "THROTTLED")) entry.throttled += 1;
    else {
      entry.answers += 1;
      entry.points += answer.extensions?.cost?.actualQueryCost ?? 0;
    }
    byOperation.set(operation, entry);
    return response;
  });
  const databaseUrl = scratch.url;
  const env = {
    NODE_ENV: "test",
    DATABASE_URL: databaseUrl,
    PORT: String(appPort),
    SHOPIFY_APP_URL: appUrl,
    // BENCH_CPU_PROF: these processes write CPU profiles too, named by the world (bench-profiles/).
    NODE_OPTIONS: `--import ./store/register.ts${process.env.BENCH_CPU_PROF ? ` --cpu-prof --cpu-prof-dir=${path.resolve("bench-profiles", name)}` : ""}`,
    SHOPIFY_STORE_SIMULATOR_URL: store.url,
  };
  context.log(`${name}: store simulator on ${store.url} (${throttle.maximumAvailable.toLocaleString("en-US")} points, ${throttle.restoreRate}/s), app on ${appPort}, one worker`);
  const started: ChildServer[] = [];
  try {
    const app = await startChild({
      command: process.execPath,
      args: processArguments("start"),
      env: { ...env, WORKER_CONCURRENCY: "0", ...(appNodeOptions ? { NODE_OPTIONS: `${appNodeOptions} ${env.NODE_OPTIONS}` } : {}) },
      readyLine: /Dakiya is serving/,
      url: `http://127.0.0.1:${appPort}`,
    });
    started.push(app);
    const worker = await startChild({ command: process.execPath, args: processArguments("worker"), env: { ...env, WORKER_CONCURRENCY: String(workerConcurrency) }, readyLine: /worker running \d+ jobs at once/, url: "" });
    started.push(worker);

    const query = async <T extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<T[]> => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return (await client.query<T>(sql, values)).rows;
      } finally {
        await client.end();
      }
    };
    const token = (shop: string) => signSessionToken(credentials, shop);
    let boss: Promise<PgBoss> | undefined;
    const world: StoreWorld = {
      app,
      worker,
      simulator,
      usageByOperation: (shop) => new Map([...(usage.get(shop) ?? new Map()).entries()].map(([operation, entry]) => [operation, { ...entry }])),
      query,
      cpu() {
        const used = process.cpuUsage();
        const postgres = context.database.dataDir ? postgresPids(context.database.dataDir).reduce((sum, pid) => sum + cpuMsOf(pid), 0) : null;
        return { app: cpuMsOf(app.pid), worker: cpuMsOf(worker.pid), postgres, simulator: (used.user + used.system) / 1000 };
      },
      async installShop(shop) {
        // A shop with no orders, so the install's read of recent orders finds nothing to check.
        simulator.addShop({ ...seedShop(shop), orders: [] });
        const response = await fetch(`${app.url}/app?embedded=1&shop=${shop}&host=${hostOf(shop)}&id_token=${token(shop)}`, { headers: { "User-Agent": BROWSER } });
        if (response.status !== 200) throw new Error(`Installing on ${shop} was answered ${response.status}`);
        // The install reads the shop's recent orders (orders-reconcile): done before anything is measured.
        for (let waited = 0; waited < 30_000; waited += 100) {
          const [synced] = await query<{ done: number }>(`SELECT count(*)::int AS done FROM "ShopSync" WHERE shop = $1 AND "reconciledAt" IS NOT NULL`, [shop]);
          if (synced!.done > 0) return;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`The install's read of ${shop}'s orders did not finish in 30 s:\n${worker.output().slice(-2000)}`);
      },
      async enqueue(queue, data) {
        boss ??= (async () => {
          // Only sends: the worker process installed the schema and runs the queue's upkeep.
          const client = new PgBoss({ connectionString: databaseUrl, schema: "pgboss", max: 1, supervise: false, schedule: false, migrate: false, createSchema: false });
          client.on("error", (error) => context.log(`bench's job client: ${error.message}`));
          await client.start();
          return client;
        })();
        const shop = shopOf(data);
        await (await boss).send(queue, data, { singletonKey: jobKey(queue, data), ...(shop ? { group: { id: shop } } : {}) });
      },
      async bookedOnce(shop, orderGids) {
        const [shipments] = await query<{ rows: number; awbs: number; fulfilled: number }>(
          `SELECT count(*)::int AS rows, count(DISTINCT awb)::int AS awbs, count(*) FILTER (WHERE status = 'fulfilled')::int AS fulfilled FROM "Shipment" WHERE shop = $1 AND "orderGid" = ANY($2)`,
          [shop, orderGids],
        );
        const ours = await query<{ orderGid: string; awb: string | null }>(`SELECT "orderGid", awb FROM "Shipment" WHERE shop = $1`, [shop]);
        // The sandbox account of the shop: ApiClient.name is the shop's domain.
        const atCourier = await query<{ awb: string; orderId: string }>(`SELECT o.awb, o."orderId" FROM "ServiceOrder" o JOIN "ApiClient" a ON a.id = o."apiClientId" WHERE a.name = $1`, [shop]);
        const awbs = new Set(ours.map((row) => row.awb));
        const courierMatches = atCourier.length === ours.length && atCourier.every((order) => awbs.has(order.awb)) && new Set(atCourier.map((order) => order.orderId)).size === atCourier.length;
        const awbOf = new Map(ours.map((row) => [row.orderGid, row.awb]));
        const store = simulator.shop(shop);
        const fulfillmentsRight = orderGids.filter((orderGid) => {
          const order = store.orders.find((candidate) => candidate.id === orderGid);
          return order?.fulfillments.length === 1 && order.fulfillments[0]!.trackingInfo[0]?.number === awbOf.get(orderGid);
        }).length;
        const placed = orderGids.length;
        return {
          exactlyOnce: shipments!.rows === placed && shipments!.awbs === placed && shipments!.fulfilled === placed && courierMatches && fulfillmentsRight === placed,
          shipments: shipments!.rows,
          awbs: shipments!.awbs,
          fulfilled: shipments!.fulfilled,
          atCourier: atCourier.length,
          courierMatches,
          fulfillmentsRight,
        };
      },
      async enableAutoBooking(shop) {
        const rules = JSON.stringify([{ ...EMPTY_DRAFT, name: "Everything", action: "recommended" }]);
        const response = await fetch(`${app.url}/app/auto-booking?_data=routes%2Fapp.auto-booking`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token(shop)}`, "User-Agent": BROWSER },
          body: new URLSearchParams({ intent: "save", autoBooking: "on", rules }),
        });
        const outcome = (await response.json()) as { kind?: string; autoBooking?: boolean };
        if (outcome.kind !== "saved" || !outcome.autoBooking) throw new Error(`Saving the auto-booking rules was answered ${response.status}: ${JSON.stringify(outcome).slice(0, 300)}`);
      },
      async close() {
        await (await boss?.catch(() => undefined))?.stop({ graceful: false, close: true });
        await worker.stop();
        await app.stop();
        await store.close();
      },
    };
    return world;
  } catch (error) {
    await Promise.all(started.map((child) => child.stop()));
    await store.close();
    throw error;
  }
}

