import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookOrder } from "~/orders/book-order.server";
import prisma from "~/db.server";
import { sayStored } from "~/locales/admin-language";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import { enqueue } from "~/jobs/job-queue.server";
import { checkReturn } from "~/returns/check-return.server";
import { getOrderShipping } from "~/extension-api/order-shipping.server";
import { action as returnsAction, loader as returnsLoader } from "~/routes/app.orders.returns";
import { action as shipAction, loader as shipLoader } from "~/routes/app.orders.$id.ship";
import { forgetShop, redactCustomer } from "~/privacy/personal-data.server";
import { listNeedsAttention, markReturnInspected } from "~/attention/needs-attention.server";
import { courierClientFor, sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { getPublicTracking } from "~/tracking/public-tracking.server";
import { syncShopTracking } from "~/tracking/sync.server";
import { recordTriggerUse } from "~/flow/flow-triggers.server";
import { FLOW_TRIGGER_HANDLES } from "~/flow/flow-triggers";
import { stageText } from "~/tracking/tracking-locale";
import { claimShipment } from "~/shipments/shipment-changes.server";
import { attachReverseDelivery } from "~/shopify/admin-returns.server";
import { action as ordersCreate } from "~/routes/webhooks.orders.create";
import { loader as documentLoader } from "~/routes/documents.$token";
import { RETURN_LABEL_LINK_SECONDS, verifyDocumentLink } from "~/documents/document-links.server";
import { getConfig } from "~/config.server";
import { action as returnsApprove } from "~/routes/webhooks.returns.approve";
import { action as returnsCancel } from "~/routes/webhooks.returns.cancel";
import { action as returnsDecline } from "~/routes/webhooks.returns.decline";
import { action as returnsRequest } from "~/routes/webhooks.returns.request";
import { action as returnsProcess } from "~/routes/webhooks.returns.process";
import { seedShop } from "../../store/seed";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { resetJobs, runJobs } from "../support/jobs";
import { shopperOrder } from "../support/orders";
import { serveRoutes, startStore } from "../support/store";
import { uniqueShop } from "../support/webhooks";
import { pdfBarcodes, pdfPages } from "../support/pdf-reading";
import { returnRulesField } from "../support/return-rules";

let courier: RunningCourierService;
let app: Awaited<ReturnType<typeof serveRoutes>>;
let store: Awaited<ReturnType<typeof startStore>>;
const deps = { ...defaultJobDeps, now: () => new Date() };

beforeAll(async () => {
  await resetJobs();
  courier = await startAppCourierService();
  app = await serveRoutes({
    "/webhooks/orders/create": ordersCreate,
    "/webhooks/returns/request": returnsRequest,
    "/webhooks/returns/approve": returnsApprove,
    "/webhooks/returns/decline": returnsDecline,
    "/webhooks/returns/cancel": returnsCancel,
    "/webhooks/returns/process": returnsProcess,
  });
  store = await startStore({ appUrl: app.url, throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
  await store.install();
  await prisma.shopSettings.upsert({ where: { shop: store.domain }, create: { shop: store.domain, returnRule: "cheapest" }, update: { returnRule: "cheapest" } });
});
afterAll(async () => {
  await store.close();
  await app.close();
  await courier.close();
});

/** A shopper's order, shipped through Dakiya: delivered items the shopper can send back. */
async function shippedOrder(index: number) {
  const order = store.simulator.placeOrder(store.domain, shopperOrder(index));
  const admin = await deps.adminFor(store.domain);
  const booked = await bookOrder({ shop: store.domain, admin }, { orderGid: order.id, courierId: 1 });
  expect(booked.kind).toBe("booked");
  const fulfilled = store.shop.orders.find((candidate) => candidate.id === order.id)!;
  return { order: fulfilled, fulfillmentLineId: fulfilled.fulfillments[0]!.lines[0]!.id! };
}

const returnShipments = (returnGid: string) => prisma.shipment.findMany({ where: { shop: store.domain, orderGid: returnGid } });
const recordOf = (returnGid: string) => prisma.returnRecord.findUniqueOrThrow({ where: { shop_returnGid: { shop: store.domain, returnGid } } });

/** An order shipped and a return of it created in Shopify, its pickup booked by the return rules; the courier's sandbox, and the tracking sync an hour on at each call. */
async function returnOnItsWay(index: number) {
  const { order, fulfillmentLineId } = await shippedOrder(index);
  const returnGid = store.simulator.returnAction(store.domain, "returnCreate", { returnInput: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: fulfillmentLineId, quantity: 1 }] } });
  expect(await checkReturn(store.domain, returnGid, deps)).toMatchObject({ kind: "booked" });
  const [pickup] = await returnShipments(returnGid);
  const admin = await deps.adminFor(store.domain);
  let clock = Date.now();
  const syncNow = async () => {
    clock += 3_600_000;
    await syncShopTracking(store.domain, { admin, now: () => new Date(clock) });
  };
  return { order, returnGid, pickup, sandbox: courierClientFor(sandboxCredentialsFor(store.domain)), admin, syncNow };
}
/** A return's history in the order it was written (the syncs here run on a clock of their own): each step's transition, the state it reached, and who took it. */
const returnHistory = async (returnGid: string) =>
  (await prisma.returnEvent.findMany({ where: { returnRecord: { shop: store.domain, returnGid } }, orderBy: { id: "asc" } })).map((event) => ({ transition: event.transition, to: event.toState, by: `${event.actorKind}: ${event.actorName}` }));
const storeReturn = (returnGid: string) => store.shop.orders.flatMap((order) => order.returns ?? []).find((ret) => ret.id === returnGid)!;

describe("a return approved in Shopify", () => {
  it("gets exactly one reverse pickup and one reverse delivery with its tracking, however many webhooks and jobs", async () => {
    const { order, fulfillmentLineId } = await shippedOrder(0);
    const returnGid = store.simulator.returnAction(store.domain, "returnRequest", { input: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: fulfillmentLineId, quantity: 1, customerNote: "Too small" }] } });
    await store.simulator.settled();
    expect((await runJobs(["return-check"])).failed).toEqual([]);
    // Requested: recorded, waiting for the merchant's approval, nothing booked.
    expect(await recordOf(returnGid)).toMatchObject({ state: "requested" });
    expect(await returnShipments(returnGid)).toEqual([]);

    store.simulator.returnAction(store.domain, "returnApproveRequest", { input: { id: returnGid } });
    await store.simulator.settled();
    const approval = store.simulator.deliveries.find((delivery) => delivery.topic === "returns/approve" && delivery.returnId === returnGid)!;
    expect(approval.delivered).toBe(true);
    // Shopify redelivers the same webhook; a second, distinct approval delivery arrives too.
    for (const webhookId of [approval.webhookId, approval.webhookId, undefined]) {
      expect((await store.simulator.deliver("returns/approve", store.domain, { returnId: returnGid, webhookId })).delivered).toBe(true);
    }
    // Concurrent jobs on the same return, beside the queued ones.
    await Promise.all([checkReturn(store.domain, returnGid, deps), checkReturn(store.domain, returnGid, deps), runJobs(["return-check"])]);
    expect((await runJobs(["return-check", "shipment-complete"])).failed).toEqual([]);

    const shipments = await returnShipments(returnGid);
    expect(shipments).toHaveLength(1);
    const [pickup] = shipments;
    expect(pickup).toMatchObject({ direction: "return", returnOfOrderGid: order.id, status: "return_in_transit", orderName: `${order.name}-R1`, paymentMode: "prepaid" });
    expect(JSON.parse(pickup!.requestPayload)).toMatchObject({ order_type: "reverse", order_id: `${order.name.slice(1)}-R1`, pincode: "560038", payment_mode: "prepaid" });
    const deliveries = storeReturn(returnGid).reverseFulfillmentOrders.flatMap((rfo) => rfo.deliveries);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ tracking: { number: pickup!.awb, url: pickup!.trackingUrl }, notifyCustomer: true });
    expect(pickup!.fulfillmentGid).toBe(deliveries[0]!.id);
    // The courier service holds one reverse order for the return.
    expect(await prisma.serviceOrder.findMany({ where: { orderId: `${order.name.slice(1)}-R1`, apiClient: { name: store.domain } } })).toEqual([expect.objectContaining({ orderType: "reverse", awb: pickup!.awb })]);
    expect(await recordOf(returnGid)).toMatchObject({ state: "pickup_booked", decision: "booked" });
    // Each step once, however many webhooks and jobs: asked for, approved, booked by the rules.
    expect(await returnHistory(returnGid)).toEqual([
      { transition: "requested", to: "requested", by: "job: return-check" },
      { transition: "approved", to: "approved", by: "job: return-check" },
      { transition: "pickup_booked", to: "pickup_booked", by: expect.stringMatching(/^rule: Default return rule → cheapest: /) },
    ]);
  });

  it("books nothing for a declined return", async () => {
    const { order, fulfillmentLineId } = await shippedOrder(2);
    const returnGid = store.simulator.returnAction(store.domain, "returnRequest", { input: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: fulfillmentLineId, quantity: 1 }] } });
    store.simulator.returnAction(store.domain, "returnDeclineRequest", { input: { id: returnGid, declineReason: "FINAL_SALE" } });
    await store.simulator.settled();
    expect((await runJobs(["return-check", "shipment-complete"])).failed).toEqual([]);
    expect(await returnShipments(returnGid)).toEqual([]);
    expect(await recordOf(returnGid)).toMatchObject({ state: "declined" });
    expect((await returnHistory(returnGid)).map((step) => step.transition)).toEqual(["declined"]);
  });

  it("cancels the pickup with the courier when the return is cancelled after booking", async () => {
    const { order, fulfillmentLineId } = await shippedOrder(4);
    // Created by the merchant: no webhook comes; the reconciliation finds it among the orders changed since its last pass.
    const returnGid = store.simulator.returnAction(store.domain, "returnCreate", { returnInput: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: fulfillmentLineId, quantity: 1 }] } });
    expect((await runJobs(["orders-reconcile", "return-check", "shipment-complete"])).failed).toEqual([]);
    const [booked] = await returnShipments(returnGid);
    expect(booked).toMatchObject({ status: "return_in_transit", direction: "return" });

    store.simulator.returnAction(store.domain, "returnCancel", { id: returnGid });
    await store.simulator.settled();
    expect((await runJobs(["return-check"])).failed).toEqual([]);
    expect(await returnShipments(returnGid)).toEqual([expect.objectContaining({ status: "cancelled", awb: booked!.awb })]);
    expect(await prisma.shipmentEvent.findFirst({ where: { shipmentId: booked!.id, transition: "cancelled" }, select: { reason: true, reasonWords: true } })).toEqual({
      reason: "The return was cancelled in Shopify.",
      reasonWords: { key: "activity.stored.cancellations.returnCancelled" },
    });
    expect(await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: booked!.awb! } })).toMatchObject({ orderType: "reverse" });
  });

  it("attaches the reverse delivery once Shopify takes it, after failing, and never a second awb", async () => {
    const { order, fulfillmentLineId } = await shippedOrder(6);
    store.shop.faults.set("reverseDeliveryCreateWithShipping", { kind: "HTTP_503", times: 20 });
    const returnGid = store.simulator.returnAction(store.domain, "returnCreate", { returnInput: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: fulfillmentLineId, quantity: 1 }] } });
    expect(await checkReturn(store.domain, returnGid, deps)).toMatchObject({ kind: "booked" });
    const [waiting] = await returnShipments(returnGid);
    expect(waiting).toMatchObject({ status: "booked_unfulfilled", lastError: expect.stringMatching(/Shopify did not take the reverse delivery yet/) });
    store.shop.faults.delete("reverseDeliveryCreateWithShipping");
    // The watchdog and a redelivered webhook's check both meet the same shipment.
    await Promise.all([runJobs(["shipment-complete"]), checkReturn(store.domain, returnGid, deps)]);
    expect(await returnShipments(returnGid)).toEqual([expect.objectContaining({ status: "return_in_transit", awb: waiting!.awb })]);
    expect(storeReturn(returnGid).reverseFulfillmentOrders.flatMap((rfo) => rfo.deliveries).map((delivery) => delivery.tracking?.number)).toEqual([waiting!.awb]);
  });

  it("books again by the return rules when the worker died mid-booking, before the courier was asked", async () => {
    const { order, fulfillmentLineId } = await shippedOrder(8);
    const returnGid = store.simulator.returnAction(store.domain, "returnCreate", { returnInput: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: fulfillmentLineId, quantity: 1 }] } });
    // The rule decided and claimed the pickup; the worker died before sending anything to the courier.
    await prisma.returnRecord.create({ data: { shop: store.domain, returnGid, orderGid: order.id, state: "approved", decision: "booked", decisionReason: "Return setting" } });
    const claimed = await prisma.$transaction(async (tx) => {
      const claim = await claimShipment(tx, { shop: store.domain, orderGid: returnGid }, { actor: { kind: "rule", name: "Return setting" }, at: new Date() });
      await enqueue("shipment-complete", { shop: store.domain, shipmentId: claim.shipment.id }, { tx });
      return claim.shipment.id;
    });
    // Ten minutes have passed since: the claim is stale. (The claim is aged rather than the clock moved on, which
    // would date the pickup in the future near midnight in India, and the courier refuses that.)
    await prisma.$executeRaw`UPDATE "Shipment" SET "updatedAt" = now() - interval '10 minutes' WHERE id = ${claimed}`;
    expect((await runJobs(["return-check", "shipment-complete"])).failed).toEqual([]);
    expect((await runJobs(["return-check", "shipment-complete"])).failed).toEqual([]);
    const shipments = await returnShipments(returnGid);
    expect(shipments).toEqual([expect.objectContaining({ status: "return_in_transit", direction: "return" })]);
    expect(await prisma.serviceOrder.count({ where: { orderId: `${order.name.slice(1)}-R1`, apiClient: { name: store.domain } } })).toBe(1);
  });

  it("follows the pickup back to the warehouse in return words, records the items for inspection, and asks the merchant to inspect them", async () => {
    const { order, fulfillmentLineId } = await shippedOrder(10);
    const returnGid = store.simulator.returnAction(store.domain, "returnCreate", { returnInput: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: fulfillmentLineId, quantity: 1 }] } });
    expect(await checkReturn(store.domain, returnGid, deps)).toMatchObject({ kind: "booked" });
    const [pickup] = await returnShipments(returnGid);
    const token = new URL(pickup!.trackingUrl!).searchParams.get("token");
    const page = async (language: "en" | "hi") => stageText(language, (await getPublicTracking(pickup!.awb!, { token, requestSync: async () => undefined }))!.stage, "return").label;
    expect((await getPublicTracking(pickup!.awb!, { token, requestSync: async () => undefined }))).toMatchObject({ direction: "return", milestone: null });
    expect(await page("en")).toBe("Pickup scheduled");

    const sandbox = courierClientFor(sandboxCredentialsFor(store.domain));
    const admin = await deps.adminFor(store.domain);
    let clock = Date.now();
    const syncNow = async () => {
      clock += 3_600_000;
      await syncShopTracking(store.domain, { admin, now: () => new Date(clock) });
    };
    await sandbox.advanceSandboxShipment(pickup!.awb!, 5);
    await syncNow();
    expect(await page("en")).toBe("Picked up from you");
    await sandbox.advanceSandboxShipment(pickup!.awb!, 6);
    await syncNow();
    expect([await page("en"), await page("hi")]).toEqual(["On its way back to the seller", "विक्रेता को वापस जा रहा है"]);
    // No fulfillment events for a reverse delivery: the shopper follows it on Dakiya's page.
    expect(store.simulator.deliveries.filter((delivery) => delivery.returnId === returnGid)).toEqual([]);
    // Shopify fails while the arrival is recorded: the shipment stays due, and the next pass records it.
    store.shop.faults.set("return", { kind: "HTTP_503", times: Infinity });
    await sandbox.advanceSandboxShipment(pickup!.awb!, 8);
    await syncNow();
    expect(await page("en")).toBe("Returned to the seller");
    expect(await recordOf(returnGid)).toMatchObject({ state: "received", receivedAt: expect.any(Date), processedAt: null });
    expect((await prisma.shipment.findUniqueOrThrow({ where: { id: pickup!.id } })).nextSyncAt).not.toBeNull();
    store.shop.faults.delete("return");
    await syncNow();

    // Left for inspection (the default setting), never refunded: Shopify's return is processed and closed.
    const record = await recordOf(returnGid);
    expect(record).toMatchObject({ state: "processed", receivedAt: expect.any(Date), processedAt: expect.any(Date), inspectedAt: null });
    const ret = storeReturn(returnGid);
    expect(ret.status).toBe("CLOSED");
    expect(ret.reverseFulfillmentOrders[0]!.lines[0]!.dispositions).toEqual([expect.objectContaining({ type: "PROCESSING_REQUIRED", quantity: 1 })]);

    const attention = await listNeedsAttention(store.domain);
    const received = attention.items.find((item) => item.returnGid === returnGid && item.kind === "return_received");
    expect(received).toMatchObject({ orderGid: order.id, orderName: `${order.name}-R1`, items: [{ title: order.lineItems[0]!.title, quantity: 1 }] });
    // Shopify's returns/process reaches the app, whose check records the return closed.
    await store.simulator.settled();
    expect((await runJobs(["return-check"])).failed).toEqual([]);
    // The order-page card shows the return's pickup apart from the order's own shipment.
    const card = await getOrderShipping({ shop: store.domain, admin, now: () => new Date() }, order.id);
    expect(card).toMatchObject({ state: "shipment", shipment: { awb: expect.any(String) } });
    expect(card.shipment!.awb).not.toBe(pickup!.awb);
    expect(card.returns).toEqual([
      {
        returnName: `${order.name}-R1`,
        status: "CLOSED",
        state: "processed",
        stateLabel: "Recorded in Shopify",
        pickupLabel: "Received at the warehouse",
        courierName: pickup!.courierName,
        awb: pickup!.awb,
        trackingUrl: pickup!.trackingUrl,
        note: null,
        receivedAt: expect.any(String),
        history: expect.arrayContaining([expect.objectContaining({ what: "Received at the warehouse", by: pickup!.courierName })]),
      },
    ]);
    expect(await markReturnInspected(store.domain, returnGid)).toBe(true);
    expect((await listNeedsAttention(store.domain)).items.filter((item) => item.returnGid === returnGid && item.kind === "return_received")).toEqual([]);
    // Its life, step by step: opened by the merchant, booked by the rules, collected, back, recorded, inspected.
    expect(await returnHistory(returnGid)).toEqual([
      { transition: "approved", to: "approved", by: "job: return-check" },
      { transition: "pickup_booked", to: "pickup_booked", by: expect.stringMatching(/^rule: /) },
      { transition: "picked_up", to: "picked_up", by: `courier: ${pickup!.courierName}` },
      { transition: "received", to: "received", by: `courier: ${pickup!.courierName}` },
      { transition: "processed", to: "processed", by: "job: tracking-sync" },
      { transition: "inspected", to: "inspected", by: "merchant: Needs attention page" },
    ]);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: pickup!.id } })).toMatchObject({ outcome: "received" });
  });

  it("erases the shopper's details from a return's pickup and record with the order's, and every return with the shop", async () => {
    const { order, fulfillmentLineId } = await shippedOrder(12);
    const returnGid = store.simulator.returnAction(store.domain, "returnCreate", { returnInput: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: fulfillmentLineId, quantity: 1 }] } });
    expect(await checkReturn(store.domain, returnGid, deps)).toMatchObject({ kind: "booked" });
    const phone = order.shippingAddress!.phone!.replace(/\D/g, "").slice(-10);
    expect((await returnShipments(returnGid))[0]!.requestPayload).toContain(phone);
    await redactCustomer(store.domain, [Number(order.legacyResourceId)]);
    const [pickup] = await returnShipments(returnGid);
    expect(pickup!.requestPayload).not.toContain(phone);
    expect(JSON.parse(pickup!.requestPayload)).toMatchObject({ name: "[redacted]", mobile: "[redacted]", order_type: "reverse" });

    const erased = uniqueShop("erased");
    await prisma.returnRecord.create({ data: { shop: erased, returnGid, orderGid: order.id, state: "approved", events: { create: { shop: erased, transition: "approved", toState: "approved", actorKind: "job", actorName: "return-check", at: new Date() } } } });
    await forgetShop(erased);
    expect(await prisma.returnRecord.count({ where: { shop: erased } })).toBe(0);
    expect(await prisma.returnEvent.count({ where: { shop: erased } })).toBe(0);
    expect(await prisma.returnRecord.count({ where: { shop: store.domain, returnGid } })).toBe(1);
  });

  it("Orders to ship → Returns: the setting holds a pickup, the merchant books it with one click, once", async () => {
    const call = async (fields: Record<string, string>) => {
      const response = await returnsAction({ request: store.adminRequest("/app/orders/returns", { method: "POST", body: new URLSearchParams(fields) }), params: {}, context: {} });
      return { status: response.status, body: (await response.json()) as { ok: boolean; message: string; errors?: Record<string, string> } };
    };
    expect(await call({ intent: "settings", returnRule: "courier", returnDisposition: "inspect" })).toMatchObject({ status: 422, body: { errors: { returnCourierId: "Choose the courier your default return rule books" } } });
    expect(await call({ intent: "settings", returnRule: "sometimes", returnDisposition: "inspect" })).toMatchObject({ status: 422 });
    expect(await call({ intent: "settings", returnRule: "hold", returnDisposition: "inspect", returnRules: returnRulesField({ name: "Mumbai", pincodePrefixes: "40x" }) })).toMatchObject({
      status: 422,
      body: { errors: { "rules.0.pincodePrefixes": expect.stringMatching(/^Return rule 1 'Mumbai': PIN code prefixes are 1 to 6 digits/) } },
    });
    expect(await call({ intent: "settings", returnRule: "hold", returnDisposition: "inspect", returnRules: returnRulesField({ name: "Ok" }, { name: "Cheap", minValueRupees: "-5", action: "courier" }) })).toMatchObject({
      status: 422,
      body: { errors: { "rules.1.minValueRupees": expect.stringMatching(/^Return rule 2 'Cheap': Minimum value must not be negative/), "rules.1.courierId": expect.stringMatching(/Choose the courier this rule books/) } },
    });
    expect(await call({ intent: "settings", returnRule: "hold", returnDisposition: "inspect", returnRules: "{not json" })).toMatchObject({ status: 422, body: { errors: { returnRules: expect.stringMatching(/could not be read/) } } });
    expect(await call({ intent: "settings", returnRule: "hold", returnDisposition: "restock", returnNotifyCustomer: "on", returnRules: returnRulesField({ name: "Valuable", minValueRupees: "5000" }, { name: "Mumbai", pincodePrefixes: "400, 1100" }) })).toMatchObject({ status: 200, body: { ok: true } });
    expect(await prisma.shopSettings.findUniqueOrThrow({ where: { shop: store.domain } })).toMatchObject({ returnRule: "hold", returnDisposition: "restock", returnNotifyCustomer: true });
    const saved = await (await returnsLoader({ request: store.adminRequest("/app/orders/returns"), params: {}, context: {} })).json();
    expect(saved.ruleDrafts).toEqual([
      { name: "Valuable", reasons: "", minValueRupees: "5000", maxValueRupees: "", pincodePrefixes: "", tags: "", action: "hold", courierId: "" },
      { name: "Mumbai", reasons: "", minValueRupees: "", maxValueRupees: "", pincodePrefixes: "400, 1100", tags: "", action: "hold", courierId: "" },
    ]);

    const { order, fulfillmentLineId } = await shippedOrder(14);
    const returnGid = store.simulator.returnAction(store.domain, "returnCreate", { returnInput: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: fulfillmentLineId, quantity: 1 }] } });
    expect(await checkReturn(store.domain, returnGid, deps)).toMatchObject({ kind: "held" });
    expect(await returnShipments(returnGid)).toEqual([]);
    const page = await (await returnsLoader({ request: store.adminRequest("/app/orders/returns"), params: {}, context: {} })).json();
    expect(page.rows.find((row: { returnGid: string }) => row.returnGid === returnGid)).toMatchObject({
      returnName: `${order.name}-R1`,
      state: "held",
      pickup: null,
      decisionReason: "Default return rule → hold for review: book the pickup yourself.",
      history: [
        expect.objectContaining({ transition: "approved", what: "Approved in Shopify", by: "Dakiya (return-check)" }),
        expect.objectContaining({ transition: "held", what: "Pickup held for you to book", by: "Default return rule", reason: "Default return rule → hold for review: book the pickup yourself." }),
      ],
    });
    const held = page.rows.find((row: { returnGid: string }) => row.returnGid === returnGid);
    expect(sayStored("hi", held?.decisionWords, "")).toBe("डिफ़ॉल्ट रिटर्न नियम → जाँच के लिए रोका गया: पिकअप खुद बुक करें।");
    expect((await listNeedsAttention(store.domain)).items.find((item) => item.returnGid === returnGid)).toMatchObject({ kind: "return_held" });

    expect(await call({ intent: "book", returnGid: "gid://shopify/Order/1" })).toMatchObject({ status: 422 });
    const [first, second] = await Promise.all([call({ intent: "book", returnGid }), call({ intent: "book", returnGid })]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    expect(await returnShipments(returnGid)).toEqual([expect.objectContaining({ status: "return_in_transit", direction: "return" })]);
    // Booked by the merchant from the held state, once.
    expect((await returnHistory(returnGid)).slice(-2)).toEqual([
      { transition: "held", to: "held", by: "rule: Default return rule" },
      { transition: "pickup_booked", to: "pickup_booked", by: "merchant: Returns" },
    ]);
    expect(await call({ intent: "nonsense" })).toMatchObject({ status: 400 });
    await prisma.shopSettings.update({ where: { shop: store.domain }, data: { returnRule: "cheapest", returnDisposition: "inspect", returnRules: "[]" } });
  });

  it("return rules decide by the shopper's reason, value, PIN code and the order's tags, first match first, and the pickup's history names the rule", async () => {
    const rule = (draft: Record<string, unknown>) => ({ reasons: [], minValueRupees: null, maxValueRupees: null, pincodePrefixes: [], tags: [], action: "hold", courierId: null, ...draft });
    const returnRules = JSON.stringify([
      rule({ name: "Wholesale", tags: ["wholesale"], action: "hold" }),
      rule({ name: "Damaged in Bengaluru", reasons: ["defective", "damaged"], pincodePrefixes: ["560"], action: "courier", courierId: 2 }),
      rule({ name: "Size swaps", reasons: ["size"], action: "cheapest" }),
    ]);
    await prisma.shopSettings.update({ where: { shop: store.domain }, data: { returnRule: "hold", returnRules } });
    const open = async (index: number, returnReason: string, tags: string[] = []) => {
      const { order, fulfillmentLineId } = await shippedOrder(index);
      store.shop.orders.find((candidate) => candidate.id === order.id)!.tags = tags;
      const returnGid = store.simulator.returnAction(store.domain, "returnCreate", { returnInput: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: fulfillmentLineId, quantity: 1, returnReason, returnReasonNote: "Seam split on arrival" }] } });
      return { returnGid, result: await checkReturn(store.domain, returnGid, deps) };
    };

    const damaged = await open(20, "DEFECTIVE");
    expect(damaged.result).toMatchObject({ kind: "booked" });
    const [pickup] = await returnShipments(damaged.returnGid);
    expect(pickup).toMatchObject({ courierId: 2, direction: "return" });
    const history = await prisma.shipmentEvent.findMany({ where: { shop: store.domain, shipmentId: pickup!.id }, orderBy: { id: "asc" } });
    expect(history[0]).toMatchObject({ actorKind: "rule", actorName: expect.stringMatching(/^Return rule 2 'Damaged in Bengaluru' → chosen courier: /) });
    expect(await prisma.returnRecord.findUniqueOrThrow({ where: { shop_returnGid: { shop: store.domain, returnGid: damaged.returnGid } } })).toMatchObject({ decision: "booked", decisionReason: expect.stringMatching(/^Return rule 2 'Damaged in Bengaluru'/) });

    // The first rule wins: a wholesale order's damaged return is held, whatever rule 2 says.
    const wholesale = await open(18, "DEFECTIVE", ["Wholesale"]);
    expect(wholesale.result).toMatchObject({ kind: "held", reason: "Return rule 1 'Wholesale' → hold for review: book the pickup yourself." });
    expect(await returnShipments(wholesale.returnGid)).toEqual([]);

    const size = await open(16, "SIZE_TOO_SMALL");
    expect(size.result).toMatchObject({ kind: "booked" });
    expect(await prisma.returnRecord.findUniqueOrThrow({ where: { shop_returnGid: { shop: store.domain, returnGid: size.returnGid } } })).toMatchObject({ decisionReason: expect.stringMatching(/^Return rule 3 'Size swaps' → cheapest: /) });

    // No rule matches: the default holds it.
    const other = await open(22, "COLOR");
    expect(other.result).toMatchObject({ kind: "held", reason: "Default return rule → hold for review: book the pickup yourself." });
    await prisma.shopSettings.update({ where: { shop: store.domain }, data: { returnRule: "cheapest", returnRules: "[]" } });
  });

  it("the Ship order page shows an open return's items and reverse rates, and books its pickup once", async () => {
    await prisma.shopSettings.update({ where: { shop: store.domain }, data: { returnRule: "hold" } });
    const { order, fulfillmentLineId } = await shippedOrder(24);
    const returnGid = store.simulator.returnAction(store.domain, "returnCreate", { returnInput: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: fulfillmentLineId, quantity: 1, returnReason: "DEFECTIVE", returnReasonNote: "Seam split on arrival" }] } });
    expect(await checkReturn(store.domain, returnGid, deps)).toMatchObject({ kind: "held" });
    const legacyId = order.id.split("/").pop()!;
    const path = `/app/orders/${legacyId}/ship`;
    const page = await (await shipLoader({ request: store.adminRequest(path), params: { id: legacyId }, context: {} })).json();
    expect(page.returns).toHaveLength(1);
    const section = page.returns[0]!;
    expect(section).toMatchObject({ returnGid, returnName: `${order.name}-R1`, status: "OPEN", state: "held", pickup: null, note: null, reasons: ["Defective", "Seam split on arrival"], items: [expect.objectContaining({ quantity: 1 })] });
    expect(section.history.map((step: { transition: string }) => step.transition)).toEqual(["approved", "held"]);
    expect(section.rates.length).toBeGreaterThan(0);
    // Quoted as a reverse shipment: the service's reverse rates, not the forward ones.
    expect(page.booked).toMatchObject({ status: "fulfilled" });

    const book = async (courierId: number) => {
      const response = await shipAction({ request: store.adminRequest(path, { method: "POST", body: new URLSearchParams({ intent: "book-return", returnGid, courierId: String(courierId) }) }), params: { id: legacyId }, context: {} });
      return { status: response.status, body: (await response.json()) as { kind: string; message: string } };
    };
    expect(await book(99)).toMatchObject({ status: 422, body: { kind: "refused", message: "Choose a courier to pick the return up." } });
    const chosen = section.rates[0]!.id as number;
    const [first, second] = await Promise.all([book(chosen), book(chosen)]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    expect(await returnShipments(returnGid)).toEqual([expect.objectContaining({ courierId: chosen, status: "return_in_transit", direction: "return" })]);
    // The forward shipment is untouched, and the page now shows the pickup instead of rates.
    const after = await (await shipLoader({ request: store.adminRequest(path), params: { id: legacyId }, context: {} })).json();
    expect(after.returns[0]).toMatchObject({ rates: [], pickup: { awb: expect.any(String), statusLabel: expect.any(String) } });
    expect(await prisma.shipment.count({ where: { shop: store.domain, orderGid: order.id } })).toBe(1);
    await prisma.shopSettings.update({ where: { shop: store.domain }, data: { returnRule: "cheapest" } });
  });

  it("follows a pickup the merchant booked from the order page before Dakiya's check of Shopify's approval ran, and one booked after the return was closed and reopened", async () => {
    await prisma.shopSettings.update({ where: { shop: store.domain }, data: { returnRule: "hold" } });
    const { order, fulfillmentLineId } = await shippedOrder(25);
    const returnGid = store.simulator.returnAction(store.domain, "returnRequest", { input: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: fulfillmentLineId, quantity: 1, customerNote: "Too big" }] } });
    await store.simulator.settled();
    expect((await runJobs(["return-check"])).failed).toEqual([]);
    expect(await recordOf(returnGid)).toMatchObject({ state: "requested" });
    // Approved in Shopify; the merchant books from the order page before the approval's check has run.
    store.simulator.returnAction(store.domain, "returnApproveRequest", { input: { id: returnGid } });
    await store.simulator.settled();
    const legacyId = order.id.split("/").pop()!;
    const path = `/app/orders/${legacyId}/ship`;
    const page = await (await shipLoader({ request: store.adminRequest(path), params: { id: legacyId }, context: {} })).json();
    const courierId = String(page.returns[0]!.rates[0]!.id);
    const booked = await shipAction({ request: store.adminRequest(path, { method: "POST", body: new URLSearchParams({ intent: "book-return", returnGid, courierId }) }), params: { id: legacyId }, context: {} });
    expect(booked.status).toBe(200);
    expect(await recordOf(returnGid)).toMatchObject({ state: "pickup_booked" });
    expect((await runJobs(["return-check"])).failed).toEqual([]);
    expect(await recordOf(returnGid)).toMatchObject({ state: "pickup_booked" });
    // The courier collects it: the return follows.
    const [pickup] = await returnShipments(returnGid);
    await courierClientFor(sandboxCredentialsFor(store.domain)).advanceSandboxShipment(pickup!.awb!, 6);
    await syncShopTracking(store.domain, { admin: await deps.adminFor(store.domain), now: () => new Date(Date.now() + 3_600_000) });
    expect(await recordOf(returnGid)).toMatchObject({ state: "picked_up" });

    // Another return, closed in Shopify with nothing sent, then reopened: open again, the return's check holds it for the merchant.
    const second = await shippedOrder(28);
    const reopened = store.simulator.returnAction(store.domain, "returnCreate", { returnInput: { orderId: second.order.id, returnLineItems: [{ fulfillmentLineItemId: second.fulfillmentLineId, quantity: 1 }] } });
    await prisma.returnRecord.create({ data: { shop: store.domain, returnGid: reopened, orderGid: second.order.id, state: "closed" } });
    expect(await checkReturn(store.domain, reopened, deps)).toMatchObject({ kind: "held" });
    expect(await recordOf(reopened)).toMatchObject({ state: "held" });
    await prisma.shopSettings.update({ where: { shop: store.domain }, data: { returnRule: "cheapest" } });
  });

  it("records a return collected, then received, when one tracking read brings the courier's pickup and its arrival at the warehouse", async () => {
    const { order, fulfillmentLineId } = await shippedOrder(27);
    const returnGid = store.simulator.returnAction(store.domain, "returnCreate", { returnInput: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: fulfillmentLineId, quantity: 1 }] } });
    expect(await checkReturn(store.domain, returnGid, deps)).toMatchObject({ kind: "booked" });
    const [pickup] = await returnShipments(returnGid);
    await courierClientFor(sandboxCredentialsFor(store.domain)).advanceSandboxShipment(pickup!.awb!, 8);
    await syncShopTracking(store.domain, { admin: await deps.adminFor(store.domain), now: () => new Date(Date.now() + 3_600_000) });
    expect((await returnHistory(returnGid)).map((step) => step.transition)).toEqual(["approved", "pickup_booked", "picked_up", "received", "processed"]);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: pickup!.id } })).toMatchObject({ outcome: "received" });
  });

  it("a pickup the courier could not collect, and a return lost on its way back, are worded for a return in Needs attention and on the order card", async () => {
    const { order, returnGid, pickup, sandbox, admin, syncNow } = await returnOnItsWay(26);
    const itemOf = async () => (await listNeedsAttention(store.domain)).items.find((item) => item.shipmentId === pickup!.id);

    await sandbox.advanceSandboxShipment(pickup!.awb!, 4);
    await syncNow();
    expect(await itemOf()).toMatchObject({
      kind: "tracking_exception",
      returnGid,
      message: expect.stringContaining(`for the return's pickup (awb ${pickup!.awb})`),
      action: expect.stringMatching(/^Pickup failed: the courier could not collect the return from the shopper\. Ask the shopper/),
    });
    expect((await itemOf())!.action).not.toMatch(/warehouse, labelled|packed, labelled/);
    const card = await getOrderShipping({ shop: store.domain, admin, now: () => new Date() }, order.id);
    expect(card.returns?.find((ret) => ret.awb === pickup!.awb)).toMatchObject({ note: expect.stringMatching(/Pickup failed: the courier could not collect the return from the shopper/) });

    await sandbox.advanceSandboxShipment(pickup!.awb!, 5);
    await syncNow();
    await sandbox.advanceSandboxShipment(pickup!.awb!, 14);
    await syncNow();
    expect(await itemOf()).toMatchObject({ kind: "tracking_exception", action: expect.stringMatching(/^The return was lost in transit: raise a claim with the courier, and settle with the shopper in Shopify\./) });
    expect((await itemOf())!.action).not.toMatch(/reship/);
  });

  it("tells Shopify Flow of a return's pickup only as a return: a failed attempt at the warehouse and its going back to the shopper fire no delivery or RTO trigger", async () => {
    for (const trigger of FLOW_TRIGGER_HANDLES) await recordTriggerUse({ shop: store.domain, trigger, enabled: true, noticedAt: new Date() });
    const { pickup, sandbox, syncNow } = await returnOnItsWay(39);
    for (const code of [6, 9, 11, 12]) {
      await sandbox.advanceSandboxShipment(pickup!.awb!, code);
      await syncNow();
    }
    const announced = await prisma.flowTriggerEvent.findMany({ where: { shop: store.domain, shipmentId: pickup!.id }, select: { trigger: true } });
    expect(announced.map((event) => event.trigger)).toEqual(["dakiya-return-picked-up"]);
    for (const trigger of FLOW_TRIGGER_HANDLES) await recordTriggerUse({ shop: store.domain, trigger, enabled: false, noticedAt: new Date() });
  });

  it("gives the shopper the pickup's return label through Shopify's reverse delivery: to the warehouse, from the shopper, nothing to collect", async () => {
    const { order, fulfillmentLineId } = await shippedOrder(40);
    const before = await prisma.shopSettings.findUniqueOrThrow({ where: { shop: store.domain }, select: { returnRule: true, returnRules: true } });
    await prisma.shopSettings.update({ where: { shop: store.domain }, data: { returnRule: "cheapest", returnRules: "[]" } });
    const returnGid = store.simulator.returnAction(store.domain, "returnCreate", { returnInput: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: fulfillmentLineId, quantity: 1 }] } });
    expect(await checkReturn(store.domain, returnGid, deps)).toMatchObject({ kind: "booked" });
    await prisma.shopSettings.update({ where: { shop: store.domain }, data: before });
    const [pickup] = await returnShipments(returnGid);
    const [delivery] = storeReturn(returnGid).reverseFulfillmentOrders.flatMap((rfo) => rfo.deliveries);
    const fileUrl = delivery!.label!.fileUrl;
    expect(fileUrl.startsWith(`${getConfig().SHOPIFY_APP_URL}/documents/`)).toBe(true);
    // The link carries ids only, and lasts until well after the return window.
    const token = fileUrl.split("/documents/")[1]!;
    expect(Object.keys(JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString("utf8"))).sort()).toEqual(["exp", "kind", "n", "shipmentId", "shop"]);
    expect(verifyDocumentLink(token, new Date(Date.now() + 59 * 86_400_000))).toEqual({ kind: "return-label", shop: store.domain, shipmentId: pickup!.id });
    expect(verifyDocumentLink(token, new Date(Date.now() + (RETURN_LABEL_LINK_SECONDS + 60) * 1000))).toBeNull();

    const opened = (await documentLoader({ request: new Request(fileUrl), params: { token }, context: {} })) as Response;
    expect(opened.status).toBe(200);
    expect(opened.headers.get("Content-Type")).toBe("application/pdf");
    const pdf = Buffer.from(await opened.arrayBuffer());
    const [page] = pdfPages(pdf);
    expect(page).toContain("RETURN — SHIP TO THE SELLER");
    expect(page).toContain("RETURN — do not collect");
    expect(page).not.toContain("COD");
    // The shopper's address is where the courier collects; the order's shipping address is the shopper's.
    const shopper = order.shippingAddress!;
    const shipTo = page!.slice(page!.indexOf("RETURN — SHIP TO THE SELLER"), page!.indexOf("RETURN — do not collect"));
    expect(shipTo).toContain("PIN 421302");
    expect(shipTo).not.toContain(shopper.zip!);
    const pickupFrom = page!.slice(page!.indexOf("PICKUP FROM"));
    expect(pickupFrom).toContain(shopper.zip!);
    expect(page!.indexOf("PICKUP FROM")).toBeGreaterThan(page!.indexOf("RETURN — SHIP TO THE SELLER"));
    expect(page).toContain(`${order.name}-R1`);
    // The courier's routing reads the way the parcel travels: from the shopper's city to the warehouse's.
    expect(page!.replace(/\s+/g, " ")).toMatch(new RegExp(`${shopper.city} \\(${shopper.zip}\\) to Bhiwandi \\(421302\\)`));
    expect(pdfBarcodes(pdf).flat()).toContain(pickup!.awb);

    // Without the warehouse's address from the courier there is no label to give: a wait, never a label to nowhere.
    await prisma.shipment.update({ where: { id: pickup!.id }, data: { warehouseId: 999_999 } });
    const unreadable = (await documentLoader({ request: new Request(fileUrl), params: { token }, context: {} })) as Response;
    expect(unreadable.status).toBe(503);
    expect(unreadable.headers.get("Retry-After")).toBe("60");
    expect(await unreadable.json()).toEqual({ error: expect.stringMatching(/warehouse's address.*Try the label again/) });
    await prisma.shipment.update({ where: { id: pickup!.id }, data: { warehouseId: pickup!.warehouseId } });

    // A cancelled pickup's label says so rather than printing a label the courier will refuse.
    await prisma.shipment.update({ where: { id: pickup!.id }, data: { status: "cancelled" } });
    const refused = (await documentLoader({ request: new Request(fileUrl), params: { token }, context: {} })) as Response;
    expect(refused.status).toBe(409);
    expect(await refused.text()).toMatch(/cancelled/);
  });

  it("attaches the pickup's tracking without its label when Shopify refuses the label's file", async () => {
    const { order, fulfillmentLineId } = await shippedOrder(42);
    const returnGid = store.simulator.returnAction(store.domain, "returnCreate", { returnInput: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: fulfillmentLineId, quantity: 1 }] } });
    const admin = await deps.adminFor(store.domain);
    const outcome = await attachReverseDelivery(admin, { returnGid, awb: "DKYLABEL1", trackingUrl: "https://dakiya.example.com/track/DKYLABEL1", labelUrl: "not a file address", notifyCustomer: false });
    expect(outcome).toMatchObject({ kind: "attached", created: true });
    const [delivery] = storeReturn(returnGid).reverseFulfillmentOrders.flatMap((rfo) => rfo.deliveries);
    expect(delivery).toMatchObject({ tracking: { number: "DKYLABEL1", url: "https://dakiya.example.com/track/DKYLABEL1" }, label: null });
  });

  it("leaves another shop's return alone, whatever the webhook's shop header says", async () => {
    const other = store.simulator.addShop(seedShop(uniqueShop("other")));
    const order = store.simulator.placeOrder(other.domain, shopperOrder(1));
    const stored = other.orders.find((candidate) => candidate.id === order.id)!;
    // The other shop's order shipped outside Dakiya: a fulfillment of its own with a line a return can name.
    stored.fulfillments.push({ id: "gid://shopify/Fulfillment/990001", name: `${stored.name}-F1`, status: "SUCCESS", createdAt: stored.createdAt, updatedAt: stored.createdAt, trackingInfo: [], notifyCustomer: false, fulfillmentOrderIds: [], lines: [{ id: "gid://shopify/FulfillmentLineItem/990002", lineItemId: stored.lineItems[0]!.id, quantity: 1 }], events: [] });
    const returnGid = store.simulator.returnAction(other.domain, "returnCreate", { returnInput: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: "gid://shopify/FulfillmentLineItem/990002", quantity: 1 }] } });
    // Delivered as if for this shop, naming the other shop's return.
    expect((await store.simulator.deliver("returns/approve", store.domain, { payload: { id: Number(returnGid.split("/").pop()), admin_graphql_api_id: returnGid, status: "open" } })).delivered).toBe(true);
    expect((await runJobs(["return-check", "shipment-complete"])).failed).toEqual([]);
    expect(await prisma.shipment.findMany({ where: { orderGid: returnGid } })).toEqual([]);
    expect(await prisma.returnRecord.findMany({ where: { returnGid } })).toEqual([]);
    expect(other.orders.flatMap((candidate) => candidate.returns ?? []).flatMap((ret) => ret.reverseFulfillmentOrders).flatMap((rfo) => rfo.deliveries)).toEqual([]);
  });
});
