import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shipOrders } from "~/orders/ship-orders.server";
import prisma from "~/db.server";
import { FLOW_PAYLOAD_LIMIT_BYTES, payloadSchemaOf, type FlowTrigger } from "~/flow/flow-triggers";
import { fireFlowTrigger } from "~/flow/flow-triggers.server";
import { action as lifecycleAction } from "~/routes/flow.trigger-lifecycle";
import { courierClientFor, sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { markOutForDelivery } from "~/shipments/shipment-changes.server";
import { SERVICE_STATUS } from "~/shipping/status";
import { syncShipment } from "~/tracking/sync.server";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import { receivedTriggers, signedFlowRequest } from "../../store/flow";
import { startFlowWorld } from "../support/flow";
import { queuedJobs, resetJobs, runJobs } from "../support/jobs";
import { shopperOrder } from "../support/orders";
import { responseOf } from "../support/webhooks";

/*
 * Dakiya's Flow triggers end to end: the merchant turns a workflow on in Flow (the local store sends the trigger
 * lifecycle callback to the app's route over HTTP, signed), the app books and tracks real parcels on the courier
 * sandbox, and the `flow-trigger` jobs call flowTriggerReceive on the store, which checks each payload against the
 * trigger's extension as Shopify does and records what it took.
 */

let world: Awaited<ReturnType<typeof startFlowWorld>>;
let app: Awaited<ReturnType<typeof startFlowWorld>>["app"];
let store: Awaited<ReturnType<typeof startFlowWorld>>["store"];
let placed = 0;
let clock = new Date();

beforeAll(async () => {
  await resetJobs();
  world = await startFlowWorld();
  ({ app, store } = world);
}, 60_000);
afterAll(async () => {
  await world.close();
});

const later = (minutes = 60) => (clock = new Date(clock.getTime() + minutes * 60_000));
const courierOfShop = () => courierClientFor(sandboxCredentialsFor(store.domain));
const admin = () => defaultJobDeps.adminFor(store.domain);
const received = (trigger: FlowTrigger) => receivedTriggers(store.shop, trigger);

async function turnOn(...triggers: FlowTrigger[]) {
  for (const trigger of triggers) expect((await store.simulator.setFlowWorkflow(store.domain, trigger)).status).toBe(200);
}

async function bookedShipment() {
  placed += 1;
  const order = store.simulator.placeOrder(store.domain, shopperOrder(700 + placed));
  const [result] = await shipOrders(store.domain, await admin(), [order.id], { policy: "recommended" });
  expect(result).toMatchObject({ outcome: "booked", awb: expect.any(String) });
  return { order, shipment: await prisma.shipment.findUniqueOrThrow({ where: { shop_orderGid_parcel: { shop: store.domain, orderGid: order.id, parcel: 1 } } }) };
}

/** The courier moves the parcel on to `code`; the app reads it (as the tracking sync does) and Flow's jobs run. */
async function courierReports(shipmentId: number, code: number) {
  const shipment = await prisma.shipment.findUniqueOrThrow({ where: { id: shipmentId } });
  await courierOfShop().advanceSandboxShipment(shipment.awb!, code);
  await syncShipment(shipment, { admin: await admin(), now: () => later() });
  return runJobs(["flow-trigger"]);
}

describe("Flow's trigger lifecycle callback", () => {
  const notice = (overrides: Record<string, unknown> = {}) => ({ flow_trigger_definition_id: "dakiya-out-for-delivery", has_enabled_flow: true, shop_id: 1, shopify_domain: store.domain, timestamp: new Date().toISOString(), ...overrides });
  const callback = (body: unknown, secret = process.env.SHOPIFY_API_SECRET!) => responseOf(() => lifecycleAction({ request: signedFlowRequest(`${app.url}/flow/trigger-lifecycle`, body, secret), params: {}, context: {} }));
  const use = (trigger: string) => prisma.flowTriggerUse.findUnique({ where: { shop_trigger: { shop: store.domain, trigger } } });

  it("records which triggers a shop's workflows use; a newer notice wins over an older one arriving late", async () => {
    const first = new Date("2026-11-20T10:00:00Z");
    expect(await (await callback(notice({ timestamp: first.toISOString() }))).json()).toEqual({ recorded: true });
    expect(await use("dakiya-out-for-delivery")).toMatchObject({ enabled: true, noticedAt: first });
    expect(await (await callback(notice({ has_enabled_flow: false, timestamp: "2026-11-20T11:00:00Z" }))).json()).toEqual({ recorded: true });
    // The "on" sent before the "off", delivered after it, changes nothing.
    expect(await (await callback(notice({ has_enabled_flow: true, timestamp: "2026-11-20T10:30:00Z" }))).json()).toEqual({ recorded: false });
    expect(await use("dakiya-out-for-delivery")).toMatchObject({ enabled: false });
  });

  it("refuses a callback not signed with the app's secret, and a body that is not Flow's, with a 400", async () => {
    expect((await callback(notice({ flow_trigger_definition_id: "dakiya-parcel-booked" }), "someone-elses-secret")).status).toBe(400);
    expect(await use("dakiya-parcel-booked")).toBeNull();
    const notJson = new Request(`${app.url}/flow/trigger-lifecycle`, { method: "POST", body: "not json", headers: { "X-Shopify-Hmac-SHA256": "x" } });
    expect((await responseOf(() => lifecycleAction({ request: notJson, params: {}, context: {} }))).status).toBe(400);
    const wrongShape = await callback(notice({ has_enabled_flow: "yes" }));
    expect(wrongShape.status).toBe(400);
    expect(await wrongShape.json()).toEqual({ error: "has_enabled_flow must be true or false" });
  });

  it("acknowledges a trigger Dakiya does not have, so the merchant is never stuck, and records nothing", async () => {
    const answer = await callback(notice({ flow_trigger_definition_id: "someone-elses-trigger" }));
    expect(answer.status).toBe(200);
    expect(await prisma.flowTriggerUse.count({ where: { shop: store.domain, trigger: "someone-elses-trigger" } })).toBe(0);
  });
});

describe("Dakiya's triggers, fired by a parcel's events", () => {
  it("fires Parcel booked once per parcel, with the order, parcel, awb, courier and status in words", async () => {
    await turnOn("dakiya-parcel-booked");
    const before = received("dakiya-parcel-booked").length;
    const { order, shipment } = await bookedShipment();
    expect((await runJobs(["flow-trigger"])).failed).toEqual([]);
    const fired = received("dakiya-parcel-booked").slice(before);
    expect(fired.map((receipt) => receipt.payload)).toEqual([
      { order_id: Number(order.legacyResourceId), Parcel: order.name, AWB: shipment.awb, Courier: shipment.courierName, Status: "Booked, waiting for pickup", "Tracking URL": shipment.trackingUrl },
    ]);
    // The same order shipped again is already booked: nothing more fires.
    await shipOrders(store.domain, await admin(), [order.id], { policy: "recommended" });
    await runJobs(["flow-trigger"]);
    expect(received("dakiya-parcel-booked").length).toBe(before + 1);
  });

  it("fires each failed delivery attempt with its number and the courier's reason, and the RTO's start and return once each; only the triggers a workflow uses", async () => {
    await turnOn("dakiya-delivery-failed", "dakiya-rto-started", "dakiya-rto-delivered");
    // A workflow on "out for delivery" was turned off above (the lifecycle tests): nothing fires for it.
    const outForDelivery = received("dakiya-out-for-delivery").length;
    const { order, shipment } = await bookedShipment();
    for (const code of [3, 5, 6, 7]) expect((await courierReports(shipment.id, code)).failed).toEqual([]);
    await courierReports(shipment.id, 9);
    await courierReports(shipment.id, 7);
    await courierReports(shipment.id, 9);
    await courierReports(shipment.id, 11);
    // The parcel back at the warehouse is read by two syncs at once (a retry racing the next pass): it fires once.
    const returning = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
    await courierOfShop().advanceSandboxShipment(returning.awb!, 12);
    await Promise.all([syncShipment(returning, { admin: await admin(), now: () => later() }), syncShipment(returning, { admin: await admin(), now: () => later() })]);
    expect((await runJobs(["flow-trigger"])).failed).toEqual([]);

    const failed = received("dakiya-delivery-failed").filter((receipt) => (receipt.payload as { AWB: string }).AWB === shipment.awb);
    expect(failed.map((receipt) => receipt.payload)).toEqual([
      expect.objectContaining({ order_id: Number(order.legacyResourceId), Attempt: 1, Reason: expect.stringMatching(/\w/), Status: "Delivery attempt failed" }),
      expect.objectContaining({ Attempt: 2 }),
    ]);
    const ofThisParcel = (trigger: FlowTrigger) => received(trigger).filter((receipt) => (receipt.payload as { AWB: string }).AWB === shipment.awb);
    expect(ofThisParcel("dakiya-rto-started").map((receipt) => (receipt.payload as { Status: string }).Status)).toEqual(["Returning to you (RTO)"]);
    expect(ofThisParcel("dakiya-rto-delivered").map((receipt) => (receipt.payload as { Status: string }).Status)).toEqual(["Returned to you (RTO delivered)"]);
    expect(received("dakiya-out-for-delivery").length).toBe(outForDelivery);
    // Every payload was the trigger's as Shopify checks it, and under Flow's limit.
    for (const receipt of store.shop.flow!.received) expect(receipt.errors).toEqual([]);
    for (const receipt of failed) expect(JSON.stringify(receipt.payload).length).toBeLessThan(FLOW_PAYLOAD_LIMIT_BYTES);

    // Read again, nothing fires twice: one event each for the booking, the two attempts, the RTO and its return.
    const sent = store.shop.flow!.received.length;
    await syncShipment(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } }), { admin: await admin(), now: () => later() });
    await runJobs(["flow-trigger"]);
    expect(store.shop.flow!.received.length).toBe(sent);
    expect(await prisma.flowTriggerEvent.count({ where: { shop: store.domain, shipmentId: shipment.id } })).toBe(5);
  });

  it("fires Delivered for a delivered parcel, and nothing at all for a shop whose workflows use none of the triggers", async () => {
    const { shipment } = await bookedShipment();
    for (const code of [3, 5, 6, 7, 8]) await courierReports(shipment.id, code);
    // No workflow of this shop starts with "Parcel delivered" or "Out for delivery": neither fires.
    expect(await prisma.flowTriggerEvent.count({ where: { shop: store.domain, shipmentId: shipment.id, trigger: { in: ["dakiya-parcel-delivered", "dakiya-out-for-delivery"] } } })).toBe(0);
    expect(received("dakiya-parcel-delivered")).toEqual([]);

    await turnOn("dakiya-parcel-delivered");
    const second = await bookedShipment();
    for (const code of [3, 5, 6, 7, 8]) await courierReports(second.shipment.id, code);
    const delivered = received("dakiya-parcel-delivered").filter((receipt) => (receipt.payload as { AWB: string }).AWB === second.shipment.awb);
    expect(delivered.map((receipt) => (receipt.payload as { Status: string }).Status)).toEqual(["Delivered"]);
  });

  it("sends a trigger in the background, retried while Shopify is throttled, never failing the tracking sync that raised it", async () => {
    await turnOn("dakiya-delivery-failed");
    const { shipment } = await bookedShipment();
    for (const code of [3, 5, 6, 7]) await courierReports(shipment.id, code);
    store.shop.faults.set("flowTriggerReceive", { kind: "THROTTLED", times: 8 });
    const run = await courierReports(shipment.id, 9);
    expect(run.failed).toEqual([{ queue: "flow-trigger", message: "Shopify is throttling requests for this shop" }]);
    const event = await prisma.flowTriggerEvent.findFirstOrThrow({ where: { shop: store.domain, shipmentId: shipment.id, trigger: "dakiya-delivery-failed" } });
    expect(event).toMatchObject({ sentAt: null, payload: expect.objectContaining({ Attempt: 1 }) });
    // The tracking went on: the stage is recorded and posted to Shopify.
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ courierStatusCode: 9 });
    expect((await queuedJobs("flow-trigger", store.domain)).length).toBe(1);

    store.shop.faults.delete("flowTriggerReceive");
    expect((await runJobs(["flow-trigger"])).failed).toEqual([]);
    expect(await prisma.flowTriggerEvent.findUniqueOrThrow({ where: { id: event.id } })).toMatchObject({ sentAt: expect.any(Date), payload: null });
    expect(received("dakiya-delivery-failed").filter((receipt) => (receipt.payload as { AWB: string }).AWB === shipment.awb)).toHaveLength(1);
  });

  it("records a parcel's trigger in its transition's own transaction: rolled back with it, once for the move, and nothing for a move the table refuses", async () => {
    await turnOn("dakiya-out-for-delivery");
    const { shipment } = await bookedShipment();
    for (const code of [3, 5]) await courierReports(shipment.id, code);
    const report = { code: SERVICE_STATUS.OUT_FOR_DELIVERY, label: "Out for Delivery", at: later(), activity: "With the delivery agent" } as const;
    const change = { actor: { kind: "courier", name: shipment.courierName! }, at: report.at } as const;
    const events = () => prisma.flowTriggerEvent.findMany({ where: { shop: store.domain, shipmentId: shipment.id, trigger: "dakiya-out-for-delivery" } });
    const queued = async () => (await queuedJobs("flow-trigger", store.domain)).length;

    // The transition's transaction rolls back after the move: neither the trigger's event nor its job is left.
    const rolledBack = new Error("rolled back after the move");
    await expect(prisma.$transaction(async (tx) => {
      expect(await markOutForDelivery(shipment, report, change, tx)).toMatchObject({ outcome: "out_for_delivery" });
      expect(await tx.flowTriggerEvent.count({ where: { shipmentId: shipment.id, trigger: "dakiya-out-for-delivery" } })).toBe(1);
      throw rolledBack;
    })).rejects.toBe(rolledBack);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ outcome: "in_transit" });
    expect(await events()).toEqual([]);
    expect(await queued()).toBe(0);

    // Committed, it fires once; the same move again is refused by the table and fires nothing.
    expect(await markOutForDelivery(shipment, report, change)).toMatchObject({ outcome: "out_for_delivery" });
    expect(await markOutForDelivery(shipment, { ...report, at: later() }, change)).toBeNull();
    expect(await events()).toHaveLength(1);
    expect(await queued()).toBe(1);
    expect((await runJobs(["flow-trigger"])).failed).toEqual([]);
    expect(received("dakiya-out-for-delivery").filter((receipt) => (receipt.payload as { AWB: string }).AWB === shipment.awb)).toHaveLength(1);
  });
});

describe("fireFlowTrigger, the API the COD and remittance features fire their triggers with", () => {
  const riskPayload = (reasons: string) => ({ order_id: Number(store.shop.orders[0]!.legacyResourceId), Parcel: store.shop.orders[0]!.name, AWB: "", Courier: "", Status: "Not booked yet", "Risk level": "high", "Risk score": 82, Reasons: reasons });

  it("records an event once under its key, for a shop listening to the trigger, and Shopify takes the payload", async () => {
    await turnOn("dakiya-cod-risk-scored");
    const payload = riskPayload("PIN code with many returns; first order");
    expect(payloadSchemaOf("dakiya-cod-risk-scored").safeParse(payload).success).toBe(true);
    expect(await fireFlowTrigger(store.domain, "dakiya-cod-risk-scored", payload, { eventKey: "order:1:risk" })).toBe("queued");
    expect(await fireFlowTrigger(store.domain, "dakiya-cod-risk-scored", payload, { eventKey: "order:1:risk" })).toBe("already_fired");
    expect(await fireFlowTrigger(store.domain, "dakiya-cod-answered", { ...riskPayload(""), Answer: "confirmed" } as never, { eventKey: "x" }).catch((error: Error) => error.message)).toMatch(/not the trigger's/);
    expect((await runJobs(["flow-trigger"])).failed).toEqual([]);
    expect(received("dakiya-cod-risk-scored").map((receipt) => receipt.payload)).toEqual([payload]);
  });

  it("fires nothing for a shop with no workflow on the trigger", async () => {
    expect(await fireFlowTrigger(store.domain, "dakiya-remittance-short", { order_id: 1, Parcel: "#1", AWB: "A", Courier: "C", Status: "Delivered", "Expected amount": 999, "Remitted amount": 900, "Short by": 99 }, { eventKey: "remit:1" })).toBe("not_listened_to");
  });

  it("refuses, as a bug, a payload of 50,000 bytes or more", async () => {
    await expect(fireFlowTrigger(store.domain, "dakiya-cod-risk-scored", riskPayload("x".repeat(999)), { eventKey: "big" })).resolves.toBe("queued");
    const huge = { ...riskPayload(""), Reasons: "y".repeat(1_000) };
    // The field's own bound keeps any one payload far under Flow's limit.
    await expect(fireFlowTrigger(store.domain, "dakiya-cod-risk-scored", { ...huge, Reasons: "y".repeat(60_000) }, { eventKey: "huge" })).rejects.toThrow(/not the trigger's/);
  });
});
