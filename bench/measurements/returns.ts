import { performance } from "node:perf_hooks";
import { shopperOrder } from "../../test/support/orders";
import type { BenchContext } from "../lib/context";
import { fmtMs, latencyOf, section, verdict, type Section } from "../lib/results";
import { cpuSince, cpuTable, operationsTable, PLUS_PLAN, startStoreWorld, usageSince } from "../lib/store-world";
import { fulfillmentLines, returnsOf } from "../../store/returns";
import type { StoreOrder } from "../../store/model";
import type { Measurement } from "./measurement";

/**
 * A return's pickup beside a forward booking, in the same run: shoppers' orders are booked and fulfilled by the
 * rules, then each shopper asks to return an item and the merchant approves it in the store simulator; the app hears
 * returns/approve, the `return-check` job reads the return, quotes a reverse pickup, books it by the return setting
 * (the cheapest courier) and attaches Shopify's reverse delivery with the awb and tracking link. Timed from the
 * approval to the reverse delivery carrying its tracking in the store, and from the order placed to its fulfillment.
 */
const ID = "returns";
const TITLE = "Returns: approved return → reverse delivery with tracking";
const DEFAULT_ORDERS = 40;
const FULL_ORDERS = 200;
// Under the Plus plan's bucket, so the figures are the app's, not a wait for Shopify's points.
const PLACE_RATE = 10;
const P99_TARGET_MS = 5_000;
const POLL_MS = 20;

export const returnsMeasurement: Measurement = {
  id: ID,
  title: TITLE,
  async run(context: BenchContext): Promise<Section> {
    const count = context.full ? FULL_ORDERS : DEFAULT_ORDERS;
    const result = section(
      ID,
      TITLE,
      `${count} orders${context.full ? "" : ` (${FULL_ORDERS} with \`--full\`)`} placed by shoppers in the store simulator at ${PLACE_RATE} a second (Plus plan bucket), each booked end to end by the real workers with auto-booking on (every order with the recommended courier); then, for each fulfilled order, the shopper's \`returnRequest\` and the merchant's \`returnApproveRequest\` in the simulator, at the same rate, with the return setting "the cheapest courier" saved through the Returns view's action. The app serves the production build and one \`npm run worker\` runs the jobs, on a scratch database. A return is timed from its approval (the simulator's mutation) to the moment its reverse fulfillment order holds a reverse delivery with the awb (polled every ${POLL_MS} ms in the simulator's own memory); a forward booking from the order placed to its fulfillment with tracking. Points are what the simulator charged each phase, over the returns (or orders) it served.`,
    );
    const world = await startStoreWorld(context, { name: "returns", throttle: PLUS_PLAN });
    try {
      const shop = `bench-${context.runId}-returns.myshopify.com`;
      await world.installShop(shop);
      await world.enableAutoBooking(shop);
      await world.query(`UPDATE "ShopSettings" SET "returnRule" = 'cheapest' WHERE shop = $1`, [shop]);
      const store = world.simulator.shop(shop);

      // Forward: placed → fulfilled with tracking.
      const forwardUsage = { ...store.usage };
      const placedAt = new Map<string, number>();
      const fulfilledIn = new Map<string, number>();
      const placing = (async () => {
        const began = performance.now();
        for (let index = 0; index < count; index += 1) {
          const wait = began + (index * 1000) / PLACE_RATE - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          const order = world.simulator.placeOrder(shop, shopperOrder(index));
          placedAt.set(order.id, performance.now());
        }
      })();
      const deadline = performance.now() + 180_000;
      const orderOf = (gid: string) => store.orders.find((order) => order.id === gid)!;
      while ((fulfilledIn.size < count || placedAt.size < count) && performance.now() < deadline) {
        for (const [gid, at] of placedAt) if (!fulfilledIn.has(gid) && orderOf(gid).fulfillments.some((fulfillment) => fulfillment.trackingInfo.length > 0)) fulfilledIn.set(gid, performance.now() - at);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      await placing;
      const forwardPoints = store.usage.points - forwardUsage.points;

      // Return: approved → reverse delivery with the awb.
      const returnUsage = { ...store.usage };
      const operationsBefore = world.usageByOperation(shop);
      const cpuBefore = world.cpu();
      const approvedAt = new Map<string, { at: number; order: StoreOrder }>();
      const deliveredIn = new Map<string, number>();
      const approving = (async () => {
        const began = performance.now();
        let index = 0;
        for (const gid of fulfilledIn.keys()) {
          const wait = began + (index * 1000) / PLACE_RATE - performance.now();
          index += 1;
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          const order = orderOf(gid);
          const line = fulfillmentLines(order)[0]!;
          const returnGid = world.simulator.returnAction(shop, "returnRequest", { input: { orderId: gid, returnLineItems: [{ fulfillmentLineItemId: line.id, quantity: 1 }] } });
          world.simulator.returnAction(shop, "returnApproveRequest", { input: { id: returnGid } });
          approvedAt.set(returnGid, { at: performance.now(), order });
        }
      })();
      const returnDeadline = performance.now() + 180_000;
      while ((deliveredIn.size < fulfilledIn.size || approvedAt.size < fulfilledIn.size) && performance.now() < returnDeadline) {
        for (const [returnGid, { at, order }] of approvedAt) {
          if (deliveredIn.has(returnGid)) continue;
          const ret = returnsOf(order).find((candidate) => candidate.id === returnGid)!;
          if (ret.reverseFulfillmentOrders.some((rfo) => rfo.deliveries.some((delivery) => delivery.tracking?.number))) deliveredIn.set(returnGid, performance.now() - at);
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      await approving;
      const cpuAfter = world.cpu();
      const returnPoints = store.usage.points - returnUsage.points;
      const [pickups] = await world.query<{ pickups: number; awbs: number }>(
        `SELECT count(*)::int AS pickups, count(DISTINCT awb)::int AS awbs FROM "Shipment" WHERE shop = $1 AND direction = 'return' AND status = 'return_in_transit'`,
        [shop],
      );
      const deliveries = store.orders.flatMap((order) => returnsOf(order)).flatMap((ret) => ret.reverseFulfillmentOrders.flatMap((rfo) => rfo.deliveries));

      const back = latencyOf([...deliveredIn.values()]);
      const forward = latencyOf([...fulfilledIn.values()]);
      result.rows.push({
        name: "approved return → reverse delivery with tracking in Shopify (p50 / p99)",
        result: `${fmtMs(back.p50)} / ${fmtMs(back.p99)} (${deliveredIn.size} of ${approvedAt.size} returns)`,
        reference: `forward, placed → fulfilled with tracking: ${fmtMs(forward.p50)} / ${fmtMs(forward.p99)} (${fulfilledIn.size} of ${count} orders)`,
        target: `p99 ≤ ${fmtMs(P99_TARGET_MS)}`,
        verdict: verdict(deliveredIn.size === approvedAt.size && approvedAt.size > 0 && back.p99 <= P99_TARGET_MS),
      });
      result.rows.push({
        name: "Shopify points a return costs",
        result: `${(returnPoints / Math.max(1, deliveredIn.size)).toFixed(1)} points`,
        reference: `a forward booking: ${(forwardPoints / Math.max(1, fulfilledIn.size)).toFixed(1)} points`,
        target: "reported",
        verdict: "INFO",
      });
      result.rows.push({
        name: "every return picked up exactly once",
        result: `${pickups!.pickups} pickups, ${pickups!.awbs} awbs, ${deliveries.length} reverse deliveries for ${approvedAt.size} returns`,
        reference: "Shipment rows (direction return); the store's reverse deliveries",
        target: "one of each per return",
        verdict: verdict(pickups!.pickups === approvedAt.size && pickups!.awbs === approvedAt.size && deliveries.length === approvedAt.size),
      });
      const operations = usageSince(world.usageByOperation(shop), operationsBefore);
      result.details.push(operationsTable(operations, deliveredIn.size, "a return"), cpuTable(cpuSince(cpuAfter, cpuBefore), deliveredIn.size, "per return"));
      result.notes.push(
        "A return's own Admin API calls are ReturnForPickup, read by the check (which serves the quote and the booking) and once more before the reverse delivery is attached (how an attempt after a crash finds the delivery an earlier one made), and ReverseDeliveryCreate.",
      );
    } finally {
      await world.close();
    }
    return result;
  },
};
