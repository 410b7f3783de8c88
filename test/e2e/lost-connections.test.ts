import { createServer, request as httpRequest, type Server } from "node:http";
import pg from "pg";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMPTY_DRAFT } from "~/automation/rules-form";
import { getConfig } from "~/config.server";
import { signSessionToken } from "../../store/auth";
import { hostOf } from "../../store/shell-layout";
import { createDatabase } from "../support/database";
import { failedWorkShown } from "../support/needs-attention";
import { npmStart, waitForHealth, type StartedServer } from "../support/npm-start";
import { shopperOrder } from "../support/orders";
import { failedWorkHistory, retriesDueNow } from "../support/queue-time";
import { appCredentials, startStore } from "../support/store";
import { productionBuild } from "../support/production-build";

/*
 * PostgreSQL drops every connection Dakiya holds (`pg_terminate_backend`: what a failover, a restart or an idle
 * timeout does) while it books orders, acknowledges webhooks and syncs tracking. The app process (`npm start` with
 * its job workers) keeps running and serving; what a dropped connection interrupted fails alone — a webhook answers
 * 5xx and Shopify (the local store) delivers it again, a job is retried — and everything ends done, exactly once.
 *
 * The courier sandbox is the app's own /v1, reached through a proxy that holds bookings and tracking calls for a
 * while: the work then sits on its advisory lock's idle connection when the connections are dropped.
 */

const ORDERS = 8;
const basePort = 3150 + Number(process.env.VITEST_POOL_ID ?? 0) * 10;
const [appPort, courierPort] = [basePort, basePort + 1];
const appUrl = `http://localhost:${appPort}`;
const COURIER_HOLD_MS = 600;
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

let store: Awaited<ReturnType<typeof startStore>>;
let courier: Server;
let db: pg.Client;
let databaseName: string;
let databaseUrl: string;
let app: StartedServer;
let terminated = 0;

/** Tracking reads that reached the courier so far, and those it holds now. */
const trackingReads = { seen: 0, held: 0 };

/** The courier as the app reaches it: its own /v1, each booking and tracking call held for a while. */
function startCourierProxy(): Promise<Server> {
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const url = incoming.url ?? "";
      const trackingRead = url.startsWith("/v1/track-order");
      const held = trackingRead || url.startsWith("/v1/create-order");
      if (trackingRead) {
        trackingReads.seen += 1;
        trackingReads.held += 1;
      }
      setTimeout(
        () => {
          if (trackingRead) trackingReads.held -= 1;
          const upstream = httpRequest({ host: "127.0.0.1", port: appPort, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(outgoing);
          });
          upstream.on("error", () => outgoing.writeHead(502).end());
          upstream.end(Buffer.concat(chunks));
        },
        held ? COURIER_HOLD_MS : 0,
      );
    });
  });
  return new Promise((resolve) => server.listen(courierPort, "127.0.0.1", () => resolve(server)));
}

/** Every connection the app process holds on its database, dropped by PostgreSQL. */
async function dropEveryConnection(): Promise<number> {
  const { rowCount } = await db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [databaseName]);
  terminated += rowCount ?? 0;
  return rowCount ?? 0;
}

/** Drops every connection every `everyMs` until `until` resolves true (checked between drops). */
async function dropConnectionsWhile(until: () => Promise<boolean>, { everyMs, withinMs }: { everyMs: number; withinMs: number }): Promise<number> {
  let drops = 0;
  for (const deadline = Date.now() + withinMs; Date.now() < deadline && !(await until()); drops += 1) {
    await dropEveryConnection();
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return drops;
}

const count = async (sql: string, values: unknown[] = []) => Number((await db.query<{ count: string }>(sql, values)).rows[0]!.count);

/**
 * Time passing, sooner: a job a dropped connection failed waits 15 s and more for its retry, and a shipment whose
 * read failed waits for the next minute's sweep. The test is that they are retried, not how long they wait: the
 * retries are made due now, and with `sweep`, the shop's next tracking pass is started now.
 */
async function timePasses({ sweep = false } = {}): Promise<void> {
  await retriesDueNow(db);
  if (sweep) await startTrackingPass();
}

let sender: PgBoss | undefined;

/** The shop's tracking pass, started now rather than at the next minute's sweep (once: a pass already waiting stays). */
async function startTrackingPass(): Promise<void> {
  if (!sender) {
    sender = new PgBoss({ connectionString: databaseUrl, schema: "pgboss", supervise: false, schedule: false, migrate: false, max: 1 });
    // The test's own connection is dropped with the app's: the send after it reconnects.
    sender.on("error", () => undefined);
    await sender.start();
  }
  await within("Sending the tracking pass's job", sender.send("tracking-sync", { shop: store.domain }, { singletonKey: `${store.domain}|tracking-sync`, group: { id: store.domain } }), 15_000);
}

/**
 * Until `condition` holds; past `ms`, the test fails saying what never happened, the queue, what `explain` found (the
 * rows still waiting) and what the app printed last.
 */
async function waitFor(what: string, condition: () => Promise<boolean>, ms: number, explain?: () => Promise<unknown>): Promise<void> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
    if (await within(`${what} (a check)`, condition(), 20_000)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const jobs = await db.query(`SELECT name, state, count(*)::int AS jobs FROM pgboss.job GROUP BY name, state ORDER BY name, state`);
  const waiting = explain ? ` Still waiting: ${JSON.stringify(await explain())}.` : "";
  throw new Error(`${what}: not within ${ms / 1000} s. The queue: ${JSON.stringify(jobs.rows)}.${waiting} The app's last lines:\n${app.output().split("\n").slice(-30).join("\n")}`);
}

/** The shop's tracking passes that are not done, and the last ten done: when each started and ended, and how. */
async function trackingPasses(): Promise<unknown[]> {
  const { rows } = await db.query(
    `(SELECT state, retry_count, created_on, start_after, started_on, completed_on, heartbeat_on, output FROM pgboss.job WHERE name = 'tracking-sync' AND state <> 'completed')
     UNION ALL (SELECT state, retry_count, created_on, start_after, started_on, completed_on, heartbeat_on, output FROM pgboss.job WHERE name = 'tracking-sync' AND state = 'completed' ORDER BY completed_on DESC LIMIT 10)`,
  );
  return rows;
}

/** A step that must answer: one that hangs fails the test naming itself, rather than at the test's own timeout. */
async function within<T>(what: string, step: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s. The app's last lines:\n${app.output().split("\n").slice(-30).join("\n")}`)), ms)));
  try {
    return await Promise.race([step, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What each of the app's connections is doing: its pool, state, what it waits on, since when and its statement. */
async function connectionsNow(): Promise<unknown[]> {
  const { rows } = await db.query(
    `SELECT application_name, state, wait_event_type, wait_event, now() - xact_start AS in_transaction, now() - state_change AS in_state, left(query, 120) AS query
       FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() ORDER BY application_name, state`,
    [databaseName],
  );
  return rows;
}

async function expectStillServing(): Promise<void> {
  expect(app.child.exitCode, app.output()).toBeNull();
  const health = await within("GET /healthz", fetch(`${appUrl}/healthz`), 15_000).catch(async (error: Error) => {
    throw new Error(`${error.message}\nThe app's connections: ${JSON.stringify(await connectionsNow())}`);
  });
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: "ok", database: "reachable" });
}

beforeAll(async () => {
  await productionBuild();
  courier = await startCourierProxy();
  store = await startStore({ appUrl, throttle: { maximumAvailable: 20_000, restoreRate: 1_000 }, webhookRetryDelaysMs: [500, 1_000, 2_000, 5_000] });
  databaseName = `lost_connections_${process.env.VITEST_POOL_ID ?? 0}`;
  databaseUrl = await createDatabase(databaseName, { replace: true });
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const config = getConfig();
  app = npmStart({
    DATABASE_URL: databaseUrl,
    NODE_ENV: "test",
    PORT: String(appPort),
    WORKER_CONCURRENCY: "4",
    // A small pool, so that a connection a drop leaves checked out for good would show as a process that stops
    // answering within this test's drops.
    DATABASE_POOL_SIZE: "3",
    SHOPIFY_APP_URL: appUrl,
    SHOPIFY_API_KEY: config.SHOPIFY_API_KEY,
    SHOPIFY_API_SECRET: config.SHOPIFY_API_SECRET,
    ENCRYPTION_KEY: process.env.ENCRYPTION_KEY!,
    SANDBOX_API_KEY: process.env.SANDBOX_API_KEY!,
    SANDBOX_SECRET_KEY: process.env.SANDBOX_SECRET_KEY!,
    COURIER_SANDBOX_URL: `http://127.0.0.1:${courierPort}`,
    BOOKING_RESUME_SECONDS: "5",
    // The courier here is the app's own /v1, on the same database: a read that fails while connections drop backs
    // that shipment off by this interval (600 s by default), and the test waits for it to be read again.
    TRACKING_SYNC_SECONDS: "5",
    NODE_OPTIONS: "--import ./store/register.ts",
    SHOPIFY_STORE_SIMULATOR_URL: store.url,
  });
  expect((await waitForHealth(appPort, app.output, 60_000)).status).toBe(200);

  // Installed from the admin (token exchange), auto-booking on for every order.
  const token = () => signSessionToken(appCredentials(), store.domain);
  const installed = await fetch(`${appUrl}/app?embedded=1&shop=${store.domain}&host=${hostOf(store.domain)}&id_token=${token()}`, { headers: { "User-Agent": BROWSER } });
  expect(installed.status).toBe(200);
  const rules = JSON.stringify([{ ...EMPTY_DRAFT, name: "Everything", action: "recommended" }]);
  const saved = await fetch(`${appUrl}/app/auto-booking?_data=routes%2Fapp.auto-booking`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token()}`, "User-Agent": BROWSER },
    body: new URLSearchParams({ intent: "save", autoBooking: "on", rules }),
  });
  expect(await saved.json()).toMatchObject({ kind: "saved", autoBooking: true });
}, 120_000);

afterAll(async () => {
  await sender?.stop({ graceful: false, close: true });
  await app?.stop();
  await db?.end();
  await store?.close();
  await new Promise((resolve) => courier?.close(resolve));
});

describe("PostgreSQL dropping every connection of a running app", () => {
  it("while webhooks arrive and orders are booked: the process serves on, and every order is booked once", { timeout: 180_000 }, async () => {
    const shop = store.domain;
    const orders = Array.from({ length: ORDERS }, (_, index) => store.simulator.placeOrder(shop, shopperOrder(7000 + index)));
    const orderGids = orders.map((order) => order.id);
    // More deliveries while the connections drop: each order's webhook again under new ids, some twice at once.
    const redeliveries = orders.flatMap((order) => [0, 1].map(() => store.simulator.deliver("orders/create", shop, { orderId: order.id, webhookId: `lost-${order.legacyResourceId}`, retryDelaysMs: [500, 1_000, 2_000, 5_000] })));

    const fulfilled = () => count(`SELECT count(*) FROM "Shipment" WHERE shop = $1 AND status = 'fulfilled' AND "orderGid" = ANY($2)`, [shop, orderGids]);
    // Dropped at once (webhooks being acknowledged), and then again and again while bookings are at the courier.
    const drops = await dropConnectionsWhile(async () => (await fulfilled()) === ORDERS, { everyMs: 400, withinMs: 8_000 });
    expect(drops).toBeGreaterThan(3);
    await expectStillServing();

    const reports = await Promise.all(redeliveries);
    await store.simulator.settled();
    // Every delivery was accepted in the end: a webhook whose connection dropped answered 5xx and came again.
    expect(reports.map((report) => report.attempts.at(-1)?.status)).toEqual(reports.map(() => 200));
    expect(store.simulator.deliveries.filter((delivery) => delivery.attempts.at(-1)?.status !== 200)).toEqual([]);

    const underWay = () => count(`SELECT count(*) FROM "Shipment" WHERE shop = $1 AND status IN ('booking', 'booked_unfulfilled')`, [shop]);
    await waitFor("Every order booked and fulfilled, none under way", async () => {
      await timePasses();
      return (await fulfilled()) === ORDERS && (await underWay()) === 0;
    }, 120_000);
    expect(await fulfilled()).toBe(ORDERS);
    expect(await underWay()).toBe(0);
    // Exactly once: one awb per order, one order at the courier per awb, one fulfillment in Shopify.
    const shipments = (await db.query<{ orderGid: string; awb: string }>(`SELECT "orderGid", awb FROM "Shipment" WHERE shop = $1 AND awb IS NOT NULL`, [shop])).rows;
    expect(new Set(shipments.map((shipment) => shipment.awb)).size).toBe(shipments.length);
    const atCourier = (await db.query<{ awb: string }>(`SELECT o.awb FROM "ServiceOrder" o JOIN "ApiClient" a ON a.id = o."apiClientId" WHERE a.name = $1`, [shop])).rows;
    expect(atCourier.map((order) => order.awb).sort()).toEqual(shipments.map((shipment) => shipment.awb).sort());
    for (const order of orders) expect(store.shop.orders.find((candidate) => candidate.id === order.id)!.fulfillments).toHaveLength(1);
    expect(await count(`SELECT count(*) FROM "WebhookDelivery" WHERE id LIKE 'lost-%'`)).toBe(ORDERS);
    // Nothing the merchant must retry: a job that gave up while the same work was retrying is not shown.
    expect(await failedWorkShown(appUrl, shop), await failedWorkHistory(db)).toEqual([]);
    await expectStillServing();
  });

  it("while tracking syncs: the process serves on, and every shipment is synced", { timeout: 180_000 }, async () => {
    const shop = store.domain;
    const before = new Date();
    // The shipments made due, named by the statement that made them due: a pass still running from the first test can
    // claim one of them (moving its next read on) a moment later, and a count read after would miss it.
    const dueIds = (await db.query<{ id: number }>(`UPDATE "Shipment" SET "nextSyncAt" = now() - interval '1 second' WHERE shop = $1 AND status = 'fulfilled' RETURNING id`, [shop])).rows.map((row) => row.id);
    const due = dueIds.length;
    expect(due).toBeGreaterThanOrEqual(ORDERS);
    const synced = () => count(`SELECT count(*) FROM "Shipment" WHERE id = ANY($1) AND status = 'fulfilled' AND "syncedAt" > $2`, [dueIds, before]);

    const readsBefore = trackingReads.seen;
    await startTrackingPass();

    // Dropped while the pass waits on the courier, and again until every shipment is synced or for four seconds. Not
    // after a first shipment is synced: reads with no news are written together, so the first synced is often the last.
    await waitFor("A tracking read at the courier", async () => trackingReads.seen > readsBefore, 20_000);
    const readsHeldAtFirstDrop = trackingReads.held;
    await dropEveryConnection();
    expect(readsHeldAtFirstDrop).toBeGreaterThan(0);
    await dropConnectionsWhile(async () => (await synced()) === due, { everyMs: 500, withinMs: 4_000 });
    await expectStillServing();

    // Each of the shop's shipments not counted as synced, as its tracking stands: its status, due when, paused or
    // stopped, its failures and their reason.
    const unsynced = async () =>
      (
        await db.query(
          `SELECT id, status, "trackingState", "nextSyncAt", "syncedAt", "trackingFailures", "awbUnknownCount", "trackingError" FROM "Shipment" WHERE id = ANY($1) AND NOT (status = 'fulfilled' AND "syncedAt" > $2)`,
          [dueIds, before],
        )
      ).rows;
    // Taken at each check, so a failure shows the rows as they stood before the deadline, not a moment after it.
    let lastUnsynced: unknown[] = [];
    await waitFor(
      "Every due shipment synced",
      async () => {
        await timePasses({ sweep: true });
        if ((await synced()) === due) return true;
        lastUnsynced = await unsynced();
        return false;
      },
      120_000,
      async () => ({ atTheLastCheck: lastUnsynced, now: await unsynced(), passes: await trackingPasses() }),
    );
    expect(await synced()).toBe(due);
    await expectStillServing();
    expect(terminated).toBeGreaterThan(0);
    // A dropped connection is one line in the log, not a crash's stack.
    expect(app.output()).not.toMatch(/Unhandled 'error' event|node:events/);
  });
});
