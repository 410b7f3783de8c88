import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_RULES } from "~/automation/rules";
import prisma from "~/db.server";
import { createJobHandlers, defaultJobDeps } from "~/workers/job-handlers.server";
import { listFailedJobs, startWorkers, stopJobQueue } from "~/jobs/job-queue.server";
import { action as ordersCreate } from "~/routes/webhooks.orders.create";
import { saveBookingRules } from "~/automation/booking-rules.server";
import { seedShop } from "../../store/seed";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { resetJobs } from "../support/jobs";
import { shopperOrder } from "../support/orders";
import { serveRoutes, startStore } from "../support/store";
import { uniqueShop } from "../support/webhooks";

/*
 * A burst of new orders against a small Shopify budget, worked off by the real job workers: every order is checked
 * and auto-booked, none lost, none failed, no call refused by Shopify for want of points; and a second shop's few
 * orders are not stuck behind the first shop's burst.
 */

const BURST = 80;
// The smallest bucket a shop has (1,000 points), restoring fast enough for the test to finish in seconds. The
// booking query's requested cost (about 150) makes the budget bind: calls wait for points at this rate.
const THROTTLE = { maximumAvailable: 1_000, restoreRate: 500 };

let courier: RunningCourierService;
let app: Awaited<ReturnType<typeof serveRoutes>>;
let store: Awaited<ReturnType<typeof startStore>>;
const neighbour = uniqueShop("neighbour");

beforeAll(async () => {
  await resetJobs();
  courier = await startAppCourierService();
  app = await serveRoutes({ "/webhooks/orders/create": ordersCreate });
  const domain = uniqueShop("burst");
  store = await startStore({ domain, shops: [seedShop(domain), seedShop(neighbour)], appUrl: app.url, throttle: THROTTLE });
  await store.install();
  await store.install(neighbour);
  for (const shop of [store.domain, neighbour]) await saveBookingRules(shop, { autoBooking: true, rules: EXAMPLE_RULES.slice(1) });
}, 60_000);
afterAll(async () => {
  await stopJobQueue();
  await store.close();
  await app.close();
  await courier.close();
});

async function bookedCount(shop: string, orderGids: string[]): Promise<number> {
  return prisma.shipment.count({ where: { shop, orderGid: { in: orderGids }, status: "fulfilled" } });
}

/** The shop's order checks a worker has taken up (each checks its order and books it by the rules). */
async function checksTaken(shop: string): Promise<number> {
  const [row] = await prisma.$queryRaw<{ taken: number }[]>`SELECT count(*)::int AS taken FROM pgboss.job WHERE name = 'order-check' AND data->>'shop' = ${shop} AND started_on IS NOT NULL`;
  return row!.taken;
}

describe("a burst of new orders on a small Shopify budget", () => {
  it(`auto-books all ${BURST} orders, none lost or failed and none throttled, while another shop's orders go through beside them`, { timeout: 240_000 }, async () => {
    const started = Date.now();
    const burst = Array.from({ length: BURST }, (_, index) => store.simulator.placeOrder(store.domain, shopperOrder(1000 + index)));
    await store.simulator.settled();
    await startWorkers({ handlers: createJobHandlers(defaultJobDeps), concurrency: 8, queues: ["order-check", "shipment-complete"] });

    // A few seconds into the burst, another shop's shoppers order.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const others = Array.from({ length: 5 }, (_, index) => store.simulator.placeOrder(neighbour, shopperOrder(2000 + index)));
    await store.simulator.settled();

    const burstIds = burst.map((order) => order.id);
    const otherIds = others.map((order) => order.id);
    let othersDoneAt = 0;
    let othersTakenAt = 0;
    let burstBookedWhenOthersTaken = 0;
    let burstDoneAt = 0;
    while (Date.now() - started < 220_000 && (othersDoneAt === 0 || burstDoneAt === 0)) {
      if (!othersTakenAt && (await checksTaken(neighbour)) >= others.length) {
        othersTakenAt = Date.now();
        burstBookedWhenOthersTaken = await bookedCount(store.domain, burstIds);
      }
      if (!othersDoneAt && (await bookedCount(neighbour, otherIds)) === others.length) othersDoneAt = Date.now();
      if (!burstDoneAt && (await bookedCount(store.domain, burstIds)) === BURST) burstDoneAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }

    expect(await bookedCount(store.domain, burstIds)).toBe(BURST);
    expect(await bookedCount(neighbour, otherIds)).toBe(others.length);
    // Every order was decided by the rules, and booked once.
    const records = await prisma.orderRecord.findMany({ where: { shop: store.domain, orderGid: { in: burstIds } } });
    expect(records.filter((record) => record.decision === "booked")).toHaveLength(BURST);
    expect(new Set((await prisma.shipment.findMany({ where: { shop: store.domain, orderGid: { in: burstIds } } })).map((shipment) => shipment.awb)).size).toBe(BURST);
    for (const order of burst) expect(store.shop.orders.find((candidate) => candidate.id === order.id)!.fulfillments).toHaveLength(1);
    expect(await listFailedJobs(store.domain)).toEqual([]);

    // The budget bound the work: it could not have gone faster than the points it spent allow...
    const usage = store.shop.usage;
    const floorSeconds = (usage.points - THROTTLE.maximumAvailable) / THROTTLE.restoreRate;
    expect(floorSeconds).toBeGreaterThan(5);
    expect((burstDoneAt - started) / 1000).toBeGreaterThan(floorSeconds);
    // ...and Dakiya waited for points rather than being refused them.
    expect(usage.throttled).toBe(0);
    // The other shop was not made to wait for the burst. In one line behind it, its orders would be taken up only
    // once the last of the burst's jobs had been taken, with at least BURST - concurrency of them booked; beside it,
    // they are taken up while most of the burst still waits. Counted in orders, not seconds, and at the moment the
    // work is taken up rather than finished: the burst's pace is bound by its points, which restore by the clock,
    // while a machine short of CPU slows the neighbour's own checking and booking alone.
    expect(othersDoneAt).toBeGreaterThan(0);
    expect(othersTakenAt).toBeGreaterThan(0);
    expect(othersTakenAt).toBeLessThan(burstDoneAt);
    expect(burstBookedWhenOthersTaken).toBeLessThan(BURST / 2);
  });
});
