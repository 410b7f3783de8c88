import { readdirSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMPTY_DRAFT } from "~/automation/rules-form";
import { getConfig } from "~/config.server";
import { failedWorkShown } from "../support/needs-attention";
import { signSessionToken } from "../../store/auth";
import { hostOf } from "../../store/shell-layout";
import { createDatabase } from "../support/database";
import { npmStart, waitForHealth, waitForOutput, type StartedServer } from "../support/npm-start";
import { shopperOrder } from "../support/orders";
import { failedWorkHistory, retriesDueNow, runningJobsAbandoned } from "../support/queue-time";
import { appCredentials, startStore } from "../support/store";
import { productionBuild } from "../support/production-build";

/*
 * Dakiya scaled out as the README describes: two app processes (`npm start`, no jobs) behind a load balancer and two
 * worker processes (`npm run worker`), all on one PostgreSQL server (the suite's). Shopify is the local store; the
 * courier is the sandbox the app processes serve. New orders arrive as signed webhooks, some delivered twice, spread
 * over both app processes by the balancer; auto-booking books them in the workers; one worker is killed with SIGKILL
 * while it is booking. Every order ends booked exactly once: one awb at the courier, one fulfillment in Shopify.
 */

const ORDERS = 30;
const basePort = 4800 + Number(process.env.VITEST_POOL_ID ?? 0) * 10;
const [balancerPort, appPorts] = [basePort, [basePort + 1, basePort + 2]] as const;
// The courier answers create-order this slowly, through the balancer: a booking spends that long at the courier,
// so the worker is killed while bookings are under way.
const COURIER_BOOKING_MS = 400;
// Shopify's library turns away what looks like a bot; the admin is a browser.
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

let store: Awaited<ReturnType<typeof startStore>>;
let balancer: Server;
let db: pg.Client;
const served = new Map<number, number>();
const processes: StartedServer[] = [];
let environment: Record<string, string>;

/** Round-robin over the app processes, as a load balancer does; counts what each served. */
function startBalancer(): Promise<Server> {
  let next = 0;
  const server = createServer((incoming, outgoing) => {
    const port = appPorts[next++ % appPorts.length]!;
    served.set(port, (served.get(port) ?? 0) + 1);
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const forward = () => {
        const upstream = httpRequest({ host: "127.0.0.1", port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        });
        upstream.on("error", () => outgoing.writeHead(502).end());
        upstream.end(Buffer.concat(chunks));
      };
      if (incoming.url?.startsWith("/v1/create-order")) setTimeout(forward, COURIER_BOOKING_MS);
      else forward();
    });
  });
  return new Promise((resolve) => server.listen(balancerPort, "127.0.0.1", () => resolve(server)));
}

const balancerUrl = () => `http://localhost:${(balancer.address() as AddressInfo).port}`;
const count = async (sql: string, values: unknown[] = []) => Number((await db.query<{ count: string }>(sql, values)).rows[0]!.count);

function start(script: "start" | "worker", env: Record<string, string>): StartedServer {
  const started = npmStart({ ...environment, ...env }, script);
  processes.push(started);
  return started;
}

beforeAll(async () => {
  await productionBuild();
  balancer = await startBalancer();
  store = await startStore({ appUrl: balancerUrl(), throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
  const databaseUrl = await createDatabase(`scaleout_${process.env.VITEST_POOL_ID ?? 0}_${Date.now()}`, { empty: true });
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const config = getConfig();
  environment = {
    DATABASE_URL: databaseUrl,
    NODE_ENV: "test",
    SHOPIFY_APP_URL: balancerUrl(),
    SHOPIFY_API_KEY: config.SHOPIFY_API_KEY,
    SHOPIFY_API_SECRET: config.SHOPIFY_API_SECRET,
    ENCRYPTION_KEY: process.env.ENCRYPTION_KEY!,
    SANDBOX_API_KEY: process.env.SANDBOX_API_KEY!,
    SANDBOX_SECRET_KEY: process.env.SANDBOX_SECRET_KEY!,
    COURIER_SANDBOX_URL: balancerUrl(),
    BOOKING_RESUME_SECONDS: "10",
    // Every process's Shopify calls go to the local store (store/register.ts; honoured outside production only).
    NODE_OPTIONS: "--import ./store/register.ts",
    SHOPIFY_STORE_SIMULATOR_URL: store.url,
  };
}, 60_000);

afterAll(async () => {
  await Promise.all(processes.map((started) => started.stop()));
  await db?.end();
  await store?.close();
  await new Promise((resolve) => balancer?.close(resolve));
});

describe("two app processes and two workers on one PostgreSQL", () => {
  it("start together on an empty database and apply each migration once", { timeout: 90_000 }, async () => {
    const apps = appPorts.map((port) => start("start", { PORT: String(port), WORKER_CONCURRENCY: "0" }));
    for (const [index, port] of appPorts.entries()) expect((await waitForHealth(port, apps[index]!.output)).status).toBe(200);
    const migrations = readdirSync("prisma/migrations").filter((name) => /^\d{14}_/.test(name));
    expect(await count(`SELECT count(*) FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`)).toBe(migrations.length);
    expect(await count(`SELECT count(DISTINCT migration_name) FROM "_prisma_migrations"`)).toBe(migrations.length);
  });

  it("books every order exactly once while webhooks are spread over both app processes and a worker is killed mid-booking", { timeout: 240_000 }, async () => {
    const shop = store.domain;
    const token = () => signSessionToken(appCredentials(), shop);
    // Installed from the admin (token exchange), and auto-booking turned on from its screen, through the balancer.
    const installed = await fetch(`${balancerUrl()}/app?embedded=1&shop=${shop}&host=${hostOf(shop)}&id_token=${token()}`, { headers: { "User-Agent": BROWSER } });
    expect(installed.status).toBe(200);
    const rules = JSON.stringify([{ ...EMPTY_DRAFT, name: "Everything", action: "recommended" }]);
    const saved = await fetch(`${balancerUrl()}/app/auto-booking?_data=routes%2Fapp.auto-booking`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token()}`, "User-Agent": BROWSER },
      body: new URLSearchParams({ intent: "save", autoBooking: "on", rules }),
    });
    expect(await saved.json()).toMatchObject({ kind: "saved", autoBooking: true });

    const first = start("worker", { WORKER_CONCURRENCY: "4" });
    await waitForOutput(/worker running 4 jobs at once/, first.output, 30_000);

    const orders = Array.from({ length: ORDERS }, (_, index) => store.simulator.placeOrder(shop, shopperOrder(3000 + index)));
    // Shopify delivers some webhooks twice, at once: the same delivery id to both app processes. As Shopify does, a
    // delivery not answered within 5 s (50 arrive at once here, on a machine that may be running other suites) is
    // sent again later: a third and fourth copy of the same id.
    const again = await Promise.all(orders.slice(0, 10).flatMap((order) => [0, 1].map(() => store.simulator.deliver("orders/create", shop, { orderId: order.id, webhookId: `again-${order.legacyResourceId}`, retryDelaysMs: [1_000, 5_000, 10_000] }))));
    expect(again.map((report) => report.delivered)).toEqual(again.map(() => true));
    await store.simulator.settled();
    const orderGids = orders.map((order) => order.id);

    // Killed while it is booking: some shipments are at the courier, none of it recorded yet.
    let interrupted: number[] = [];
    for (let waited = 0; waited < 60_000 && interrupted.length === 0; waited += 20) {
      const { rows } = await db.query<{ id: number }>(`SELECT id FROM "Shipment" WHERE shop = $1 AND status = 'booking' AND "requestPayload" <> ''`, [shop]);
      if (rows.length > 0 && (await count(`SELECT count(*) FROM "Shipment" WHERE shop = $1 AND status = 'fulfilled'`, [shop])) >= 3) {
        process.kill(-first.child.pid!, "SIGKILL");
        interrupted = rows.map((row) => row.id);
      } else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(interrupted.length).toBeGreaterThan(0);
    await first.exited;
    // The killed worker's jobs fell silent: they count as abandoned now rather than after the heartbeat's 20 s
    // (the app processes run no jobs, and the next worker is not started yet).
    await runningJobsAbandoned(db);

    const second = start("worker", { WORKER_CONCURRENCY: "4" });
    await waitForOutput(/worker running 4 jobs at once/, second.output, 30_000);
    const fulfilled = () => count(`SELECT count(*) FROM "Shipment" WHERE shop = $1 AND status = 'fulfilled' AND "orderGid" = ANY($2)`, [shop, orderGids]);
    // Also the store's own orders the install's read found and the rules booked: none still under way.
    const underWay = () => count(`SELECT count(*) FROM "Shipment" WHERE shop = $1 AND status IN ('booking', 'booked_unfulfilled')`, [shop]);
    for (let waited = 0; waited < 180_000 && ((await fulfilled()) < ORDERS || (await underWay()) > 0); waited += 500) {
      // A retry is due at once rather than after its back-off: the test is that the work is retried, and by whom.
      await retriesDueNow(db);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(await fulfilled()).toBe(ORDERS);
    expect(await underWay()).toBe(0);

    // Exactly once: one shipment and one awb per order, one order at the courier per awb, one fulfillment in Shopify.
    const shipments = (await db.query<{ id: number; orderGid: string; awb: string }>(`SELECT id, "orderGid", awb FROM "Shipment" WHERE shop = $1 AND awb IS NOT NULL`, [shop])).rows;
    expect(new Set(shipments.map((shipment) => shipment.awb)).size).toBe(shipments.length);
    const atCourier = (await db.query<{ awb: string; orderId: string }>(`SELECT o.awb, o."orderId" FROM "ServiceOrder" o JOIN "ApiClient" a ON a.id = o."apiClientId" WHERE a.name = $1`, [shop])).rows;
    expect(atCourier.map((order) => order.awb).sort()).toEqual(shipments.map((shipment) => shipment.awb).sort());
    expect(new Set(atCourier.map((order) => order.orderId)).size).toBe(atCourier.length);
    for (const order of orders) {
      const { fulfillments } = store.shop.orders.find((candidate) => candidate.id === order.id)!;
      expect(fulfillments).toHaveLength(1);
      expect(fulfillments[0]!.trackingInfo[0]!.number).toBe(shipments.find((shipment) => shipment.orderGid === order.id)!.awb);
    }
    // The bookings the killed worker was making were finished by the other.
    const finished = (await db.query<{ status: string }>(`SELECT status FROM "Shipment" WHERE id = ANY($1)`, [interrupted])).rows;
    expect(finished.map((row) => row.status)).toEqual(interrupted.map(() => "fulfilled"));
    // Each delivery handled once, whichever process received it; both processes received deliveries.
    expect(await count(`SELECT count(*) FROM "WebhookDelivery" WHERE id LIKE 'again-%'`)).toBe(10);
    expect(await count(`SELECT count(*) FROM "OrderRecord" WHERE shop = $1 AND "orderGid" = ANY($2) AND decision = 'booked'`, [shop, orderGids])).toBe(ORDERS);
    for (const port of appPorts) expect(served.get(port) ?? 0).toBeGreaterThan(ORDERS / 2);
    // Nothing the merchant must retry: a job that gave up while the same work was retrying is not shown.
    expect(await failedWorkShown(balancerUrl(), shop), await failedWorkHistory(db)).toEqual([]);
  });
});
