import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMPTY_DRAFT } from "~/automation/rules-form";
import { bookOrder } from "~/orders/book-order.server";
import { signConfirmationToken } from "~/cod/confirmation-links.server";
import { answerConfirmation, askToConfirm, carryOnConfirmation, runConfirmationDeadline } from "~/cod/confirmation.server";
import { saveCodSettings } from "~/cod/cod-settings.server";
import prisma from "~/db.server";
import { action as autoBooking } from "~/routes/app.auto-booking";
import { loader as homeLoader } from "~/routes/app._index";
import { loader as ordersLoader } from "~/routes/app.orders._index";
import { action as shipPageAction, loader as shipPageLoader } from "~/routes/app.orders.$id.ship";
import { action as settingsAction, loader as settingsLoader } from "~/routes/app.settings";
import { getCodSettings } from "~/cod/cod-settings.server";
import { CONFIRMATION_LINK_METAFIELD } from "~/shopify/cod-orders.server";
import { action as confirmAction, loader as confirmLoader } from "~/routes/confirm.$token";
import { action as proxyConfirmAction, loader as proxyConfirmLoader } from "~/routes/proxy.confirm.$token";
import { action as lifecycleAction } from "~/routes/flow.trigger-lifecycle";
import { action as flowAction } from "~/routes/flow.actions.$handle";
import { action as ordersCancelled } from "~/routes/webhooks.orders.cancelled";
import { action as ordersCreate } from "~/routes/webhooks.orders.create";
import { action as ordersPaid } from "~/routes/webhooks.orders.paid";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import { runAdminGraphql } from "../../store/admin-api";
import { proxiedUrl } from "../../store/app-proxy";
import type { StoreOrder } from "../../store/model";
import { seedShop } from "../../store/seed";
import { serveFetch } from "../../store/serve-fetch";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { resetJobs, runJobs } from "../support/jobs";
import { appCredentials, startStore } from "../support/store";
import { responseOf, uniqueShop } from "../support/webhooks";
import { recordWaitingForShopper } from "~/orders/order-records.server";

/*
 * Asking the shopper of a cash-on-delivery order to confirm it, end to end through the real store, courier sandbox,
 * jobs and database: the rules ask, Dakiya holds the order in Shopify and writes the shopper's link on it; the
 * shopper answers on the link (the app's address and the shop's own, through the app proxy as the local store signs
 * it); the jobs carry the answer out in Shopify and the rules book what they may. Then silence, hostile links and
 * the races that must never book a held order or lose one.
 */

let courier: RunningCourierService;
let app: Awaited<ReturnType<typeof serveFetch>>;
let store: Awaited<ReturnType<typeof startStore>>;
let placed = 0;
const deps = { ...defaultJobDeps, now: () => new Date() };

const ROUTES: Record<string, (args: { request: Request; params: Record<string, string>; context: Record<string, never> }) => Promise<Response>> = {
  "/webhooks/orders/create": ordersCreate,
  "/webhooks/orders/paid": ordersPaid,
  "/webhooks/orders/cancelled": ordersCancelled,
  "/flow/trigger-lifecycle": lifecycleAction,
};

beforeAll(async () => {
  await resetJobs();
  courier = await startAppCourierService();
  app = await serveFetch(async (request) => {
    const { pathname } = new URL(request.url);
    const handle = /^\/flow\/actions\/([\w-]+)$/.exec(pathname)?.[1];
    if (handle) return responseOf(() => flowAction({ request, params: { handle }, context: {} }));
    const route = ROUTES[pathname];
    return route ? responseOf(() => route({ request, params: {}, context: {} })) : new Response("Not Found", { status: 404 });
  });
  store = await startStore({ appUrl: app.url, throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
  await store.install();
  await runJobs(["orders-reconcile", "order-check"]);
  // Every cash-on-delivery order is asked; once it is answered, the next rule books it.
  const rules = [{ ...EMPTY_DRAFT, name: "Ask COD shoppers", paymentMode: "cod", action: "confirm" }, { ...EMPTY_DRAFT, name: "Everything else", action: "recommended" }];
  const saved = await autoBooking({ request: store.adminRequest("/app/auto-booking", { method: "POST", body: new URLSearchParams({ intent: "save", autoBooking: "on", rules: JSON.stringify(rules) }) }), params: {}, context: {} });
  expect(saved.status).toBe(200);
  for (const trigger of ["dakiya-cod-answered", "dakiya-cod-risk-scored"]) expect((await store.simulator.setFlowWorkflow(store.domain, trigger)).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await store.close();
  await app.close();
  await courier.close();
});

/** A shopper's cash-on-delivery order to Pune, with an e-mail Shopify can send an invoice to. */
function codOrder(overrides: Record<string, unknown> = {}) {
  placed += 1;
  return {
    email: `asked${placed}@example.in`,
    tags: ["cod"],
    financialStatus: "PENDING",
    transactions: [{ gateway: "Cash on Delivery (COD)", amountSet: { shopMoney: { amount: "0.00" } } }],
    shippingAddress: { firstName: "Kiran", lastName: `Patil ${placed}`, address1: `${placed}, Sadashiv Peth`, address2: "Near the temple", city: "Pune", provinceCode: "MH", zip: "411030", countryCode: "IN", phone: `98220${String(10000 + placed)}` },
    lineItems: [{ title: "Paithani dupatta", sku: `PTH-${placed}`, quantity: 1, priceSet: { shopMoney: { amount: "1499.00" } }, weight: { unit: "GRAMS", value: 400 } }],
    ...overrides,
  };
}

const inShopify = (orderGid: string) => store.shop.orders.find((order) => order.id === orderGid)!;
const confirmationOf = (orderGid: string) => prisma.codConfirmation.findUniqueOrThrow({ where: { shop_orderGid: { shop: store.domain, orderGid } } });
const shipmentsOf = (orderGid: string) => prisma.shipment.findMany({ where: { shop: store.domain, orderGid } });
const codHolds = (order: StoreOrder) => order.fulfillmentOrders.flatMap((fo) => (fo.holds ?? []).filter((hold) => hold.handle === "dakiya-cod-confirm"));

/** A shopper's order, arrived by webhook and checked: the rules ask its shopper. Returns the order and the link Dakiya wrote on it. */
async function askedOrder(overrides: Record<string, unknown> = {}, { locale }: { locale?: string } = {}): Promise<{ order: StoreOrder; link: string; token: string }> {
  const order = store.simulator.placeOrder(store.domain, codOrder(overrides));
  // The language the shopper checked out in, as Shopify keeps it on the order.
  if (locale) order.customerLocale = locale;
  await store.simulator.settled();
  expect((await runJobs(["order-check", "cod-confirmation"])).failed).toEqual([]);
  const link = inShopify(order.id).metafields.find((metafield) => metafield.key === "cod_confirmation_url")?.value;
  expect(link).toBeDefined();
  return { order, link: link!, token: new URL(link!).pathname.split("/").pop()! };
}

/** The shopper's browser on the link (the app's address). */
async function onLink(token: string, init: RequestInit = {}): Promise<{ status: number; html: string }> {
  const request = new Request(`http://localhost:3000/confirm/${token}`, init);
  const route = request.method === "POST" ? confirmAction : confirmLoader;
  const response = await responseOf(() => route({ request, params: { token }, context: { clientAddress: "198.51.100.34" } }) as Promise<Response>);
  return { status: response.status, html: await response.text() };
}

const answer = (token: string, fields: Record<string, string>) => onLink(token, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });

/** The answer's work in Shopify, the order's fresh check by the rules, and the booking's completion. */
const carriedOut = async () => expect((await runJobs(["cod-confirmation", "order-check", "shipment-complete", "flow-trigger"])).failed).toEqual([]);

describe("the rules ask the shopper of a cash-on-delivery order", () => {
  it("holds the order in Shopify, writes the shopper's link on it, and tells Shopify the assessment is PENDING", async () => {
    const { order, link } = await askedOrder();
    const confirmation = await confirmationOf(order.id);
    expect(confirmation).toMatchObject({ state: "asked", heldAt: expect.any(Date), releasedAt: null, canPayOnline: true });
    expect(inShopify(order.id).fulfillmentOrders.map((fo) => fo.status)).toEqual(["ON_HOLD"]);
    expect(codHolds(inShopify(order.id))).toHaveLength(1);
    expect(link).toMatch(/^http:\/\/localhost:\d+\/confirm\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(inShopify(order.id).riskAssessments!.filter((assessment) => assessment.providerAppId).at(-1)).toMatchObject({ riskLevel: "PENDING" });
    expect((await prisma.orderRecord.findUniqueOrThrow({ where: { shop_orderGid: { shop: store.domain, orderGid: order.id } } })).decision).toBe("confirming");
    // Nothing books it meanwhile: not the merchant's Book, not a second check.
    expect(await bookOrder({ shop: store.domain, admin: await deps.adminFor(store.domain) }, { orderGid: order.id, courierId: 1 })).toMatchObject({ kind: "refused", code: "awaiting_shopper" });
    expect(await shipmentsOf(order.id)).toEqual([]);
    // Fulfilling it by hand in Shopify is refused too, as Shopify refuses a fulfillment order on hold.
    const byHand = await runAdminGraphql(
      store.shop,
      { query: "mutation F($id: ID!) { fulfillmentCreate(fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: $id }] }) { fulfillment { id } userErrors { message } } }", variables: { id: inShopify(order.id).fulfillmentOrders[0]!.id } },
      { throttle: { maximumAvailable: 20_000, restoreRate: 1_000 }, now: () => new Date() },
    );
    expect(byHand.body.data).toEqual({ fulfillmentCreate: { fulfillment: null, userErrors: [{ message: expect.stringMatching(/on hold/) }] } });
    const history = await prisma.codEvent.findMany({ where: { shop: store.domain, orderGid: order.id }, orderBy: { at: "asc" } });
    expect(history.map((step) => step.step)).toEqual(expect.arrayContaining(["scored", "asked"]));
  });

  it("shows the shopper their order on a phone-sized page, in their language, saying nothing of them beyond the city and PIN code", async () => {
    const { token } = await askedOrder({}, { locale: "hi-IN" });
    const page = await onLink(token);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="hi"');
    expect(page.html).toContain("अपना कैश-ऑन-डिलीवरी ऑर्डर");
    expect(page.html).toContain("Pune 411030");
    expect(page.html).toContain("₹1,499");
    expect(page.html).toContain('name="viewport" content="width=device-width,initial-scale=1"');
    expect(page.html).not.toMatch(/Sadashiv|Patil|98220|asked\d+@/);
  });
});

describe("the shopper's answer", () => {
  it("confirms: the hold is released in Shopify, the rules book the order, Flow hears it, and Shopify gets the final assessment", async () => {
    const { order, token } = await askedOrder();
    const answered = await answer(token, { answer: "confirm" });
    expect(answered.status).toBe(200);
    expect(answered.html).toContain("your order is confirmed");
    await carriedOut();
    expect(await confirmationOf(order.id)).toMatchObject({ state: "confirmed", releasedAt: expect.any(Date) });
    expect(codHolds(inShopify(order.id))).toEqual([]);
    const [shipment] = await shipmentsOf(order.id);
    expect(shipment).toMatchObject({ status: "fulfilled", paymentMode: "cod" });
    expect(inShopify(order.id).fulfillments).toHaveLength(1);
    const assessments = inShopify(order.id).riskAssessments!.filter((assessment) => assessment.providerAppId);
    expect(assessments.map((assessment) => assessment.riskLevel)).toContain("PENDING");
    expect(assessments.at(-1)!.facts.map((fact) => fact.description)).toContain("The shopper confirmed the order");
    const received = store.shop.flow!.received.filter((receipt) => receipt.handle === "dakiya-cod-answered");
    expect(received.map((receipt) => receipt.payload)).toContainEqual(expect.objectContaining({ order_id: Number(order.legacyResourceId), Answer: "confirmed" }));
    // The same answer again changes nothing: the page says it is confirmed, still one booking.
    expect((await answer(token, { answer: "confirm" })).status).toBe(409);
    await carriedOut();
    expect(await shipmentsOf(order.id)).toHaveLength(1);
  });

  it("corrects the address and phone: written on the order in Shopify, then booked to the new address; Dakiya keeps no copy once Shopify has it", async () => {
    const { order, token } = await askedOrder();
    const answered = await answer(token, { answer: "correct", address1: "Flat 7, Shanti Niwas, FC Road", address2: "Deccan Gymkhana", city: "Pune", state: "MH", pincode: "411004", phone: "+91 98230 44556" });
    expect(answered.status).toBe(200);
    expect((await confirmationOf(order.id)).correction).not.toBeNull();
    await carriedOut();
    const address = inShopify(order.id).shippingAddress!;
    expect(address).toMatchObject({ address1: "Flat 7, Shanti Niwas, FC Road", address2: "Deccan Gymkhana", zip: "411004", provinceCode: "MH", phone: "9823044556", firstName: "Kiran" });
    const [shipment] = await shipmentsOf(order.id);
    expect(JSON.parse(shipment!.requestPayload)).toMatchObject({ address_line_1: "Flat 7, Shanti Niwas, FC Road", pincode: "411004", mobile: "9823044556" });
    expect(await confirmationOf(order.id)).toMatchObject({ state: "corrected", correction: null, releasedAt: expect.any(Date) });
  });

  it("refuses a correction the order check would refuse, saying which field, and changes nothing", async () => {
    const { order, token } = await askedOrder();
    const refused = await answer(token, { answer: "correct", address1: "", city: "Pune", state: "KA", pincode: "411004", phone: "12345" });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain("Give your house or flat number and street.");
    expect(refused.html).toContain("PIN code 411004 is not in Karnataka");
    expect(refused.html).toContain("A mobile number has 10 digits");
    expect(await confirmationOf(order.id)).toMatchObject({ state: "asked", correction: null });
  });

  it("cancels: the order is never booked, and is cancelled in Shopify (restocked, nothing refunded)", async () => {
    const { order, token } = await askedOrder();
    expect((await answer(token, { answer: "cancel" })).html).toContain("Your order is cancelled");
    // Recorded at once: no booking can start from now, whatever runs next.
    expect((await prisma.orderRecord.findUniqueOrThrow({ where: { shop_orderGid: { shop: store.domain, orderGid: order.id } } })).cancelledAt).not.toBeNull();
    await carriedOut();
    await store.simulator.settled();
    expect((await runJobs(["order-cancelled"])).failed).toEqual([]);
    expect(inShopify(order.id)).toMatchObject({ cancelledAt: expect.any(String), cancelReason: "CUSTOMER" });
    expect(await shipmentsOf(order.id)).toEqual([]);
    expect(await confirmationOf(order.id)).toMatchObject({ state: "cancelled", cancelledInShopifyAt: expect.any(Date) });
  });

  it("pays online instead: Shopify e-mails the invoice, and once paid the order books as prepaid", async () => {
    const { order, token } = await askedOrder();
    expect((await answer(token, { answer: "pay_online" })).html).toContain("Check your e-mail");
    await carriedOut();
    const [invoice] = inShopify(order.id).invoices!;
    expect(invoice).toMatchObject({ to: order.email, paidAt: null });
    expect(invoice!.customMessage).toContain(order.name);
    // Still held while it is not paid.
    expect(await shipmentsOf(order.id)).toEqual([]);
    expect(store.simulator.payInvoice(store.domain, invoice!.token)).not.toBeNull();
    await store.simulator.settled();
    await carriedOut();
    await carriedOut();
    expect(await confirmationOf(order.id)).toMatchObject({ state: "paid_online", releasedAt: expect.any(Date) });
    const [shipment] = await shipmentsOf(order.id);
    expect(shipment).toMatchObject({ status: "fulfilled", paymentMode: "prepaid" });
  });

  it("answers the same on the shop's own domain, through the app proxy, and only for the shop's own links", async () => {
    const { order, token } = await askedOrder();
    const proxied = (shop: string, init: RequestInit = {}) => {
      const request = new Request(proxiedUrl({ proxyUrl: "http://localhost:3000/proxy", apiSecret: appCredentials().apiSecret, shop, pathPrefix: "/apps/dakiya", pathAndQuery: `/confirm/${token}` }), init);
      const route = request.method === "POST" ? proxyConfirmAction : proxyConfirmLoader;
      return responseOf(() => route({ request, params: { token }, context: { clientAddress: "203.0.113.9" } }) as Promise<Response>);
    };
    const page = await proxied(store.domain);
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Type")).toMatch(/^application\/liquid/);
    const html = await page.text();
    expect(html).toContain(order.name);
    expect(html).not.toContain("{{");
    // Another shop the app is installed on cannot reach this shop's link through its own proxy.
    const other = store.simulator.addShop(seedShop(uniqueShop("other"))).domain;
    await store.install(other);
    expect((await proxied(other)).status).toBe(404);
    expect((await proxied(other, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "answer=cancel" })).status).toBe(404);
    expect((await confirmationOf(order.id)).state).toBe("asked");
    const confirmed = await proxied(store.domain, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "answer=confirm" });
    expect(confirmed.status).toBe(200);
    await carriedOut();
    expect(await shipmentsOf(order.id)).toHaveLength(1);
  });
});

describe("the merchant's pages", () => {
  const page = async <T,>(run: () => Promise<Response>) => (await (await responseOf(run)).json()) as T;
  const shipPage = (order: StoreOrder) =>
    page<{ cod: { risk: { level: string; factors: unknown[] } | null; confirmation: { state: string; link: string; language: string; whatsappUrl: string | null } | null; canAsk: boolean; history: { step: string }[] } }>(
      () => shipPageLoader({ request: store.adminRequest(`/app/orders/${order.legacyResourceId}/ship`), params: { id: order.legacyResourceId }, context: {} }) as Promise<Response>,
    );
  const onShipPage = (order: StoreOrder, intent: string) =>
    responseOf(() => shipPageAction({ request: store.adminRequest(`/app/orders/${order.legacyResourceId}/ship`, { method: "POST", body: new URLSearchParams({ intent }) }), params: { id: order.legacyResourceId }, context: {} }) as Promise<Response>);

  it("the ship page shows the risk, the shopper's link and one click to WhatsApp it to their mobile in their language; Orders to ship lists the order as waiting, with its risk", async () => {
    const { order, link } = await askedOrder({}, { locale: "hi-IN" });
    const { cod } = await shipPage(order);
    expect(cod.risk?.factors.length).toBeGreaterThan(0);
    expect(cod.confirmation).toMatchObject({ state: "asked", language: "hi", link });
    const whatsapp = new URL(cod.confirmation!.whatsappUrl!);
    expect(`${whatsapp.origin}${whatsapp.pathname}`).toBe(`https://wa.me/91${order.shippingAddress!.phone}`);
    const message = whatsapp.searchParams.get("text")!;
    expect(message).toContain(link);
    expect(message).toContain(order.name);
    expect(message).toMatch(/[\u0900-\u097F]/);
    expect(cod.history.map((entry) => entry.step)).toEqual(expect.arrayContaining(["scored", "asked"]));

    const waiting = await page<{ rows: { id: string; stage: string | null; risk: { level: string } | null }[] }>(() => ordersLoader({ request: store.adminRequest("/app/orders?stage=confirming"), params: {}, context: {} }) as Promise<Response>);
    expect(waiting.rows.find((row) => row.id === order.id)).toMatchObject({ stage: "confirming", risk: { level: expect.stringMatching(/^(high|medium|low|none)$/) } });
    const ready = await page<{ rows: { id: string }[] }>(() => ordersLoader({ request: store.adminRequest("/app/orders?stage=ready"), params: {}, context: {} }) as Promise<Response>);
    expect(ready.rows.map((row) => row.id)).not.toContain(order.id);
  });

  it("Stop waiting releases Dakiya's hold and the rules book the order; Ask the shopper holds an order the rules did not ask about", async () => {
    const { order } = await askedOrder();
    const stopped = await onShipPage(order, "cod-withdraw");
    expect(stopped.status).toBe(200);
    await carriedOut();
    expect(await confirmationOf(order.id)).toMatchObject({ state: "withdrawn", releasedAt: expect.any(Date) });
    expect(codHolds(inShopify(order.id))).toEqual([]);
    expect(await shipmentsOf(order.id)).toHaveLength(1);
    expect((await onShipPage(order, "cod-withdraw")).status).toBe(409);

    // An order checked while the rules were off: the merchant asks its shopper from its page.
    await prisma.shopSettings.update({ where: { shop: store.domain }, data: { autoBooking: false } });
    const unasked = store.simulator.placeOrder(store.domain, codOrder());
    await store.simulator.settled();
    expect((await runJobs(["order-check"])).failed).toEqual([]);
    expect((await shipPage(unasked)).cod).toMatchObject({ confirmation: null, canAsk: true });
    const asked = await onShipPage(unasked, "cod-ask");
    expect(asked.status).toBe(200);
    expect(await confirmationOf(unasked.id)).toMatchObject({ state: "asked", heldAt: expect.any(Date) });
    expect(codHolds(inShopify(unasked.id))).toHaveLength(1);
    expect(inShopify(unasked.id).metafields.find((metafield) => metafield.key === CONFIRMATION_LINK_METAFIELD.key)?.value).toContain("/confirm/");
    expect((await onShipPage(unasked, "cod-ask")).status).toBe(409);
    await prisma.shopSettings.update({ where: { shop: store.domain }, data: { autoBooking: true } });
  });

  it("records an order as waiting for its shopper only while Dakiya's confirmation holds it: an ask that already ended leaves the order to the rules", async () => {
    const open = await askedOrder();
    expect(await recordWaitingForShopper(store.domain, open.order.id, { key: "decisions.askedByMerchant" }, new Date())).toBe(true);
    expect(await prisma.orderRecord.findUniqueOrThrow({ where: { shop_orderGid: { shop: store.domain, orderGid: open.order.id } } })).toMatchObject({ decision: "confirming" });
    // Ended at once (here withdrawn and released; Shopify refusing the hold ends it the same way): a late write of
    // "waiting" by the caller that asked changes nothing, and the order's check books it.
    expect((await onShipPage(open.order, "cod-withdraw")).status).toBe(200);
    await carriedOut();
    expect(await recordWaitingForShopper(store.domain, open.order.id, { key: "decisions.askedByMerchant" }, new Date())).toBe(false);
    expect((await prisma.orderRecord.findUniqueOrThrow({ where: { shop_orderGid: { shop: store.domain, orderGid: open.order.id } } })).decision).not.toBe("confirming");
    expect(await shipmentsOf(open.order.id)).toHaveLength(1);
  });

  it("Settings keeps the hours and what silence does, refuses hours out of range naming the field, and gives the e-mail's snippet reading Dakiya's metafield", async () => {
    const settingsForm = (cod: Record<string, string>) =>
      new URLSearchParams({ mode: "sandbox", environment: "test", defaultWarehouseId: "", packageLength: "20", packageBreadth: "15", packageHeight: "10", defaultWeightKg: "0.5", codTag: "cod", prepaidTag: "prepaid", notifyCustomer: "on", ...cod });
    const save = (cod: Record<string, string>) => responseOf(() => settingsAction({ request: store.adminRequest("/app/settings", { method: "POST", body: settingsForm(cod) }), params: {}, context: {} }));
    const loaded = await page<{ codSettings: { confirmHours: number; onSilence: string }; confirmationSnippet: string }>(() => settingsLoader({ request: store.adminRequest("/app/settings"), params: {}, context: {} }) as Promise<Response>);
    expect(loaded.codSettings).toEqual({ confirmHours: 48, onSilence: "remind" });
    // Shopify names an app's `$app:dakiya` namespace `app--{client id}--dakiya` in Liquid.
    expect(loaded.confirmationSnippet).toContain(`order.metafields["app--dakiya-test-api-key--dakiya"].${CONFIRMATION_LINK_METAFIELD.key}`);
    expect(CONFIRMATION_LINK_METAFIELD.namespace).toBe("$app:dakiya");

    const refused = await save({ codConfirmHours: "500", codOnSilence: "book" });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: Record<string, string> }).errors.codConfirmHours).toMatch(/from \d+ to \d+/);
    expect(await getCodSettings(store.domain)).toMatchObject({ confirmHours: 48, onSilence: "remind" });
    expect((await save({ codConfirmHours: "24", codOnSilence: "book" })).status).toBe(200);
    expect(await getCodSettings(store.domain)).toMatchObject({ confirmHours: 24, onSilence: "book" });
    // A form without the fields (another card's save) keeps them.
    expect((await save({})).status).toBe(200);
    expect(await getCodSettings(store.domain)).toMatchObject({ confirmHours: 24, onSilence: "book" });
    await saveCodSettings(store.domain, { confirmHours: 48, onSilence: "remind" });
  });
});

describe("a link that is not the shopper's", () => {
  it("a forged, altered or expired link shows one 'not valid' page and changes nothing", async () => {
    const { order, token } = await askedOrder();
    const confirmation = await confirmationOf(order.id);
    const [body, signature] = token.split(".");
    const forged = `${Buffer.from(`${confirmation.id}.${Math.floor(Date.now() / 1000) + 86_400}`).toString("base64url")}.${signature}`;
    const altered = `${body}.${signature!.slice(0, -2)}${signature!.slice(-2) === "AA" ? "AB" : "AA"}`;
    const expired = signConfirmationToken({ confirmationId: confirmation.id, expiresAt: new Date(Date.now() - 1_000) });
    for (const link of [forged, altered, expired, "nothing", "x".repeat(500)]) {
      const seen = await onLink(link);
      expect(seen.status, link).toBe(404);
      expect(seen.html).toContain("This link is not valid");
      expect((await answer(link, { answer: "cancel" })).status).toBe(404);
    }
    expect(await confirmationOf(order.id)).toMatchObject({ state: "asked", answeredAt: null });
    expect((await prisma.orderRecord.findUniqueOrThrow({ where: { shop_orderGid: { shop: store.domain, orderGid: order.id } } })).cancelledAt).toBeNull();
  });

  it("refuses what no page of its sends, with a reason and never a 5xx: an unknown answer, an oversized form, too many answers", async () => {
    const { order, token } = await askedOrder();
    expect((await answer(token, { answer: "ship-it-twice" })).status).toBe(422);
    expect((await answer(token, { answer: "correct", address1: "x".repeat(9_000) })).status).toBe(413);
    for (let index = 0; index < 20; index += 1) await answer(token, { answer: "nonsense" });
    const blocked = await answer(token, { answer: "confirm" });
    expect(blocked.status).toBe(429);
    expect((await confirmationOf(order.id)).state).toBe("asked");
  });
});

describe("silence past the deadline", () => {
  const future = (hours: number) => () => new Date(Date.now() + hours * 3_600_000);
  const deadline = (hours: number) => runJobs(["cod-deadline", "cod-confirmation"], { deps: { now: future(hours) } });

  it("reminds once (Shopify's e-mail with the link), then holds the order for the merchant; the hold stays", async () => {
    await saveCodSettings(store.domain, { confirmHours: 24, onSilence: "remind" });
    const { order } = await askedOrder();
    expect((await deadline(25)).failed).toEqual([]);
    const reminded = await confirmationOf(order.id);
    expect(reminded).toMatchObject({ state: "reminded", remindedAt: expect.any(Date), reminderSentAt: expect.any(Date) });
    expect(inShopify(order.id).invoices?.at(-1)?.customMessage).toContain("/confirm/");
    expect((await deadline(50)).failed).toEqual([]);
    expect(await confirmationOf(order.id)).toMatchObject({ state: "expired", releasedAt: null });
    expect(await prisma.orderRecord.findUniqueOrThrow({ where: { shop_orderGid: { shop: store.domain, orderGid: order.id } } })).toMatchObject({ decision: "held", decisionReason: expect.stringMatching(/^No answer from the shopper/) });
    expect(codHolds(inShopify(order.id))).toHaveLength(1);
    expect(await shipmentsOf(order.id)).toEqual([]);
  });

  it("never cancels an order its shopper paid online just before the deadline, though the order's check has not noted the payment yet", async () => {
    await saveCodSettings(store.domain, { confirmHours: 24, onSilence: "cancel" });
    const { order, token } = await askedOrder();
    await answer(token, { answer: "pay_online" });
    await carriedOut();
    const [invoice] = inShopify(order.id).invoices!;
    // Paid in Shopify; orders/paid's check has not run when the deadline comes.
    expect(store.simulator.payInvoice(store.domain, invoice!.token)).not.toBeNull();
    expect((await deadline(25)).failed).toEqual([]);
    expect(inShopify(order.id).cancelledAt).toBeNull();
    expect(await confirmationOf(order.id)).toMatchObject({ state: "paid_online", cancelledInShopifyAt: null });
    await store.simulator.settled();
    await carriedOut();
    await carriedOut();
    expect(await shipmentsOf(order.id)).toEqual([expect.objectContaining({ status: "fulfilled", paymentMode: "prepaid" })]);
    await saveCodSettings(store.domain, { confirmHours: 48, onSilence: "remind" });
  });

  it("books as if confirmed when the merchant chose so, and cancels when they chose that", async () => {
    await saveCodSettings(store.domain, { confirmHours: 24, onSilence: "book" });
    const booked = await askedOrder();
    await saveCodSettings(store.domain, { confirmHours: 24, onSilence: "cancel" });
    const cancelled = await askedOrder();
    expect((await deadline(25)).failed).toEqual([]);
    await carriedOut();
    expect(await confirmationOf(booked.order.id)).toMatchObject({ state: "expired", releasedAt: expect.any(Date) });
    expect(await shipmentsOf(booked.order.id)).toHaveLength(1);
    expect(await confirmationOf(cancelled.order.id)).toMatchObject({ state: "expired", cancelledInShopifyAt: expect.any(Date) });
    expect(inShopify(cancelled.order.id).cancelledAt).not.toBeNull();
    expect(await shipmentsOf(cancelled.order.id)).toEqual([]);
    await saveCodSettings(store.domain, { confirmHours: 48, onSilence: "remind" });
  });
});

describe("races that must never book a held order, lose one, or book one twice", () => {
  it("an ask and a booking of the same order at the same moment: one of them, never both", async () => {
    for (let round = 0; round < 6; round += 1) {
      const order = store.simulator.placeOrder(store.domain, codOrder());
      await store.simulator.settled();
      // Checked with the rules off for this round, so the order waits for whichever comes first.
      await prisma.shopSettings.update({ where: { shop: store.domain }, data: { autoBooking: false } });
      expect((await runJobs(["order-check"])).failed).toEqual([]);
      await prisma.shopSettings.update({ where: { shop: store.domain }, data: { autoBooking: true } });
      const context = { shop: store.domain, admin: await deps.adminFor(store.domain), now: () => new Date() };
      const [asked, booked] = await Promise.all([askToConfirm(context, order.id, { kind: "merchant", name: "race" }), bookOrder(context, { orderGid: order.id, courierId: 1 })]);
      const shipments = await shipmentsOf(order.id);
      if (asked.kind === "asked") {
        expect(booked).toMatchObject({ kind: "refused", code: "awaiting_shopper" });
        expect(shipments).toEqual([]);
      } else {
        expect(asked.kind).toBe("booked");
        expect(booked.kind).toBe("booked");
        expect(shipments).toHaveLength(1);
        expect(codHolds(inShopify(order.id))).toEqual([]);
      }
    }
  }, 60_000);

  it("two answers at once (confirm and cancel, two tabs): one wins, and a cancelled order is never booked", async () => {
    for (let round = 0; round < 4; round += 1) {
      const { order, token } = await askedOrder();
      const [first, second] = await Promise.all([answer(token, { answer: "confirm" }), answer(token, { answer: "cancel" })]);
      expect([first.status, second.status].sort()).toEqual([200, 409]);
      await carriedOut();
      const { state } = await confirmationOf(order.id);
      expect(["confirmed", "cancelled"]).toContain(state);
      expect(await shipmentsOf(order.id)).toHaveLength(state === "confirmed" ? 1 : 0);
    }
  }, 60_000);

  it("an answer and the deadline at the same moment: whichever wins, the order ends once", async () => {
    await saveCodSettings(store.domain, { confirmHours: 24, onSilence: "cancel" });
    const { order } = await askedOrder();
    const confirmation = await confirmationOf(order.id);
    const [answered, expired] = await Promise.all([
      answerConfirmation(confirmation.id, { answer: "confirm" }, { shop: null, now: new Date() }),
      runConfirmationDeadline({ shop: store.domain, now: () => new Date(Date.now() + 25 * 3_600_000) }, order.id),
    ]);
    expect(answered.kind === "answered" ? expired.kind : "answered").toBe("answered");
    await carriedOut();
    const { state } = await confirmationOf(order.id);
    expect(await shipmentsOf(order.id)).toHaveLength(state === "confirmed" ? 1 : 0);
    expect(Boolean(inShopify(order.id).cancelledAt)).toBe(state === "expired");
    await saveCodSettings(store.domain, { confirmHours: 48, onSilence: "remind" });
  });

  it("the answer's work run twice at once, and Shopify failing the release until it is retried: one release, one booking", async () => {
    const { order, token } = await askedOrder();
    await answer(token, { answer: "confirm" });
    // Shopify fails on its side twice: Dakiya's one quick retry fails too, and the job is left to the queue's.
    store.shop.faults.set("fulfillmentOrderReleaseHold", { kind: "INTERNAL_ERROR", times: 2 });
    const failing = await runJobs(["cod-confirmation"]);
    expect(failing.failed).toHaveLength(1);
    expect(await confirmationOf(order.id)).toMatchObject({ state: "confirmed", releasedAt: null });
    expect(await bookOrder({ shop: store.domain, admin: await deps.adminFor(store.domain) }, { orderGid: order.id, courierId: 1 })).toMatchObject({ code: "awaiting_shopper" });
    const context = { shop: store.domain, admin: await deps.adminFor(store.domain), now: () => new Date() };
    await Promise.all([carryOnConfirmation(context, order.id), carryOnConfirmation(context, order.id)]);
    await carriedOut();
    expect(await prisma.codEvent.count({ where: { shop: store.domain, orderGid: order.id, step: "released" } })).toBe(1);
    expect(await shipmentsOf(order.id)).toHaveLength(1);
    expect(inShopify(order.id).fulfillments).toHaveLength(1);
  });
});

describe("Shopify Flow's action", () => {
  it("asks the shopper of the order the workflow names, once however often Flow sends the run", async () => {
    await prisma.shopSettings.update({ where: { shop: store.domain }, data: { autoBooking: false } });
    const order = store.simulator.placeOrder(store.domain, codOrder());
    await store.simulator.settled();
    expect((await runJobs(["order-check"])).failed).toEqual([]);
    const run = () => store.simulator.runFlowAction(store.domain, "dakiya-confirm-cod", { order_id: order.legacyResourceId }, { actionRunId: `ask-${order.id}` });
    const first = (await (await run()).json()) as { return_value: { outcome: string } };
    expect(first.return_value.outcome).toBe("asked");
    expect((await (await run()).json()) as unknown).toEqual(first);
    expect(await confirmationOf(order.id)).toMatchObject({ state: "asked" });
    expect(codHolds(inShopify(order.id))).toHaveLength(1);
    const prepaid = store.simulator.placeOrder(store.domain, { ...codOrder(), tags: ["prepaid"], financialStatus: "PAID" });
    await store.simulator.settled();
    expect((await runJobs(["order-check"])).failed).toEqual([]);
    const refused = (await (await store.simulator.runFlowAction(store.domain, "dakiya-confirm-cod", { order_id: prepaid.legacyResourceId })).json()) as { return_value: { outcome: string } };
    expect(refused.return_value.outcome).toBe("not_cod");
    await prisma.shopSettings.update({ where: { shop: store.domain }, data: { autoBooking: true } });
  });
});

describe("Home, after the day's answers", () => {
  it("Home counts how asking shoppers went: asked, confirmed, corrected, paid online, cancelled, no answer", async () => {
    const home = (await (await responseOf(() => homeLoader({ request: store.adminRequest("/app"), params: {}, context: {} }) as Promise<Response>)).json()) as { cod: { funnel: Record<string, number> } };
    // Each of the day's confirmations, counted where it ended: the funnel's steps are the confirmations' states.
    const rows = await prisma.codConfirmation.findMany({ where: { shop: store.domain }, select: { state: true } });
    const ended = { confirmed: "confirmed", corrected: "corrected", paidOnline: "paid_online", cancelled: "cancelled", expired: "expired", withdrawn: "withdrawn" } as const;
    expect(home.cod.funnel.asked).toBe(rows.length);
    for (const [step, state] of Object.entries(ended)) {
      expect(home.cod.funnel[step], step).toBe(rows.filter((row) => row.state === state).length);
      expect(home.cod.funnel[step], step).toBeGreaterThan(0);
    }
  });
});
