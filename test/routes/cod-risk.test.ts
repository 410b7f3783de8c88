import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_RULES } from "~/automation/rules";
import { draftOf } from "~/automation/rules-form";
import { bookOrder } from "~/orders/book-order.server";
import prisma from "~/db.server";
import { enqueue } from "~/jobs/job-queue.server";
import { action as autoBooking, loader as autoBookingLoader } from "~/routes/app.auto-booking";
import { action as ordersCreate } from "~/routes/webhooks.orders.create";
import { action as customersDataRequest } from "~/routes/webhooks.customers.data_request";
import { action as customersRedact } from "~/routes/webhooks.customers.redact";
import { action as lifecycleAction } from "~/routes/flow.trigger-lifecycle";
import { loader as dataRequestDownload } from "~/routes/app.data-requests.$id";
import { loader as homeLoader } from "~/routes/app._index";
import { loader as codExport } from "~/routes/app.cod-report.export";
import { loader as ordersLoader } from "~/routes/app.orders._index";
import { courierClientFor, sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { syncShopTracking } from "~/tracking/sync.server";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import type { StoreOrder } from "../../store/model";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { resetJobs, runJobs } from "../support/jobs";
import { serveRoutes, startStore } from "../support/store";
import { responseOf, signedWebhookRequest } from "../support/webhooks";

/*
 * Cash-on-delivery risk at intake, through the real store, courier sandbox, jobs and database: a shop's history is made
 * the way a shop makes it — orders booked, the courier's parcels delivered or sent back, the tracking sync recording
 * each — and the next orders are scored from it when they arrive by webhook, with Dakiya's assessment written on the
 * order in Shopify.
 */

let courier: RunningCourierService;
let app: Awaited<ReturnType<typeof serveRoutes>>;
let store: Awaited<ReturnType<typeof startStore>>;
const deps = { ...defaultJobDeps, now: () => new Date() };

/** A PIN code whose parcels keep coming back, and one whose parcels are delivered: two districts of Bihar. */
const RETURNING = { city: "Katihar", provinceCode: "BR", zip: "854105" };
const DELIVERING = { city: "Patna", provinceCode: "BR", zip: "800001" };
const REFUSER_PHONE = "9835012345";

function codOrder(index: number, place: { city: string; provinceCode: string; zip: string }, { phone, email, amount = "899.00" }: { phone: string; email: string; amount?: string }) {
  return {
    email,
    tags: ["cod"],
    financialStatus: "PENDING",
    transactions: [{ gateway: "Cash on Delivery (COD)", amountSet: { shopMoney: { amount: "0.00" } } }],
    shippingAddress: { firstName: "Shopper", lastName: `No ${index}`, address1: `${12 + index}, Station Road`, address2: "Near the water tank", city: place.city, provinceCode: place.provinceCode, zip: place.zip, countryCode: "IN", phone },
    lineItems: [{ title: "Cotton saree", sku: `SAR-${index}`, quantity: 1, priceSet: { shopMoney: { amount } }, requiresShipping: true, weight: { unit: "GRAMS", value: 600 } }],
  };
}

beforeAll(async () => {
  await resetJobs();
  courier = await startAppCourierService();
  app = await serveRoutes({ "/webhooks/orders/create": ordersCreate, "/flow/trigger-lifecycle": lifecycleAction });
  store = await startStore({ appUrl: app.url, throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
  await store.install();
  await runJobs(["orders-reconcile", "order-check"]);
  // A workflow of the merchant's listens to "COD risk scored".
  expect((await store.simulator.setFlowWorkflow(store.domain, "dakiya-cod-risk-scored")).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await store.close();
  await app.close();
  await courier.close();
});

const inShopify = (orderGid: string) => store.shop.orders.find((order) => order.id === orderGid)!;
const riskOf = (orderGid: string) => prisma.codRisk.findUnique({ where: { shop_orderGid: { shop: store.domain, orderGid } } });

/** Places an order, checks it (auto-booking off), books it with courier 1 and lets the courier take it to `stage`. */
async function shipToTheEnd(input: unknown, stage: 8 | 12): Promise<StoreOrder> {
  const order = store.simulator.placeOrder(store.domain, input);
  await store.simulator.settled();
  expect((await runJobs(["order-check"])).failed).toEqual([]);
  expect(await bookOrder({ shop: store.domain, admin: await deps.adminFor(store.domain) }, { orderGid: order.id, courierId: 1 })).toMatchObject({ kind: "booked" });
  const { awb } = await prisma.shipment.findFirstOrThrow({ where: { shop: store.domain, orderGid: order.id } });
  await courierClientFor(sandboxCredentialsFor(store.domain)).advanceSandboxShipment(awb!, stage);
  return order;
}

describe("a cash-on-delivery order's risk, from the shop's own history", () => {
  it("scores an order to the PIN code whose parcels keep coming back HIGH or MEDIUM, naming that history; one to a PIN code that takes its parcels, from a new shopper, LOW or NONE; a prepaid one gets no confirmation hold", async () => {
    // The history: a shopper in Katihar refuses three COD parcels in a row; four shoppers in Patna take theirs.
    for (let index = 0; index < 3; index += 1) await shipToTheEnd(codOrder(index, RETURNING, { phone: REFUSER_PHONE, email: "refuser@example.in" }), 12);
    for (let index = 3; index < 7; index += 1) await shipToTheEnd(codOrder(index, DELIVERING, { phone: `98350${String(20000 + index)}`, email: `taker${index}@example.in` }), 8);
    await syncShopTracking(store.domain, { admin: await deps.adminFor(store.domain), now: () => new Date(Date.now() + 3 * 3_600_000) });
    const ended = await prisma.shipment.groupBy({ by: ["courierStatusCode"], where: { shop: store.domain }, _count: { _all: true } });
    expect(Object.fromEntries(ended.map((group) => [group.courierStatusCode, group._count._all]))).toEqual({ 8: 4, 12: 3 });

    // The merchant's rules from here on: the example set (high → hold, medium → ask the shopper, the rest book).
    const saved = await autoBooking({ request: store.adminRequest("/app/auto-booking", { method: "POST", body: new URLSearchParams({ intent: "save", autoBooking: "on", rules: JSON.stringify(EXAMPLE_RULES.map(draftOf)) }) }), params: {}, context: {} });
    expect(saved.status).toBe(200);

    const again = store.simulator.placeOrder(store.domain, codOrder(10, RETURNING, { phone: `+91 ${REFUSER_PHONE}`, email: "another-address@example.in" }));
    const fresh = store.simulator.placeOrder(store.domain, codOrder(11, DELIVERING, { phone: "9835099999", email: "new-shopper@example.in" }));
    const prepaid = store.simulator.placeOrder(store.domain, { ...codOrder(12, RETURNING, { phone: REFUSER_PHONE, email: "refuser@example.in" }), tags: ["prepaid"], financialStatus: "PAID", transactions: [{ gateway: "Razorpay", amountSet: { shopMoney: { amount: "899.00" } } }] });
    await store.simulator.settled();
    expect((await runJobs(["order-check", "cod-confirmation", "shipment-complete"])).failed).toEqual([]);

    // Katihar again, the same phone: Dakiya's assessment on the order in Shopify, its facts naming the history.
    const risky = (await riskOf(again.id))!;
    expect(["high", "medium"]).toContain(risky.level);
    const assessments = inShopify(again.id).riskAssessments!.filter((assessment) => assessment.providerAppId !== null);
    expect(assessments.length).toBeGreaterThan(0);
    const facts = assessments.flatMap((assessment) => assessment.facts.map((fact) => fact.description));
    expect(facts).toContainEqual(expect.stringMatching(/^PIN code 854105: 3 of 3 parcels came back \(RTO\) in the last year/));
    expect(facts).toContainEqual(expect.stringMatching(/^Parcels of this shopper's earlier orders that came back \(RTO\): 3 /));
    expect(assessments.every((assessment) => assessment.facts.length <= 20 && assessment.facts.every((fact) => fact.description.length <= 256))).toBe(true);
    // No fact carries the shopper's phone, e-mail or street.
    for (const fact of facts) expect(fact).not.toMatch(/9835012345|another-address|Station Road/);
    // Its first assessment is the score's level (HIGH: held for review; MEDIUM: PENDING while the shopper is asked).
    expect(assessments[0]!.riskLevel).toBe(risky.level.toUpperCase());

    // Patna, a shopper never seen: low or none, and booked by the rules.
    const safe = (await riskOf(fresh.id))!;
    expect(["low", "none"]).toContain(safe.level);
    expect(inShopify(fresh.id).riskAssessments!.filter((assessment) => assessment.providerAppId !== null).map((assessment) => assessment.riskLevel)[0]).toMatch(/^(LOW|NONE)$/);
    expect(await prisma.shipment.count({ where: { shop: store.domain, orderGid: fresh.id } })).toBe(1);

    // Prepaid: nothing to score, nothing held, nobody asked; booked.
    expect(await riskOf(prepaid.id)).toBeNull();
    // The merchant's workflows heard each score, with its level and reasons; nothing of the shopper's.
    expect((await runJobs(["flow-trigger"])).failed).toEqual([]);
    const scored = store.shop.flow!.received.filter((receipt) => receipt.handle === "dakiya-cod-risk-scored").map((receipt) => receipt.payload as Record<string, unknown>);
    expect(scored).toContainEqual(expect.objectContaining({ order_id: Number(again.legacyResourceId), "Risk level": risky.level, "Risk score": risky.score, Reasons: expect.stringContaining("854105") }));
    expect(scored.some((payload) => payload.order_id === Number(prepaid.legacyResourceId))).toBe(false);
    expect(JSON.stringify(scored)).not.toMatch(/9835012345|refuser@|Station Road/);
    expect(await prisma.codConfirmation.findUnique({ where: { shop_orderGid: { shop: store.domain, orderGid: prepaid.id } } })).toBeNull();
    expect(inShopify(prepaid.id).fulfillmentOrders.flatMap((fo) => fo.holds ?? [])).toEqual([]);
    expect(await prisma.shipment.count({ where: { shop: store.domain, orderGid: prepaid.id } })).toBe(1);

    // The shopper's phone and e-mail are kept only as keyed hashes.
    const keys = await prisma.shopperKey.findMany({ where: { shop: store.domain, orderGid: again.id } });
    expect(keys.map((key) => key.kind).sort()).toEqual(["email", "phone"]);
    for (const key of keys) expect(key.key).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await prisma.shopperKey.findMany({ where: { shop: store.domain } }))).not.toMatch(/9835012345|refuser@/);

    // The rules' preview shows what risk decides.
    const page = await (await autoBookingLoader({ request: store.adminRequest("/app/auto-booking"), params: {}, context: {} })).json();
    const decidedByRisk = page.preview.byRule.slice(1, 3).flatMap((rule: { orders: { orderName: string }[] }) => rule.orders.map((order) => order.orderName));
    expect(decidedByRisk).toContain(again.name);
  }, 120_000);

  it("scores an order once however often it is checked", async () => {
    const order = store.simulator.placeOrder(store.domain, codOrder(20, DELIVERING, { phone: "9835011111", email: "twice@example.in" }));
    await store.simulator.settled();
    expect((await runJobs(["order-check"])).failed).toEqual([]);
    const first = (await riskOf(order.id))!;
    await enqueue("order-check", { shop: store.domain, orderGid: order.id });
    expect((await runJobs(["order-check"])).failed).toEqual([]);
    expect((await riskOf(order.id))!.scoredAt).toEqual(first.scoredAt);
    expect(await prisma.codEvent.count({ where: { shop: store.domain, orderGid: order.id, step: "scored" } })).toBe(1);
  }, 60_000);
});

describe("what the merchant sees of it", () => {
  it("Home shows the RTO rate by payment mode and the PIN codes that send most back, the CSV the same; Orders to ship each COD order's risk", async () => {
    const home = (await (await responseOf(() => homeLoader({ request: store.adminRequest("/app"), params: {}, context: {} }) as Promise<Response>)).json()) as {
      cod: { byPayment: Record<string, { ended: number; returned: number; rate: number | null }>; topPincodes: { pincode: string; returned: number; ended: number }[] };
    };
    expect(home.cod.byPayment.cod).toMatchObject({ ended: 7, returned: 3, rate: 3 / 7 });
    expect(home.cod.topPincodes[0]).toMatchObject({ pincode: "854105", returned: 3, ended: 3 });
    expect(home.cod.topPincodes.map((row) => row.pincode)).not.toContain("800001");

    const csv = await responseOf(() => codExport({ request: store.adminRequest("/app/cod-report/export"), params: {}, context: {} }) as Promise<Response>);
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const lines = (await csv.text()).split("\r\n");
    expect(lines[0]).toBe("Figure,Group,Parcels ended,Delivered,Returned (RTO),RTO rate (%),Failed delivery attempts,Shoppers");
    expect(lines).toContain("By payment,Cash on delivery,7,4,3,42.9,0,");
    expect(lines).toContain("PIN code,854105,3,0,3,100.0,0,");
    expect(lines.join("\n")).not.toMatch(/9835012345|refuser@|Station Road|Shopper No/);

    const list = (await (await responseOf(() => ordersLoader({ request: store.adminRequest("/app/orders"), params: {}, context: {} }) as Promise<Response>)).json()) as {
      rows: { name: string; paymentMode: string; risk: { level: string; factors: { code: string }[] } | null }[];
    };
    const cod = list.rows.filter((row) => row.paymentMode === "cod");
    expect(cod.length).toBeGreaterThan(0);
    for (const row of cod) expect(row.risk?.factors.length, row.name).toBeGreaterThan(0);
    expect(list.rows.filter((row) => row.paymentMode === "prepaid").every((row) => row.risk === null)).toBe(true);
  });
});

describe("the shopper's privacy", () => {
  const webhook = (topic: string, payload: unknown) => signedWebhookRequest(`http://localhost:3999/webhooks/${topic}`, { topic, shop: store.domain, payload });

  it("a data request finds their other orders by their phone's keyed hash and lists the keys, the scores and the answers; customers/redact forgets the keys, so their next order is a first order", async () => {
    const theirs = await prisma.shopperKey.findMany({ where: { shop: store.domain, kind: "phone", key: (await prisma.shopperKey.findFirstOrThrow({ where: { shop: store.domain, kind: "phone", orderGid: { in: store.shop.orders.filter((order) => order.shippingAddress?.phone?.endsWith(REFUSER_PHONE)).map((order) => order.id) } } })).key } });
    expect(theirs.length).toBeGreaterThanOrEqual(4);
    const named = store.shop.orders.find((order) => order.id === theirs[0]!.orderGid)!;

    const requested = webhook("customers/data_request", { shop_id: 1, shop_domain: store.domain, customer: { id: 501, phone: `+91${REFUSER_PHONE}` }, orders_requested: [Number(named.legacyResourceId)] });
    expect((await responseOf(() => customersDataRequest({ request: requested, params: {}, context: {} }))).status).toBe(200);
    expect((await runJobs(["customers-data-request"])).failed).toEqual([]);
    const { id } = await prisma.dataRequest.findFirstOrThrow({ where: { shop: store.domain }, orderBy: { id: "desc" } });
    // The request keeps the orders found, never the phone or its hash.
    expect(JSON.stringify(await prisma.dataRequest.findUniqueOrThrow({ where: { id } }))).not.toMatch(new RegExp(`${REFUSER_PHONE}|${theirs[0]!.key}`));
    const download = JSON.parse(await (await responseOf(() => dataRequestDownload({ request: store.adminRequest(`/app/data-requests/${id}`), params: { id: String(id) }, context: {} }) as Promise<Response>)).text()) as {
      orders: { cashOnDelivery: { historyKeys: { kind: string; key: string }[]; risk: { reasons: string[] } | null } }[];
      otherOrdersByPhoneOrEmail: { orderId: string; cashOnDelivery: { historyKeys: { key: string }[] } }[];
    };
    expect(download.orders[0]!.cashOnDelivery.historyKeys).toContainEqual({ kind: "phone", key: theirs[0]!.key });
    expect(download.orders[0]!.cashOnDelivery.risk?.reasons.length).toBeGreaterThan(0);
    expect(download.otherOrdersByPhoneOrEmail.map((order) => order.orderId).sort()).toEqual(theirs.slice(1).map((row) => row.orderGid.split("/").pop()).sort());

    const redacted = webhook("customers/redact", { shop_id: 1, shop_domain: store.domain, customer: { id: 501, phone: REFUSER_PHONE, email: "refuser@example.in" }, orders_to_redact: [Number(named.legacyResourceId)] });
    expect((await responseOf(() => customersRedact({ request: redacted, params: {}, context: {} }))).status).toBe(200);
    expect((await runJobs(["customers-redact", "sandbox-erase"])).failed).toEqual([]);
    expect(await prisma.shopperKey.count({ where: { shop: store.domain, key: theirs[0]!.key } })).toBe(0);
    expect(await prisma.codEvent.count({ where: { shop: store.domain, orderGid: { in: theirs.map((row) => row.orderGid) } } })).toBe(0);

    // Their next order: the PIN code's history still counts (it names no one), theirs no longer does.
    const next = store.simulator.placeOrder(store.domain, codOrder(30, RETURNING, { phone: REFUSER_PHONE, email: "refuser@example.in" }));
    await store.simulator.settled();
    expect((await runJobs(["order-check"])).failed).toEqual([]);
    const codes = (await riskOf(next.id))!.factors as { code: string }[];
    expect(codes.map((factor) => factor.code)).toEqual(expect.arrayContaining(["first_order", "area_history"]));
    expect(codes.map((factor) => factor.code)).not.toContain("shopper_returned");
  }, 60_000);
});
