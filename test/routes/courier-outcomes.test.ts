import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listNeedsAttention } from "~/attention/needs-attention.server";
import { shipOrders } from "~/orders/ship-orders.server";
import prisma from "~/db.server";
import { action as exportAction } from "~/routes/app.shipments.export";
import { loader as shipmentsLoader } from "~/routes/app.shipments._index";
import { getOrderShipping, extensionContext } from "~/extension-api/order-shipping.server";
import { enqueue } from "~/jobs/job-queue.server";
import { courierClientFor, sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { claimShipment } from "~/shipments/shipment-changes.server";
import { getPublicTracking } from "~/tracking/public-tracking.server";
import { syncShipmentNow } from "~/tracking/sync.server";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { resetJobs, runJobs } from "../support/jobs";
import { shopperOrder } from "../support/orders";
import { startStore } from "../support/store";

/**
 * The courier's outcomes as states of the shipment, through the real courier sandbox and the tracking sync: each
 * moves by its named transition with its history row, in the courier's stage order; a report out of that order is
 * kept as such and moves nothing; the pages, the extensions' API, the tracking page, Needs attention and the export
 * read them.
 */
let courier: RunningCourierService;
let store: Awaited<ReturnType<typeof startStore>>;
let placed = 0;
let clock = new Date();

beforeAll(async () => {
  await resetJobs();
  courier = await startAppCourierService();
  store = await startStore({ throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
  await store.install();
  await prisma.shipment.updateMany({ where: { shop: { not: store.domain } }, data: { nextSyncAt: null } });
});
afterAll(async () => {
  await store.close();
  await courier.close();
});

const later = (hours: number) => (clock = new Date(clock.getTime() + hours * 3_600_000));
const courierOfShop = () => courierClientFor(sandboxCredentialsFor(store.domain));

async function bookedShipment() {
  placed += 1;
  const order = store.simulator.placeOrder(store.domain, shopperOrder(800 + placed));
  const [result] = await shipOrders(store.domain, await defaultJobDeps.adminFor(store.domain), [order.id], { policy: "recommended" });
  expect(result).toMatchObject({ outcome: "booked" });
  return { order, shipment: await prisma.shipment.findUniqueOrThrow({ where: { shop_orderGid_parcel: { shop: store.domain, orderGid: order.id, parcel: 1 } } }) };
}

/** The courier moves the parcel on, and the sweep and the shop's sync read it. */
async function courierMoves(awb: string, to: number) {
  await courierOfShop().advanceSandboxShipment(awb, to);
  await enqueue("tracking-sweep", {});
  const run = await runJobs(["tracking-sweep", "tracking-sync"], { deps: { now: () => later(1) } });
  expect(run.failed).toEqual([]);
}

/** The history's courier outcomes and reports, oldest first: what moved (from → to) and why. */
async function outcomeHistory(shipmentId: number) {
  const events = await prisma.shipmentEvent.findMany({ where: { shipmentId }, orderBy: [{ at: "asc" }, { id: "asc" }] });
  return events
    .filter((event) => !["claimed", "courier_chosen", "booked", "fulfilled", "courier_progress", "attention_raised", "attention_cleared"].includes(event.transition))
    .map((event) => ({ transition: event.transition, from: event.fromState, to: event.toState, by: event.actorKind, reason: event.reason }));
}

describe("the courier's outcomes, as states of the shipment", () => {
  it("moves a parcel through in transit, out for delivery, two attempts each counted with the courier's reason, to delivered", async () => {
    const { order, shipment } = await bookedShipment();
    const awb = shipment.awb!;
    for (const to of [5, 7, 9, 7, 9, 7, 8]) await courierMoves(awb, to);

    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ outcome: "delivered", deliveryAttempts: 2, courierStatusCode: 8, nextSyncAt: null });
    expect(await outcomeHistory(shipment.id)).toEqual([
      { transition: "in_transit", from: "awaiting_pickup", to: "in_transit", by: "courier", reason: null },
      { transition: "out_for_delivery", from: "in_transit", to: "out_for_delivery", by: "courier", reason: null },
      { transition: "delivery_attempted", from: "out_for_delivery", to: "delivery_attempted", by: "courier", reason: expect.stringMatching(/^Attempt 1: \S/) },
      { transition: "out_for_delivery", from: "delivery_attempted", to: "out_for_delivery", by: "courier", reason: null },
      { transition: "delivery_attempted", from: "out_for_delivery", to: "delivery_attempted", by: "courier", reason: expect.stringMatching(/^Attempt 2: \S/) },
      { transition: "out_for_delivery", from: "delivery_attempted", to: "out_for_delivery", by: "courier", reason: null },
      { transition: "delivered", from: "out_for_delivery", to: "delivered", by: "courier", reason: null },
    ]);

    // The Shipments page, the export, the extensions' API and the tracking page read the state.
    const page = await (await shipmentsLoader({ request: store.adminRequest(`/app/shipments?q=${awb}`), params: {}, context: {} })).json();
    expect(page.shipments).toEqual([expect.objectContaining({ awb, outcome: "delivered", deliveryAttempts: 2, stage: "delivered" })]);
    const csv = await (await exportAction({ request: store.adminRequest("/app/shipments/export", { method: "POST", body: new URLSearchParams({ q: awb }) }), params: {}, context: {} })).text();
    const [header, row] = csv.replace(/^\uFEFF/, "").trim().split("\r\n");
    const column = (name: string) => row!.split(",")[header!.split(",").indexOf(name)];
    expect([column("Courier outcome"), column("Delivery attempts")]).toEqual(["Delivered", "2"]);
    const view = await getOrderShipping(extensionContext(store.domain, await defaultJobDeps.adminFor(store.domain)), order.id);
    expect(view.shipment?.outcome).toEqual({ state: "delivered", label: "Delivered", deliveryAttempts: 2 });
    expect(await getPublicTracking(awb, { verified: true })).toMatchObject({ outcome: "delivered", deliveryAttempts: 2, isFinal: true, deliveredAt: expect.any(String) });
  });

  it("counts a second attempt on Needs attention and the tracking page while the courier tries again", async () => {
    const { shipment } = await bookedShipment();
    for (const to of [9, 7, 9]) await courierMoves(shipment.awb!, to);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ outcome: "delivery_attempted", deliveryAttempts: 2 });
    const item = (await listNeedsAttention(store.domain, clock)).items.find((candidate) => candidate.shipmentId === shipment.id);
    expect(item).toMatchObject({ kind: "tracking_exception", message: expect.stringMatching(/attempt 2 to deliver did not succeed\.$/) });
    expect(await getPublicTracking(shipment.awb!, { verified: true })).toMatchObject({ outcome: "delivery_attempted", deliveryAttempts: 2, isFinal: false });
  });

  it("returns a parcel to origin: RTO initiated, then RTO delivered back, each held in the database with its history row", async () => {
    const { shipment } = await bookedShipment();
    for (const to of [6, 11, 12]) await courierMoves(shipment.awb!, to);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ outcome: "rto_delivered", courierStatusCode: 12, nextSyncAt: null });
    expect((await outcomeHistory(shipment.id)).map((step) => step.transition)).toEqual(["in_transit", "rto_initiated", "rto_delivered"]);
  });

  it("keeps a report out of the courier's order as such and moves nothing: the parcel stays where it was, and moves on from there", async () => {
    const { shipment } = await bookedShipment();
    await courierMoves(shipment.awb!, 7);
    // The courier's history ends on "In Transit" after "Out for Delivery": a scan filed against the wrong stage.
    const serviceOrder = await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: shipment.awb! }, include: { events: { orderBy: { step: "asc" } } } });
    const last = serviceOrder.events.at(-1)!;
    await prisma.serviceTrackingEvent.create({ data: { orderId: serviceOrder.id, step: 1_000, code: 5, location: "Bhiwandi hub", activity: "Bagged at hub", happenedAt: new Date(last.happenedAt.getTime() + 1) } });
    for (let read = 0; read < 2; read += 1) {
      await prisma.shipment.update({ where: { id: shipment.id }, data: { nextSyncAt: clock } });
      await enqueue("tracking-sweep", {});
      expect((await runJobs(["tracking-sweep", "tracking-sync"], { deps: { now: () => clock } })).failed).toEqual([]);
    }
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ outcome: "out_for_delivery", courierStatusCode: 7 });
    // Recorded once however often it is read again.
    expect((await outcomeHistory(shipment.id)).filter((step) => step.transition === "courier_out_of_order")).toEqual([
      { transition: "courier_out_of_order", from: "out_for_delivery", to: "in_transit", by: "courier", reason: 'The courier reported "In Transit"' },
    ]);
    await prisma.serviceTrackingEvent.delete({ where: { orderId_step: { orderId: serviceOrder.id, step: 1_000 } } });
    await courierMoves(shipment.awb!, 8);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ outcome: "delivered" });
  });

  it("takes two stages the courier timed to the same minute, in the courier's order: out for delivery and delivered, the parcel ends delivered, once however often it is read", async () => {
    const { shipment } = await bookedShipment();
    await courierMoves(shipment.awb!, 6);
    const serviceOrder = await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: shipment.awb! }, include: { events: { orderBy: { step: "asc" } } } });
    const minute = new Date(serviceOrder.events.at(-1)!.happenedAt.getTime() + 60_000);
    await prisma.serviceTrackingEvent.createMany({
      data: [
        { orderId: serviceOrder.id, step: 1_000, code: 7, location: "Pune", activity: "Out for delivery", happenedAt: minute },
        { orderId: serviceOrder.id, step: 1_001, code: 8, location: "Pune", activity: "Delivered to the consignee", happenedAt: minute },
      ],
    });
    await prisma.serviceOrder.update({ where: { id: serviceOrder.id }, data: { statusCode: 8, deliveredAt: minute } });
    for (let read = 0; read < 2; read += 1) {
      await prisma.shipment.update({ where: { id: shipment.id }, data: { nextSyncAt: clock } });
      await enqueue("tracking-sweep", {});
      expect((await runJobs(["tracking-sweep", "tracking-sync"], { deps: { now: () => later(1) } })).failed).toEqual([]);
    }
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ outcome: "delivered", courierStatusCode: 8, nextSyncAt: null });
    const steps = (await outcomeHistory(shipment.id)).map((step) => step.transition);
    expect(steps.slice(-2)).toEqual(["out_for_delivery", "delivered"]);
    expect(steps).not.toContain("courier_out_of_order");
  });

  it("takes a stage the courier timed to the minute of a scan it filed out of order: out for delivery, In Transit out of order, then Delivered at that minute, ends delivered", async () => {
    const { shipment } = await bookedShipment();
    await courierMoves(shipment.awb!, 7);
    const serviceOrder = await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: shipment.awb! }, include: { events: { orderBy: { step: "asc" } } } });
    const minute = new Date(serviceOrder.events.at(-1)!.happenedAt.getTime() + 60_000);
    const read = async () => {
      await prisma.shipment.update({ where: { id: shipment.id }, data: { nextSyncAt: clock } });
      await enqueue("tracking-sweep", {});
      expect((await runJobs(["tracking-sweep", "tracking-sync"], { deps: { now: () => later(1) } })).failed).toEqual([]);
    };
    await prisma.serviceTrackingEvent.create({ data: { orderId: serviceOrder.id, step: 1_000, code: 6, location: "Pune hub", activity: "Scanned at hub", happenedAt: minute } });
    await read();
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ outcome: "out_for_delivery" });
    await prisma.serviceTrackingEvent.create({ data: { orderId: serviceOrder.id, step: 1_001, code: 8, location: "Pune", activity: "Delivered to the consignee", happenedAt: minute } });
    await prisma.serviceOrder.update({ where: { id: serviceOrder.id }, data: { statusCode: 8, deliveredAt: minute } });
    await read();
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ outcome: "delivered", courierStatusCode: 8, nextSyncAt: null });
  });

  it("keeps a delivered parcel delivered for the shopper too: a scan the courier adds after it is neither posted to Shopify nor read again for", async () => {
    const { order, shipment } = await bookedShipment();
    await courierMoves(shipment.awb!, 8);
    const serviceOrder = await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: shipment.awb! }, include: { events: { orderBy: { step: "asc" } } } });
    await prisma.serviceTrackingEvent.create({ data: { orderId: serviceOrder.id, step: 1_000, code: 11, location: "Pune", activity: "Return to origin initiated", happenedAt: new Date(serviceOrder.events.at(-1)!.happenedAt.getTime() + 60_000) } });
    // The merchant presses "Sync now" on the delivered parcel.
    await syncShipmentNow(store.domain, shipment.id, { admin: await defaultJobDeps.adminFor(store.domain), now: () => later(1) });
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ outcome: "delivered", nextSyncAt: null });
    const statuses = order.fulfillments.flatMap((fulfillment) => fulfillment.events).sort((a, b) => a.happenedAt.localeCompare(b.happenedAt)).map((event) => event.status);
    expect(statuses.at(-1)).toBe("DELIVERED");
    expect(statuses).not.toContain("FAILURE");
  });

  it("cancels a booking the order's cancellation stopped before anything reached the courier, rather than failing it", async () => {
    const order = store.simulator.placeOrder(store.domain, shopperOrder(899));
    // A booking's worker that claimed the parcel and died before sending anything.
    const claim = await prisma.$transaction((tx) => claimShipment(tx, { shop: store.domain, orderGid: order.id, direction: "forward" }, { actor: { kind: "merchant", name: "Ship order page" }, at: new Date() }));
    expect(claim.kind).toBe("claimed");
    store.simulator.cancelOrder(store.domain, order.id);
    await enqueue("order-cancelled", { shop: store.domain, orderGid: order.id });
    expect((await runJobs(["order-cancelled"])).failed).toEqual([]);

    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: claim.shipment.id } })).toMatchObject({ status: "cancelled", lastError: null, awb: null });
    expect((await prisma.shipmentEvent.findMany({ where: { shipmentId: claim.shipment.id }, orderBy: { id: "asc" } })).map((event) => [event.transition, event.toState, event.reason])).toEqual([
      ["claimed", "booking", null],
      ["cancelled_before_booking", "cancelled", "The order was cancelled in Shopify before it was booked."],
    ]);
    const items = (await listNeedsAttention(store.domain, clock)).items.filter((item) => item.orderGid === order.id);
    expect(items.map((item) => item.kind)).not.toContain("booking_failed");
  });
});
