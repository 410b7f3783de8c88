import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMPTY_DRAFT } from "~/automation/rules-form";
import { getConfig } from "~/config.server";
import { signSessionToken } from "../../store/auth";
import { LOCATION_BHIWANDI, LOCATION_GURUGRAM } from "../../store/seed";
import { hostOf } from "../../store/shell-layout";
import { createDatabase } from "../support/database";
import { npmStart, waitForHealth, waitForOutput, type StartedServer } from "../support/npm-start";
import { twoWarehouseOrder } from "../support/orders";
import { failedWorkHistory, retriesDueNow, runningJobsAbandoned } from "../support/queue-time";
import { appCredentials, startStore } from "../support/store";
import { productionBuild } from "../support/production-build";

/*
 * A worker process killed with SIGKILL while it books an order that ships as two parcels (one item stocked at each
 * warehouse, cash on delivery), at each place between its parcels where a crash could lose or double something:
 * the second parcel at the courier, the first parcel booked but not yet fulfilled, and the first parcel fulfilled with
 * the second not yet begun. Another worker finishes: every time, one awb and one Shopify fulfillment per parcel, at
 * its own location, and nothing else at the courier.
 */

const basePort = 4900 + Number(process.env.VITEST_POOL_ID ?? 0) * 10;
const appPort = basePort;
// Shopify's library turns away what looks like a bot; the admin is a browser.
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

/**
 * A pass-through HTTP proxy that holds, unanswered, the requests `hold` picks, until it is told to let them go: where
 * the worker stands still when it is killed.
 */
function holdingProxy(target: () => string) {
  let hold: (path: string, body: string) => boolean = () => false;
  const held: (() => void)[] = [];
  const server: Server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      const forward = () => {
        const url = new URL(target());
        const upstream = httpRequest({ host: url.hostname, port: url.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: url.host } }, (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        });
        upstream.on("error", () => outgoing.writeHead(502).end());
        upstream.end(body);
      };
      if (hold(incoming.url ?? "", body.toString())) held.push(forward);
      else forward();
    });
  });
  return {
    listen: () => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve())),
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    holdWhen(rule: (path: string, body: string) => boolean) {
      hold = rule;
    },
    /** Lets go of what is held (its caller may be gone) and holds nothing more. */
    release() {
      hold = () => false;
      for (const forward of held.splice(0)) forward();
    },
    get heldCount() {
      return held.length;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

let store: Awaited<ReturnType<typeof startStore>>;
let db: pg.Client;
let app: StartedServer;
const workers: StartedServer[] = [];
const courierProxy = holdingProxy(() => `http://127.0.0.1:${appPort}`);
const shopifyProxy = holdingProxy(() => store.url);
let environment: Record<string, string>;

const count = async (sql: string, values: unknown[] = []) => Number((await db.query<{ count: string }>(sql, values)).rows[0]!.count);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => Promise<boolean>, ms = 90_000): Promise<void> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(100)) if (await check()) return;
  // Where the parcels stood and what the proxies held, to tell a slow step from a wrong one.
  const { rows } = await db.query<{ orderGid: string; parcel: number; status: string }>(`SELECT "orderGid", parcel, status FROM "Shipment" WHERE shop = $1 ORDER BY id`, [store.domain]);
  const parcels = rows.map((row) => `${row.orderGid.split("/").pop()} parcel ${row.parcel}: ${row.status}`).join("; ");
  throw new Error(`Waited ${ms / 1000} s for ${what} (held at the courier ${courierProxy.heldCount}, at Shopify ${shopifyProxy.heldCount}; ${parcels}):\n${workers.map((worker) => worker.output()).join("\n---\n").slice(-4000)}`);
}

function startWorker(): StartedServer {
  // The worker reaches the courier and Shopify through the proxies, where it can be stopped in its tracks.
  const worker = npmStart({ ...environment, WORKER_CONCURRENCY: "2", COURIER_SANDBOX_URL: courierProxy.url(), SHOPIFY_STORE_SIMULATOR_URL: shopifyProxy.url() }, "worker");
  workers.push(worker);
  return worker;
}

beforeAll(async () => {
  await productionBuild();
  await Promise.all([courierProxy.listen(), shopifyProxy.listen()]);
  store = await startStore({ appUrl: `http://localhost:${appPort}`, throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
  const databaseUrl = await createDatabase(`parcel_crash_${process.env.VITEST_POOL_ID ?? 0}_${Date.now()}`);
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const config = getConfig();
  environment = {
    DATABASE_URL: databaseUrl,
    NODE_ENV: "test",
    SHOPIFY_APP_URL: `http://localhost:${appPort}`,
    SHOPIFY_API_KEY: config.SHOPIFY_API_KEY,
    SHOPIFY_API_SECRET: config.SHOPIFY_API_SECRET,
    ENCRYPTION_KEY: process.env.ENCRYPTION_KEY!,
    SANDBOX_API_KEY: process.env.SANDBOX_API_KEY!,
    SANDBOX_SECRET_KEY: process.env.SANDBOX_SECRET_KEY!,
    COURIER_SANDBOX_URL: `http://localhost:${appPort}`,
    // A booking its claimant left is taken up this soon by the watchdog.
    BOOKING_RESUME_SECONDS: "5",
    NODE_OPTIONS: "--import ./store/register.ts",
    SHOPIFY_STORE_SIMULATOR_URL: store.url,
  };
  app = npmStart({ ...environment, PORT: String(appPort), WORKER_CONCURRENCY: "0" });
  expect((await waitForHealth(appPort, app.output)).status).toBe(200);

  // The merchant installs Dakiya, maps each location to its warehouse, and lets the rules book everything.
  const shop = store.domain;
  const token = () => signSessionToken(appCredentials(), shop);
  const base = `http://localhost:${appPort}`;
  expect((await fetch(`${base}/app?embedded=1&shop=${shop}&host=${hostOf(shop)}&id_token=${token()}`, { headers: { "User-Agent": BROWSER } })).status).toBe(200);
  const headers = () => ({ Authorization: `Bearer ${token()}`, "User-Agent": BROWSER });
  const settings = new URLSearchParams({ mode: "sandbox", environment: "test", defaultWarehouseId: "", packageLength: "20", packageBreadth: "15", packageHeight: "10", defaultWeightKg: "0.5", codTag: "cod", prepaidTag: "prepaid", notifyCustomer: "on", [`location:${LOCATION_BHIWANDI}`]: "1", [`location:${LOCATION_GURUGRAM}`]: "2" });
  expect((await fetch(`${base}/app/settings?_data=routes%2Fapp.settings`, { method: "POST", headers: headers(), body: settings })).status).toBe(200);
  const rules = JSON.stringify([{ ...EMPTY_DRAFT, name: "Everything", action: "recommended" }]);
  const saved = await fetch(`${base}/app/auto-booking?_data=routes%2Fapp.auto-booking`, { method: "POST", headers: headers(), body: new URLSearchParams({ intent: "save", autoBooking: "on", rules }) });
  expect(await saved.json()).toMatchObject({ kind: "saved", autoBooking: true });
}, 120_000);

afterAll(async () => {
  courierProxy.release();
  shopifyProxy.release();
  await Promise.all([...workers, app].filter(Boolean).map((started) => started.stop()));
  await db?.end();
  await store?.close();
  await courierProxy.close();
  await shopifyProxy.close();
});

/** A shopper's cash-on-delivery order of one item stocked only at Bhiwandi and one stocked only at Gurugram. */
const placeTwoWarehouseOrder = (index: number) => store.simulator.placeOrder(store.domain, twoWarehouseOrder(index));

/**
 * Holds this order's second parcel at the courier. Set as soon as the order is placed (its webhook goes out on a later
 * turn): the rules also book the store's seed orders, one of which ships as two parcels too.
 */
const holdSecondParcelOf = (order: { name: string }) =>
  courierProxy.holdWhen((path, body) => path.startsWith("/v1/create-order") && body.includes(`"order_id":"${order.name.slice(1)}-2"`));

const parcelsOf = async (orderGid: string) =>
  (await db.query<{ parcel: number; status: string; awb: string | null; requestPayload: string; locationGid: string | null }>(`SELECT parcel, status, awb, "requestPayload", "locationGid" FROM "Shipment" WHERE shop = $1 AND "orderGid" = $2 ORDER BY parcel`, [store.domain, orderGid])).rows;

/** Kills the worker where it stands, lets go of what it was held at, and has another worker finish the order. */
async function killAndFinish(worker: StartedServer, order: { id: string; name: string }) {
  process.kill(-worker.child.pid!, "SIGKILL");
  await worker.exited;
  // Its jobs fell silent: they count as abandoned now rather than after the heartbeat's 20 s (the app process runs no
  // jobs, and the next worker is not started yet).
  await runningJobsAbandoned(db);
  courierProxy.release();
  shopifyProxy.release();
  startWorker();
  await until(
    "both parcels booked and fulfilled by the next worker",
    async () => {
      // A retry is due at once rather than after its back-off: the test is that the work is retried, and by whom.
      await retriesDueNow(db);
      return (await parcelsOf(order.id)).filter((parcel) => parcel.status === "fulfilled").length === 2;
    },
    150_000,
  );

  // Exactly once, parcel by parcel: two awbs, two orders at the courier (the order's number and "-2"), two
  // fulfillments in Shopify, each at its own location with its own awb.
  const parcels = await parcelsOf(order.id);
  expect(parcels.map((parcel) => parcel.locationGid)).toEqual([LOCATION_BHIWANDI, LOCATION_GURUGRAM]);
  expect(new Set(parcels.map((parcel) => parcel.awb)).size).toBe(2);
  const atCourier = (await db.query<{ orderId: string; awb: string }>(`SELECT o."orderId", o.awb FROM "ServiceOrder" o JOIN "ApiClient" a ON a.id = o."apiClientId" WHERE a.name = $1 AND o."orderId" LIKE $2 ORDER BY o."orderId"`, [store.domain, `${order.name.slice(1)}%`])).rows;
  expect(atCourier.map((row) => row.orderId)).toEqual([order.name.slice(1), `${order.name.slice(1)}-2`]);
  expect(atCourier.map((row) => row.awb).sort()).toEqual(parcels.map((parcel) => parcel.awb).sort());
  // In whichever order the watchdogs finished them.
  const fulfillments = [...store.shop.orders.find((candidate) => candidate.id === order.id)!.fulfillments].sort((a, b) => a.locationId!.localeCompare(b.locationId!));
  expect(fulfillments.map((fulfillment) => [fulfillment.locationId, fulfillment.trackingInfo.map((info) => info.number)])).toEqual([
    [LOCATION_BHIWANDI, [parcels[0]!.awb]],
    [LOCATION_GURUGRAM, [parcels[1]!.awb]],
  ]);
  expect(await count(`SELECT count(*) FROM pgboss.job WHERE state = 'failed'`), await failedWorkHistory(db)).toBe(0);
}

describe("a worker killed between an order's two parcels", () => {
  it("while the second parcel is at the courier: the next worker books it once, with the same body", { timeout: 240_000 }, async () => {
    const worker = startWorker();
    await waitForOutput(/worker running 2 jobs at once/, worker.output, 30_000);
    const order = placeTwoWarehouseOrder(1);
    holdSecondParcelOf(order);
    await until("the second parcel's booking held at the courier", async () => courierProxy.heldCount > 0 && (await parcelsOf(order.id)).some((parcel) => parcel.parcel === 1 && parcel.status === "fulfilled"));
    expect((await parcelsOf(order.id)).map((parcel) => [parcel.parcel, parcel.status])).toEqual([
      [1, "fulfilled"],
      [2, "booking"],
    ]);
    await killAndFinish(worker, order);
  });

  it("while the first parcel is booked but not yet fulfilled: neither parcel is left unfulfilled, nor booked twice", { timeout: 240_000 }, async () => {
    const worker = startWorker();
    await waitForOutput(/worker running 2 jobs at once/, worker.output, 30_000);
    // Shopify does not take the first parcel's fulfillment (its booker goes on to the second parcel, held at the
    // courier) until the test lets it: not after a few answers, or the watchdog, 5 s after the claim, fulfills the
    // first parcel before a busy machine has the second at the courier.
    store.shop.faults.set("fulfillmentCreate", { kind: "THROTTLED", times: Infinity });
    const order = placeTwoWarehouseOrder(2);
    holdSecondParcelOf(order);
    await until("the first parcel booked, the second held at the courier", async () => courierProxy.heldCount > 0 && (await parcelsOf(order.id)).some((parcel) => parcel.parcel === 1 && parcel.status === "booked_unfulfilled"));
    store.shop.faults.delete("fulfillmentCreate");
    await killAndFinish(worker, order);
  });

  it("after the first parcel is fulfilled and before the second is begun: the order's check, retried, books it", { timeout: 240_000 }, async () => {
    const worker = startWorker();
    await waitForOutput(/worker running 2 jobs at once/, worker.output, 30_000);
    // The first parcel's tag and metafields go to Shopify right after its fulfillment: held there, the second parcel has not been claimed.
    const order = placeTwoWarehouseOrder(3);
    shopifyProxy.holdWhen((_path, body) => body.includes("mutation MarkOrderBooked") && body.includes(JSON.stringify(order.id)));
    await until("the first parcel's fulfillment in Shopify", async () => shopifyProxy.heldCount > 0 && store.shop.orders.find((candidate) => candidate.id === order.id)!.fulfillments.length === 1);
    expect((await parcelsOf(order.id)).map((parcel) => parcel.parcel)).toEqual([1]);
    await killAndFinish(worker, order);
  });
});
