import { performance } from "node:perf_hooks";
import { shopperOrder, twoWarehouseOrder } from "../../test/support/orders";
import type { BenchContext } from "../lib/context";
import { fmtMs, fmtPercent, section, verdict, type Section } from "../lib/results";
import { FULFILLMENT_EVENTS, ORDER_FOR_BOOKING } from "../../app/shopify/queries";
import { cpuSince, cpuTable, describeOnce, operationsTable, reconciliationNote, requestedCostOf, STANDARD_PLAN, startStoreWorld, usageSince, type StoreWorld } from "../lib/store-world";
import type { Measurement } from "./measurement";

/**
 * Booking at Shopify's Standard plan budget: shoppers place orders in the store simulator (throttled like the
 * Standard plan), each arrives at the app as a signed orders/create webhook, and the real workers book it with
 * auto-booking on (read the order, quote it, create the courier order, fulfill it in Shopify, tag it) — the path a
 * merchant's rules take. Orders are placed faster than the budget can book them, so the budget is the limit; the
 * figure is bookings a minute as a share of what that budget allows, at the points one booking costs.
 */
const ID = "booking-budget";
const TITLE = "Booking at the Standard plan's budget";
const FULL_ORDERS = 1_000;
// The default fits the bench's 10 minutes: about a minute of booking after the initial bucket is spent.
const DEFAULT_ORDERS = 120;
// Orders placed a second: well above what the budget books (under 2 a second), so a queue builds from the start.
const PLACE_RATE = 25;
const TARGET_FRACTION = 0.9;
// Shopify points one booked order may cost end to end: a Standard shop then books 133 a minute.
const TARGET_POINTS_PER_BOOKING = 45;

const grouped = (value: number) => Math.round(value).toLocaleString("en-US");

/** What the simulator's bucket holds for a shop now (its own accounting, restored up to now). */
function bucketNow(simulator: { shop(domain: string): { bucket: { available: number; updatedAt: number } } }, shop: string): number {
  const { bucket } = simulator.shop(shop);
  if (Number.isNaN(bucket.available)) return STANDARD_PLAN.maximumAvailable;
  return Math.min(STANDARD_PLAN.maximumAvailable, bucket.available + ((Date.now() - bucket.updatedAt) / 1000) * STANDARD_PLAN.restoreRate);
}

/** Orders that ship as two parcels, booked by the rules: the points they cost, and whether each parcel was booked once. */
async function measureParcels(world: StoreWorld, shop: string, orders: number) {
  while (bucketNow(world.simulator, shop) < STANDARD_PLAN.maximumAvailable) await new Promise((resolve) => setTimeout(resolve, 100));
  const store = world.simulator.shop(shop);
  const before = store.usage.points;
  const placed = Array.from({ length: orders }, (_, index) => world.simulator.placeOrder(shop, twoWarehouseOrder(10_000 + index)).id);
  const deadline = Date.now() + ((orders * 2 * 70) / STANDARD_PLAN.restoreRate) * 1500 + 60_000;
  let parcels = 0;
  while (parcels < orders * 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const [row] = await world.query<{ fulfilled: number }>(`SELECT count(*)::int AS fulfilled FROM "Shipment" WHERE shop = $1 AND status = 'fulfilled' AND "orderGid" = ANY($2)`, [shop, placed]);
    parcels = row!.fulfilled;
  }
  const points = store.usage.points - before;
  const rows = await world.query<{ orderGid: string; awb: string | null; locationGid: string | null }>(`SELECT "orderGid", awb, "locationGid" FROM "Shipment" WHERE shop = $1 AND "orderGid" = ANY($2)`, [shop, placed]);
  const wrong = placed.find((orderGid) => {
    const order = store.orders.find((candidate) => candidate.id === orderGid)!;
    const ours = rows.filter((row) => row.orderGid === orderGid);
    const awbs = new Set(ours.map((row) => row.awb));
    return ours.length !== 2 || awbs.size !== 2 || order.fulfillments.length !== 2 || !order.fulfillments.every((fulfillment) => ours.some((row) => row.awb === fulfillment.trackingInfo[0]?.number && row.locationGid === fulfillment.locationId));
  });
  return {
    orders,
    parcels,
    perOrder: points / Math.max(1, orders),
    perParcel: points / Math.max(1, parcels),
    exactlyOnce: parcels === orders * 2 && wrong === undefined,
    problem: wrong ? `order ${wrong} has not exactly two parcels, awbs and fulfillments` : `${orders * 2 - parcels} parcels not fulfilled in time`,
  };
}

export const bookingBudget: Measurement = {
  id: ID,
  title: TITLE,
  async run(context: BenchContext): Promise<Section> {
    const orders = context.full ? FULL_ORDERS : DEFAULT_ORDERS;
    const { maximumAvailable, restoreRate } = STANDARD_PLAN;
    const result = section(
      ID,
      TITLE,
      `${orders.toLocaleString("en-US")} orders${context.full ? "" : ` (${FULL_ORDERS.toLocaleString("en-US")} with \`--full\`)`} placed by shoppers in the store simulator at ${PLACE_RATE} a second, throttled like Shopify's Standard plan (${grouped(maximumAvailable)}-point bucket restored at ${restoreRate} points/s). Each reaches the app as a signed \`orders/create\` webhook from the simulator and is booked end to end by the real workers with auto-booking on (one rule, saved through the auto-booking screen's action: every order with the recommended courier): the \`order-check\` job reads the order, quotes it, claims and creates the courier order at the sandbox over HTTP, fulfills the Shopify order with the awb and tags it. The app serves the production build (server/start.ts, no workers) and one \`npm run worker\` (8 jobs at once) runs the jobs, both on a scratch database, with NODE_ENV=test because store/register.ts, which sends their Shopify calls to the simulator, refuses production. Points are what the simulator charged (\`usage.points\`: the actual cost of each answer), so one booking costs P/N points and the budget allows ${restoreRate} × 60 ÷ (P/N) bookings a minute once its initial bucket is spent; the result is the rate after the initial bucket, (N − bucket ÷ (P/N)) ÷ T, as a share of that limit, T running from the first order placed to the last one fulfilled.`,
    );
    const world = await startStoreWorld(context, { name: "booking", throttle: STANDARD_PLAN });
    try {
      const shop = `bench-${context.runId}-booking.myshopify.com`;
      await world.installShop(shop);
      await world.enableAutoBooking(shop);
      // The install's reads spent a few points: let the bucket fill, so the run starts where a quiet shop does.
      while (bucketNow(world.simulator, shop) < maximumAvailable) await new Promise((resolve) => setTimeout(resolve, 100));

      const store = world.simulator.shop(shop);
      const usageBefore = { ...store.usage };
      const operationsBefore = world.usageByOperation(shop);
      const cpuBefore = world.cpu();
      const initialBucket = bucketNow(world.simulator, shop);
      const began = performance.now();
      const startedAt = Date.now();
      context.log(`placing ${orders} orders at ${PLACE_RATE}/s; the budget books them`);
      const placed: string[] = [];
      for (let index = 0; index < orders; index += 1) {
        const due = began + (index * 1000) / PLACE_RATE;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        placed.push(world.simulator.placeOrder(shop, shopperOrder(index)).id);
      }

      // The physical limit sets the time allowed: all of it at the limit, plus half again and a minute.
      const allowedMs = (((orders * 70 - maximumAvailable) / restoreRate) * 1.5 + 60) * 1000;
      let fulfilled = 0;
      let lastLog = 0;
      let finishedAt = Date.now();
      while (fulfilled < orders && performance.now() - began < allowedMs) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const [row] = await world.query<{ fulfilled: number }>(`SELECT count(*)::int AS fulfilled FROM "Shipment" WHERE shop = $1 AND status = 'fulfilled'`, [shop]);
        if (row!.fulfilled > fulfilled) finishedAt = Date.now();
        fulfilled = row!.fulfilled;
        if (performance.now() - lastLog > 15_000) {
          lastLog = performance.now();
          context.log(`${fulfilled} of ${orders} booked and fulfilled after ${((performance.now() - began) / 1000).toFixed(0)} s`);
        }
      }
      const cpuAfter = world.cpu();
      const seconds = (finishedAt - startedAt) / 1000;
      const points = store.usage.points - usageBefore.points;
      const answers = store.usage.answers - usageBefore.answers;
      const throttled = store.usage.throttled - usageBefore.throttled;
      const pointsPerBooking = points / Math.max(1, fulfilled);
      const limitPerMinute = (restoreRate * 60) / pointsPerBooking;
      const afterBucket = Math.max(0, fulfilled - initialBucket / pointsPerBooking);
      const ratePerMinute = (afterBucket / seconds) * 60;
      const fraction = ratePerMinute / limitPerMinute;

      const once = await world.bookedOnce(shop, placed);
      result.rows.push({
        name: `${orders.toLocaleString("en-US")} orders booked end to end: bookings a minute after the initial bucket, as a share of what the budget allows`,
        result: `${fmtPercent(fraction)} (${ratePerMinute.toFixed(1)} a minute; ${fulfilled.toLocaleString("en-US")} of ${orders.toLocaleString("en-US")} fulfilled in ${seconds.toFixed(1)} s)`,
        reference: `limit ${limitPerMinute.toFixed(1)} a minute = ${restoreRate} points/s × 60 ÷ ${pointsPerBooking.toFixed(1)} points a booking; initial bucket ${grouped(initialBucket)} points ≈ ${(initialBucket / pointsPerBooking).toFixed(0)} bookings`,
        target: `≥ ${fmtPercent(TARGET_FRACTION)} (the budget, not the app, sets the pace)`,
        verdict: verdict(fulfilled === orders && fraction >= TARGET_FRACTION),
      });
      result.rows.push({
        name: "Shopify points one booking cost",
        result: `${pointsPerBooking.toFixed(1)} points (${grouped(points)} points in ${grouped(answers)} answers; ${throttled} throttled)`,
        reference: `the bucket: ${grouped(maximumAvailable)} points, ${restoreRate}/s`,
        target: `≤ ${TARGET_POINTS_PER_BOOKING} (${((restoreRate * 60) / TARGET_POINTS_PER_BOOKING).toFixed(0)} bookings a minute on the Standard plan)`,
        verdict: verdict(fulfilled === orders && pointsPerBooking <= TARGET_POINTS_PER_BOOKING),
      });
      result.rows.push({
        name: "every order booked exactly once",
        result: describeOnce(once, orders),
        reference: "Shipment rows; the sandbox account's ServiceOrder rows (ApiClient.name = shop); the store's fulfillments",
        target: "one awb per order everywhere",
        verdict: verdict(once.exactlyOnce),
      });

      const operations = usageSince(world.usageByOperation(shop), operationsBefore);
      result.details.push(operationsTable(operations, fulfilled, "a booking"), cpuTable(cpuSince(cpuAfter, cpuBefore), fulfilled, "per booking"));
      result.notes.push(
        "A booking's own Admin API calls are OrderForBooking (one read of the order, reused for the fulfillment), FulfillmentCreateWithTracking and MarkOrderBooked (tag and metafields in one request; an order's later parcels RecordBookedParcels, the metafields alone); a cash-on-delivery order's check adds OrderRiskFacts (Shopify's own risk) and OrderRiskAssessmentCreate (Dakiya's score, told to Shopify). The other operations in the table are what the product also does meanwhile and spends from the same bucket, so they count in the points a booking costs: the tracking sync posting each new fulfillment's first event (FulfillmentEventCreate; FulfillmentEvents only after a post whose answer was lost) and, when the run spans one of its ten-minute marks, the schedule's read of recent orders (RecentlyUpdatedOrders) with a check of each order it finds changed.",
        `The app waits until the bucket holds what a query requests (OrderForBooking requests ${requestedCostOf(ORDER_FOR_BOOKING)} points, FulfillmentEvents ${requestedCostOf(FULFILLMENT_EVENTS, { first: 50 })} for a page of 50 events) before it sends it, and Shopify refunds the unused part after: the share reads how close that pacing comes to spending the bucket as fast as it refills.`,
        `CPU per booking covers everything each process did during the run (the sweeps and tracking syncs too). Wall time per booking, the run's length over the bookings: ${fmtMs((seconds * 1000) / Math.max(1, fulfilled))}, set by the budget.`,
      );
      const reconciled = reconciliationNote(operations, orders);
      if (reconciled) result.notes.push(reconciled);
      if (fulfilled < orders) result.notes.push(`Not finished: ${orders - fulfilled} orders were not fulfilled within ${(allowedMs / 1000).toFixed(0)} s. Worker output: \`${world.worker.output().slice(-1500).replace(/`/g, "'")}\``);

      // Orders that ship as two parcels (one item stocked only at each of the shop's two warehouses): what a parcel
      // costs beside what an order costs, once the bucket is full again.
      const parcelled = await measureParcels(world, shop, Math.max(10, Math.round(orders / 6)));
      result.rows.push({
        name: `${parcelled.orders} orders of two parcels each (one item at each warehouse): Shopify points per order and per booked parcel`,
        result: `${parcelled.perOrder.toFixed(1)} points an order, ${parcelled.perParcel.toFixed(1)} a parcel (${parcelled.parcels} parcels fulfilled)`,
        reference: `an order of one parcel: ${pointsPerBooking.toFixed(1)} points`,
        target: "reported",
        verdict: "INFO",
      });
      result.rows.push({
        name: "every parcel booked exactly once",
        result: parcelled.exactlyOnce ? `yes: ${parcelled.parcels} awbs, one Shopify fulfillment each, at its own location` : `no: ${parcelled.problem}`,
        reference: "Shipment rows; the store's fulfillments",
        target: "one awb and one fulfillment per parcel",
        verdict: verdict(parcelled.exactlyOnce),
      });

    } finally {
      await world.close();
    }
    return result;
  },
};
