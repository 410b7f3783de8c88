import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_RULES, type BookingRule } from "~/automation/rules";
import prisma from "~/db.server";
import { ORDER_READ_LIMITS } from "~/shopify/readiness-checks";
import { sayStored } from "~/locales/admin-language";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import { enqueue } from "~/jobs/job-queue.server";
import { listNeedsAttention } from "~/attention/needs-attention.server";
import { action as ordersCancelled } from "~/routes/webhooks.orders.cancelled";
import { action as ordersCreate } from "~/routes/webhooks.orders.create";
import { sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { saveBookingRules } from "~/automation/booking-rules.server";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { queuedJobs, resetJobs, runJobs } from "../support/jobs";
import { shopperOrder } from "../support/orders";
import { serveRoutes, startStore } from "../support/store";
import { signedWebhookRequest } from "../support/webhooks";
import { orderPayload } from "../../store/webhooks";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";

let courier: RunningCourierService;
let app: Awaited<ReturnType<typeof serveRoutes>>;
let store: Awaited<ReturnType<typeof startStore>>;

beforeAll(async () => {
  await resetJobs();
  courier = await startAppCourierService();
  app = await serveRoutes({ "/webhooks/orders/create": ordersCreate, "/webhooks/orders/cancelled": ordersCancelled });
  store = await startStore({ appUrl: app.url, throttle: { maximumAvailable: 20_000, restoreRate: 1_000 }, webhookRetryDelaysMs: [50, 200] });
  // Installed: the shop has a session, and its install-time read of the orders has run.
  await store.install();
  await runJobs(["orders-reconcile", "order-check"]);
});
afterAll(async () => {
  await store.close();
  await app.close();
  await courier.close();
});

const rule = (name: string, action: BookingRule["action"], extra: Partial<BookingRule> = {}): BookingRule => ({
  name, paymentMode: "any", minWeightKg: null, maxWeightKg: null, minValueRupees: null, maxValueRupees: null, pincodePrefixes: [], zones: [], tags: [], action, courierId: null, ...extra,
});

const recordOf = (orderGid: string) => prisma.orderRecord.findUniqueOrThrow({ where: { shop_orderGid: { shop: store.domain, orderGid } } });
const shipmentOf = (orderGid: string) => prisma.shipment.findUnique({ where: { shop_orderGid_parcel: { shop: store.domain, orderGid, parcel: 1 } } });
const deliver = (topic: string, orderGid: string, webhookId?: string) => {
  const order = store.shop.orders.find((candidate) => candidate.id === orderGid)!;
  return store.simulator.deliver(topic, store.domain, { orderId: order.id, webhookId });
};
const runIntake = () => runJobs(["order-check", "order-cancelled", "shipment-complete"]);

describe("new orders by webhook", () => {
  it("acknowledges orders/create at once, and five deliveries of it (two at once) make one check, one record and one awb", async () => {
    await saveBookingRules(store.domain, { autoBooking: true, rules: [rule("Everything", "cheapest")] });
    const order = store.simulator.placeOrder(store.domain, shopperOrder(1));
    await store.simulator.settled();
    const webhookId = `create-${order.legacyResourceId}`;
    const reports = await Promise.all([deliver("orders/create", order.id, webhookId), deliver("orders/create", order.id, webhookId)]);
    reports.push(await deliver("orders/create", order.id, webhookId), await deliver("orders/create", order.id), await deliver("orders/create", order.id));
    expect(reports.map((report) => report.attempts.at(-1)!.status)).toEqual([200, 200, 200, 200, 200]);
    // The store's own delivery, the same id twice, two fresh ids: one check waits, however many came.
    expect(await queuedJobs("order-check", store.domain).then((jobs) => jobs.filter((job) => (job.data as { orderGid: string }).orderGid === order.id))).toHaveLength(1);

    expect((await runIntake()).failed).toEqual([]);
    expect(await prisma.orderRecord.count({ where: { shop: store.domain, orderGid: order.id } })).toBe(1);
    const shipment = await shipmentOf(order.id);
    expect(shipment).toMatchObject({ status: "fulfilled", awb: expect.any(String) });
    expect(await recordOf(order.id)).toMatchObject({ decision: "booked", decisionReason: expect.stringMatching(/^Rule 1 'Everything' → cheapest: \w+ ₹[\d,.]+$/) });

    // Delivered again a day later: nothing more happens.
    await deliver("orders/create", order.id);
    expect((await runIntake()).failed).toEqual([]);
    expect(await prisma.shipment.count({ where: { shop: store.domain, orderGid: order.id } })).toBe(1);
    expect(store.shop.orders.find((candidate) => candidate.id === order.id)!.fulfillments).toHaveLength(1);
  });

  it("acknowledges a malformed orders/create and records why, and ends cleanly for an order Shopify no longer has", async () => {
    const request = signedWebhookRequest(`${app.url}/webhooks/orders/create`, { topic: "orders/create", shop: store.domain, webhookId: `bad-${store.domain}`, payload: { id: "not-a-number" } });
    expect((await fetch(request)).status).toBe(200);
    expect((await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: `bad-${store.domain}` } })).problem).toMatch(/no usable order id/);

    const ghost = "gid://shopify/Order/999999";
    await enqueue("order-check", { shop: store.domain, orderGid: ghost });
    expect((await runIntake()).failed).toEqual([]);
    expect(await recordOf(ghost)).toMatchObject({ readiness: "not_found" });
  });

  it("holds an order with problems, with the fix, and books it once the merchant fixes it", async () => {
    const order = store.simulator.placeOrder(store.domain, shopperOrder(2, { shippingAddress: { ...shopperOrder(2).shippingAddress, zip: "5600" } }));
    await store.simulator.settled();
    expect((await runIntake()).failed).toEqual([]);
    expect(await recordOf(order.id)).toMatchObject({ readiness: "problems", decision: "problems", decisionReason: "Not booked automatically: PIN code not 6 digits" });
    // Kept beside the English as its words: a Hindi admin reads the decision in Hindi.
    expect(sayStored("hi", (await recordOf(order.id)).decisionWords, "")).toBe("अपने-आप बुक नहीं हुआ: पिनकोड 6 अंकों का नहीं");
    expect(await shipmentOf(order.id)).toBeNull();
    const attention = await listNeedsAttention(store.domain);
    expect(attention.items.find((item) => item.orderGid === order.id)).toMatchObject({ kind: "order_problems", message: expect.stringMatching(/PIN code/) });

    // Fixed in Shopify: the next reconciliation sees the change and checks the order again.
    store.shop.orders.find((candidate) => candidate.id === order.id)!.shippingAddress!.zip = "560038";
    store.shop.orders.find((candidate) => candidate.id === order.id)!.updatedAt = new Date().toISOString();
    await enqueue("orders-reconcile", { shop: store.domain });
    expect((await runJobs(["orders-reconcile", "order-check", "shipment-complete"])).failed).toEqual([]);
    expect(await shipmentOf(order.id)).toMatchObject({ status: "fulfilled" });
    expect(await recordOf(order.id)).toMatchObject({ decision: "booked" });
  });

  it("picks up an order whose webhook never came", async () => {
    await saveBookingRules(store.domain, { autoBooking: false, rules: [] });
    const lost = store.simulator.placeOrder(store.domain, shopperOrder(3));
    await store.simulator.settled();
    await prisma.webhookDelivery.deleteMany({ where: { shop: store.domain } });
    await resetJobs(); // as if the app had been down when Shopify gave up on it
    expect(await prisma.orderRecord.findUnique({ where: { shop_orderGid: { shop: store.domain, orderGid: lost.id } } })).toBeNull();
    await enqueue("orders-reconcile", { shop: store.domain });
    expect((await runJobs(["orders-reconcile", "order-check"])).failed).toEqual([]);
    expect(await recordOf(lost.id)).toMatchObject({ readiness: "ready", decision: null, quote: expect.objectContaining({ couriers: expect.any(Number) }) });
  });
});

describe("auto-booking by the merchant's rules", () => {
  const bookWith = async (rules: BookingRule[], index: number, overrides: Record<string, unknown> = {}) => {
    await saveBookingRules(store.domain, { autoBooking: true, rules });
    const order = store.simulator.placeOrder(store.domain, shopperOrder(index, overrides));
    await store.simulator.settled();
    expect((await runIntake()).failed).toEqual([]);
    return { record: await recordOf(order.id), shipment: await shipmentOf(order.id), order };
  };

  it.each(["cheapest", "fastest", "recommended"] as const)("books the %s courier and says so", async (action) => {
    const { record, shipment } = await bookWith([rule(`By ${action}`, action)], 10 + action.length);
    const expected = (record.quote as { cheapest: Chosen; fastest: Chosen; recommended: Chosen })[action];
    expect(shipment).toMatchObject({ courierId: expected.courierId, courierName: expected.name, status: "fulfilled", totalChargesPaise: expected.totalPaise });
    expect(record.decisionReason).toBe(`Rule 1 'By ${action}' → ${action}: ${expected.name} ₹${(expected.totalPaise / 100).toLocaleString("en-IN", { maximumFractionDigits: 2 })}`);
  });

  it("asks the courier for rates once: the booking goes on the quote the rule decided on", async () => {
    const before = courier.requests;
    const { shipment } = await bookWith([rule("Everything", "cheapest")], 30);
    expect(shipment).toMatchObject({ status: "fulfilled" });
    // The warehouse and the rates for the decision, then the booking itself: nothing asked twice.
    expect(courier.requests - before).toBe(3);
  });

  it("records its decision before booking, so a worker that dies mid-booking leaves the reason with the booking", async () => {
    await saveBookingRules(store.domain, { autoBooking: true, rules: [rule("Everything", "cheapest")] });
    const order = store.simulator.placeOrder(store.domain, shopperOrder(31));
    await store.simulator.settled();
    // What another process would find if this worker died as Shopify was being asked for the fulfillment.
    let duringBooking: string | null | undefined;
    const watching = async (shop: string): Promise<ShopAdmin> => {
      const admin = await defaultJobDeps.adminFor(shop);
      const graphql = (async (query: string, options?: { variables?: Record<string, unknown> }) => {
        if (query.includes("fulfillmentCreate")) duringBooking = (await recordOf(order.id)).decisionReason;
        return admin.graphql(query, options);
      }) as ShopAdmin["graphql"];
      return { shop: admin.shop, graphql };
    };
    expect((await runJobs(["order-check", "shipment-complete"], { deps: { adminFor: watching } })).failed).toEqual([]);
    expect(duringBooking).toMatch(/^Rule 1 'Everything' → cheapest: /);
    expect(await recordOf(order.id)).toMatchObject({ decision: "booked", decisionReason: duringBooking });
  });

  it("books an order decided 'booked' whose booking never began (its worker died before the claim)", async () => {
    await saveBookingRules(store.domain, { autoBooking: true, rules: [rule("Everything", "cheapest")] });
    const order = store.simulator.placeOrder(store.domain, shopperOrder(32));
    await store.simulator.settled();
    // As a crash between the decision and the claim leaves it: decided, nothing booked.
    await prisma.orderRecord.upsert({
      where: { shop_orderGid: { shop: store.domain, orderGid: order.id } },
      create: { shop: store.domain, orderGid: order.id, readiness: "ready", decision: "booked", decisionReason: "Rule 1 'Everything' → cheapest", decidedAt: new Date() },
      update: { readiness: "ready", decision: "booked", decisionReason: "Rule 1 'Everything' → cheapest", decidedAt: new Date() },
    });
    expect((await runIntake()).failed).toEqual([]);
    expect(await shipmentOf(order.id)).toMatchObject({ status: "fulfilled" });
    expect(await recordOf(order.id)).toMatchObject({ decision: "booked", decisionReason: expect.stringMatching(/^Rule 1 'Everything' → cheapest: /) });
  });

  it("leaves a booking the courier refused on resumption to the merchant, rather than booking it again by itself", async () => {
    await saveBookingRules(store.domain, { autoBooking: true, rules: [rule("Everything", "cheapest")] });
    const order = store.simulator.placeOrder(store.domain, shopperOrder(33));
    await store.simulator.settled();
    // As a worker that resumed the booking leaves it when the courier refused the resent body: failed, not fulfilled.
    await prisma.orderRecord.upsert({
      where: { shop_orderGid: { shop: store.domain, orderGid: order.id } },
      create: { shop: store.domain, orderGid: order.id, readiness: "ready", decision: "booked", decisionReason: "Rule 1 'Everything' → cheapest: Delhivery ₹98" },
      update: { decision: "booked", decisionReason: "Rule 1 'Everything' → cheapest: Delhivery ₹98" },
    });
    await prisma.shipment.create({ data: { shop: store.domain, orderGid: order.id, orderName: order.name, status: "failed", requestPayload: "{}", courierEnvironment: "sandbox", paymentMode: "cod", lastError: "The courier refused the order: pincode not serviceable." } });
    expect((await runIntake()).failed).toEqual([]);
    expect(await shipmentOf(order.id)).toMatchObject({ status: "failed" });
    expect(await recordOf(order.id)).toMatchObject({ decision: "failed", decisionReason: "Rule 1 'Everything' → cheapest: Delhivery ₹98, but the booking failed: The courier refused the order: pincode not serviceable." });
  });

  it("books a chosen courier, first matching rule wins, and holds what no rule matches or a rule holds", async () => {
    const rules = [
      rule("Big orders", "hold", { minValueRupees: 5_000 }),
      rule("Mumbai by Bluedart", "courier", { courierId: 2, pincodePrefixes: ["400"] }),
      rule("Prepaid", "cheapest", { paymentMode: "prepaid" }),
    ];
    const mumbai = await bookWith(rules, 21); // index 21: Mumbai, prepaid
    expect(mumbai.shipment).toMatchObject({ courierId: 2, courierName: "Bluedart" });
    expect(mumbai.record.decisionReason).toMatch(/^Rule 2 'Mumbai by Bluedart' → chosen courier: Bluedart ₹/);

    const big = await bookWith(rules, 23, { lineItems: [{ title: "Silver anklet", quantity: 1, priceSet: { shopMoney: { amount: "8000.00" } }, requiresShipping: true, weight: { unit: "GRAMS", value: 200 } }] });
    expect(big.shipment).toBeNull();
    expect(big.record).toMatchObject({ decision: "held", decisionReason: "Rule 1 'Big orders' → hold for review" });

    const unmatched = await bookWith(rules, 24); // Pune, COD
    expect(unmatched.shipment).toBeNull();
    expect(unmatched.record).toMatchObject({ decision: "held", decisionReason: "No rule matches this order: held for review" });
    const attention = await listNeedsAttention(store.domain);
    expect(attention.items.filter((item) => item.kind === "held_by_rules").map((item) => item.orderGid)).toEqual(expect.arrayContaining([big.order.id, unmatched.order.id]));
  });

  it("never books the example rules' expensive orders, and books the rest", async () => {
    const cheap = await bookWith(EXAMPLE_RULES, 30);
    expect(cheap.record.decisionReason).toMatch(/^Rule 4 'COD under ₹2,000' → cheapest: /);
    expect(cheap.shipment?.status).toBe("fulfilled");
  });

  it("books an order again whose automatic booking died before it reached the courier, once", async () => {
    await saveBookingRules(store.domain, { autoBooking: true, rules: [rule("Everything", "recommended")] });
    const order = store.simulator.placeOrder(store.domain, shopperOrder(31));
    await store.simulator.settled();
    // The worker that checked it claimed the booking, recorded the rule's decision and died before calling the courier.
    const claimedAt = new Date(Date.now() - 10 * 60_000);
    const claim = await prisma.shipment.create({ data: { shop: store.domain, orderGid: order.id, orderName: order.name, status: "booking", requestPayload: "", courierEnvironment: "", paymentMode: "", updatedAt: claimedAt } });
    await prisma.orderRecord.upsert({
      where: { shop_orderGid: { shop: store.domain, orderGid: order.id } },
      create: { shop: store.domain, orderGid: order.id, orderName: order.name, readiness: "shipment", decision: "booked", decisionReason: "Rule 1 'Everything' → recommended", decidedAt: claimedAt },
      update: { readiness: "shipment", decision: "booked", decidedAt: claimedAt },
    });
    await resetJobs();
    // The claim's watchdog.
    await enqueue("shipment-complete", { shop: store.domain, shipmentId: claim.id });

    expect((await runJobs(["shipment-complete", "order-check", "shipment-complete"])).failed).toEqual([]);
    expect(await shipmentOf(order.id)).toMatchObject({ id: claim.id, status: "fulfilled", awb: expect.any(String) });
    expect(await recordOf(order.id)).toMatchObject({ decision: "booked", decisionReason: expect.stringMatching(/^Rule 1 'Everything' → recommended: /) });
    expect(store.shop.orders.find((candidate) => candidate.id === order.id)!.fulfillments).toHaveLength(1);
  });
});

describe("cancellations", () => {
  it("never books an order whose orders/cancelled came before its orders/create", async () => {
    await saveBookingRules(store.domain, { autoBooking: true, rules: [rule("Everything", "recommended")] });
    const order = store.simulator.placeOrder(store.domain, shopperOrder(40));
    store.simulator.cancelOrder(store.domain, order.id);
    await store.simulator.settled();
    // Delivered out of order: cancelled first, then created (with an earlier trigger time).
    await deliver("orders/cancelled", order.id);
    await deliver("orders/create", order.id);
    expect((await runIntake()).failed).toEqual([]);
    expect(await shipmentOf(order.id)).toBeNull();
    expect(await recordOf(order.id)).toMatchObject({ readiness: "cancelled", cancelledAt: expect.any(Date) });
    expect(courier.requests).toBeGreaterThan(0);
  });

  it("cancels a booked order not yet picked up with the courier, and tags it", async () => {
    await saveBookingRules(store.domain, { autoBooking: true, rules: [rule("Everything", "recommended")] });
    const order = store.simulator.placeOrder(store.domain, shopperOrder(41));
    await store.simulator.settled();
    expect((await runIntake()).failed).toEqual([]);
    const booked = (await shipmentOf(order.id))!;
    expect(booked.status).toBe("fulfilled");

    store.simulator.cancelOrder(store.domain, order.id);
    await store.simulator.settled();
    expect((await runIntake()).failed).toEqual([]);
    expect(await shipmentOf(order.id)).toMatchObject({ status: "cancelled", cancelledAt: expect.any(Date), awb: booked.awb });
    expect(await prisma.shipmentEvent.findFirst({ where: { shipmentId: booked.id, transition: "cancelled" }, select: { reason: true, reasonWords: true } })).toEqual({
      reason: "The order was cancelled in Shopify.",
      reasonWords: { key: "activity.stored.cancellations.order" },
    });
    const tracking = await courier.client(sandboxCredentialsFor(store.domain)).trackOrder(booked.awb!);
    expect(tracking.tracking_history.at(-1)!.service_status).toBe(10);
    expect(store.shop.orders.find((candidate) => candidate.id === order.id)!.tags).toContain("dakiya-courier-cancelled");
  });

  it("cancels with the courier a cancellation only a check saw, even when the check failed to hand it to its job the first time", async () => {
    await saveBookingRules(store.domain, { autoBooking: true, rules: [rule("Everything", "recommended")] });
    const order = store.simulator.placeOrder(store.domain, shopperOrder(43));
    await store.simulator.settled();
    expect((await runIntake()).failed).toEqual([]);
    const booked = (await shipmentOf(order.id))!;
    expect(booked.status).toBe("fulfilled");

    // The database takes no cancellation job for the shop for a while: orders/cancelled fails until Shopify gives up
    // on it, and the reconciliation's check that finds the order cancelled fails to queue the job too.
    await prisma.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION refuse_cancellation_job() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.name = 'order-cancelled' AND NEW.data->>'shop' = TG_ARGV[0] THEN RAISE EXCEPTION 'cancellation job refused'; END IF; RETURN NEW; END $$`);
    await prisma.$executeRawUnsafe(`CREATE TRIGGER refuse_cancellation_job BEFORE INSERT ON pgboss.job FOR EACH ROW EXECUTE FUNCTION refuse_cancellation_job('${store.domain}')`);
    try {
      store.simulator.cancelOrder(store.domain, order.id);
      await store.simulator.settled();
      await enqueue("order-check", { shop: store.domain, orderGid: order.id });
      const refused = await runJobs(["order-check"]);
      expect(refused.failed).toEqual([{ queue: "order-check", message: expect.stringContaining("cancellation job refused") }]);
      // Nothing recorded without its job: the cancellation is still news to the next check.
      expect(await recordOf(order.id)).toMatchObject({ cancelledAt: null });
    } finally {
      await prisma.$executeRawUnsafe(`DROP TRIGGER refuse_cancellation_job ON pgboss.job`);
    }

    // The check's retry records it and queues the job, which cancels the parcel with the courier.
    expect((await runIntake()).failed).toEqual([]);
    expect(await recordOf(order.id)).toMatchObject({ cancelledAt: expect.any(Date) });
    expect(await shipmentOf(order.id)).toMatchObject({ status: "cancelled", awb: booked.awb });
    const tracking = await courier.client(sandboxCredentialsFor(store.domain)).trackOrder(booked.awb!);
    expect(tracking.tracking_history.at(-1)!.service_status).toBe(10);
  });

  it("puts an order cancelled after pickup in needs attention, to arrange the return", async () => {
    const order = store.simulator.placeOrder(store.domain, shopperOrder(42));
    await store.simulator.settled();
    expect((await runIntake()).failed).toEqual([]);
    const booked = (await shipmentOf(order.id))!;
    await courier.client(sandboxCredentialsFor(store.domain)).advanceSandboxShipment(booked.awb!, 5);

    store.simulator.cancelOrder(store.domain, order.id);
    await store.simulator.settled();
    expect((await runIntake()).failed).toEqual([]);
    expect(await shipmentOf(order.id)).toMatchObject({ status: "fulfilled", attention: "cancelled_after_pickup" });
    const item = (await listNeedsAttention(store.domain)).items.find((candidate) => candidate.orderGid === order.id);
    expect(item).toMatchObject({ kind: "cancelled_after_pickup", message: expect.stringMatching(/cancelled after pickup/i), action: expect.stringMatching(/return to origin/i) });
  });

  it("cancels nothing for a signed body that does not say the order is cancelled, or that Shopify does not confirm", async () => {
    await saveBookingRules(store.domain, { autoBooking: true, rules: [rule("Everything", "recommended")] });
    const order = store.simulator.placeOrder(store.domain, shopperOrder(44));
    await store.simulator.settled();
    expect((await runIntake()).failed).toEqual([]);
    const booked = (await shipmentOf(order.id))!;
    expect(booked.status).toBe("fulfilled");
    const created = orderPayload(store.shop.orders.find((candidate) => candidate.id === order.id)!);

    // The order's orders/create body, as Shopify signed it, resent as a cancellation with a new webhook id.
    const resent = await store.simulator.deliver("orders/cancelled", store.domain, { payload: created });
    expect(resent.attempts.at(-1)!.status).toBe(200);
    expect(await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: resent.webhookId } })).toMatchObject({ problem: expect.stringMatching(/does not say the order is cancelled/) });
    // Under its own topic at the cancellation's address: refused.
    const underOwnTopic = signedWebhookRequest(`${app.url}/webhooks/orders/cancelled`, { topic: "orders/create", shop: store.domain, payload: created });
    expect((await fetch(underOwnTopic)).status).toBe(401);
    // A body saying it is cancelled (signed, as only Shopify could) while Shopify's order is not: the job asks Shopify.
    const claimed = await store.simulator.deliver("orders/cancelled", store.domain, { payload: { ...created, cancelled_at: new Date().toISOString() } });
    expect(claimed.attempts.at(-1)!.status).toBe(200);
    expect(await queuedJobs("order-cancelled", store.domain)).toHaveLength(1);
    expect((await runIntake()).failed).toEqual([]);

    expect(await shipmentOf(order.id)).toMatchObject({ status: "fulfilled", cancelledAt: null, awb: booked.awb });
    expect(await recordOf(order.id)).toMatchObject({ cancelledAt: null });
    expect(store.shop.orders.find((candidate) => candidate.id === order.id)!.tags).not.toContain("dakiya-courier-cancelled");
    const tracking = await courier.client(sandboxCredentialsFor(store.domain)).trackOrder(booked.awb!);
    expect(tracking.tracking_history.at(-1)!.service_status).not.toBe(10);
  });

  it("retries a cancellation while the courier cannot be reached, and cancels when it can", async () => {
    const order = store.simulator.placeOrder(store.domain, shopperOrder(43));
    await store.simulator.settled();
    expect((await runIntake()).failed).toEqual([]);
    courier.failNext("cancel-order", 3);
    store.simulator.cancelOrder(store.domain, order.id);
    await store.simulator.settled();
    const down = await runIntake();
    expect(down.failed.map((failure) => failure.queue)).toEqual(["order-cancelled"]);
    expect(await shipmentOf(order.id)).toMatchObject({ status: "fulfilled" });
    expect((await runIntake()).failed).toEqual([]);
    expect(await shipmentOf(order.id)).toMatchObject({ status: "cancelled" });
  });
});

describe("an order with more line items than the first read takes", () => {
  const item = (index: number, requiresShipping = true) => ({ title: `Item ${index}`, sku: `ITEM-${index}`, quantity: 1, priceSet: { shopMoney: { amount: "99.00" } }, requiresShipping, weight: { unit: "GRAMS", value: 100 } });
  const codesOf = (problems: unknown) => (problems as { code: string }[]).map((problem) => problem.code);

  it("counts only what needs shipping: 12 line items of which 3 need none ship as one parcel, 12 that all ship as parcels of 10 and 2, more than one read takes are named", async () => {
    const mostlyShipping = store.simulator.placeOrder(store.domain, shopperOrder(60, { lineItems: [...Array.from({ length: 9 }, (_, index) => item(index)), ...[9, 10, 11].map((index) => item(index, false))] }));
    const allShipping = store.simulator.placeOrder(store.domain, shopperOrder(61, { lineItems: Array.from({ length: 12 }, (_, index) => item(index)) }));
    const tooMany = store.simulator.placeOrder(store.domain, shopperOrder(62, { lineItems: Array.from({ length: ORDER_READ_LIMITS.lineItems + 1 }, (_, index) => item(index)) }));
    await store.simulator.settled();
    expect((await runIntake()).failed).toEqual([]);
    const [mostly, all, many] = [await recordOf(mostlyShipping.id), await recordOf(allShipping.id), await recordOf(tooMany.id)];
    expect(codesOf(mostly.problems)).not.toContain("TOO_MANY_ITEMS");
    expect(mostly.readiness).not.toBe("problems");
    expect(all.readiness).not.toBe("problems");
    const parcels = await prisma.shipment.findMany({ where: { shop: store.domain, orderGid: allShipping.id }, orderBy: { parcel: "asc" } });
    expect(parcels.map((parcel) => (JSON.parse(parcel.requestPayload) as { products: unknown[] }).products.length)).toEqual([10, 2]);
    const inShopify = store.shop.orders.find((candidate) => candidate.id === allShipping.id)!;
    expect(inShopify.fulfillments.map((fulfillment) => fulfillment.lines.length)).toEqual([10, 2]);
    expect(many.readiness).toBe("problems");
    expect(codesOf(many.problems)).toContain("TOO_MANY_ITEMS");
  });
});

describe("an address changed after booking", () => {
  it("is flagged for the merchant rather than silently ignored", async () => {
    const order = store.simulator.placeOrder(store.domain, shopperOrder(50));
    await store.simulator.settled();
    expect((await runIntake()).failed).toEqual([]);
    const stored = store.shop.orders.find((candidate) => candidate.id === order.id)!;
    stored.shippingAddress!.address1 = "Flat 9B, Brigade Road";
    stored.updatedAt = new Date(Date.now() + 1_000).toISOString();
    await enqueue("orders-reconcile", { shop: store.domain });
    expect((await runJobs(["orders-reconcile", "order-check"])).failed).toEqual([]);
    expect(await shipmentOf(order.id)).toMatchObject({ attention: "address_changed" });
    expect((await listNeedsAttention(store.domain)).items.find((item) => item.orderGid === order.id)).toMatchObject({ kind: "address_changed" });
  });

  it("stores the booking's state as it is after Shopify's answer, and the booked facts when the record lacks them", async () => {
    const order = store.simulator.placeOrder(store.domain, shopperOrder(52));
    await store.simulator.settled();
    expect((await runIntake()).failed).toEqual([]);
    const booked = await shipmentOf(order.id);
    expect(booked).toMatchObject({ status: "fulfilled" });
    // As an order booked from the order page before its first check, caught half-way: facts missing, not yet fulfilled.
    await prisma.orderRecord.update({ where: { shop_orderGid: { shop: store.domain, orderGid: order.id } }, data: { paymentMode: null, weightGrams: null, totalPaise: null } });
    await prisma.shipment.update({ where: { id: booked!.id }, data: { status: "booked_unfulfilled" } });
    // The booking completes while the check waits for Shopify's answer.
    const completingMeanwhile = async (shop: string): Promise<ShopAdmin> => {
      const admin = await defaultJobDeps.adminFor(shop);
      const graphql = (async (query: string, options?: { variables?: Record<string, unknown> }) => {
        const answer = await admin.graphql(query, options);
        if (query.includes("BookedOrderChanges")) await prisma.shipment.update({ where: { id: booked!.id }, data: { status: "fulfilled" } });
        return answer;
      }) as ShopAdmin["graphql"];
      return { shop: admin.shop, graphql };
    };
    await enqueue("order-check", { shop: store.domain, orderGid: order.id });
    expect((await runJobs(["order-check"], { deps: { adminFor: completingMeanwhile } })).failed).toEqual([]);
    const payload = JSON.parse(booked!.requestPayload) as { payment_mode: string; package_weight: number; total_amount: number };
    expect(await recordOf(order.id)).toMatchObject({ readiness: "fulfilled", paymentMode: payload.payment_mode, weightGrams: Math.round(payload.package_weight * 1000), totalPaise: Math.round(payload.total_amount * 100) });
  });

  it("is re-checked with a read of a few points, not the whole order, and a new phone number is flagged too", async () => {
    const order = store.simulator.placeOrder(store.domain, shopperOrder(51));
    await store.simulator.settled();
    expect((await runIntake()).failed).toEqual([]);
    expect(await shipmentOf(order.id)).toMatchObject({ status: "fulfilled", attention: null });

    // The booking's own fulfillment, tag and metafields changed the order: the next reconciliation checks it again.
    const before = store.shop.usage.points;
    await enqueue("order-check", { shop: store.domain, orderGid: order.id });
    expect((await runJobs(["order-check"])).failed).toEqual([]);
    // The order's contact and its open fulfillment orders (each one a parcel Dakiya booked), not the whole order.
    expect(store.shop.usage.points - before).toBeLessThanOrEqual(8);
    expect(await shipmentOf(order.id)).toMatchObject({ status: "fulfilled", attention: null });
    expect(await recordOf(order.id)).toMatchObject({ readiness: "fulfilled" });

    const stored = store.shop.orders.find((candidate) => candidate.id === order.id)!;
    stored.shippingAddress!.phone = "+91 99000 11223";
    stored.updatedAt = new Date(Date.now() + 1_000).toISOString();
    await enqueue("order-check", { shop: store.domain, orderGid: order.id });
    expect((await runJobs(["order-check"])).failed).toEqual([]);
    expect(await shipmentOf(order.id)).toMatchObject({ attention: "address_changed" });
  });
});

type Chosen = { courierId: number; name: string; totalPaise: number };
