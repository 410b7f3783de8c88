import { performance } from "node:perf_hooks";
import { shopperOrder } from "../../test/support/orders";
import type { BenchContext } from "../lib/context";
import { fmtMs, section, verdict, type Section } from "../lib/results";
import { describeOnce, PLUS_PLAN, startStoreWorld } from "../lib/store-world";
import type { Measurement } from "./measurement";

/**
 * A fault, not a speed: PostgreSQL restarted while new orders arrive and are auto-booked. The app server and the worker
 * keep running through it; what the restart interrupted fails alone — a webhook answers 5xx and the store delivers it
 * again, a job is retried — so no order is lost and none is booked twice. Reported: how long after PostgreSQL is back
 * the app answers again and every order is booked.
 */
const ID = "postgres-restart";
const TITLE = "Fault: PostgreSQL restarted under webhooks and bookings";
const ORDERS = 60;
const RATE = 10;
// The restart begins once this many orders have been placed, and PostgreSQL stays down this long.
const RESTART_AFTER = 20;
const DOWN_MS = 2_000;
const TARGET_HEALTHY_MS = 5_000;
const TARGET_ALL_BOOKED_MS = 90_000;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export const postgresRestart: Measurement = {
  id: ID,
  title: TITLE,
  async run(context: BenchContext): Promise<Section> {
    const result = section(
      ID,
      TITLE,
      `${ORDERS} orders placed in the store simulator at ${RATE} a second, each delivered to the app as a signed \`orders/create\` and auto-booked by the worker (one rule: everything with the recommended courier), as in the new-orders measurement. Once ${RESTART_AFTER} have been placed, the bench's embedded PostgreSQL is stopped (a fast shutdown: every connection of the app, the worker and the job queue dropped, open transactions rolled back), kept down ${fmtMs(DOWN_MS)} and started again on the same port. Deliveries the app could not acknowledge meanwhile are delivered again by the simulator (after 1, 5 and 30 s, as Shopify retries); jobs that failed are retried by pg-boss. Counted afterwards: processes still running, deliveries never acknowledged, orders booked exactly once (app, courier, Shopify); timed from PostgreSQL accepting connections again: the app's /healthz answering "database reachable", and the last order's fulfillment.`,
    );
    if (!context.database.restart) {
      result.rows.push({ name: "PostgreSQL restarted mid-load", result: "not measured", reference: "needs the embedded PostgreSQL the bench starts (DATABASE_URL is set)", target: "reported", verdict: "INFO" });
      return result;
    }
    const world = await startStoreWorld(context, { name: "restart", throttle: PLUS_PLAN });
    try {
      const shop = `bench-${context.runId}-restart.myshopify.com`;
      await world.installShop(shop);
      await world.enableAutoBooking(shop);
      const store = world.simulator.shop(shop);
      const placed: string[] = [];
      let restart: Promise<{ stoppedAt: number; backAt: number }> | undefined;
      const began = performance.now();
      context.log(`${ORDERS} orders at ${RATE}/s; PostgreSQL restarted after ${RESTART_AFTER}`);
      for (let index = 0; index < ORDERS; index += 1) {
        const wait = began + (index * 1000) / RATE - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        placed.push(world.simulator.placeOrder(shop, shopperOrder(index)).id);
        if (index + 1 === RESTART_AFTER) restart = context.database.restart(DOWN_MS);
      }
      const { stoppedAt, backAt } = await restart!;
      const backAtEpoch = Date.now() - (performance.now() - backAt);

      let healthyAt: number | null = null;
      for (const until = backAt + 60_000; healthyAt === null && performance.now() < until; ) {
        const health = await fetch(`${world.app.url}/healthz`).catch(() => null);
        const body = health?.ok ? ((await health.json().catch(() => ({}))) as { database?: string }) : {};
        if (body.database === "reachable") healthyAt = performance.now();
        else await new Promise((resolve) => setTimeout(resolve, 100));
      }

      const fulfilledCount = () => store.orders.filter((order) => placed.includes(order.id) && order.fulfillments.length > 0).length;
      for (const until = performance.now() + TARGET_ALL_BOOKED_MS + 30_000; fulfilledCount() < ORDERS && performance.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 250));
      // Redeliveries still waiting (a 30 s retry) are let finish, so an unacknowledged one is a lost one.
      await Promise.race([world.simulator.settled(), new Promise((resolve) => setTimeout(resolve, 45_000))]);
      const lastFulfilled = Math.max(...store.orders.filter((order) => placed.includes(order.id)).flatMap((order) => order.fulfillments.map((fulfillment) => Date.parse(fulfillment.createdAt))));
      const allBookedMs = lastFulfilled - backAtEpoch;

      const deliveries = world.simulator.deliveries.filter((delivery) => placed.includes(delivery.orderId));
      const retried = deliveries.filter((delivery) => delivery.attempts.length > 1).length;
      const lost = deliveries.filter((delivery) => delivery.acknowledgedAt === undefined).length;
      const once = await world.bookedOnce(shop, placed);
      const [failedJobs] = await world.query<{ count: number }>(`SELECT count(*)::int AS count FROM pgboss.job WHERE state = 'failed' AND data->>'shop' = $1`, [shop]);
      const running = [alive(world.app.pid) ? null : "the app server exited", alive(world.worker.pid) ? null : "the worker exited"].filter(Boolean);

      result.rows.push({
        name: "processes through the restart",
        result: running.length === 0 ? "the app server and the worker kept running (no restart)" : running.join(", "),
        reference: `PostgreSQL down ${fmtMs(backAt - stoppedAt)} (stop, ${fmtMs(DOWN_MS)} down, start)`,
        target: "both keep running",
        verdict: verdict(running.length === 0),
      });
      result.rows.push({
        name: "webhook deliveries lost",
        result: `${lost} of ${deliveries.length}; ${retried} answered 5xx or unreachable during the restart and delivered again`,
        reference: "the simulator's delivery records (retries after 1, 5, 30 s)",
        target: "0 lost",
        verdict: verdict(lost === 0 && deliveries.length === ORDERS),
      });
      result.rows.push({
        name: "orders booked exactly once",
        result: `${describeOnce(once, ORDERS)}; ${failedJobs!.count} jobs failed for good`,
        reference: "Shipment rows; the sandbox account's ServiceOrder rows; the store's fulfillments",
        target: "0 lost, 0 doubled",
        verdict: verdict(once.exactlyOnce && failedJobs!.count === 0),
      });
      result.rows.push({
        name: "time to recover, from PostgreSQL accepting connections again",
        result: `app healthy (/healthz: database reachable) after ${healthyAt === null ? "never (60 s)" : fmtMs(Math.max(0, healthyAt - backAt))}; every order booked and fulfilled ${fmtMs(allBookedMs)} after`,
        reference: `a job the restart failed is retried after pg-boss's back-off (15 s, doubling); a delivery after the simulator's (1, 5, 30 s)`,
        target: `healthy ≤ ${fmtMs(TARGET_HEALTHY_MS)}; all booked ≤ ${fmtMs(TARGET_ALL_BOOKED_MS)}`,
        verdict: verdict(healthyAt !== null && healthyAt - backAt <= TARGET_HEALTHY_MS && allBookedMs <= TARGET_ALL_BOOKED_MS && once.exactlyOnce),
      });
      const lostLines = (output: string) => output.split("\n").filter((line) => /PostgreSQL connection .* lost|Job queue:/.test(line)).length;
      const stackLines = (output: string) => output.split("\n").filter((line) => /^\s+at /.test(line)).length;
      result.notes.push(
        `What the processes logged about it: the app ${lostLines(world.app.output())} lines, the worker ${lostLines(world.worker.output())} lines of lost connections and job-queue errors, and ${stackLines(world.app.output()) + stackLines(world.worker.output())} lines of stack traces.`,
      );
    } finally {
      await world.close();
    }
    return result;
  },
};
