import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMPTY_DRAFT } from "~/automation/rules-form";
import { listOrdersOverview } from "~/orders/orders-overview.server";
import prisma from "~/db.server";
import { action as autoBookingAction } from "~/routes/app.auto-booking";
import { action as attentionAction, loader as attentionLoader } from "~/routes/app.attention";
import { enqueue } from "~/jobs/job-queue.server";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { resetJobs, runJobs } from "../support/jobs";
import { shopperOrder } from "../support/orders";
import { serveRoutes, startStore } from "../support/store";

/*
 * Needs attention → Dismiss: an order that will never ship through Dakiya (here: one going abroad) is set aside, leaves
 * Needs attention and Orders to ship, and Undo brings it back as it was.
 */

let courier: RunningCourierService;
let app: Awaited<ReturnType<typeof serveRoutes>>;
let store: Awaited<ReturnType<typeof startStore>>;

beforeAll(async () => {
  await resetJobs();
  courier = await startAppCourierService();
  app = await serveRoutes({});
  store = await startStore({ appUrl: app.url, throttle: { maximumAvailable: 20_000, restoreRate: 1_000 }, webhookRetryDelaysMs: [50, 200] });
  await store.install();
  await runJobs(["orders-reconcile", "order-check"]);
});
afterAll(async () => {
  await store.close();
  await app.close();
  await courier.close();
});

async function post(fields: Record<string, string>) {
  const response = await attentionAction({ request: store.adminRequest("/app/attention", { method: "POST", body: new URLSearchParams(fields) }), params: {}, context: {} });
  return { status: response.status, body: (await response.json()) as { ok: boolean; message: string; undoOrderGid?: string } };
}

async function attentionOrders(): Promise<string[]> {
  const page = await (await attentionLoader({ request: store.adminRequest("/app/attention"), params: {}, context: {} })).json();
  return page.items.map((item: { orderGid: string }) => item.orderGid);
}

const listedToShip = async (orderGid: string) => (await listOrdersOverview(store.domain, { after: null, search: null })).rows.some((row) => row.id === orderGid);

describe("dismissing an order that will never ship through Dakiya", () => {
  it("sets it aside from Needs attention and Orders to ship, and Undo brings it back", async () => {
    const base = shopperOrder(31);
    const abroad = store.simulator.placeOrder(store.domain, shopperOrder(31, { shippingAddress: { ...base.shippingAddress, countryCode: "AE", city: "Dubai", zip: "00000" } }));
    await store.simulator.settled();
    // What orders/create does: a check of the new order.
    await enqueue("order-check", { shop: store.domain, orderGid: abroad.id });
    expect((await runJobs(["order-check"])).failed).toEqual([]);
    expect(await attentionOrders()).toContain(abroad.id);
    expect(await listedToShip(abroad.id)).toBe(true);

    expect(await post({ intent: "dismiss-order", orderGid: "order 5" })).toMatchObject({ status: 400, body: { message: expect.stringMatching(/orderGid/) } });
    const dismissed = await post({ intent: "dismiss-order", orderGid: abroad.id });
    expect(dismissed).toMatchObject({ status: 200, body: { ok: true, message: `${abroad.name} dismissed: it is no longer listed to ship.`, undoOrderGid: abroad.id } });
    expect(await attentionOrders()).not.toContain(abroad.id);
    expect(await listedToShip(abroad.id)).toBe(false);
    // Twice is said plainly, not done twice.
    expect(await post({ intent: "dismiss-order", orderGid: abroad.id })).toMatchObject({ status: 404 });

    expect(await post({ intent: "restore-order", orderGid: abroad.id })).toMatchObject({ status: 200, body: { ok: true, message: "Restored: the order is listed again." } });
    expect(await attentionOrders()).toContain(abroad.id);
    expect(await listedToShip(abroad.id)).toBe(true);
    expect(await post({ intent: "restore-order", orderGid: abroad.id })).toMatchObject({ status: 404 });
  });
});

describe("an order set aside, with auto-booking on", () => {
  it("is never booked by the rules, even once it could ship; Undo hands it back to them", async () => {
    const rules = [{ ...EMPTY_DRAFT, name: "Everything", action: "cheapest" }];
    const saved = await autoBookingAction({ request: store.adminRequest("/app/auto-booking", { method: "POST", body: new URLSearchParams({ intent: "save", autoBooking: "on", rules: JSON.stringify(rules) }) }), params: {}, context: {} });
    expect(saved.status).toBe(200);
    const base = shopperOrder(32);
    const noPhone = store.simulator.placeOrder(store.domain, shopperOrder(32, { shippingAddress: { ...base.shippingAddress, phone: null } }));
    await store.simulator.settled();
    await enqueue("order-check", { shop: store.domain, orderGid: noPhone.id });
    expect((await runJobs(["order-check"])).failed).toEqual([]);
    const record = () => prisma.orderRecord.findUniqueOrThrow({ where: { shop_orderGid: { shop: store.domain, orderGid: noPhone.id } } });
    expect(await record()).toMatchObject({ readiness: "problems", decision: "problems" });
    expect(await post({ intent: "dismiss-order", orderGid: noPhone.id })).toMatchObject({ status: 200 });

    // The shopper's phone is added in Shopify, and the order is checked again: ready, but left alone.
    const stored = store.shop.orders.find((order) => order.id === noPhone.id)!;
    stored.shippingAddress!.phone = base.shippingAddress.phone;
    stored.updatedAt = new Date(Date.now() + 1_000).toISOString();
    await enqueue("order-check", { shop: store.domain, orderGid: noPhone.id });
    expect((await runJobs(["order-check"])).failed).toEqual([]);
    expect(await record()).toMatchObject({ readiness: "ready", dismissedAt: expect.any(Date) });
    expect(await prisma.shipment.findUnique({ where: { shop_orderGid_parcel: { shop: store.domain, orderGid: noPhone.id, parcel: 1 } } })).toBeNull();
    expect(stored.fulfillments).toHaveLength(0);

    // Undo: listed again and checked again, the rules book it.
    expect(await post({ intent: "restore-order", orderGid: noPhone.id })).toMatchObject({ status: 200 });
    expect((await runJobs(["order-check"])).failed).toEqual([]);
    expect(await prisma.shipment.findUnique({ where: { shop_orderGid_parcel: { shop: store.domain, orderGid: noPhone.id, parcel: 1 } } })).toMatchObject({ status: "fulfilled" });
    expect(await record()).toMatchObject({ decision: "booked", decisionReason: expect.stringMatching(/^Rule 1 'Everything' → cheapest: /) });
  });
});
