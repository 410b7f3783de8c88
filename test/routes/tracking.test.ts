import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listNeedsAttention } from "~/attention/needs-attention.server";
import { shipOrders } from "~/orders/ship-orders.server";
import prisma from "~/db.server";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import { enqueue } from "~/jobs/job-queue.server";
import { action as attentionAction, loader as attentionLoader } from "~/routes/app.attention";
import { action as shipAction, loader as shipLoader } from "~/routes/app.orders.$id.ship";
import { courierClientFor, sandboxCredentialsFor } from "~/settings/shop-settings.server";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { syncShopTracking } from "~/tracking/sync.server";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { resetJobs, runJobs } from "../support/jobs";
import { shopperOrder } from "../support/orders";
import { startStore } from "../support/store";

let courier: RunningCourierService;
let store: Awaited<ReturnType<typeof startStore>>;
let placed = 0;
/** The app's clock for the syncs: moved on by the tests, so shipments fall due without waiting. */
let clock = new Date();

beforeAll(async () => {
  await resetJobs();
  courier = await startAppCourierService();
  store = await startStore({ throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
  await store.install();
  // Shipments other test files left in this database are not this shop's business, nor this file's.
  await prisma.shipment.updateMany({ where: { shop: { not: store.domain } }, data: { nextSyncAt: null } });
});
afterAll(async () => {
  await store.close();
  await courier.close();
});

const later = (hours: number) => (clock = new Date(clock.getTime() + hours * 3_600_000));
const courierOfShop = () => courierClientFor(sandboxCredentialsFor(store.domain));

/** A shopper's order, placed and booked with the recommended courier: a fulfilled shipment with its awb. */
async function bookedShipment() {
  placed += 1;
  const order = store.simulator.placeOrder(store.domain, shopperOrder(400 + placed));
  const [result] = await shipOrders(store.domain, await defaultJobDeps.adminFor(store.domain), [order.id], { policy: "recommended" });
  expect(result).toMatchObject({ outcome: "booked", awb: expect.any(String) });
  const shipment = await prisma.shipment.findUniqueOrThrow({ where: { shop_orderGid_parcel: { shop: store.domain, orderGid: order.id, parcel: 1 } } });
  expect(shipment).toMatchObject({ status: "fulfilled", fulfillmentGid: expect.any(String) });
  return { order: store.shop.orders.find((candidate) => candidate.id === order.id)!, shipment };
}

/** The scheduled path: the sweep finds the shops with due shipments, and each shop's sync job runs. */
async function syncAt(at: Date, deps: { adminFor?: (shop: string) => Promise<ShopAdmin>; trackingPassSize?: number } = {}) {
  await enqueue("tracking-sweep", {});
  return runJobs(["tracking-sweep", "tracking-sync"], { deps: { now: () => at, ...deps } });
}

const eventsOf = (order: Awaited<ReturnType<typeof bookedShipment>>["order"]) => order.fulfillments[0]!.events;
const statusesOf = (order: Awaited<ReturnType<typeof bookedShipment>>["order"]) => eventsOf(order).map((event) => event.status);

/** An Admin API client whose process dies right after Shopify accepted a fulfillment event, before anything is recorded. */
function dyingAfterFirstEvent(admin: ShopAdmin): ShopAdmin {
  let died = false;
  const graphql = (async (query: string, options?: { variables?: Record<string, unknown> }) => {
    const response = await admin.graphql(query, options);
    if (!died && query.includes("fulfillmentEventCreate")) {
      died = true;
      throw new Error("the worker was killed");
    }
    return response;
  }) as ShopAdmin["graphql"];
  return { shop: admin.shop, graphql };
}

/** An Admin API client that counts the reads of a fulfillment's events it sends. */
function countingEventReads(admin: ShopAdmin): { admin: ShopAdmin; reads: () => number } {
  let reads = 0;
  const graphql = (async (query: string, options?: { variables?: Record<string, unknown> }) => {
    if (/query FulfillmentEvents\b/.test(query)) reads += 1;
    return admin.graphql(query, options);
  }) as ShopAdmin["graphql"];
  return { admin: { shop: admin.shop, graphql }, reads: () => reads };
}

describe("tracking for shoppers", () => {
  it("walks a shipment from manifested to delivered: one fulfillment event per stage, in order, and re-polls cost Shopify nothing", async () => {
    const { order, shipment } = await bookedShipment();
    const awb = shipment.awb!;
    expect((await syncAt(later(1))).failed).toEqual([]);
    expect(statusesOf(order)).toEqual(["LABEL_PURCHASED"]);

    const walk: [number, string][] = [
      [3, "READY_FOR_PICKUP"],
      [5, "IN_TRANSIT"],
      [6, "IN_TRANSIT"],
      [7, "OUT_FOR_DELIVERY"],
      [8, "DELIVERED"],
    ];
    const expected = ["LABEL_PURCHASED"];
    for (const [code, status] of walk) {
      await courierOfShop().advanceSandboxShipment(awb, code);
      expect((await syncAt(later(1))).failed).toEqual([]);
      expected.push(status);
      expect(statusesOf(order)).toEqual(expected);
      expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ courierStatusCode: code });

      // Polled again with nothing new: one courier call, no Shopify request, no event.
      const shopifyRequests = store.simulator.requests;
      const courierRequests = courier.requests;
      await prisma.shipment.update({ where: { id: shipment.id }, data: { nextSyncAt: clock } });
      expect((await syncAt(clock)).failed).toEqual([]);
      expect(store.simulator.requests).toBe(shopifyRequests);
      expect(courier.requests).toBeGreaterThan(courierRequests);
      expect(statusesOf(order)).toEqual(expected);
    }

    const events = eventsOf(order);
    // In the order they happened, the city where each happened, the courier's words, the estimate until delivered.
    expect(events.map((event) => event.happenedAt)).toEqual([...events.map((event) => event.happenedAt)].sort());
    expect(events.at(-1)).toMatchObject({ status: "DELIVERED", message: "Delivered to the consignee", city: expect.any(String), estimatedDeliveryAt: null });
    expect(events[0]).toMatchObject({ message: "Shipment manifested; awaiting pick-up", estimatedDeliveryAt: expect.any(String) });

    const done = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
    expect(done).toMatchObject({ courierStatusCode: 8, courierStatusLabel: "Delivered", deliveredAt: expect.any(Date), nextSyncAt: null, attention: null });
    expect(await prisma.trackingEvent.count({ where: { shipmentId: shipment.id, postedAt: null } })).toBe(0);
    expect(await prisma.trackingEvent.count({ where: { shipmentId: shipment.id } })).toBe(6);

    // Delivered is final: the sweep no longer reads it.
    const courierRequests = courier.requests;
    expect((await syncAt(later(24))).failed).toEqual([]);
    expect(courier.requests).toBe(courierRequests);
  });

  it("posts an event Shopify accepted just before the worker died once, and the rest after it once, in order", async () => {
    const { order, shipment } = await bookedShipment();
    expect((await syncAt(later(1))).failed).toEqual([]);
    await courierOfShop().advanceSandboxShipment(shipment.awb!, 6);

    const admin = await defaultJobDeps.adminFor(store.domain);
    const crashed = await syncAt(later(1), { adminFor: async () => dyingAfterFirstEvent(admin) });
    expect(crashed.failed).toEqual([{ queue: "tracking-sync", message: "the worker was killed" }]);
    // Shopify has the first new event; Dakiya did not get to record it.
    expect(statusesOf(order)).toEqual(["LABEL_PURCHASED", "READY_FOR_PICKUP"]);
    expect(await prisma.trackingEvent.count({ where: { shipmentId: shipment.id, postedAt: null } })).toBe(3);

    // The job's retry, and a sweep's sync beside it.
    expect((await syncAt(later(1))).failed).toEqual([]);
    expect(statusesOf(order)).toEqual(["LABEL_PURCHASED", "READY_FOR_PICKUP", "IN_TRANSIT", "IN_TRANSIT"]);
    const recorded = await prisma.trackingEvent.findMany({ where: { shipmentId: shipment.id }, orderBy: { happenedAt: "asc" } });
    expect(recorded.map((event) => event.shopifyEventGid)).toEqual(eventsOf(order).map((event) => event.id));
  });

  it("posts news without reading the fulfillment's events first, and reads them only after a post whose outcome is unknown", async () => {
    const { order, shipment } = await bookedShipment();
    const admin = await defaultJobDeps.adminFor(store.domain);
    const counting = countingEventReads(admin);
    expect((await syncAt(later(1), { adminFor: async () => counting.admin })).failed).toEqual([]);
    await courierOfShop().advanceSandboxShipment(shipment.awb!, 5);
    expect((await syncAt(later(1), { adminFor: async () => counting.admin })).failed).toEqual([]);
    // Every post so far was recorded: nothing of Dakiya's could be on the fulfillment unrecorded, so nothing was read.
    expect(statusesOf(order)).toEqual(["LABEL_PURCHASED", "READY_FOR_PICKUP", "IN_TRANSIT"]);
    expect(counting.reads()).toBe(0);

    // A post whose answer is lost (the worker dies once Shopify has the event): the next post reads first, once.
    await courierOfShop().advanceSandboxShipment(shipment.awb!, 7);
    expect((await syncAt(later(1), { adminFor: async () => dyingAfterFirstEvent(admin) })).failed).toEqual([{ queue: "tracking-sync", message: "the worker was killed" }]);
    expect((await syncAt(later(1), { adminFor: async () => counting.admin })).failed).toEqual([]);
    expect(counting.reads()).toBe(1);
    expect(statusesOf(order)).toEqual(["LABEL_PURCHASED", "READY_FOR_PICKUP", "IN_TRANSIT", "IN_TRANSIT", "OUT_FOR_DELIVERY"]);
    expect(await prisma.trackingEvent.count({ where: { shipmentId: shipment.id, postedAt: null } })).toBe(0);
  });

  it("finds an event Shopify accepted before the worker died among more events than one read returns", async () => {
    const { order, shipment } = await bookedShipment();
    expect((await syncAt(later(1))).failed).toEqual([]);
    // Sixty older events added by someone else (the merchant, another app): the new ones sort after them.
    const fillers = Array.from({ length: 60 }, (_, index) => ({ id: `gid://shopify/FulfillmentEvent/9${shipment.id}${index}`, status: "IN_TRANSIT", message: `Note ${index}`, happenedAt: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(), estimatedDeliveryAt: null, city: null }));
    eventsOf(order).push(...fillers);
    await courierOfShop().advanceSandboxShipment(shipment.awb!, 6);

    const admin = await defaultJobDeps.adminFor(store.domain);
    expect((await syncAt(later(1), { adminFor: async () => dyingAfterFirstEvent(admin) })).failed).toEqual([{ queue: "tracking-sync", message: "the worker was killed" }]);
    expect((await syncAt(later(1))).failed).toEqual([]);
    const ours = eventsOf(order).filter((event) => !event.message?.startsWith("Note "));
    expect(ours.map((event) => event.status)).toEqual(["LABEL_PURCHASED", "READY_FOR_PICKUP", "IN_TRANSIT", "IN_TRANSIT"]);
    expect(eventsOf(order)).toHaveLength(64);
  });

  it("syncs a shop's shipments from two workers at once without posting anything twice", async () => {
    const first = await bookedShipment();
    const second = await bookedShipment();
    await courierOfShop().advanceSandboxShipment(first.shipment.awb!, 7);
    await courierOfShop().advanceSandboxShipment(second.shipment.awb!, 5);
    const admin = await defaultJobDeps.adminFor(store.domain);
    const at = later(1);
    await Promise.all([syncShopTracking(store.domain, { admin, now: () => at }), syncShopTracking(store.domain, { admin, now: () => at }), syncShopTracking(store.domain, { admin, now: () => at })]);
    await prisma.shipment.updateMany({ where: { id: { in: [first.shipment.id, second.shipment.id] } }, data: { nextSyncAt: at } });
    await syncShopTracking(store.domain, { admin, now: () => at });
    expect(statusesOf(first.order)).toEqual(["LABEL_PURCHASED", "READY_FOR_PICKUP", "IN_TRANSIT", "IN_TRANSIT", "OUT_FOR_DELIVERY"]);
    expect(statusesOf(second.order)).toEqual(["LABEL_PURCHASED", "READY_FOR_PICKUP", "IN_TRANSIT"]);
  });

  it("hands a pass's claims back when the database refuses the first try, so its shipments are due at once, not a lease later", async () => {
    const { shipment } = await bookedShipment();
    const at = later(1);
    // Only this one is due: what the earlier tests left is not this test's business.
    await prisma.shipment.updateMany({ where: { shop: store.domain, id: { not: shipment.id } }, data: { nextSyncAt: null } });
    const dueBefore = (await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).nextSyncAt;
    // The pass's updates of Shipment, counted by a sequence (which a failed statement does not roll back): the claim
    // goes through; the write of the unchanged read and the first hand-back are refused, as a dropped connection would.
    await prisma.$executeRawUnsafe(`CREATE SEQUENCE tracking_fault_updates`);
    await prisma.$executeRawUnsafe(`CREATE FUNCTION tracking_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF nextval('tracking_fault_updates') IN (2, 3) THEN RAISE EXCEPTION 'the connection was refused'; END IF; RETURN NULL; END $$`);
    await prisma.$executeRawUnsafe(`CREATE TRIGGER tracking_fault BEFORE UPDATE ON "Shipment" FOR EACH STATEMENT EXECUTE FUNCTION tracking_fault()`);
    try {
      await expect(syncShopTracking(store.domain, { admin: await defaultJobDeps.adminFor(store.domain), now: () => at })).rejects.toThrow(/the connection was refused/);
      const [{ updates }] = await prisma.$queryRawUnsafe<[{ updates: bigint }]>(`SELECT last_value AS updates FROM tracking_fault_updates`);
      expect(Number(updates)).toBe(4);
    } finally {
      await prisma.$executeRawUnsafe(`DROP TRIGGER tracking_fault ON "Shipment"`);
      await prisma.$executeRawUnsafe(`DROP FUNCTION tracking_fault()`);
      await prisma.$executeRawUnsafe(`DROP SEQUENCE tracking_fault_updates`);
    }
    // Due exactly as it was before the pass claimed it, not leased for another minute.
    expect((await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).nextSyncAt).toEqual(dueBefore);
  });

  it("posts an entry that reaches the courier's history late, once, without moving the shipment's stage back", async () => {
    const { order, shipment } = await bookedShipment();
    await courierOfShop().advanceSandboxShipment(shipment.awb!, 6);
    expect((await syncAt(later(1))).failed).toEqual([]);
    expect(statusesOf(order)).toEqual(["LABEL_PURCHASED", "READY_FOR_PICKUP", "IN_TRANSIT", "IN_TRANSIT"]);

    // A hub scan the courier recorded hours after it happened: earlier than the stage already shown.
    const serviceOrder = await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: shipment.awb! }, include: { events: { orderBy: { step: "asc" } } } });
    const reached = serviceOrder.events.at(-1)!;
    await prisma.serviceTrackingEvent.create({
      data: { orderId: serviceOrder.id, step: -1, code: 5, location: "Bhiwandi hub", activity: "Shipment scanned at Bhiwandi hub", happenedAt: new Date(reached.happenedAt.getTime() - 3_600_000) },
    });
    for (let poll = 0; poll < 2; poll += 1) {
      await prisma.shipment.update({ where: { id: shipment.id }, data: { nextSyncAt: clock } });
      expect((await syncAt(clock)).failed).toEqual([]);
    }
    const late = eventsOf(order).filter((event) => event.message === "Shipment scanned at Bhiwandi hub");
    expect(late).toHaveLength(1);
    expect(late[0]).toMatchObject({ status: "IN_TRANSIT", city: "Bhiwandi hub" });
    expect(eventsOf(order)).toHaveLength(5);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ courierStatusCode: 6 });
  });

  it("ends a return to origin with FAILURE events that say what happened, and the merchant told what to do", async () => {
    const { order, shipment } = await bookedShipment();
    await courierOfShop().advanceSandboxShipment(shipment.awb!, 9);
    expect((await syncAt(later(1))).failed).toEqual([]);
    expect(statusesOf(order).slice(-2)).toEqual(["OUT_FOR_DELIVERY", "ATTEMPTED_DELIVERY"]);
    const undelivered = (await listNeedsAttention(store.domain)).items.find((item) => item.shipmentId === shipment.id);
    expect(undelivered).toMatchObject({ kind: "tracking_exception", action: expect.stringMatching(/^Delivery failed: call the shopper/) });

    await courierOfShop().advanceSandboxShipment(shipment.awb!, 11);
    expect((await syncAt(later(1))).failed).toEqual([]);
    await courierOfShop().advanceSandboxShipment(shipment.awb!, 12);
    expect((await syncAt(later(1))).failed).toEqual([]);

    expect(eventsOf(order).slice(-2)).toEqual([
      expect.objectContaining({ status: "FAILURE", message: expect.stringMatching(/^Returning to the seller: Returning to origin/) }),
      expect.objectContaining({ status: "FAILURE", message: "Returned to the seller: Returned to the shipper's warehouse" }),
    ]);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ courierStatusCode: 12, nextSyncAt: null, attention: "tracking_exception" });
    const returned = (await listNeedsAttention(store.domain)).items.filter((item) => item.shipmentId === shipment.id);
    expect(returned).toEqual([expect.objectContaining({ kind: "tracking_exception", message: expect.stringContaining(`"RTO Delivered" for awb ${shipment.awb}`), action: expect.stringMatching(/^Returned to your warehouse \(RTO delivered\): inspect the parcel, then refund or reship\./) })]);

    // Dismissed from the Needs attention page: gone, and it stays gone.
    const dismiss = (shipmentId: string, shop = store.domain) =>
      attentionAction({ request: store.adminRequest("/app/attention", { method: "POST", body: new URLSearchParams({ intent: "dismiss", shipmentId }) }, shop), params: {}, context: {} });
    expect((await dismiss("not-a-number")).status).toBe(400);
    expect((await dismiss(String(shipment.id))).status).toBe(200);
    expect((await dismiss(String(shipment.id))).status).toBe(404);
    const page = await (await attentionLoader({ request: store.adminRequest("/app/attention"), params: {}, context: {} })).json();
    expect(page.items.some((item: { shipmentId?: number }) => item.shipmentId === shipment.id)).toBe(false);
  });

  it("tells the merchant when a parcel has had no scan for longer than its stage allows, once", async () => {
    const { shipment } = await bookedShipment();
    await courierOfShop().advanceSandboxShipment(shipment.awb!, 5);
    expect((await syncAt(later(1))).failed).toEqual([]);
    expect((await listNeedsAttention(store.domain)).items.some((item) => item.shipmentId === shipment.id)).toBe(false);

    // In transit allows 72 hours without a scan.
    const lastScanAt = (await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).lastScanAt!;
    clock = new Date(lastScanAt.getTime() + 73 * 3_600_000);
    await prisma.shipment.update({ where: { id: shipment.id }, data: { nextSyncAt: clock } });
    expect((await syncAt(clock)).failed).toEqual([]);
    const stalled = (await listNeedsAttention(store.domain, clock)).items.find((item) => item.shipmentId === shipment.id);
    expect(stalled).toMatchObject({ kind: "tracking_stalled", message: expect.stringContaining(`awb ${shipment.awb}`) });

    await prisma.shipment.update({ where: { id: shipment.id }, data: { attention: null, attentionAt: null, nextSyncAt: later(5) } });
    expect((await syncAt(clock)).failed).toEqual([]);
    expect((await listNeedsAttention(store.domain, clock)).items.some((item) => item.shipmentId === shipment.id)).toBe(false);
  });

  it("syncs more due shipments than one pass takes in passes that follow each other at once, not a sweep apart", async () => {
    const booked = [await bookedShipment(), await bookedShipment(), await bookedShipment()];
    // Only these three are due: the earlier tests' shipments are not this test's business.
    await prisma.shipment.updateMany({ where: { shop: store.domain, id: { notIn: booked.map(({ shipment }) => shipment.id) } }, data: { nextSyncAt: null } });
    const run = await syncAt(later(1), { trackingPassSize: 2 });
    expect(run.failed).toEqual([]);
    // One sweep: a pass of two, then at once a pass for the third.
    expect(run.ran).toBe(3);
    for (const { order } of booked) expect(statusesOf(order)).toEqual(["LABEL_PURCHASED"]);
    expect(await prisma.shipment.count({ where: { id: { in: booked.map(({ shipment }) => shipment.id) }, nextSyncAt: { lte: clock } } })).toBe(0);

    // Exactly a pass's worth due: the full pass finds nothing left, and no empty pass follows it.
    const [first, second, third] = booked.map(({ shipment }) => shipment.id) as [number, number, number];
    await prisma.shipment.update({ where: { id: third }, data: { nextSyncAt: null } });
    await prisma.shipment.updateMany({ where: { id: { in: [first, second] } }, data: { nextSyncAt: clock } });
    const exact = await syncAt(later(1), { trackingPassSize: 2 });
    expect(exact).toEqual({ ran: 2, failed: [] });
    expect(await prisma.shipment.count({ where: { id: { in: [first, second] }, syncedAt: { gte: clock } } })).toBe(2);
  });

  it("syncs one shipment at once from the order page, and shows its timeline there", async () => {
    const { order, shipment } = await bookedShipment();
    await courierOfShop().advanceSandboxShipment(shipment.awb!, 3);
    const id = order.legacyResourceId;
    const response = await shipAction({ request: store.adminRequest(`/app/orders/${id}/ship`, { method: "POST", body: new URLSearchParams({ intent: "sync" }) }), params: { id }, context: {} });
    expect(response.status).toBe(200);
    expect(statusesOf(order)).toEqual(["LABEL_PURCHASED", "READY_FOR_PICKUP"]);

    const page = await (await shipLoader({ request: store.adminRequest(`/app/orders/${id}/ship`), params: { id }, context: {} })).json();
    expect(page.booked).toMatchObject({ awb: shipment.awb, courierStatusCode: 3, courierStatusLabel: "Out for Pickup" });
    expect(page.booked).not.toHaveProperty("requestPayload");
    expect(page.tracking.map((entry: { code: number }) => entry.code)).toEqual([2, 3]);

    // An order with no booking has nothing to sync.
    const unbooked = store.simulator.placeOrder(store.domain, shopperOrder(499));
    const refused = await shipAction({ request: store.adminRequest(`/app/orders/${unbooked.legacyResourceId}/ship`, { method: "POST", body: new URLSearchParams({ intent: "sync" }) }), params: { id: unbooked.legacyResourceId }, context: {} });
    expect(refused.status).toBe(409);
  });
});
