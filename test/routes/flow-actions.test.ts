import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { draftOf, type RuleDraft } from "~/automation/rules-form";
import { EXAMPLE_RULES } from "~/automation/rules";
import { quoteOrder } from "~/orders/book-order.server";
import prisma from "~/db.server";
import { enqueue } from "~/jobs/job-queue.server";
import { FlowActionRequestSchema } from "~/orders/flow-actions";
import { runFlowAction } from "~/orders/flow-actions.server";
import { action as autoBooking } from "~/routes/app.auto-booking";
import { sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import { signedFlowRequest } from "../../store/flow";
import { startFlowWorld } from "../support/flow";
import { resetJobs, runJobs } from "../support/jobs";
import { shopperOrder } from "../support/orders";

/*
 * Dakiya's Flow actions over HTTP, as Flow sends a workflow's run: signed with the app's secret by the local store
 * (store/flow.ts) to each action's runtime URL from its extension, carried out on the store's Admin API and the
 * courier sandbox, and answered in Flow's terms.
 */

let world: Awaited<ReturnType<typeof startFlowWorld>>;
let app: Awaited<ReturnType<typeof startFlowWorld>>["app"];
let store: Awaited<ReturnType<typeof startFlowWorld>>["store"];
let placed = 0;

beforeAll(async () => {
  await resetJobs();
  world = await startFlowWorld();
  ({ app, store } = world);
}, 60_000);
afterAll(async () => {
  await world.close();
});

const place = () => store.simulator.placeOrder(store.domain, shopperOrder(900 + ++placed));
const run = async (action: string, properties: Record<string, unknown>, actionRunId?: string) => {
  const response = await store.simulator.runFlowAction(store.domain, action, properties, { actionRunId });
  return { status: response.status, retryAfter: response.headers.get("Retry-After"), body: (await response.json()) as { return_value?: { outcome: string; message: string }; error?: string } };
};
const shipmentsOf = (orderGid: string) => prisma.shipment.findMany({ where: { shop: store.domain, orderGid } });
/** Bookings the courier holds for the order, on this shop's own sandbox account (other test shops reuse order numbers). */
const courierBookingsOf = (orderName: string) => prisma.serviceOrder.count({ where: { orderId: orderName.replace("#", ""), apiClient: { apiKey: sandboxCredentialsFor(store.domain).apiKey } } });

describe("Ship with Dakiya, as a Flow action", () => {
  it("books the order once, even when Flow sends the same run twice, and answers the outcome in words", async () => {
    const order = place();
    const first = await run("dakiya-ship-order", { order_id: order.legacyResourceId, strategy: "recommended" }, "run-ship-1");
    expect(first.status).toBe(200);
    const [shipment] = await shipmentsOf(order.id);
    expect(first.body).toEqual({ return_value: { outcome: "booked", message: `Booked ${order.name}: ${shipment!.courierName}, awb ${shipment!.awb}. Recommended courier.` } });

    // Flow was not sure the run arrived and sends it again: the same answer, and still one booking and one awb.
    const again = await run("dakiya-ship-order", { order_id: order.legacyResourceId, strategy: "recommended" }, "run-ship-1");
    expect(again).toEqual(first);
    expect(await shipmentsOf(order.id)).toHaveLength(1);
    expect(await courierBookingsOf(order.name)).toBe(1);
    expect(await prisma.shipmentEvent.findFirst({ where: { shipmentId: shipment!.id, transition: "claimed" } })).toMatchObject({ actorKind: "rule", actorName: "Shopify Flow workflow" });

    // Another workflow's run for the same order finds it booked.
    const other = await run("dakiya-ship-order", { order_id: order.id }, "run-ship-2");
    expect(other.body.return_value).toEqual({ outcome: "already_booked", message: `${order.name} was booked already: ${shipment!.courierName}, awb ${shipment!.awb}.` });
    expect(await courierBookingsOf(order.name)).toBe(1);
  });

  it("books once when the same run arrives twice at the same moment", async () => {
    const order = place();
    const answers = await Promise.all([run("dakiya-ship-order", { order_id: order.legacyResourceId }, "run-twin"), run("dakiya-ship-order", { order_id: order.legacyResourceId }, "run-twin")]);
    // One carried the run out; the other was told it is under way (202: Flow sends it again) or got its answer.
    expect(answers.map((answer) => answer.status).sort()).toEqual(expect.arrayContaining([200]));
    expect(answers.every((answer) => answer.status === 200 || answer.status === 202)).toBe(true);
    expect(await shipmentsOf(order.id)).toHaveLength(1);
    expect(await courierBookingsOf(order.name)).toBe(1);
    const later = await run("dakiya-ship-order", { order_id: order.legacyResourceId }, "run-twin");
    expect(later.body.return_value?.outcome).toBe("booked");
  });

  it("answers 202 when the booking outlasts Flow's wait, carries on, and gives the booking's answer when Flow sends the run again", async () => {
    const order = place();
    const request = FlowActionRequestSchema.parse({ shopify_domain: store.domain, action_run_id: "run-slow", properties: { order_id: order.legacyResourceId } });
    const deps = { admin: await defaultJobDeps.adminFor(store.domain), answerWithinMs: 1 };
    expect(await runFlowAction(store.domain, "dakiya-ship-order", request, deps)).toMatchObject({ status: 202 });
    await expect.poll(async () => (await prisma.flowActionRun.findUniqueOrThrow({ where: { shop_actionRunId: { shop: store.domain, actionRunId: "run-slow" } } })).state, { timeout: 15_000 }).toBe("done");
    const [shipment] = await shipmentsOf(order.id);
    expect(await runFlowAction(store.domain, "dakiya-ship-order", request, deps)).toEqual({ status: 200, body: { return_value: { outcome: "booked", message: `Booked ${order.name}: ${shipment!.courierName}, awb ${shipment!.awb}. Recommended courier.` } } });
    expect(await shipmentsOf(order.id)).toHaveLength(1);
  });

  it("books with the cheapest courier when the workflow asks for it", async () => {
    const order = place();
    const quote = await quoteOrder({ shop: store.domain, admin: await defaultJobDeps.adminFor(store.domain) }, { orderGid: order.id });
    if (quote.kind !== "quoted") throw new Error(`Not quoted: ${quote.kind}`);
    const cheapest = quote.rates.find((rate) => rate.isCheapest)!;
    const answer = await run("dakiya-ship-order", { order_id: order.legacyResourceId, strategy: "Cheapest" });
    expect(answer.body.return_value?.outcome).toBe("booked");
    expect((await shipmentsOf(order.id))[0]).toMatchObject({ courierId: cheapest.id, courierName: cheapest.name });
  });

  it("refuses a request not signed with the app's secret, and books nothing", async () => {
    const order = place();
    const forged = signedFlowRequest(`${app.url}/flow/actions/dakiya-ship-order`, { shopify_domain: store.domain, action_run_id: "forged-1", properties: { order_id: order.legacyResourceId } }, "not-the-apps-secret");
    const answer = await fetch(forged);
    expect(answer.status).toBe(400);
    expect(await shipmentsOf(order.id)).toEqual([]);
    expect(await prisma.flowActionRun.count({ where: { actionRunId: "forged-1" } })).toBe(0);
    // The same body, altered after signing, is refused too.
    const signed = signedFlowRequest(`${app.url}/flow/actions/dakiya-ship-order`, { shopify_domain: store.domain, action_run_id: "forged-2", properties: { order_id: order.legacyResourceId } }, process.env.SHOPIFY_API_SECRET!);
    const altered = new Request(signed.url, { method: "POST", headers: signed.headers, body: (await signed.text()).replace("forged-2", "forged-3") });
    expect((await fetch(altered)).status).toBe(400);
    expect(await shipmentsOf(order.id)).toEqual([]);
  });

  it("answers a workflow's mistake with a 400 that says what is wrong, the same for the run sent again", async () => {
    const order = place();
    const wrong = await run("dakiya-ship-order", { order_id: order.legacyResourceId, strategy: "quickest" }, "run-wrong-strategy");
    expect(wrong).toEqual({ status: 400, retryAfter: null, body: { error: 'strategy must be one of rules, recommended, cheapest, fastest (empty: the shop\'s rules), not "quickest"' } });
    expect(await run("dakiya-ship-order", { order_id: order.legacyResourceId, strategy: "fastest" }, "run-wrong-strategy")).toEqual(wrong);
    expect(await shipmentsOf(order.id)).toEqual([]);
    expect((await run("dakiya-ship-order", { strategy: "fastest" })).body).toEqual({ error: "order_id must be the order: its GID or its number" });
    expect((await run("dakiya-ship-order", { order_id: "gid://shopify/Customer/1" })).status).toBe(400);
    const unknown = await fetch(signedFlowRequest(`${app.url}/flow/actions/dakiya-launch-rocket`, { shopify_domain: store.domain, action_run_id: "r", properties: {} }, process.env.SHOPIFY_API_SECRET!));
    expect(unknown.status).toBe(404);
  });

  it("says the order was not booked, by its problems' names and never the shopper's details, for an order that cannot ship", async () => {
    const order = store.simulator.placeOrder(store.domain, shopperOrder(990, { shippingAddress: { firstName: "Ravi", lastName: "K", address1: "1 MG Road", city: "Pune", provinceCode: "MH", zip: "4110", countryCode: "IN", phone: "12345" } }));
    const answer = await run("dakiya-ship-order", { order_id: order.legacyResourceId });
    expect(answer.status).toBe(200);
    expect(answer.body.return_value?.outcome).toBe("not_booked");
    expect(answer.body.return_value?.message).toMatch(new RegExp(`^${order.name} was not booked: `));
    expect(answer.body.return_value?.message).not.toMatch(/12345|4110\b/);
  });
});

describe("Hold for review, as a Flow action", () => {
  it("puts the order's fulfillment orders on hold with Dakiya's handle and keeps auto-booking away from it", async () => {
    const rules: RuleDraft[] = EXAMPLE_RULES.map(draftOf);
    await autoBooking({ request: store.adminRequest("/app/auto-booking", { method: "POST", body: new URLSearchParams({ intent: "save", autoBooking: "on", rules: JSON.stringify(rules) }) }), params: {}, context: {} });
    const order = place();
    const answer = await run("dakiya-hold-for-review", { order_id: order.legacyResourceId, note: "High COD risk" });
    expect(answer.body.return_value).toEqual({ outcome: "held", message: `${order.name} is on hold for review (1 of its fulfillment orders). Dakiya will not book it automatically: release the hold in Shopify, then ship it from Orders to ship.` });
    const stored = store.shop.orders.find((candidate) => candidate.id === order.id)!;
    expect(stored.fulfillmentOrders.map((fo) => fo.status)).toEqual(["ON_HOLD"]);
    expect(stored.fulfillmentOrders[0]!.holds).toEqual([expect.objectContaining({ handle: "dakiya-review", reason: "OTHER", reasonNotes: "Held for review by a Shopify Flow workflow: High COD risk" })]);
    expect(await prisma.orderRecord.findUnique({ where: { shop_orderGid: { shop: store.domain, orderGid: order.id } } })).toMatchObject({ decision: "held", decisionReason: "Held for review by a Shopify Flow workflow" });

    // The order's check (as orders/create brings it) with auto-booking on books nothing.
    await enqueue("order-check", { shop: store.domain, orderGid: order.id });
    expect((await runJobs(["order-check"])).failed).toEqual([]);
    expect(await shipmentsOf(order.id)).toEqual([]);
    expect(await prisma.orderRecord.findUnique({ where: { shop_orderGid: { shop: store.domain, orderGid: order.id } } })).toMatchObject({ decision: "held" });

    // Held again by another run: it stays on hold, with one hold.
    expect((await run("dakiya-hold-for-review", { order_id: order.legacyResourceId })).body.return_value?.outcome).toBe("held");
    expect(stored.fulfillmentOrders[0]!.holds).toHaveLength(1);
  });

  it("has nothing to hold on an order already shipped, and says an order is not in Shopify", async () => {
    const order = place();
    await run("dakiya-ship-order", { order_id: order.legacyResourceId, strategy: "recommended" });
    expect((await run("dakiya-hold-for-review", { order_id: order.legacyResourceId })).body.return_value?.outcome).toBe("nothing_to_hold");
    expect((await run("dakiya-hold-for-review", { order_id: "99999999" })).body.return_value).toEqual({ outcome: "not_found", message: "Order 99999999 is not in Shopify." });
  });

  it("answers 503 with Retry-After while Shopify is throttled, and carries the run out when Flow sends it again", async () => {
    const order = place();
    store.shop.faults.set("order", { kind: "THROTTLED", times: 4 });
    const busy = await run("dakiya-hold-for-review", { order_id: order.legacyResourceId }, "run-busy");
    expect(busy.status).toBe(503);
    expect(Number(busy.retryAfter)).toBeGreaterThan(0);
    store.shop.faults.delete("order");
    expect((await run("dakiya-hold-for-review", { order_id: order.legacyResourceId }, "run-busy")).body.return_value?.outcome).toBe("held");
  });
});

describe("Ask the shopper to confirm COD, as a Flow action", () => {
  // Asking, once however often Flow sends the run, is test/routes/cod-confirmation.test.ts's.
  it("leaves an order Dakiya has not checked yet to Flow's next try (503, Retry-After), asking no one and holding nothing", async () => {
    const order = place();
    const answer = await run("dakiya-confirm-cod", { order_id: order.legacyResourceId });
    expect(answer).toMatchObject({ status: 503, retryAfter: "60" });
    expect(await prisma.codConfirmation.count({ where: { shop: store.domain, orderGid: order.id } })).toBe(0);
    expect(store.shop.orders.find((candidate) => candidate.id === order.id)!.fulfillmentOrders.flatMap((fo) => fo.holds ?? [])).toEqual([]);
  });
});
