import { createHash } from "node:crypto";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { LOCAL_DEFAULTS, loadConfig } from "../../app/config.server";
import { createCourierClient, type CourierClient } from "../../app/shipping/client.server";
import { SANDBOX_CALL_LIMITS, sandboxAccountCredentials } from "../../app/shipping/sandbox-accounts.server";
import { LIVE_CALL_LIMITS } from "../../app/shipping/courier-pace";
import { BUSY_QUEUE_JOBS_AT_ONCE } from "../../app/jobs/queues";
import { SERVICE_STATUS_LABELS, type ServiceStatusCode } from "../../app/shipping/status";
import { eventMessage, STAGES } from "../../app/tracking/courier-progress";
import { gid, nextId } from "../../store/model";
import { readyOrders } from "../../store/seed";
import { sampleOrder } from "../../test/support/orders";
import type { BenchContext } from "../lib/context";
import { fleetNeeds, predictCycle, TEN_MILLION, withinPrediction, type Fleet, type MachineLimits, type ParcelCosts } from "../lib/capacity-model";
import { machineCpuMs } from "../lib/cpu";
import { fmtMs, fmtRate, section, verdict, type DetailTable, type Section } from "../lib/results";
import { cpuSince, PLUS_PLAN, startStoreWorld, usageSince, type StoreWorld, type WorldCpu } from "../lib/store-world";
import { awbOf, type RequestKind } from "../load/requests";
import type { Measurement } from "./measurement";

/**
 * One tracking sync cycle over a shop's active shipments, through the real job queue: the tracking sweep (what the
 * worker's schedule runs every minute) finds the shop's due shipments and the worker's `tracking-sync` jobs read
 * each one's `track-order` from the courier sandbox over HTTP and post what changed to Shopify as fulfillment
 * events. Cycles over the same shop with none and with some of its shipments changed, and over a smaller shop with
 * as many changed, show what grows with the number tracked (courier calls, our CPU) and what with the number
 * changed (Shopify's points).
 */
const ID = "tracking-sync";
const TITLE = "Tracking sync cycle";
const FULL = { tracked: 10_000, changed: 500, smaller: 2_000, fleetShops: 100, fleetPerShop: 1_000 };
// The default fits the bench's 10 minutes; --full tracks 10,000 in one shop, then 100,000 across 100.
const DEFAULT = { tracked: 1_000, changed: 100, smaller: 250, fleetShops: 10, fleetPerShop: 300 };
/** Jobs the world's worker runs at once (WORKER_CONCURRENCY's default); of one queue, such as tracking-sync, fewer. */
const WORKER_JOBS = 8;
const TRACKING_PASSES_AT_ONCE = Math.min(WORKER_JOBS, BUSY_QUEUE_JOBS_AT_ONCE);
/** Shops seeded at once for the fleet cycle: installs and template bookings overlap, the worker is not swamped. */
const SEEDING_AT_ONCE = 4;
/**
 * PostgreSQL hands a backend's row counts to its statistics at most once a second, and an idle backend's within ten:
 * the counts are read this long after the work they count.
 */
const STATISTICS_SETTLE_MS = 11_000;
/** The fleet cycle stops waiting after this, whatever the prediction: the --full run's hard stop is an hour. */
const FLEET_MAX_SECONDS = 30 * 60;
/**
 * The fleet the model is asked about, at the product's own settings: tracking's base interval as configured by default,
 * its shops on live aggregator accounts at the product's assumed limit.
 */
const PRODUCT_DEFAULTS = loadConfig({});
const ASKED: Fleet = {
  ...TEN_MILLION,
  baseSeconds: PRODUCT_DEFAULTS.TRACKING_SYNC_SECONDS,
  courierCallsPerSecondPerAccount: LIVE_CALL_LIMITS.perSecond,
  courierCallsAtOncePerAccount: LIVE_CALL_LIMITS.atOnce,
  callsInFlightPerWorker: Math.min(PRODUCT_DEFAULTS.WORKER_CONCURRENCY, BUSY_QUEUE_JOBS_AT_ONCE) * LIVE_CALL_LIMITS.atOnce,
};
const FLOOR_SECONDS = 3;
/**
 * The bare calls before the first floor, unmeasured. After 3 s of them the floors still rose through the run (192/s,
 * 215/s, 232/s, 235/s in one), the courier service's path still being optimised; after 12 s they no longer rose in
 * three runs, only moved up and down (by up to a sixth), as the machine drifts.
 */
const COURIER_WARM_UP_SECONDS = 12;
const WARM_UP = 500;
/**
 * The cycle with none changed runs this many times, each between two runs of the floor: the machine's speed drifts
 * over seconds (PostgreSQL's background writes, other work), and a share taken from one cycle and a floor measured
 * after it read that drift as the sync's. Each cycle is set beside the mean of the floors on either side of it, and
 * the median of those shares is reported.
 */
const REPEATS = 3;
/** A pass reads the sandbox as many at a time as it declares it allows: the floor runs at the same width. */
const AT_ONCE = SANDBOX_CALL_LIMITS.atOnce;

/**
 * Fairness across shops, at the issue's own numbers: one shop with this many parcels due for ten minutes, and ten
 * small shops' parcels due just now. The small shops' parcels are to be synced within one run of the tracking
 * sweep's schedule (app/jobs/queues.ts SCHEDULES: every minute), however far behind the big shop is.
 */
const FAIRNESS = { bigShop: 50_000, smallShops: 10, perSmallShop: 20 };
const SWEEP_INTERVAL_SECONDS = 60;
/** The fairness phase stops waiting for the small shops after this; the big shop is never waited for. */
const FAIRNESS_MAX_SECONDS = 5 * SWEEP_INTERVAL_SECONDS;

interface Seeded {
  shop: string;
  awbPrefix: string;
  awbs: string[];
  client: CourierClient;
}

interface Cycle {
  name: string;
  tracked: number;
  changed: number;
  seconds: number;
  synced: number;
  passes: number;
  posted: number;
  /** Points and answers of the sync's own operations (reading a fulfillment's events, posting one). */
  points: number;
  answers: number;
  /** Points the shop's other work spent meanwhile (the schedule's read of recent orders). */
  otherPoints: number;
  cpu: WorldCpu;
  /** CPU other work on the machine took while the cycle ran (ms, all cores). */
  othersCpu: number;
}

/** What the database had written so far: rows (inserted, updated, deleted) and write-ahead log. */
interface Writes {
  rows: number;
  walBytes: number;
}

const count = (value: number) => value.toLocaleString("en-US");
/** The Admin API operations a tracking sync sends (app/shopify/queries.ts). */
const SYNC_OPERATIONS = new Set(["FulfillmentEvents", "FulfillmentEventCreate"]);

/** The sandbox account the shop books on, through the app's own courier client (as the worker calls it). */
function courierOf(world: StoreWorld, shop: string): CourierClient {
  const credentials = sandboxAccountCredentials({ apiKey: LOCAL_DEFAULTS.SANDBOX_API_KEY, secretKey: LOCAL_DEFAULTS.SANDBOX_SECRET_KEY }, shop);
  return createCourierClient({ ...credentials, environment: "test", sandboxUrl: world.app.url });
}

/**
 * `tracked` fulfilled shipments of one shop, each in all three places as booking and a first sync leave it: the
 * courier's order and its first tracking entry, the Shopify order's fulfillment (with that entry posted as its first
 * event), and the app's Shipment with the entry stored and posted, due for a sync. One order is booked through the
 * courier for real; the rest are copies of it written in bulk with SQL (and in the simulator's memory), which is
 * the only way to have thousands without booking them at Shopify's pace.
 */
async function seedShipments(world: StoreWorld, shop: string, tracked: number, awbPrefix: string, { shopifyOrders = true }: { shopifyOrders?: boolean } = {}): Promise<Seeded> {
  await world.installShop(shop);
  const client = courierOf(world, shop);
  const request = sampleOrder({ order_id: `${awbPrefix}-template` });
  const template = await client.createOrder(request);
  const [order] = await world.query<{ id: number; apiClientId: number; logisticName: string; trackingUrl: string }>(`SELECT id, "apiClientId", "logisticName", "trackingUrl" FROM "ServiceOrder" WHERE awb = $1`, [template.awb]);
  const [entry] = await world.query<{ step: number; code: number; activity: string; location: string | null }>(`SELECT step, code, activity, location FROM "ServiceTrackingEvent" WHERE "orderId" = $1 ORDER BY step LIMIT 1`, [order!.id]);
  // An hour ago: the sandbox's clock moves a manifested shipment on after four hours, so nothing changes unless advanced.
  const happenedAt = new Date(Date.now() - 3_600_000);
  const awbs = Array.from({ length: tracked }, (_, index) => awbOf(awbPrefix, index));

  const columns = (await world.query<{ name: string }>(`SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'ServiceOrder' AND column_name <> 'id'`)).map((row) => row.name);
  const copied = columns.map((column) =>
    column === "orderId" ? `$2 || '-' || g` : column === "awb" ? `$2 || lpad(g::text, 6, '0')` : column === "createdAt" || column === "updatedAt" ? "$3::timestamptz" : `t."${column}"`,
  );
  await world.query(`INSERT INTO "ServiceOrder" (${columns.map((column) => `"${column}"`).join(", ")}) SELECT ${copied.join(", ")} FROM "ServiceOrder" t, generate_series(0, $4 - 1) g WHERE t.id = $1`, [order!.id, awbPrefix, happenedAt, tracked]);
  await world.query(
    `INSERT INTO "ServiceTrackingEvent" ("orderId", step, code, location, activity, "happenedAt") SELECT id, $2, $3, $4, $5, $6 FROM "ServiceOrder" WHERE "apiClientId" = $1 AND awb LIKE $7`,
    [order!.apiClientId, entry!.step, entry!.code, entry!.location, entry!.activity, happenedAt, `${awbPrefix}%`],
  );

  // The Shopify side: an order per shipment, fulfilled with its awb, the first entry already an event on it. A cycle
  // in which nothing changes asks Shopify nothing (it checks it spent no points): its shops' orders are not kept in
  // the simulator's memory, only their ids in the app's rows.
  const code = entry!.code as ServiceStatusCode;
  const store = world.simulator.shop(shop);
  const orders = shopifyOrders ? readyOrders(tracked) : [];
  const eventGids: string[] = shopifyOrders ? [] : awbs.map(() => gid("FulfillmentEvent", nextId()));
  const fulfillmentGids: string[] = shopifyOrders ? [] : awbs.map(() => gid("Fulfillment", nextId()));
  const orderRefs = shopifyOrders ? [] : awbs.map((_, index) => ({ id: gid("Order", nextId()), name: `#${awbPrefix}-${index}` }));
  orders.forEach((storeOrder, index) => {
    const fulfillmentOrder = storeOrder.fulfillmentOrders[0]!;
    fulfillmentOrder.status = "CLOSED";
    for (const line of fulfillmentOrder.lines) line.remainingQuantity = 0;
    const event = { id: gid("FulfillmentEvent", nextId()), status: STAGES[code].shopifyStatus, message: eventMessage(code, entry!.activity), happenedAt: new Date(Math.floor(happenedAt.getTime() / 1000) * 1000).toISOString().replace(".000Z", "Z"), estimatedDeliveryAt: null, city: entry!.location };
    const fulfillment = {
      id: gid("Fulfillment", nextId()),
      name: `${storeOrder.name}-F1`,
      status: "SUCCESS" as const,
      createdAt: happenedAt.toISOString(),
      updatedAt: happenedAt.toISOString(),
      trackingInfo: [{ company: order!.logisticName, number: awbs[index]!, url: order!.trackingUrl }],
      notifyCustomer: true,
      fulfillmentOrderIds: [fulfillmentOrder.id],
      lines: fulfillmentOrder.lines.map((line) => ({ lineItemId: line.lineItemId, quantity: line.totalQuantity })),
      events: [event],
    };
    storeOrder.fulfillments.push(fulfillment);
    storeOrder.updatedAt = fulfillment.updatedAt;
    eventGids.push(event.id);
    fulfillmentGids.push(fulfillment.id);
  });
  store.orders.push(...orders);
  for (const storeOrder of orders) orderRefs.push({ id: storeOrder.id, name: storeOrder.name });

  // The app's side, as the booking and a first sync left it: fulfilled, the entry stored and posted, synced just now
  // and due again in 50 minutes (a manifested shipment's interval). Its request is the one the booking sent, so the
  // row is as large as a real one. Each cycle makes them all due at once; until then
  // the worker's own sweep leaves them alone.
  await world.query(
    `INSERT INTO "Shipment" (shop, "orderGid", "orderName", status, "requestPayload", "courierEnvironment", awb, "courierId", "courierName", "paymentMode", "trackingUrl", "fulfillmentGid",
       "courierStatusCode", "courierStatusLabel", "courierStatusAt", "lastScanAt", "syncedAt", "nextSyncAt", "createdAt", "updatedAt")
     SELECT $1, u.gid, u.name, 'fulfilled', $11, 'test', u.awb, 1, $2, 'prepaid', $3, u.fulfillment, $4, $5, $6, $6, now(), now() + interval '50 minutes', $6, now()
       FROM unnest($7::text[], $8::text[], $9::text[], $10::text[]) AS u(gid, name, awb, fulfillment)`,
    [shop, order!.logisticName, order!.trackingUrl, code, SERVICE_STATUS_LABELS[code], happenedAt, orderRefs.map((ref) => ref.id), orderRefs.map((ref) => ref.name), awbs, fulfillmentGids, JSON.stringify(request)],
  );
  // The fingerprint the sync gives this entry (app/tracking/sync.server.ts): read again, it is the same row.
  const fingerprint = createHash("sha256").update(`${code}|${happenedAt.toISOString()}|${entry!.activity}`).digest("hex").slice(0, 40);
  await world.query(
    `INSERT INTO "TrackingEvent" (shop, "shipmentId", fingerprint, code, label, activity, location, "happenedAt", "postedAt", "shopifyEventGid")
     SELECT $1, s.id, $2, $3, $4, $5, $6, $7, now(), u.event FROM "Shipment" s JOIN unnest($8::text[], $9::text[]) AS u(awb, event) ON u.awb = s.awb WHERE s.shop = $1`,
    [shop, fingerprint, code, SERVICE_STATUS_LABELS[code], entry!.activity, entry!.location, happenedAt, awbs, eventGids],
  );
  // The orders' reconciliation has read everything up to now (as it would have, every ten minutes): the seeded
  // orders, last changed an hour ago, are not news to it.
  await world.query(`UPDATE "ShopSync" SET "ordersSeenUntil" = now() WHERE shop = $1`, [shop]);
  return { shop, awbPrefix, awbs, client };
}

/** Moves `changed` of the shipments, spread evenly, on by one stage at the courier (sandbox/advance). */
async function advance(seeded: Seeded, changed: number): Promise<void> {
  const picked = Array.from({ length: changed }, (_, index) => seeded.awbs[Math.floor((index * seeded.awbs.length) / changed)]!);
  for (let start = 0; start < picked.length; start += 8) await Promise.all(picked.slice(start, start + 8).map((awb) => seeded.client.advanceSandboxShipment(awb)));
}

/** What the database has written so far, read once its backends have handed in their counts. */
async function writesSoFar(world: StoreWorld): Promise<Writes> {
  await new Promise((resolve) => setTimeout(resolve, STATISTICS_SETTLE_MS));
  const [row] = await world.query<{ rows: string; wal: string }>(
    `SELECT (tup_inserted + tup_updated + tup_deleted)::text AS rows, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS wal FROM pg_stat_database WHERE datname = current_database()`,
  );
  return { rows: Number(row!.rows), walBytes: Number(row!.wal) };
}

const writesSince = (after: Writes, before: Writes): Writes => ({ rows: after.rows - before.rows, walBytes: after.walBytes - before.walBytes });

/**
 * One sync cycle: every shipment of the shops due now, the sweep run, and the passes it takes until none is left due
 * (a sweep put off to later, such as the next minute's, is not waited for).
 */
async function cycle(context: BenchContext, world: StoreWorld, shops: readonly Seeded[], name: string, changed: number, allowedSeconds: number): Promise<Cycle> {
  const names = shops.map((seeded) => seeded.shop);
  const tracked = shops.reduce((sum, seeded) => sum + seeded.awbs.length, 0);
  await world.query(`UPDATE "Shipment" SET "nextSyncAt" = now() - interval '1 second' WHERE shop = ANY($1::text[])`, [names]);
  const [{ start }] = (await world.query<{ start: Date }>(`SELECT now() AS start`)) as [{ start: Date }];
  const usageBefore = names.map((shop) => world.simulator.shop(shop).usage.points);
  const operationsBefore = names.map((shop) => world.usageByOperation(shop));
  const cpuBefore: WorldCpu = world.cpu();
  const machineBefore = machineCpuMs();
  const began = performance.now();
  context.log(`${name}: the sweep runs; waiting for every due shipment to be synced`);
  // The queue keeps one waiting sweep: one that an earlier sweep put off to when its next shipment falls due would
  // swallow this one, and the cycle would start only at that time (and the worker's next look at the queue).
  await world.query(`DELETE FROM pgboss.job WHERE name = 'tracking-sweep' AND state = 'created'`);
  await world.enqueue("tracking-sweep", {});
  // A sweep the last one put off to when another shop's next shipment falls due is not this cycle's work.
  let state = { due: tracked, jobs: 1 };
  let lastLog = performance.now();
  while ((state.due > 0 || state.jobs > 0) && performance.now() - began < allowedSeconds * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    [state] = (await world.query<{ due: number; jobs: number }>(
      `SELECT (SELECT count(*)::int FROM "Shipment" WHERE shop = ANY($1::text[]) AND "nextSyncAt" <= $2) AS due,
              (SELECT count(*)::int FROM pgboss.job WHERE name IN ('tracking-sweep', 'tracking-sync') AND state IN ('created', 'retry', 'active')
                 AND (data->>'shop' = ANY($1::text[]) OR (name = 'tracking-sweep' AND start_after <= now()))) AS jobs`,
      [names, start],
    )) as [{ due: number; jobs: number }];
    if (performance.now() - lastLog > 15_000) {
      lastLog = performance.now();
      context.log(`${name}: ${count(tracked - state.due)} of ${count(tracked)} synced after ${((performance.now() - began) / 1000).toFixed(0)} s`);
    }
  }
  const cpuAfter = world.cpu();
  // The cycle ends when its last pass is done, as the queue recorded it; the wait above only notices it up to a poll
  // later. It began when the sweep was put in the queue.
  const [ended] = await world.query<{ seconds: number | null }>(
    `SELECT EXTRACT(EPOCH FROM max(completed_on) - $2::timestamptz)::float8 AS seconds FROM pgboss.job
      WHERE name = 'tracking-sync' AND data->>'shop' = ANY($1::text[]) AND created_on >= $2 AND state = 'completed'`,
    [names, start],
  );
  const seconds = state.due === 0 && state.jobs === 0 && ended?.seconds ? ended.seconds : (performance.now() - began) / 1000;
  const machineAfter = machineCpuMs();
  const [done] = await world.query<{ synced: number; posted: number; passes: number }>(
    `SELECT (SELECT count(*)::int FROM "Shipment" WHERE shop = ANY($1::text[]) AND "syncedAt" >= $2) AS synced,
            (SELECT count(*)::int FROM "TrackingEvent" WHERE shop = ANY($1::text[]) AND "postedAt" >= $2) AS posted,
            (SELECT count(*)::int FROM pgboss.job WHERE name = 'tracking-sync' AND data->>'shop' = ANY($1::text[]) AND created_on >= $2) AS passes`,
    [names, start],
  );
  const sync = { points: 0, answers: 0 };
  let allPoints = 0;
  names.forEach((shop, index) => {
    allPoints += world.simulator.shop(shop).usage.points - usageBefore[index]!;
    for (const [operation, entry] of usageSince(world.usageByOperation(shop), operationsBefore[index]!)) {
      if (!SYNC_OPERATIONS.has(operation)) continue;
      sync.points += entry.points;
      sync.answers += entry.answers;
    }
  });
  const cpu = cpuSince(cpuAfter, cpuBefore);
  const ours = cpu.worker + cpu.app + (cpu.postgres ?? 0) + cpu.simulator;
  return {
    name,
    tracked,
    changed,
    seconds,
    synced: done!.synced,
    passes: done!.passes,
    posted: done!.posted,
    points: sync.points,
    answers: sync.answers,
    otherPoints: allPoints - sync.points,
    cpu,
    othersCpu: Math.max(0, machineAfter.busy - machineBefore.busy - ours),
  };
}

interface Fairness {
  /** From the sweep put in the queue to every small shop's parcel synced; null if they were not all synced. */
  seconds: number | null;
  smallSynced: number;
  smallTracked: number;
  /** The big shop's parcels synced by the time the small shops' were all synced (or the wait ended). */
  bigSynced: number;
  /** From the sweep put in the queue to the big shop's first parcel synced: it is not starved either. */
  bigFirstSeconds: number | null;
  bigTracked: number;
}

/**
 * One shop far behind and ten small shops just due, all at once: how soon the small shops' parcels are synced while
 * the big shop's are still being worked through. The big shop is then put out of the way (its parcels no longer
 * due, its running passes let finish), so nothing after this phase shares the worker with it.
 */
async function fairness(context: BenchContext, world: StoreWorld): Promise<Fairness> {
  const bigShop = await seedShipments(world, `bench-${context.runId}-fair-big.myshopify.com`, FAIRNESS.bigShop, `BT${context.runId}B`, { shopifyOrders: false });
  const small = await seedShops(context, world, { name: "fair", awbLetter: "Q", shops: FAIRNESS.smallShops, perShop: FAIRNESS.perSmallShop });
  const smallNames = small.map((seeded) => seeded.shop);
  const smallTracked = FAIRNESS.smallShops * FAIRNESS.perSmallShop;
  await world.query(`UPDATE "Shipment" SET "nextSyncAt" = now() - interval '10 minutes' WHERE shop = $1`, [bigShop.shop]);
  await world.query(`UPDATE "Shipment" SET "nextSyncAt" = now() - interval '1 second' WHERE shop = ANY($1::text[])`, [smallNames]);
  const [{ start }] = (await world.query<{ start: Date }>(`SELECT now() AS start`)) as [{ start: Date }];
  context.log(`fairness: ${count(FAIRNESS.bigShop)} parcels of one shop and ${count(smallTracked)} of ${FAIRNESS.smallShops} small shops due; the sweep runs`);
  await world.query(`DELETE FROM pgboss.job WHERE name = 'tracking-sweep' AND state = 'created'`);
  await world.enqueue("tracking-sweep", {});
  const began = performance.now();
  // Timed as seen: a pass stamps its parcels' syncedAt when it reads them and writes them together after, so a
  // parcel counts as synced once its row says so (to within a poll), not from the stamp.
  let seen = { small: 0, big: 0 };
  let seconds: number | null = null;
  let bigSynced = 0;
  let bigFirstSeconds: number | null = null;
  while ((seconds === null || bigFirstSeconds === null) && performance.now() - began < FAIRNESS_MAX_SECONDS * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    [seen] = (await world.query<{ small: number; big: number }>(
      `SELECT count(*) FILTER (WHERE shop = ANY($1::text[]))::int AS small, count(*) FILTER (WHERE shop = $2)::int AS big FROM "Shipment" WHERE shop = ANY($1::text[] || $2) AND "syncedAt" >= $3`,
      [smallNames, bigShop.shop, start],
    )) as [{ small: number; big: number }];
    const elapsed = (performance.now() - began) / 1000;
    if (seconds === null && seen.small === smallTracked) [seconds, bigSynced] = [elapsed, seen.big];
    if (bigFirstSeconds === null && seen.big > 0) bigFirstSeconds = elapsed;
  }
  // The big shop out of the way: nothing of it is due any more, and its passes already running are let finish.
  await world.query(`UPDATE "Shipment" SET "nextSyncAt" = now() + interval '1 day' WHERE shop = $1`, [bigShop.shop]);
  const settling = performance.now();
  while (performance.now() - settling < FAIRNESS_MAX_SECONDS * 1000) {
    const [{ jobs }] = (await world.query<{ jobs: number }>(
      `SELECT count(*)::int AS jobs FROM pgboss.job WHERE name = 'tracking-sync' AND data->>'shop' = $1 AND state IN ('created', 'retry', 'active')`,
      [bigShop.shop],
    )) as [{ jobs: number }];
    if (jobs === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    seconds,
    smallSynced: seen.small,
    smallTracked,
    bigSynced: seconds === null ? seen.big : bigSynced,
    bigFirstSeconds,
    bigTracked: FAIRNESS.bigShop,
  };
}

/**
 * Seeds `shops` shops (named for `name`, their awbs marked with `awbLetter`) of `perShop` shipments each, a few shops
 * at a time, none of them with orders in the simulator.
 */
async function seedShops(context: BenchContext, world: StoreWorld, { name, awbLetter, shops, perShop }: { name: string; awbLetter: string; shops: number; perShop: number }): Promise<Seeded[]> {
  const seeded: Seeded[] = [];
  const began = performance.now();
  for (let first = 0; first < shops; first += SEEDING_AT_ONCE) {
    const batch = Array.from({ length: Math.min(SEEDING_AT_ONCE, shops - first) }, (_, offset) => first + offset);
    seeded.push(...(await Promise.all(batch.map((index) => seedShipments(world, `bench-${context.runId}-${name}-${index}.myshopify.com`, perShop, `BT${context.runId}${awbLetter}${index}X`, { shopifyOrders: false })))));
    if ((first / SEEDING_AT_ONCE) % 5 === 4) context.log(`${name}: ${seeded.length} of ${shops} shops seeded after ${((performance.now() - began) / 1000).toFixed(0)} s`);
  }
  return seeded;
}

/** The bytes a table's row takes with its share of the table's indexes (and of the dead rows updates leave). */
async function bytesPerRow(world: StoreWorld, table: "Shipment" | "TrackingEvent"): Promise<{ rows: number; bytes: number }> {
  const [row] = await world.query<{ rows: number; bytes: string }>(`SELECT count(*)::int AS rows, pg_total_relation_size('"${table}"')::text AS bytes FROM "${table}"`);
  return { rows: row!.rows, bytes: Number(row!.bytes) / Math.max(1, row!.rows) };
}

const grouped = (value: number, digits = 0) => value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The model's table for a fleet: every figure with the arithmetic that gives it. */
function modelTable(costs: ParcelCosts, fleet: Fleet): DetailTable {
  const needs = fleetNeeds(costs, fleet);
  const perShop = fleet.liveParcels / fleet.shops;
  const largest = fleet.liveParcels * fleet.largestShopShare;
  const mix = Object.entries(fleet.stageMix)
    .map(([code, share]) => `${Math.round(share * 100)} % at ${code}`)
    .join(", ");
  const rows: string[][] = [
    ["polls a parcel a day", `stage mix (${mix}) × 86,400 s ÷ (the stage's pollEvery × ${fleet.baseSeconds} s)`, grouped(needs.pollsPerParcelPerDay, 1)],
    ["polls a second", `${grouped(fleet.liveParcels)} parcels × ${grouped(needs.pollsPerParcelPerDay, 1)} ÷ 86,400`, grouped(needs.pollsPerSecond)],
    ["changes (new entries) a second", `${grouped(fleet.liveParcels)} × ${fleet.entriesPerParcel - 1} entries after the first ÷ (${fleet.lifeDays} days × 86,400)`, grouped(needs.changesPerSecond)],
    ["bookings a second", `${grouped(fleet.liveParcels)} ÷ (${fleet.lifeDays} days × 86,400)`, grouped(needs.bookingsPerSecond, 1)],
    ["worker cores", `${grouped(needs.pollsPerSecond)} polls × ${costs.workerMsPerPoll.toFixed(2)} ms + ${grouped(needs.changesPerSecond)} changes × ${costs.workerMsPerChange.toFixed(2)} ms`, grouped(needs.workerCores, 1)],
    ["courier calls in flight", `${grouped(needs.pollsPerSecond)} polls × ${fleet.courierCallMs} ms a call (assumed for a live aggregator)`, grouped(needs.callsInFlight)],
    [
      "worker processes",
      `the more of: ${grouped(needs.workerCores, 1)} cores ÷ ${fleet.workerCoresPerProcess} a process; ${grouped(needs.callsInFlight)} calls in flight ÷ ${fleet.callsInFlightPerWorker} a process (its tracking passes at once × an account's calls at once)`,
      `${needs.workerProcesses}`,
    ],
    ["PostgreSQL cores (Dakiya's own)", `${grouped(needs.pollsPerSecond)} polls × ${costs.postgresMsPerPoll.toFixed(2)} ms`, grouped(needs.postgresCores, 1)],
    ["PostgreSQL rows written a second", `${grouped(needs.pollsPerSecond)} × ${costs.rowWritesPerPoll.toFixed(2)} + ${grouped(needs.changesPerSecond)} × ${costs.rowWritesPerChange.toFixed(1)}`, grouped(needs.rowWritesPerSecond)],
    ["PostgreSQL write-ahead log", `${grouped(needs.pollsPerSecond)} × ${grouped(costs.walBytesPerPoll)} B + ${grouped(needs.changesPerSecond)} × ${grouped(costs.walBytesPerChange)} B`, `${grouped(needs.walMegabytesPerSecond, 1)} MB/s`],
    ["table and index size (live parcels)", `${grouped(fleet.liveParcels)} × (${grouped(costs.shipmentBytes)} B a shipment + ${fleet.entriesPerParcel / 2} entries × ${grouped(costs.trackingEntryBytes)} B)`, `${grouped(needs.storedGigabytes, 1)} GB`],
    ["courier calls a second", "one a poll", grouped(needs.courierCallsPerSecond)],
    ["the courier's CPU (the aggregator's, not ours)", `${grouped(needs.pollsPerSecond)} × ${costs.courierMsPerPoll.toFixed(2)} ms (the sandbox's own track-order)`, `${grouped(needs.courierCpuCores, 1)} cores`],
    ["calls a second, average shop / largest shop", `${grouped(perShop)} and ${grouped(largest)} parcels × ${grouped(needs.pollsPerParcelPerDay, 1)} ÷ 86,400, against ${fleet.courierCallsPerSecondPerAccount}/s an account`, `${grouped(needs.pollsPerSecond / fleet.shops, 2)} / ${grouped(needs.largestShopCallsPerSecond, 1)}`],
    [
      "live parcels one account keeps current",
      `the lower of ${fleet.courierCallsPerSecondPerAccount}/s and ${fleet.courierCallsAtOncePerAccount} at once ÷ ${fleet.courierCallMs} ms, × 86,400 ÷ ${grouped(needs.pollsPerParcelPerDay, 1)}`,
      grouped(needs.parcelsPerAccount),
    ],
    [
      "Shopify points a second, average shop / largest shop",
      `share × (${grouped(needs.changesPerSecond)} changes × ${costs.pointsPerChange.toFixed(1)} + ${grouped(needs.bookingsPerSecond, 1)} bookings × ${fleet.pointsPerBooking}), against ${fleet.restorePerSecond.standard}/s (Standard), ${grouped(fleet.restorePerSecond.plus)}/s (Plus)`,
      `${grouped(needs.averageShopPointsPerSecond, 2)} / ${grouped(needs.largestShopPointsPerSecond, 1)}`,
    ],
    ...needs.saturation.map((part, index) => [index === 0 ? `saturates first: ${part.part}` : `then: ${part.part}`, `use against its limit (${part.limit})`, `${(part.used * 100).toFixed(0)} %`]),
  ];
  return { title: `The capacity model for ${grouped(fleet.liveParcels)} live parcels across ${grouped(fleet.shops)} shops, from this run's costs (docs/CAPACITY.md)`, header: ["figure", "arithmetic", "value"], rows };
}

export const trackingSync: Measurement = {
  id: ID,
  title: TITLE,
  async run(context: BenchContext): Promise<Section> {
    const sizes = context.full ? FULL : DEFAULT;
    const result = section(
      ID,
      TITLE,
      `One sync cycle is every active shipment of a shop falling due at once and synced: the tracking sweep (what the worker's schedule runs every minute, here put in the queue at once) finds the shop, and the worker's \`tracking-sync\` jobs (app/tracking/sync.server.ts, a bounded pass each, as many passes as it takes) read each shipment's \`track-order\` from the courier sandbox over HTTP and post what changed as Shopify fulfillment events. After a warm-up cycle over ${WARM_UP} shipments of another shop and ${COURIER_WARM_UP_SECONDS} s of the bare calls below (neither reported), the cycles: ${count(sizes.tracked)} shipments tracked with none changed, ${REPEATS} times; the same ${count(sizes.tracked)} with ${count(sizes.changed)} moved on a stage at the courier (the sandbox's \`sandbox/advance\`, through the app's courier client); and ${count(sizes.smaller)} tracked with ${count(sizes.changed)} changed${context.full ? "" : ` (${count(FULL.tracked)}, ${count(FULL.changed)} and ${count(FULL.smaller)} with \`--full\`)`}. The shipments are seeded in bulk: one order booked at the courier for real, then copied with SQL into the courier's orders and first tracking entries, the app's fulfilled shipments with that entry stored and posted, and the store simulator's fulfilled orders with that entry as their first event. The syncing itself is all the product's: the production build (no workers) serving the courier sandbox, one \`npm run worker\`, a scratch database, the store simulator at the Plus plan's bucket (${count(PLUS_PLAN.maximumAvailable)} points, ${count(PLUS_PLAN.restoreRate)}/s: Shopify's points are counted, not waited for). A cycle's time runs from the sweep put in the queue to its last pass done, as the queue recorded them; CPU is each process's from /proc over the cycle. The floor is the courier service's own \`GET /v1/track-order/{awb}\` over the same shipments, ${AT_ONCE} at a time (the sandbox's declared limit, which a pass reads at), from the load generator for ${FLOOR_SECONDS} s, asking for its answer compressed as the app's client does (gzip), before the first cycle with none changed and after each: the machine's speed drifts over seconds, so each of those cycles' rate is set beside the mean of the floors on either side of it and the median of the ${REPEATS} shares is reported, with that cycle's CPU a shipment beside the bare calls' (all the floors' CPU over all their calls). Last, the fleet: ${count(sizes.fleetShops * sizes.fleetPerShop)} shipments across ${count(sizes.fleetShops)} shops (each its own courier account; seeded the same way, a few shops at a time, without their orders in the simulator, since a cycle in which nothing changes asks Shopify nothing) synced in one cycle, beside the time the capacity model (bench/lib/capacity-model.ts, docs/CAPACITY.md) predicts for it from the cycle with none changed: its CPU a parcel in each process, the cores other work left this run meanwhile (/proc/stat), the accounts' rate and the calls in flight. The model's needs for 10 million live parcels across 10,000 shops follow, from this run's costs a parcel (rows and write-ahead log from pg_stat_database and the WAL position around the cycles, read after PostgreSQL's statistics settle). Then fairness across shops: ${count(FAIRNESS.bigShop)} parcels of one more shop due for ten minutes and ${FAIRNESS.smallShops} small shops' ${FAIRNESS.perSmallShop} each due just now (seeded the same way), one sweep put in the queue, and the time until every small shop's parcel is synced (seen in its row, polled every 200 ms), against the sweep's schedule of once a minute; the big shop is then set aside, not waited for.`,
    );
    const world = await startStoreWorld(context, { name: "tracking", throttle: PLUS_PLAN, workerConcurrency: WORKER_JOBS });
    try {
      const allowed = (tracked: number) => 60 + tracked * 0.06;
      // A cycle over a few shipments of a shop of its own first, not reported: the processes are fresh, and the first
      // measured cycle would otherwise pay for their warm-up (JIT, connections).
      const warm = await seedShipments(world, `bench-${context.runId}-tracking-warm.myshopify.com`, WARM_UP, `BT${context.runId}W`);
      await advance(warm, WARM_UP / 5);
      await cycle(context, world, [warm], "warm-up", WARM_UP / 5, allowed(WARM_UP));
      const load = await context.load();
      const big = await seedShipments(world, `bench-${context.runId}-tracking.myshopify.com`, sizes.tracked, `BT${context.runId}L`);
      const credentials = sandboxAccountCredentials({ apiKey: LOCAL_DEFAULTS.SANDBOX_API_KEY, secretKey: LOCAL_DEFAULTS.SANDBOX_SECRET_KEY }, big.shop);
      const request: RequestKind = { kind: "track-order", ...credentials, awbPrefix: big.awbPrefix, count: big.awbs.length };
      // The courier service's own path is still being optimised well after the warm-up cycle's reads; left so, that
      // work would be charged to the first measured cycle and not to the floor measured after it, so the bare calls
      // warm it first.
      await load.run(world.app.url, request, { model: "closed", connections: AT_ONCE, warmupSeconds: 0, seconds: COURIER_WARM_UP_SECONDS });
      // The floor: the service's own track-order over the same shipments, as many at once as a pass reads them (the
      // sandbox's declared limit), with the CPU each process spent on it.
      const measureFloor = async () => {
        context.log(`floor: track-order at ${AT_ONCE} connections for ${FLOOR_SECONDS} s`);
        const cpuBefore = world.cpu();
        const run = await load.run(world.app.url, request, { model: "closed", connections: AT_ONCE, warmupSeconds: 1, seconds: FLOOR_SECONDS });
        return { run, cpu: cpuSince(world.cpu(), cpuBefore) };
      };
      const noneCycle = (repeat: number) => cycle(context, world, [big], `${count(sizes.tracked)} tracked, none changed (${repeat} of ${REPEATS})`, 0, allowed(sizes.tracked));
      const floors = [await measureFloor()];
      // Rows and write-ahead log are counted around the first cycle and the floor after it (the courier sandbox
      // writes to the same database); each count waits for PostgreSQL's statistics, so the repeats are not counted.
      const beforeNone = await writesSoFar(world);
      const noneRuns = [await noneCycle(1)];
      const afterNone = await writesSoFar(world);
      floors.push(await measureFloor());
      const floorWrites = writesSince(await writesSoFar(world), afterNone);
      for (let repeat = 2; repeat <= REPEATS; repeat += 1) {
        noneRuns.push(await noneCycle(repeat));
        floors.push(await measureFloor());
      }
      const rateOf = (run: Cycle) => run.synced / Math.max(0.001, run.seconds);
      const bracketing = noneRuns.map((_, index) => (floors[index]!.run.ratePerSecond + floors[index + 1]!.run.ratePerSecond) / 2);
      const shares = noneRuns.map((run, index) => rateOf(run) / Math.max(1, bracketing[index]!));
      const median = [...shares.keys()].sort((a, b) => shares[a]! - shares[b]!)[Math.floor(REPEATS / 2)]!;
      const floorSent = floors.reduce((sum, { run }) => sum + run.sent, 0);
      const floor = {
        sent: floorSent,
        requests: floors.reduce((sum, { run }) => sum + run.requests, 0),
        ok: floors.reduce((sum, { run }) => sum + run.ok, 0),
        ratePerSecond: bracketing[median]!,
        p50: floors.reduce((sum, { run }) => sum + run.p50, 0) / floors.length,
        p99: Math.max(...floors.map(({ run }) => run.p99)),
        failures: floors.flatMap(({ run }) => run.failures),
      };
      const floorAppCpu = floors.reduce((sum, { cpu }) => sum + cpu.app, 0) / Math.max(1, floorSent);
      const floorPostgresCpu = floors.some(({ cpu }) => cpu.postgres === null) ? null : floors.reduce((sum, { cpu }) => sum + cpu.postgres!, 0) / Math.max(1, floorSent);
      const firstFloorSent = floors[1]!.run.sent;
      const cycles: Cycle[] = [{ ...noneRuns[median]!, name: `${count(sizes.tracked)} tracked, none changed` }];

      await advance(big, sizes.changed);
      const beforeSome = await writesSoFar(world);
      cycles.push(await cycle(context, world, [big], `${count(sizes.tracked)} tracked, ${count(sizes.changed)} changed`, sizes.changed, allowed(sizes.tracked)));
      const someWrites = writesSince(await writesSoFar(world), beforeSome);
      const small = await seedShipments(world, `bench-${context.runId}-tracking-small.myshopify.com`, sizes.smaller, `BT${context.runId}S`);
      await advance(small, sizes.changed);
      cycles.push(await cycle(context, world, [small], `${count(sizes.smaller)} tracked, ${count(sizes.changed)} changed`, sizes.changed, allowed(sizes.smaller)));

      // The fleet: many shops, each its own courier account, all due at once. Its time is predicted first from what
      // the cycle with none changed cost a parcel here and the limits a cycle runs within.
      const [reference] = cycles as [Cycle];
      const polled = Math.max(1, reference.synced);
      const limits: MachineLimits = {
        cpuMs: { worker: reference.cpu.worker / polled, courier: reference.cpu.app / polled, postgres: (reference.cpu.postgres ?? 0) / polled, bench: reference.cpu.simulator / polled },
        coresAvailable: Math.max(0.25, os.availableParallelism() - reference.othersCpu / 1000 / Math.max(0.001, reference.seconds)),
        workerJobs: TRACKING_PASSES_AT_ONCE,
        callsAtOnce: AT_ONCE,
        callsPerSecondPerAccount: SANDBOX_CALL_LIMITS.perSecond,
        callMs: floor.p50,
      };
      const fleetParcels = sizes.fleetShops * sizes.fleetPerShop;
      const prediction = predictCycle(fleetParcels, sizes.fleetShops, limits);
      context.log(`fleet: seeding ${count(fleetParcels)} shipments across ${sizes.fleetShops} shops; the model predicts a cycle of ${prediction.seconds.toFixed(0)} s`);
      const fleet = await seedShops(context, world, { name: "fleet", awbLetter: "F", shops: sizes.fleetShops, perShop: sizes.fleetPerShop });
      const fleetCycle = await cycle(context, world, fleet, `${count(fleetParcels)} tracked across ${sizes.fleetShops} shops, none changed`, 0, Math.min(FLEET_MAX_SECONDS, 120 + 3 * prediction.seconds));
      cycles.push(fleetCycle);

      for (const run of cycles) {
        const complete = run.synced === run.tracked && run.posted === run.changed;
        result.rows.push({
          name: `${run.name}: one cycle`,
          result: `${run.seconds.toFixed(1)} s, ${count(run.passes)} passes: ${count(run.synced)} of ${count(run.tracked)} synced with ${count(run.synced)} courier calls, ${count(run.posted)} events posted for ${count(run.points)} Shopify points; CPU ${(run.cpu.worker / 1000).toFixed(1)} s worker + ${(run.cpu.app / 1000).toFixed(1)} s app${run.cpu.postgres === null ? "" : ` + ${(run.cpu.postgres / 1000).toFixed(1)} s PostgreSQL`}`,
          reference: `track-order alone, ${AT_ONCE} at a time: ${fmtRate(floor.ratePerSecond)} (${count(run.tracked)} in ${(run.tracked / Math.max(1, floor.ratePerSecond)).toFixed(1)} s), app CPU ${floorAppCpu.toFixed(2)} ms each`,
          target: "every due shipment synced, one event per change",
          verdict: verdict(complete),
        });
      }
      const [none, some, smaller] = cycles as [Cycle, Cycle, Cycle];
      // A cycle's rate against the bare call's: the poll around the call should cost little beside it.
      const share = shares[median]!;
      const percent = (value: number) => `${(value * 100).toFixed(0)} %`;
      result.rows.push({
        name: `${count(none.tracked)} tracked, none changed: the cycle's rate against the bare call's`,
        result: `${fmtRate(rateOf(none))}: ${percent(share)} of the bare call's (the median of ${REPEATS} cycles: ${shares.map(percent).join(", ")})`,
        reference: `track-order alone, ${AT_ONCE} at a time (the sandbox's declared limit, as a pass reads), before and after that cycle: ${fmtRate(floor.ratePerSecond)} (the ${floors.length} floors: ${floors.map(({ run }) => fmtRate(run.ratePerSecond)).join(", ")})`,
        target: "≥ 90 %",
        verdict: verdict(share >= 0.9),
      });
      // PostgreSQL's CPU in a cycle is the sync's and the courier service's (the sandbox shares the database): the
      // sync's own is what the cycle spent beyond the bare calls' own share.
      const workerPerShipment = none.cpu.worker / Math.max(1, none.synced);
      const postgresPerShipment = none.cpu.postgres === null ? null : none.cpu.postgres / Math.max(1, none.synced);
      const syncPostgres = postgresPerShipment === null || floorPostgresCpu === null ? null : Math.max(0, postgresPerShipment - floorPostgresCpu);
      result.rows.push({
        name: `${count(none.tracked)} tracked, none changed: CPU a shipment`,
        result: `worker ${workerPerShipment.toFixed(2)} ms; PostgreSQL ${postgresPerShipment === null ? "—" : `${postgresPerShipment.toFixed(2)} ms in all, the sync's own ${syncPostgres!.toFixed(2)} ms`}`,
        reference: `track-order alone: app ${floorAppCpu.toFixed(2)} ms${floorPostgresCpu === null ? "" : `, PostgreSQL ${floorPostgresCpu.toFixed(2)} ms`} a call`,
        target: "worker ≤ 2 ms; the sync's PostgreSQL ≤ 1 ms",
        verdict: verdict(workerPerShipment <= 2 && (syncPostgres === null || syncPostgres <= 1)),
      });
      const perChange = (run: Cycle) => run.points / Math.max(1, run.changed);
      result.rows.push({
        name: "Shopify points grow with the shipments changed, not with those tracked",
        result: `${count(none.points)} points with none of ${count(none.tracked)} changed; ${count(some.points)} with ${count(some.changed)} of ${count(some.tracked)}; ${count(smaller.points)} with ${count(smaller.changed)} of ${count(smaller.tracked)}`,
        reference: `${perChange(some).toFixed(1)} and ${perChange(smaller).toFixed(1)} points a changed shipment (its new event posted; its events read first only after a post whose answer was lost)`,
        target: "0 with none changed; the same per change whatever the number tracked (± 10 %)",
        verdict: verdict(none.points === 0 && Math.abs(some.points - smaller.points) <= 0.1 * Math.max(some.points, smaller.points)),
      });
      const cpuOf = (run: Cycle) => run.cpu.worker + run.cpu.app;
      const perShipment = (run: Cycle) => (cpuOf(run) / Math.max(1, run.synced)).toFixed(1);
      result.rows.push({
        name: "our CPU and courier calls grow with the shipments tracked",
        result: `${count(none.tracked)} tracked: ${count(none.synced)} courier calls, ${(cpuOf(none) / 1000).toFixed(1)} s of CPU (worker + app); ${count(smaller.tracked)} tracked: ${count(smaller.synced)} calls, ${(cpuOf(smaller) / 1000).toFixed(1)} s. A shipment: ${perShipment(none)}, ${perShipment(some)} and ${perShipment(smaller)} ms in the three cycles`,
        reference: `track-order alone: app ${floorAppCpu.toFixed(2)} ms${floorPostgresCpu === null ? "" : `, PostgreSQL ${floorPostgresCpu.toFixed(2)} ms`} a call`,
        target: "reported",
        verdict: "INFO",
      });
      result.details.push({
        title: "Each cycle",
        header: ["cycle", "wall time", "passes", "courier calls", "events posted", "sync's Shopify points (answers)", "other points meanwhile", "worker CPU / shipment", "app CPU / shipment", "PostgreSQL CPU / shipment", "bench process (store) CPU"],
        rows: [...noneRuns, ...cycles.slice(1)].map((run) => [
          run.name,
          `${run.seconds.toFixed(1)} s`,
          count(run.passes),
          count(run.synced),
          count(run.posted),
          `${count(run.points)} (${count(run.answers)})`,
          count(run.otherPoints),
          `${(run.cpu.worker / Math.max(1, run.synced)).toFixed(2)} ms`,
          `${(run.cpu.app / Math.max(1, run.synced)).toFixed(2)} ms`,
          run.cpu.postgres === null ? "—" : `${(run.cpu.postgres / Math.max(1, run.synced)).toFixed(2)} ms`,
          `${(run.cpu.simulator / 1000).toFixed(1)} s`,
        ]),
      });
      // The model's costs a parcel, from this run: a poll without news from the cycle with none changed (less the
      // floor's own share, the courier's), a change's extra from the cycle with some changed, sizes from the tables.
      const noneWrites = writesSince(afterNone, beforeNone);
      const floorCalls = Math.max(1, firstFloorSent);
      const writesPerPoll = { rows: noneWrites.rows / Math.max(1, noneRuns[0]!.synced), walBytes: noneWrites.walBytes / Math.max(1, noneRuns[0]!.synced) };
      const changes = Math.max(1, some.changed);
      const costs: ParcelCosts = {
        workerMsPerPoll: workerPerShipment,
        postgresMsPerPoll: syncPostgres ?? 0,
        courierMsPerPoll: floorAppCpu,
        rowWritesPerPoll: Math.max(0, writesPerPoll.rows - floorWrites.rows / floorCalls),
        walBytesPerPoll: Math.max(0, writesPerPoll.walBytes - floorWrites.walBytes / floorCalls),
        workerMsPerChange: Math.max(0, (some.cpu.worker - some.synced * workerPerShipment) / changes),
        rowWritesPerChange: Math.max(0, (someWrites.rows - some.synced * writesPerPoll.rows) / changes),
        walBytesPerChange: Math.max(0, (someWrites.walBytes - some.synced * writesPerPoll.walBytes) / changes),
        pointsPerChange: perChange(some),
        shipmentBytes: (await bytesPerRow(world, "Shipment")).bytes,
        trackingEntryBytes: (await bytesPerRow(world, "TrackingEvent")).bytes,
      };
      const fleetFinished = fleetCycle.synced === fleetCycle.tracked && fleetCycle.points === 0;
      result.rows.push({
        name: `${count(fleetCycle.tracked)} tracked across ${sizes.fleetShops} shops, none changed: one cycle beside the capacity model's prediction`,
        result: `${fleetCycle.seconds.toFixed(1)} s (${fmtRate(fleetCycle.synced / Math.max(0.001, fleetCycle.seconds))}), ${count(fleetCycle.synced)} of ${count(fleetCycle.tracked)} synced in ${count(fleetCycle.passes)} passes, ${count(fleetCycle.points)} Shopify points`,
        reference: `predicted ${prediction.seconds.toFixed(1)} s (${((fleetCycle.seconds / prediction.seconds - 1) * 100).toFixed(0)} %), bound by ${prediction.bounds[0]!.bound}`,
        target: "every shipment synced, no Shopify points, within the prediction ± 25 %",
        verdict: verdict(fleetFinished && withinPrediction(fleetCycle.seconds, prediction.seconds)),
      });
      // The machine is shared, and other work's load drifts between the cycle the prediction comes from and the fleet's:
      // the same model with the cores other work left during the fleet cycle itself tells the model's error from the drift.
      const fleetCoresLeft = Math.max(0.25, os.availableParallelism() - fleetCycle.othersCpu / 1000 / Math.max(0.001, fleetCycle.seconds));
      const hindsight = predictCycle(fleetParcels, sizes.fleetShops, { ...limits, coresAvailable: fleetCoresLeft });
      result.rows.push({
        name: `${count(fleetCycle.tracked)} tracked across ${sizes.fleetShops} shops: the model with the cores the fleet cycle was left`,
        result: `${fleetCycle.seconds.toFixed(1)} s against ${hindsight.seconds.toFixed(1)} s (${((fleetCycle.seconds / hindsight.seconds - 1) * 100).toFixed(0)} %)`,
        reference: `${fleetCoresLeft.toFixed(2)} cores left to this run during the fleet cycle, ${limits.coresAvailable.toFixed(2)} during the cycle the prediction comes from`,
        target: "reported (the machine's other work, not the model, when this is close and the prediction is not)",
        verdict: "INFO",
      });
      const needs = fleetNeeds(costs, ASKED);
      result.rows.push({
        name: `the capacity model: ${count(ASKED.liveParcels)} live parcels across ${count(ASKED.shops)} shops`,
        result: `${grouped(needs.pollsPerSecond)} polls/s: ${grouped(needs.workerCores, 1)} worker cores in ${needs.workerProcesses} processes, PostgreSQL ${grouped(needs.postgresCores, 1)} cores, ${grouped(needs.rowWritesPerSecond)} rows/s, ${grouped(needs.storedGigabytes, 1)} GB; largest shop ${grouped(needs.largestShopPointsPerSecond, 1)} points/s`,
        reference: `from this run's costs a parcel: worker ${costs.workerMsPerPoll.toFixed(2)} ms, PostgreSQL ${costs.postgresMsPerPoll.toFixed(2)} ms, ${costs.rowWritesPerPoll.toFixed(2)} rows a poll`,
        target: `saturates first: ${needs.saturation[0]!.part} (${(needs.saturation[0]!.used * 100).toFixed(0)} %)`,
        verdict: "INFO",
      });
      result.details.push({
        title: `The fleet cycle's prediction: each bound's time for ${count(fleetParcels)} parcels across ${sizes.fleetShops} shops (costs from the ${count(reference.tracked)}-shipment cycle; ${os.availableParallelism()} cores, ${limits.coresAvailable.toFixed(2)} left to this run while it ran)`,
        header: ["bound", "time for the cycle"],
        rows: [
          ...prediction.bounds.map((bound) => [bound.bound, `${bound.seconds.toFixed(1)} s`]),
          // The machine is shared: what other work took during the fleet cycle itself says whether its load drifted.
          ["measured: the fleet cycle", `${fleetCycle.seconds.toFixed(1)} s, with ${fleetCoresLeft.toFixed(2)} cores left to this run; CPU a parcel ${((fleetCycle.cpu.worker + fleetCycle.cpu.app + (fleetCycle.cpu.postgres ?? 0) + fleetCycle.cpu.simulator) / Math.max(1, fleetCycle.synced)).toFixed(2)} ms`],
        ],
      });
      result.details.push(modelTable(costs, ASKED));

      // Last, as it leaves a shop of 50,000 parcels in the tables: the costs a parcel above are read without it.
      const fair = await fairness(context, world);
      result.rows.push({
        name: `${count(fair.bigTracked)} parcels of one shop due for ten minutes, ${FAIRNESS.smallShops} shops' ${FAIRNESS.perSmallShop} each due now: the small shops' parcels synced`,
        result:
          fair.seconds === null
            ? `${count(fair.smallSynced)} of ${count(fair.smallTracked)} after ${FAIRNESS_MAX_SECONDS} s; the big shop meanwhile ${count(fair.bigSynced)} of ${count(fair.bigTracked)}`
            : `all ${count(fair.smallTracked)} in ${fair.seconds.toFixed(1)} s; the big shop meanwhile ${count(fair.bigSynced)} of ${count(fair.bigTracked)}, its first synced after ${fair.bigFirstSeconds === null ? "—" : `${fair.bigFirstSeconds.toFixed(1)} s`}`,
        reference: `the tracking sweep runs every ${SWEEP_INTERVAL_SECONDS} s`,
        target: `within one sweep interval (≤ ${SWEEP_INTERVAL_SECONDS} s), the big shop with most of its parcels still to go`,
        verdict: verdict(fair.seconds !== null && fair.seconds <= SWEEP_INTERVAL_SECONDS && fair.bigSynced < fair.bigTracked / 2),
      });
      result.notes.push(
        `The ${floors.length} floors ran ${count(floor.sent)} track-order requests in all, ${AT_ONCE} at a time, at ${floors.map(({ run }) => fmtRate(run.ratePerSecond)).join(", ")} (p50 ${fmtMs(floor.p50)} on average, p99 at most ${fmtMs(floor.p99)}); ${floor.requests - floor.ok} not 2xx.`,
        "A courier call is one shipment synced (Shipment.syncedAt in the cycle); events posted are TrackingEvent rows posted in the cycle; points are what the simulator charged (its `usage.points`). Passes are the `tracking-sync` jobs the cycle took.",
        "Seeding in bulk with SQL (not timed) is the one shortcut: booking thousands of orders at Shopify's pace would take hours. Everything the cycle does goes through the product's code, its job queue and HTTP.",
        ...floor.failures.map((failure) => `Failure: ${failure}`),
      );
    } finally {
      await world.close();
    }
    return result;
  },
};
