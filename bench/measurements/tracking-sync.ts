import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { LOCAL_DEFAULTS } from "../../app/config.server";
import { createCourierClient, type CourierClient } from "../../app/shipping/client.server";
import { SANDBOX_CALL_LIMITS, sandboxAccountCredentials } from "../../app/shipping/sandbox-accounts.server";
import { SERVICE_STATUS_LABELS, type ServiceStatusCode } from "../../app/shipping/status";
import { eventMessage, STAGES } from "../../app/tracking/courier-progress";
import { gid, nextId } from "../../store/model";
import { readyOrders } from "../../store/seed";
import { sampleOrder } from "../../test/support/orders";
import type { BenchContext } from "../lib/context";
import { fmtMs, fmtRate, section, verdict, type Section } from "../lib/results";
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
const FULL = { tracked: 10_000, changed: 500, smaller: 2_000 };
// The default fits the bench's 10 minutes; --full tracks 10,000.
const DEFAULT = { tracked: 1_000, changed: 100, smaller: 250 };
const FLOOR_SECONDS = 3;
const WARM_UP = 100;
/** A pass reads the sandbox as many at a time as it declares it allows: the floor runs at the same width. */
const AT_ONCE = SANDBOX_CALL_LIMITS.atOnce;

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
async function seedShipments(world: StoreWorld, shop: string, tracked: number, awbPrefix: string): Promise<Seeded> {
  await world.installShop(shop);
  const client = courierOf(world, shop);
  const template = await client.createOrder(sampleOrder({ order_id: `${awbPrefix}-template` }));
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

  // The Shopify side: an order per shipment, fulfilled with its awb, the first entry already an event on it.
  const code = entry!.code as ServiceStatusCode;
  const store = world.simulator.shop(shop);
  const orders = readyOrders(tracked);
  const eventGids: string[] = [];
  const fulfillmentGids: string[] = [];
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

  // The app's side, as the booking and a first sync left it: fulfilled, the entry stored and posted, synced just now
  // and due again in 50 minutes (a manifested shipment's interval). Each cycle makes them all due at once; until then
  // the worker's own sweep leaves them alone.
  await world.query(
    `INSERT INTO "Shipment" (shop, "orderGid", "orderName", status, "requestPayload", "courierEnvironment", awb, "courierId", "courierName", "paymentMode", "trackingUrl", "fulfillmentGid",
       "courierStatusCode", "courierStatusLabel", "courierStatusAt", "lastScanAt", "syncedAt", "nextSyncAt", "createdAt", "updatedAt")
     SELECT $1, u.gid, u.name, 'fulfilled', '', 'test', u.awb, 1, $2, 'prepaid', $3, u.fulfillment, $4, $5, $6, $6, now(), now() + interval '50 minutes', $6, now()
       FROM unnest($7::text[], $8::text[], $9::text[], $10::text[]) AS u(gid, name, awb, fulfillment)`,
    [shop, order!.logisticName, order!.trackingUrl, code, SERVICE_STATUS_LABELS[code], happenedAt, orders.map((storeOrder) => storeOrder.id), orders.map((storeOrder) => storeOrder.name), awbs, fulfillmentGids],
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

/** One sync cycle: every shipment of the shop due now, the sweep run, and the passes it takes until none is left due. */
async function cycle(context: BenchContext, world: StoreWorld, seeded: Seeded, name: string, changed: number, allowedSeconds: number): Promise<Cycle> {
  const { shop } = seeded;
  await world.query(`UPDATE "Shipment" SET "nextSyncAt" = now() - interval '1 second' WHERE shop = $1`, [shop]);
  const [{ start }] = (await world.query<{ start: Date }>(`SELECT now() AS start`)) as [{ start: Date }];
  const store = world.simulator.shop(shop);
  const usageBefore = { ...store.usage };
  const operationsBefore = world.usageByOperation(shop);
  const cpuBefore: WorldCpu = world.cpu();
  const began = performance.now();
  context.log(`${name}: the sweep runs; waiting for every due shipment to be synced`);
  await world.enqueue("tracking-sweep", {});
  // A sweep the last one put off to when another shop's next shipment falls due is not this cycle's work.
  let state = { due: seeded.awbs.length, jobs: 1 };
  let lastLog = performance.now();
  while ((state.due > 0 || state.jobs > 0) && performance.now() - began < allowedSeconds * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    [state] = (await world.query<{ due: number; jobs: number }>(
      `SELECT (SELECT count(*)::int FROM "Shipment" WHERE shop = $1 AND "nextSyncAt" <= $2) AS due,
              (SELECT count(*)::int FROM pgboss.job WHERE name IN ('tracking-sweep', 'tracking-sync') AND state IN ('created', 'retry', 'active') AND (data->>'shop' = $1 OR (name = 'tracking-sweep' AND start_after <= now()))) AS jobs`,
      [shop, start],
    )) as [{ due: number; jobs: number }];
    if (performance.now() - lastLog > 15_000) {
      lastLog = performance.now();
      context.log(`${name}: ${count(seeded.awbs.length - state.due)} of ${count(seeded.awbs.length)} synced after ${((performance.now() - began) / 1000).toFixed(0)} s`);
    }
  }
  const seconds = (performance.now() - began) / 1000;
  const cpuAfter = world.cpu();
  const [done] = await world.query<{ synced: number; posted: number; passes: number }>(
    `SELECT (SELECT count(*)::int FROM "Shipment" WHERE shop = $1 AND "syncedAt" >= $2) AS synced,
            (SELECT count(*)::int FROM "TrackingEvent" WHERE shop = $1 AND "postedAt" >= $2) AS posted,
            (SELECT count(*)::int FROM pgboss.job WHERE name = 'tracking-sync' AND data->>'shop' = $1 AND created_on >= $2) AS passes`,
    [shop, start],
  );
  const sync = { points: 0, answers: 0 };
  for (const [operation, entry] of usageSince(world.usageByOperation(shop), operationsBefore)) {
    if (!SYNC_OPERATIONS.has(operation)) continue;
    sync.points += entry.points;
    sync.answers += entry.answers;
  }
  return {
    name,
    tracked: seeded.awbs.length,
    changed,
    seconds,
    synced: done!.synced,
    passes: done!.passes,
    posted: done!.posted,
    points: sync.points,
    answers: sync.answers,
    otherPoints: store.usage.points - usageBefore.points - sync.points,
    cpu: cpuSince(cpuAfter, cpuBefore),
  };
}

export const trackingSync: Measurement = {
  id: ID,
  title: TITLE,
  async run(context: BenchContext): Promise<Section> {
    const sizes = context.full ? FULL : DEFAULT;
    const result = section(
      ID,
      TITLE,
      `One sync cycle is every active shipment of a shop falling due at once and synced: the tracking sweep (what the worker's schedule runs every minute, here put in the queue at once) finds the shop, and the worker's \`tracking-sync\` jobs (app/tracking/sync.server.ts, a bounded pass each, as many passes as it takes) read each shipment's \`track-order\` from the courier sandbox over HTTP and post what changed as Shopify fulfillment events. After a warm-up cycle over ${WARM_UP} shipments of another shop (not reported), the cycles: ${count(sizes.tracked)} shipments tracked with none changed; the same ${count(sizes.tracked)} with ${count(sizes.changed)} moved on a stage at the courier (the sandbox's \`sandbox/advance\`, through the app's courier client); and ${count(sizes.smaller)} tracked with ${count(sizes.changed)} changed${context.full ? "" : ` (${count(FULL.tracked)}, ${count(FULL.changed)} and ${count(FULL.smaller)} with \`--full\`)`}. The shipments are seeded in bulk: one order booked at the courier for real, then copied with SQL into the courier's orders and first tracking entries, the app's fulfilled shipments with that entry stored and posted, and the store simulator's fulfilled orders with that entry as their first event. The syncing itself is all the product's: the production build (no workers) serving the courier sandbox, one \`npm run worker\`, a scratch database, the store simulator at the Plus plan's bucket (${count(PLUS_PLAN.maximumAvailable)} points, ${count(PLUS_PLAN.restoreRate)}/s: Shopify's points are counted, not waited for). CPU is each process's from /proc over the cycle. The floor is the courier service's own \`GET /v1/track-order/{awb}\` over the same shipments, ${AT_ONCE} at a time (the sandbox's declared limit, which a pass reads at), from the load generator for ${FLOOR_SECONDS} s; a cycle's rate is set beside it, and its worker's and PostgreSQL's CPU a shipment beside the bare call's.`,
    );
    const world = await startStoreWorld(context, { name: "tracking", throttle: PLUS_PLAN });
    try {
      const allowed = (tracked: number) => 60 + tracked * 0.06;
      // A cycle over a few shipments of a shop of its own first, not reported: the processes are fresh, and the first
      // measured cycle would otherwise pay for their warm-up (JIT, connections).
      const warm = await seedShipments(world, `bench-${context.runId}-tracking-warm.myshopify.com`, WARM_UP, `BT${context.runId}W`);
      await advance(warm, WARM_UP / 5);
      await cycle(context, world, warm, "warm-up", WARM_UP / 5, allowed(WARM_UP));
      const big = await seedShipments(world, `bench-${context.runId}-tracking.myshopify.com`, sizes.tracked, `BT${context.runId}L`);
      const cycles: Cycle[] = [];
      cycles.push(await cycle(context, world, big, `${count(sizes.tracked)} tracked, none changed`, 0, allowed(sizes.tracked)));

      // The floor, straight after the cycle it is set beside (the machine's load drifts): the service's own
      // track-order over the same shipments, as many at once as a pass reads them (the sandbox's declared limit).
      const load = await context.load();
      const credentials = sandboxAccountCredentials({ apiKey: LOCAL_DEFAULTS.SANDBOX_API_KEY, secretKey: LOCAL_DEFAULTS.SANDBOX_SECRET_KEY }, big.shop);
      const request: RequestKind = { kind: "track-order", ...credentials, awbPrefix: big.awbPrefix, count: big.awbs.length };
      context.log(`floor: track-order at ${AT_ONCE} connections for ${FLOOR_SECONDS} s`);
      const floorCpuBefore = world.cpu();
      const floor = await load.run(world.app.url, request, { model: "closed", connections: AT_ONCE, warmupSeconds: 1, seconds: FLOOR_SECONDS });
      const floorCpu = cpuSince(world.cpu(), floorCpuBefore);
      const floorAppCpu = floorCpu.app / Math.max(1, floor.sent);
      const floorPostgresCpu = floorCpu.postgres === null ? null : floorCpu.postgres / Math.max(1, floor.sent);

      await advance(big, sizes.changed);
      cycles.push(await cycle(context, world, big, `${count(sizes.tracked)} tracked, ${count(sizes.changed)} changed`, sizes.changed, allowed(sizes.tracked)));
      const small = await seedShipments(world, `bench-${context.runId}-tracking-small.myshopify.com`, sizes.smaller, `BT${context.runId}S`);
      await advance(small, sizes.changed);
      cycles.push(await cycle(context, world, small, `${count(sizes.smaller)} tracked, ${count(sizes.changed)} changed`, sizes.changed, allowed(sizes.smaller)));

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
      const rateOf = (run: Cycle) => run.synced / Math.max(0.001, run.seconds);
      const share = rateOf(none) / Math.max(1, floor.ratePerSecond);
      result.rows.push({
        name: `${count(none.tracked)} tracked, none changed: the cycle's rate against the bare call's`,
        result: `${fmtRate(rateOf(none))}: ${(share * 100).toFixed(0)} % of the bare call's`,
        reference: `track-order alone, ${AT_ONCE} at a time (the sandbox's declared limit, as a pass reads): ${fmtRate(floor.ratePerSecond)}`,
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
        rows: cycles.map((run) => [
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
      result.notes.push(
        `The floor ran ${count(floor.sent)} track-order requests, ${AT_ONCE} at a time, at ${fmtRate(floor.ratePerSecond)} (p50 ${fmtMs(floor.p50)}, p99 ${fmtMs(floor.p99)}); ${floor.requests - floor.ok} not 2xx.`,
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
