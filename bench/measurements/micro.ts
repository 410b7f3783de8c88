import { performance } from "node:perf_hooks";
import type { BenchContext } from "../lib/context";
import { fmtRate, section, verdict, type Section } from "../lib/results";
import type { Measurement } from "./measurement";

/**
 * The pure hot paths, in the bench's own process: each next to a floor — the same loop doing JSON.parse of the
 * same payload — so "50,000/s" reads as "about as costly as parsing its input N times", which survives a
 * change of machine.
 */

interface Throughput {
  perSecond: number;
  iterations: number;
  seconds: number;
}

/** Runs `run` for about `seconds` after a warm-up, in batches, and returns operations per second. */
async function throughput(run: (index: number) => unknown, seconds = 1.5): Promise<Throughput> {
  const warmUntil = performance.now() + 300;
  let index = 0;
  while (performance.now() < warmUntil) await run(index++);
  const start = performance.now();
  const until = start + seconds * 1000;
  let iterations = 0;
  while (performance.now() < until) {
    for (let batch = 0; batch < 50; batch += 1) await run(iterations++);
  }
  const elapsed = (performance.now() - start) / 1000;
  return { perSecond: iterations / elapsed, iterations, seconds: elapsed };
}

export const microBenchmarks: Measurement = {
  id: "micro",
  title: "Pure hot paths (in-process)",
  async run(context: BenchContext): Promise<Section> {
    const result = section(
      "micro",
      "Pure hot paths (in-process)",
      "Each loop runs about 1.5 s after a 0.3 s warm-up in the bench's own process. The floor is the same loop doing `JSON.parse` of the same payload (the order as the Admin API returns it, the rate request, the simulator's answer), so each figure reads as a multiple of the cheapest thing that could be done with that input.",
    );
    const { runAdminGraphql } = await import("../../store/admin-api");
    const { seedShop } = await import("../../store/seed");
    const { ORDER_FOR_BOOKING } = await import("../../app/shopify/queries");
    const { toCourierOrder } = await import("../../app/shopify/order-mapping");
    const { quoteAll } = await import("../../app/courier-service/rates");
    const { DEFAULT_RATE_CARDS } = await import("../../app/courier-service/rate-cards");

    const shop = seedShop(`bench-${context.runId}.myshopify.com`);
    const unthrottled = { maximumAvailable: 1e9, restoreRate: 1e9 };
    const query = { query: ORDER_FOR_BOOKING, variables: { id: shop.orders[0]!.id } };
    const answer = await runAdminGraphql(shop, query, { throttle: unthrottled, now: () => new Date() });
    const order = (answer.body.data as { order: Parameters<typeof toCourierOrder>[0] }).order;
    const settings = { codTag: "cod", prepaidTag: "prepaid", defaultPackage: { length: 20, breadth: 15, height: 10 }, defaultWeightKg: 0.5, presets: [], locationWarehouses: {}, defaultWarehouseId: null };
    const now = new Date();

    const rows: { name: string; op: (index: number) => unknown; floorJson: string; floorName: string; target: number; why: string }[] = [
      {
        name: "order mapping (Shopify order → Order fields)",
        op: () => toCourierOrder(order, { settings, now }),
        floorJson: JSON.stringify(order),
        floorName: "JSON.parse of the same order",
        target: 1_000,
        why: "≤ 1 ms an order: Orders to ship maps a page of 20 orders on every load, so ≤ 20 ms of the 2.5 s LCP budget",
      },
      {
        name: "rate engine (4 couriers, one route)",
        op: (index) => quoteAll(DEFAULT_RATE_CARDS, { shipmentType: "forward", paymentMode: "cod", pickup: 421302, delivery: 110001 + (index % 900), length: 30, breadth: 25, height: 8, actualWeight: 0.9, amount: 1499 }),
        floorJson: JSON.stringify({ shipment_type: "forward", payment_mode: "cod", pickup: 421302, delivery: 110001, length: 30, breadth: 25, height: 8, actual_weight: 0.9, amount: 1499 }),
        floorName: "JSON.parse of the rate request",
        target: 20_000,
        why: "≤ 50 µs a quote, a small part of calculate-rate's 25 ms p99",
      },
      {
        name: "store simulator: OrderForBooking query",
        op: () => runAdminGraphql(shop, query, { throttle: unthrottled, now: () => new Date() }),
        floorJson: JSON.stringify(answer.body),
        floorName: "JSON.parse of the same answer",
        target: 500,
        why: "at the most a Standard plan allows (100 points/s restored, so at most 100 queries/s at 1 point each) the simulator then takes ≤ 20 % of a core, so the later booking measurement is bound by Shopify's budget, not by the simulator",
      },
    ];
    for (const row of rows) {
      context.log(row.name);
      const measured = await throughput(row.op);
      const floor = await throughput(() => JSON.parse(row.floorJson));
      const multiple = floor.perSecond / measured.perSecond;
      result.rows.push({
        name: row.name,
        result: `${fmtRate(measured.perSecond)} (${(1e6 / measured.perSecond).toFixed(1)} µs each)`,
        reference: `${row.floorName}: ${fmtRate(floor.perSecond)} — the path costs ${multiple.toFixed(1)}× that`,
        target: `≥ ${fmtRate(row.target)}`,
        verdict: verdict(measured.perSecond >= row.target),
      });
      result.notes.push(`${row.name}: the bench's own target (no product target exists), ${row.why}.`);
    }
    return result;
  },
};
