import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { enqueue } from "~/jobs/job-queue.server";
import { SCHEDULES } from "~/jobs/queues";
import { KEPT_DAYS, RETENTION_BATCH } from "~/privacy/retention.server";
import { action as scopesUpdate } from "~/routes/webhooks.app.scopes_update";
import { queuedJobs, resetJobs, runJobs } from "../support/jobs";
import { responseOf, signedWebhookRequest, uniqueShop } from "../support/webhooks";

/**
 * Records kept only to make something happen once are deleted once they cannot serve again, by the daily sweep and
 * each shop's own pass, through the real queue and handlers on the real database: webhook deliveries after a week
 * (a redelivery inside it is still recognised), Flow action runs after thirty days, Flow trigger events after ninety
 * and only once their parcel can move no more. Another shop's records, and everything younger, stay.
 */
const DAY_MS = 86_400_000;
const daysAgo = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

const SHOP = uniqueShop("retention");
const NEIGHBOUR = uniqueShop("retention-other");

beforeAll(async () => {
  await resetJobs();
  for (const shop of [SHOP, NEIGHBOUR]) {
    await prisma.session.create({ data: { id: `offline_${shop}`, shop, state: "installed", accessToken: "shpat_test", scope: "read_orders" } });
  }
});
afterAll(async () => {
  await resetJobs();
});

/** The daily sweep as its schedule runs it, at `now`: a pass for each installed shop, and the passes that follow. */
async function runTheSweep(now: Date) {
  await enqueue("retention-sweep", {});
  const run = await runJobs(["retention-sweep", "data-retention"], { deps: { now: () => now } });
  expect(run.failed).toEqual([]);
  return run;
}

const parcel = (shop: string, outcome: string) =>
  prisma.shipment.create({ data: { shop, orderGid: `gid://shopify/Order/${Date.now()}${Math.floor(Math.random() * 1e6)}`, orderName: "#1001", status: "fulfilled", requestPayload: "{}", courierEnvironment: "sandbox", paymentMode: "cod", outcome } });

describe("records kept past their use", () => {
  it("is scheduled once a day, for every installed shop", () => {
    expect(SCHEDULES["retention-sweep"]).toMatch(/^\d+ \d+ \* \* \*$/);
  });

  it("recognises a webhook redelivered within the week, and forgets the delivery after it", async () => {
    const webhookId = `retention-${randomUUID()}`;
    const deliver = () =>
      responseOf(() =>
        scopesUpdate({
          request: signedWebhookRequest("http://localhost:3999/webhooks/app/scopes_update", { topic: "app/scopes_update", shop: SHOP, webhookId, payload: { id: 1, previous: [], current: ["read_orders"], updated_at: new Date().toISOString() } }),
          params: {},
          context: {},
        }),
      );
    expect((await deliver()).status).toBe(200);
    expect(await queuedJobs("scopes-updated", SHOP)).toHaveLength(1);
    expect((await runJobs(["scopes-updated"])).failed).toEqual([]);
    const receivedAt = (await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: webhookId } })).receivedAt;

    // Six days on, the delivery is still known: Shopify delivering it again enqueues nothing.
    await runTheSweep(new Date(receivedAt.getTime() + 6 * DAY_MS));
    expect(await prisma.webhookDelivery.count({ where: { id: webhookId } })).toBe(1);
    expect((await deliver()).status).toBe(200);
    expect(await queuedJobs("scopes-updated", SHOP)).toHaveLength(0);

    // Past the week it is gone.
    await runTheSweep(new Date(receivedAt.getTime() + (KEPT_DAYS.webhookDeliveries + 1) * DAY_MS));
    expect(await prisma.webhookDelivery.count({ where: { id: webhookId } })).toBe(0);
  });

  it("deletes a shop's old webhook deliveries and Flow action runs in batches, and nothing of another shop's or younger", async () => {
    const now = new Date();
    const old = daysAgo(now, KEPT_DAYS.flowActionRuns + 1);
    // One more than a batch: the pass that fills its batch is followed by another.
    const oldDeliveries = RETENTION_BATCH + 1;
    for (const shop of [SHOP, NEIGHBOUR]) {
      await prisma.webhookDelivery.createMany({ data: Array.from({ length: shop === SHOP ? oldDeliveries : 3 }, (_, index) => ({ id: `old-${shop}-${index}`, shop, topic: "orders/create", receivedAt: daysAgo(now, KEPT_DAYS.webhookDeliveries + 1) })) });
      await prisma.webhookDelivery.create({ data: { id: `recent-${shop}`, shop, topic: "orders/create", receivedAt: daysAgo(now, KEPT_DAYS.webhookDeliveries - 1) } });
      await prisma.flowActionRun.createMany({
        data: [
          { shop, actionRunId: `old-${shop}`, action: "dakiya-ship-order", state: "done", status: 200, startedAt: old, finishedAt: old },
          { shop, actionRunId: `recent-${shop}`, action: "dakiya-ship-order", state: "done", status: 200, startedAt: daysAgo(now, KEPT_DAYS.flowActionRuns - 1), finishedAt: now },
        ],
      });
    }

    // Only the shop's own pass, not the sweep: the neighbour's records are untouched.
    await enqueue("data-retention", { shop: SHOP });
    const run = await runJobs(["data-retention"], { deps: { now: () => now } });
    expect(run.failed).toEqual([]);
    expect(run.ran).toBe(2);

    expect((await prisma.webhookDelivery.findMany({ where: { shop: SHOP }, select: { id: true } })).map((row) => row.id)).toEqual([`recent-${SHOP}`]);
    expect((await prisma.flowActionRun.findMany({ where: { shop: SHOP }, select: { actionRunId: true } })).map((row) => row.actionRunId)).toEqual([`recent-${SHOP}`]);
    expect(await prisma.webhookDelivery.count({ where: { shop: NEIGHBOUR } })).toBe(4);
    expect(await prisma.flowActionRun.count({ where: { shop: NEIGHBOUR } })).toBe(2);
  });

  it("keeps a Flow trigger's event while its parcel can still move, and forgets it once the parcel has ended", async () => {
    const now = new Date();
    const old = daysAgo(now, KEPT_DAYS.flowTriggerEvents + 1);
    const moving = await parcel(SHOP, "in_transit");
    const delivered = await parcel(SHOP, "delivered");
    const neighbours = await parcel(NEIGHBOUR, "delivered");
    const event = (shop: string, eventKey: string, shipmentId: number | null, createdAt: Date) => ({ shop, trigger: "dakiya-parcel-delivered", eventKey, shipmentId, createdAt, sentAt: createdAt });
    await prisma.flowTriggerEvent.createMany({
      data: [
        // Out for delivery again tomorrow must not fire again: kept, however old.
        event(SHOP, `shipment:${moving.id}:out_for_delivery`, moving.id, old),
        event(SHOP, `shipment:${delivered.id}:delivered`, delivered.id, old),
        // A parcel erased since, and an order's own event: nothing left to repeat them.
        event(SHOP, "shipment:999999999:delivered", 999_999_999, old),
        event(SHOP, "order:gid://shopify/Order/1:cod-answer", null, old),
        // A parcel that ended recently: its events are young.
        event(SHOP, `shipment:${delivered.id}:out_for_delivery`, delivered.id, daysAgo(now, KEPT_DAYS.flowTriggerEvents - 1)),
        event(NEIGHBOUR, `shipment:${neighbours.id}:delivered`, neighbours.id, old),
      ],
    });

    await runTheSweep(now);

    expect((await prisma.flowTriggerEvent.findMany({ where: { shop: SHOP }, select: { eventKey: true }, orderBy: { id: "asc" } })).map((row) => row.eventKey)).toEqual([
      `shipment:${moving.id}:out_for_delivery`,
      `shipment:${delivered.id}:out_for_delivery`,
    ]);
    // The sweep passed over the neighbour too: its ended parcel's old event is gone, its shipment stays.
    expect(await prisma.flowTriggerEvent.count({ where: { shop: NEIGHBOUR } })).toBe(0);
    expect(await prisma.shipment.count({ where: { id: { in: [moving.id, delivered.id, neighbours.id] } } })).toBe(3);
  });
});
