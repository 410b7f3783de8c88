import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { extensionContext, getOrderShipping } from "~/extension-api/order-shipping.server";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import { forgetShop, redactCustomer } from "~/privacy/personal-data.server";
import { action as shipAction, loader as shipLoader } from "~/routes/app.orders.$id.ship";
import { clearShipmentAttention, markBooked, markCancelled, markFailed, raiseAttention, TransitionRefusedError } from "~/shipments/shipment-changes.server";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { resetJobs } from "../support/jobs";
import { startStore } from "../support/store";

let courier: RunningCourierService;
let store: Awaited<ReturnType<typeof startStore>>;
beforeAll(async () => {
  await resetJobs();
  courier = await startAppCourierService();
  store = await startStore({ throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
  await store.install();
});
afterAll(async () => {
  await store.close();
  await courier.close();
});

const orderNamed = (name: string) => store.shop.orders.find((candidate) => candidate.name === name)!;

async function bookOnShipPage(name: string) {
  const order = orderNamed(name);
  const body = new FormData();
  body.set("courierId", "1");
  const response = await shipAction({ request: store.adminRequest(`/app/orders/${order.legacyResourceId}/ship`, { method: "POST", body }), params: { id: order.legacyResourceId }, context: {} });
  expect(response.status).toBe(200);
  return prisma.shipment.findUniqueOrThrow({ where: { shop_orderGid_parcel: { shop: store.domain, orderGid: order.id, parcel: 1 } } });
}

const eventsOf = (shipmentId: number) => prisma.shipmentEvent.findMany({ where: { shipmentId }, orderBy: { id: "asc" } });

describe("a shipment's history", () => {
  it("records every step of a booking from the ship page, who took it and when, and nothing of the shopper", async () => {
    const shipment = await bookOnShipPage("#1001");
    expect(shipment.status).toBe("fulfilled");
    const events = await eventsOf(shipment.id);
    expect(events.map((event) => [event.transition, event.fromState, event.toState])).toEqual([
      ["claimed", null, "booking"],
      ["courier_chosen", null, null],
      ["booked", "booking", "booked_unfulfilled"],
      ["fulfilled", "booked_unfulfilled", "fulfilled"],
    ]);
    expect(new Set(events.map((event) => `${event.actorKind}:${event.actorName}`))).toEqual(new Set(["merchant:Ship order page"]));
    expect(events[1]!.reason).toMatch(new RegExp(`^${shipment.courierName} ₹`));
    expect(events[2]!.reason).toBe(`${shipment.courierName}, awb ${shipment.awb}`);
    // The shopper's name, phone and street, as booked, appear in no event.
    const booked = JSON.parse(shipment.requestPayload) as Record<string, string>;
    const written = JSON.stringify(events);
    for (const field of ["name", "mobile", "address_line_1"]) expect(written).not.toContain(String(booked[field]));

    // The ship page and the order view the extensions read both show it.
    const order = orderNamed("#1001");
    const page = await shipLoader({ request: store.adminRequest(`/app/orders/${order.legacyResourceId}/ship`), params: { id: order.legacyResourceId }, context: {} });
    const { history } = (await page.json()) as { history: { what: string; by: string; reason: string | null }[] };
    expect(history.map((entry) => entry.what)).toEqual(["Booking started", "Courier chosen", "Booked with the courier", "Fulfilled in Shopify with the tracking"]);
    expect(history[0]!.by).toBe("You, on the Ship order page");
    const view = await getOrderShipping(extensionContext(store.domain, await defaultJobDeps.adminFor(store.domain)), order.id);
    expect(view.shipment?.history?.map((entry) => entry.what)).toEqual(history.map((entry) => entry.what));
  });

  it("refuses moves the lifecycle does not allow, and records nothing for them", async () => {
    const shipment = await bookOnShipPage("#1003");
    const before = (await eventsOf(shipment.id)).length;
    const change = { actor: { kind: "job" as const, name: "test" }, at: new Date() };
    await expect(markBooked(shipment, { awb: "X1", courierName: "Nobody", trackingUrl: "http://example.in/x" }, change)).rejects.toBeInstanceOf(TransitionRefusedError);
    expect(await markFailed(shipment, "refused", change)).toBeNull();
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ status: "fulfilled", awb: shipment.awb, lastError: null });
    expect(await eventsOf(shipment.id)).toHaveLength(before);

    // A flag is raised once however often it is seen, cleared by the merchant once.
    expect(await raiseAttention(shipment, "address_changed", change)).toBe(true);
    expect(await raiseAttention(shipment, "address_changed", change)).toBe(false);
    expect(await clearShipmentAttention(store.domain, shipment.id)).toBe(true);
    expect(await clearShipmentAttention(store.domain, shipment.id)).toBe(false);
    // Another shop's request moves nothing.
    expect(await clearShipmentAttention("elsewhere.myshopify.com", shipment.id)).toBe(false);

    const cancelled = await markCancelled(shipment, { actor: { kind: "webhook", name: "orders/cancelled" }, at: new Date() }, "The order was cancelled in Shopify.");
    expect(cancelled).toMatchObject({ status: "cancelled" });
    // Cancelled is final: not cancelled twice, never booked again.
    expect(await markCancelled(shipment, change, "again")).toBeNull();
    const added = (await eventsOf(shipment.id)).slice(before);
    expect(added.map((event) => [event.transition, event.fromState, event.toState, event.actorKind])).toEqual([
      ["attention_raised", null, "address_changed", "job"],
      ["attention_cleared", "address_changed", null, "merchant"],
      ["cancelled", "fulfilled", "cancelled", "webhook"],
    ]);
  });

  it("keeps the history through a customer's redaction, and erases it with the shop", async () => {
    const shipment = await bookOnShipPage("#1002");
    const before = await eventsOf(shipment.id);
    expect(await redactCustomer(store.domain, [Number(orderNamed("#1002").legacyResourceId)])).toBe(1);
    const after = await eventsOf(shipment.id);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map((event) => [event.transition, event.actorKind, event.actorName])).toEqual([["redacted", "webhook", "customers/redact"]]);

    expect(await prisma.shipmentEvent.count({ where: { shop: store.domain } })).toBeGreaterThan(0);
    await forgetShop(store.domain);
    expect(await prisma.shipment.count({ where: { shop: store.domain } })).toBe(0);
    expect(await prisma.shipmentEvent.count({ where: { shop: store.domain } })).toBe(0);
  });
});
