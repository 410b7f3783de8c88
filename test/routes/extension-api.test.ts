import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BookAnswer, BulkAnswer, OrderShipping, SyncAnswer } from "../../extensions/shared/api";
import { BULK_SHIP_LIMIT } from "../../extensions/shared/api";
import type { BookingRule } from "~/automation/rules";
import { MAX_SHIPPED_AT_ONCE } from "~/orders/ship-orders.server";
import prisma from "~/db.server";
import { action as bookAction, loader as bookLoader } from "~/routes/api.orders.$id.book";
import { loader as orderLoader } from "~/routes/api.orders.$id";
import { action as syncAction, loader as syncLoader } from "~/routes/api.orders.$id.sync";
import { action as bulkAction, loader as bulkLoader } from "~/routes/api.orders.bulk-ship";
import { clearShipmentAttention, flagShipment } from "~/shipments/shipment-changes.server";
import { sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { saveBookingRules } from "~/automation/booking-rules.server";
import { indiaDate } from "~/shipping/contract";
import { isSafeTrackingUrl } from "~/shipping/tracking-url";
import { getConfig } from "~/config.server";
import { sayStored } from "~/locales/admin-language";
import { seedShop } from "../../store/seed";
import type { RunningCourierService } from "../support/courier-service";
import { enqueue } from "~/jobs/job-queue.server";
import { resetJobs, runJobs } from "../support/jobs";
import { startShippingWorld, type startStore } from "../support/store";
import { uniqueShop } from "../support/webhooks";

/*
 * The admin extensions' routes (/api/orders/…, extensions/shared/api.ts) through the same authenticated path as the
 * app's pages: a session token signed as the admin signs it, the real Shopify library, the store simulator on
 * Shopify's schema, the embedded courier service over HTTP, and PostgreSQL. Every request comes from the admin's
 * origin, as the extensions' fetches do, so every answer must carry the CORS headers.
 *
 * The tests run in order and build on each other, as a merchant's day does: #1002 booked early is synced later and
 * met again in the bulk batch ("already booked").
 */

const ADMIN_ORIGIN = "https://admin.shopify.com";

let world: Awaited<ReturnType<typeof startShippingWorld>>;
let courier: RunningCourierService;
let store: Awaited<ReturnType<typeof startStore>>;
const otherShop = uniqueShop("other");

beforeAll(async () => {
  await resetJobs();
  world = await startShippingWorld();
  ({ courier, store } = world);
  // A second shop in the same Shopify, with Dakiya installed: its orders must stay out of reach of the first.
  store.simulator.addShop(seedShop(otherShop));
  await store.install();
});
afterAll(() => world.close());

type Route = (args: { request: Request; params: Record<string, string>; context: Record<string, never> }) => Promise<Response>;

interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}

/** Calls a route as Remix does; a Response the library throws (preflight, 401) is the answer too. */
async function call<T>(route: Route, request: Request, params: Record<string, string> = {}): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await route({ request, params, context: {} });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T };
}

/** A request from an extension: the admin's origin and the session token the admin's fetch adds. */
function fromAdmin(path: string, init: { method?: string; body?: unknown; rawBody?: string; shop?: string } = {}): Request {
  const headers: Record<string, string> = { Origin: ADMIN_ORIGIN, Accept: "application/json" };
  const body = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return store.adminRequest(path, { method: init.method ?? (body === undefined ? "GET" : "POST"), headers, body }, init.shop);
}

const orderNamed = (name: string, shop = store.domain) => store.simulator.shop(shop).orders.find((order) => order.name === name)!;
const idOf = (name: string, shop?: string) => orderNamed(name, shop).legacyResourceId;

const getOrder = (name: string, shop?: string) => call<OrderShipping>(orderLoader, fromAdmin(`/api/orders/${idOf(name, shop)}`, { shop }), { id: idOf(name, shop) });
const book = (name: string, courierId: number, shop?: string) =>
  call<BookAnswer>(bookAction, fromAdmin(`/api/orders/${idOf(name, shop)}/book`, { body: { courierId }, shop }), { id: idOf(name, shop) });
const sync = (name: string) => call<SyncAnswer>(syncAction, fromAdmin(`/api/orders/${idOf(name)}/sync`, { body: {} }), { id: idOf(name) });
const bulk = (orderIds: string[]) => call<BulkAnswer>(bulkAction, fromAdmin("/api/orders/bulk-ship", { body: { orderIds } }));

function expectCors(answer: Answer<unknown>): void {
  expect(answer.headers.get("Access-Control-Allow-Origin")).toBe("*");
  expect(answer.headers.get("Access-Control-Allow-Headers")).toMatch(/Authorization/);
}

const rule = (name: string, action: BookingRule["action"], extra: Partial<BookingRule> = {}): BookingRule => ({
  name, paymentMode: "any", minWeightKg: null, maxWeightKg: null, minValueRupees: null, maxValueRupees: null, pincodePrefixes: [], zones: [], tags: [], action, courierId: null, ...extra,
});

describe("GET /api/orders/{id}", () => {
  it("offers a ready order's rates, live from the courier, with exactly one recommended, in rupees", async () => {
    const answer = await getOrder("#1001");
    expect(answer.status).toBe(200);
    expectCors(answer);
    const order = answer.body;
    expect(order).toMatchObject({ orderId: orderNamed("#1001").id, orderName: "#1001", state: "ready", problems: [], message: null, shipment: null, decision: null });
    expect(order.rates.map((rate) => rate.name).sort()).toEqual(["Bluedart", "DTDC", "Delhivery", "XpressBees"]);
    expect(order.rates.filter((rate) => rate.isRecommended)).toHaveLength(1);
    expect(order.rates.filter((rate) => rate.isCheapest)).toHaveLength(1);
    // What the courier quotes for the same route, in rupees (Dakiya's records hold paise; the contract rupees).
    const cheapest = order.rates.find((rate) => rate.isCheapest)!;
    expect(Math.min(...order.rates.map((rate) => rate.totalCharges))).toBe(cheapest.totalCharges);
    expect(cheapest.totalCharges).toBeGreaterThan(20);
    expect(cheapest.totalCharges).toBeLessThan(2_000);
    expect(Number.isInteger(Math.round(cheapest.totalCharges * 100))).toBe(true);
    expect(cheapest).toMatchObject({ courierId: expect.any(Number), mode: expect.any(String), edd: expect.stringMatching(/^\d+ - \d+$/), eddMaxDays: expect.any(Number), zone: expect.stringMatching(/^[A-E]$/) });
  });

  it("lists what stops an order shipping, with the fix, and offers no rates", async () => {
    const { status, body } = await getOrder("#1007");
    expect(status).toBe(200);
    expect(body).toMatchObject({ state: "problems", rates: [], shipment: null, problems: [{ code: "PINCODE_INVALID", message: expect.any(String), fix: expect.any(String) }] });
  });

  it("says a cancelled order is cancelled", async () => {
    expect((await getOrder("#1013")).body).toMatchObject({ orderName: "#1013", state: "cancelled", rates: [], shipment: null });
  });

  it("answers Shopify staying down as unavailable, with a plain message, not a 5xx", async () => {
    store.shop.faults.set("order", { kind: "HTTP_503", times: 4 });
    try {
      const answer = await getOrder("#1001");
      expect(answer.status).toBe(200);
      expectCors(answer);
      expect(answer.body).toMatchObject({ state: "unavailable", rates: [], message: expect.stringMatching(/Shopify did not answer\. Try again in a minute/) });

      // A booking that cannot read the order: unavailable, and its claim released (nothing was sent).
      store.shop.faults.set("order", { kind: "HTTP_503", times: 4 });
      const booking = await book("#1006", 1);
      expect(booking.status).toBe(200);
      expect(booking.body).toMatchObject({ outcome: "unavailable", message: expect.stringMatching(/Shopify did not answer/), order: { state: "unavailable" } });
      expect(await prisma.shipment.count({ where: { shop: store.domain, orderGid: orderNamed("#1006").id } })).toBe(0);
    } finally {
      store.shop.faults.delete("order");
    }
  });

  it("refuses an id that is not an order number, 400 with the reason", async () => {
    const answer = await call<{ error: string }>(orderLoader, fromAdmin("/api/orders/abc"), { id: "abc" });
    expect(answer.status).toBe(400);
    expectCors(answer);
    expect(answer.body.error).toMatch(/number in the order's GID/);
  });
});

describe("booking from the order page", () => {
  let awb: string;

  it("books the chosen courier and answers the order with its shipment; the GET then shows it", async () => {
    const offered = (await getOrder("#1002")).body;
    const recommended = offered.rates.find((rate) => rate.isRecommended)!;
    const answer = await book("#1002", recommended.courierId);
    expect(answer.status).toBe(200);
    expectCors(answer);
    expect(answer.body).toMatchObject({ outcome: "booked", message: null, order: { orderName: "#1002", state: "shipment", rates: [] } });
    const shipment = answer.body.order.shipment!;
    expect(shipment).toMatchObject({ status: "fulfilled", statusLabel: "Fulfilled", courierName: recommended.name, totalCharges: recommended.totalCharges, edd: recommended.edd, attention: null });
    expect(shipment.awb).toMatch(/\w{6,}/);
    expect(isSafeTrackingUrl(shipment.trackingUrl!)).toBe(true);
    awb = shipment.awb!;

    // Shopify has the fulfillment with the courier's tracking.
    expect(orderNamed("#1002").fulfillments.map((fulfillment) => fulfillment.trackingInfo[0]!.number)).toEqual([awb]);
    const again = await getOrder("#1002");
    expect(again.body).toMatchObject({ state: "shipment", shipment: { awb, status: "fulfilled", courierName: recommended.name } });
  });

  it("answers a second booking of the same order as already booked, with the one awb", async () => {
    const answer = await book("#1002", 4);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ outcome: "already_booked", order: { state: "shipment", shipment: { awb } } });
    expect(await prisma.shipment.count({ where: { shop: store.domain, orderGid: orderNamed("#1002").id } })).toBe(1);
    // This shop's sandbox account holds one booking of the order (other test files' shops number orders alike).
    const { apiClientId } = await prisma.serviceOrder.findUniqueOrThrow({ where: { awb }, select: { apiClientId: true } });
    expect(await prisma.serviceOrder.count({ where: { apiClientId, orderId: "1002", awb: { not: awb } } })).toBe(0);
    expect(orderNamed("#1002").fulfillments).toHaveLength(1);
  });

  it("answers a booking the courier refuses as refused, with its reason and the rates to choose again", async () => {
    // The shop's courier account already holds an order #1003 with another body: the courier refuses the booking.
    await courier.client(sandboxCredentialsFor(store.domain)).createOrder({
      order_id: "1003", order_date: indiaDate(new Date()), name: "Someone Else", mobile: "9820012345", address_line_1: "1, Other Street",
      city: "Bengaluru", state: "Karnataka", pincode: "560038", products: [{ product_name: "Something else", price: 100, quantity: 1 }],
      package_length: 20, package_breadth: 15, package_height: 10, package_weight: 0.5, payment_mode: "prepaid", total_amount: 100, logistic_id: 1,
    });
    // Checked as a new order is: Orders to ship lists it ready.
    await enqueue("order-check", { shop: store.domain, orderGid: orderNamed("#1003").id });
    expect((await runJobs(["order-check"])).failed).toEqual([]);
    const answer = await book("#1003", 1);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ outcome: "refused", message: expect.any(String), order: { state: "ready", shipment: null } });
    expect(answer.body.message!.length).toBeGreaterThan(5);
    expect(answer.body.order.rates.length).toBeGreaterThan(0);
    expect(await prisma.shipment.findUnique({ where: { shop_orderGid_parcel: { shop: store.domain, orderGid: orderNamed("#1003").id, parcel: 1 } } })).toMatchObject({ status: "failed", awb: null });
    expect(orderNamed("#1003").fulfillments).toHaveLength(0);
    // Orders to ship lists it as ready again, not as booked.
    const record = await prisma.orderRecord.findUnique({ where: { shop_orderGid: { shop: store.domain, orderGid: orderNamed("#1003").id } } });
    expect(record).toMatchObject({ readiness: "ready" });
  });

  it("books that order again under a new order_id, the courier's refusal and the booking both in its history, and one awb for it", async () => {
    // The courier still holds its own #1003 (the test above): the refusal said to book again, and the next booking sends 1003-A2.
    const order = orderNamed("#1003");
    const refused = await prisma.shipment.findUniqueOrThrow({ where: { shop_orderGid_parcel: { shop: store.domain, orderGid: order.id, parcel: 1 } } });
    expect(refused).toMatchObject({ status: "failed", courierOrderAttempt: 2 });
    expect(refused.lastError).toBe("The courier account already has an order numbered 1003 (booked on the courier's panel, or cancelled there), so nothing was booked. Book again to send this order as 1003-A2.");
    // Beside the English, the words the admin says it in (Hindi on a Hindi admin): the numbers are values.
    expect(refused.lastErrorWords).toEqual({ key: "activity.stored.orderIdTaken", values: { sent: "1003", next: "1003-A2" } });
    expect(sayStored("hi", refused.lastErrorWords, refused.lastError!)).toMatch(/^कूरियर खाते में 1003 नंबर का .* 1003-A2 नंबर से भेजने/);

    const answer = await book("#1003", 1);
    expect(answer.body).toMatchObject({ outcome: "booked", order: { state: "shipment" } });
    const booked = await prisma.shipment.findUniqueOrThrow({ where: { id: refused.id } });
    expect(booked).toMatchObject({ status: "fulfilled", courierOrderAttempt: 2, orderName: "#1003" });
    expect(JSON.parse(booked.requestPayload)).toMatchObject({ order_id: "1003-A2" });
    expect(orderNamed("#1003").fulfillments).toHaveLength(1);
    // The courier holds the order it had and this booking, nothing more.
    const { apiClientId } = await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: booked.awb! }, select: { apiClientId: true } });
    expect((await prisma.serviceOrder.findMany({ where: { apiClientId, orderId: { startsWith: "1003" } }, select: { orderId: true, awb: true } })).map((row) => row.orderId).sort()).toEqual(["1003", "1003-A2"]);

    const history = await prisma.shipmentEvent.findMany({ where: { shipmentId: refused.id }, orderBy: { id: "asc" }, select: { transition: true, reason: true } });
    const failedAt = history.findIndex((event) => event.transition === "failed");
    expect(history[failedAt]?.reason).toMatch(/already has an order numbered 1003/);
    expect(history.slice(failedAt + 1).map((event) => event.transition)).toEqual(expect.arrayContaining(["claimed", "courier_chosen", "booked", "fulfilled"]));
  });

  it("refuses a courier that does not serve the route, and books nothing", async () => {
    // #1004 goes to Guwahati (zone E), which XpressBees (3) does not serve.
    const answer = await book("#1004", 3);
    expect(answer.body).toMatchObject({ outcome: "refused", message: expect.stringMatching(/does not serve this route/), order: { state: "ready" } });
    expect(answer.body.order.rates.map((rate) => rate.courierId)).not.toContain(3);
    expect(await prisma.shipment.count({ where: { shop: store.domain, orderGid: orderNamed("#1004").id, awb: { not: null } } })).toBe(0);
  });

  it("answers an order with problems as problems, and books nothing", async () => {
    const answer = await book("#1008", 1);
    expect(answer.body).toMatchObject({ outcome: "problems", order: { state: "problems", problems: [{ code: "PINCODE_MISSING" }] } });
    expect(await prisma.shipment.count({ where: { shop: store.domain, orderGid: orderNamed("#1008").id } })).toBe(0);
  });

  it("refuses malformed bookings 400 with the reason: not JSON, no courier, a courier that is not a number", async () => {
    const id = idOf("#1001");
    const notJson = await call<{ error: string }>(bookAction, fromAdmin(`/api/orders/${id}/book`, { rawBody: "courierId=1" }), { id });
    expect(notJson).toMatchObject({ status: 400, body: { error: "The body must be JSON" } });
    expectCors(notJson);
    const missing = await call<{ error: string }>(bookAction, fromAdmin(`/api/orders/${id}/book`, { body: {} }), { id });
    expect(missing).toMatchObject({ status: 400, body: { error: expect.stringMatching(/courierId must be a number/) } });
    const text = await call<{ error: string }>(bookAction, fromAdmin(`/api/orders/${id}/book`, { body: { courierId: "1" } }), { id });
    expect(text.status).toBe(400);
    const badId = await call<{ error: string }>(bookAction, fromAdmin("/api/orders/1e3/book", { body: { courierId: 1 } }), { id: "1e3" });
    expect(badId.status).toBe(400);
    expect(await prisma.shipment.count({ where: { shop: store.domain, orderGid: orderNamed("#1001").id } })).toBe(0);
  });

  it("answers a booking the courier could not take yet as booked and pending, which the booking's job completes", async () => {
    // More 503s than the client's own attempts: the courier stays down past the request.
    courier.failNext("create-order", 3);
    const answer = await book("#1001", 2);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ outcome: "booked", message: expect.stringMatching(/retry the booking automatically/), order: { state: "shipment", shipment: { status: "booking", statusLabel: "Booking", awb: null } } });
    expect(answer.body.order.shipment!.attention).toMatch(/did not answer/);

    expect((await runJobs(["shipment-complete"])).failed).toEqual([]);
    expect((await getOrder("#1001")).body.shipment).toMatchObject({ status: "fulfilled", awb: expect.any(String), courierName: "Bluedart", attention: null });
  });

  it("answers a GET on the book route 405, with the CORS headers", async () => {
    const answer = await call<{ error: string }>(bookLoader, fromAdmin(`/api/orders/${idOf("#1001")}/book`), { id: idOf("#1001") });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("Allow")).toBe("POST");
    expectCors(answer);
  });

  it("syncs the shipment's tracking now: the new courier status and last event show on the order", async () => {
    await courier.client(sandboxCredentialsFor(store.domain)).advanceSandboxShipment(awb, 5);
    const answer = await sync("#1002");
    expect(answer.status).toBe(200);
    expectCors(answer);
    const shipment = answer.body.order.shipment!;
    expect(shipment).toMatchObject({ awb, courierStatus: { code: 5, label: "In Transit", at: expect.any(String) }, lastEvent: { label: "In Transit", activity: expect.any(String), at: expect.any(String) } });
    expect(shipment.estimatedDelivery).toEqual(expect.any(String));
    // What the sync stored is what the order page reads later.
    // The label's link is signed afresh on every read: the same shipment, a new link.
    expect((await getOrder("#1002")).body.shipment).toEqual({ ...shipment, labelUrl: expect.stringMatching(/^http:\/\/localhost:\d+\/documents\/[\w-]+\.[\w-]{43}$/) });
    // The shopper sees it too: each courier entry became one event on the Shopify fulfillment.
    expect(orderNamed("#1002").fulfillments[0]!.events.map((event) => event.status)).toEqual(["LABEL_PURCHASED", "READY_FOR_PICKUP", "IN_TRANSIT"]);
  });

  it("tells the merchant what to do about a shipment: a tracking exception, a flag from Needs attention", async () => {
    await courier.client(sandboxCredentialsFor(store.domain)).advanceSandboxShipment(awb, 9);
    const undelivered = (await sync("#1002")).body.order.shipment!;
    expect(undelivered).toMatchObject({ courierStatus: { code: 9, label: "Undelivered" }, attention: expect.stringMatching(/^Delivery failed: call the shopper/) });

    const shipment = await prisma.shipment.findUniqueOrThrow({ where: { shop_orderGid_parcel: { shop: store.domain, orderGid: orderNamed("#1002").id, parcel: 1 } } });
    await flagShipment(shipment.id, "address_changed", new Date());
    const flagged = (await getOrder("#1002")).body.shipment!;
    expect(flagged.attention).toMatch(/^The shipping address was changed in Shopify after the order was booked \(awb \w+\).*What to do: Tell the courier the new address/);
    expect(flagged.attention).toMatch(/Delivery failed/);
    await clearShipmentAttention(store.domain, shipment.id);
  });

  it("never passes on a tracking address that is not a web address", async () => {
    const where = { shop_orderGid_parcel: { shop: store.domain, orderGid: orderNamed("#1002").id, parcel: 1 } };
    const { trackingUrl } = await prisma.shipment.findUniqueOrThrow({ where });
    await prisma.shipment.update({ where, data: { trackingUrl: "javascript:alert(document.domain)" } });
    try {
      const { body } = await getOrder("#1002");
      expect(body.shipment).toMatchObject({ awb, trackingUrl: null });
      expect(JSON.stringify(body)).not.toContain("javascript:");
    } finally {
      await prisma.shipment.update({ where, data: { trackingUrl } });
    }
  });

  it("syncs an order with nothing booked by answering it as it is", async () => {
    const answer = await sync("#1007");
    expect(answer).toMatchObject({ status: 200, body: { order: { state: "problems" } } });
  });
});

describe("orders of another shop", () => {
  it("are not reachable: not found, and never booked, synced or shipped by this shop", async () => {
    // The other shop books its own #1001.
    const theirs = await book("#1001", 1, otherShop);
    expect(theirs.body).toMatchObject({ outcome: "booked", order: { state: "shipment" } });
    const theirAwb = theirs.body.order.shipment!.awb;

    const id = idOf("#1001", otherShop);
    const seen = await call<OrderShipping>(orderLoader, fromAdmin(`/api/orders/${id}`), { id });
    expect(seen.body).toMatchObject({ state: "not_found", shipment: null, rates: [] });
    expect(JSON.stringify(seen.body)).not.toContain(theirAwb);

    const booked = await call<BookAnswer>(bookAction, fromAdmin(`/api/orders/${id}/book`, { body: { courierId: 2 } }), { id });
    expect(booked.body).toMatchObject({ outcome: "not_found", order: { state: "not_found" } });
    const synced = await call<SyncAnswer>(syncAction, fromAdmin(`/api/orders/${id}/sync`, { body: {} }), { id });
    expect(synced.body.order.state).toBe("not_found");
    const shipped = await bulk([orderNamed("#1001", otherShop).id]);
    expect(shipped.body.results).toEqual([expect.objectContaining({ outcome: "failed", awb: null })]);

    // By shop too: other test files' stores number their orders the same way, and share the database.
    expect(await prisma.shipment.count({ where: { shop: otherShop, orderGid: orderNamed("#1001", otherShop).id } })).toBe(1);
    expect(await prisma.shipment.count({ where: { shop: store.domain, orderGid: orderNamed("#1001", otherShop).id } })).toBe(0);
  });
});

describe("POST /api/orders/bulk-ship", () => {
  it("takes the contract's limit, which is what shipOrders ships at once", () => {
    expect(BULK_SHIP_LIMIT).toBe(MAX_SHIPPED_AT_ONCE);
  });

  it(`refuses more than ${BULK_SHIP_LIMIT} orders, and malformed bodies, 400 with the reason; nothing is shipped`, async () => {
    const many = Array.from({ length: BULK_SHIP_LIMIT + 1 }, (_, index) => `gid://shopify/Order/${900_000 + index}`);
    const tooMany = await bulk(many);
    expect(tooMany).toMatchObject({ status: 400, body: { error: `At most ${BULK_SHIP_LIMIT} orders per request; send the rest in another` } });
    expectCors(tooMany);
    expect((await bulk([])).status).toBe(400);
    expect((await bulk(["1001"])).body).toEqual({ error: "Each order id must be an order GID, gid://shopify/Order/<number>" });
    const notJson = await call<{ error: string }>(bulkAction, fromAdmin("/api/orders/bulk-ship", { rawBody: "{orderIds:" }));
    expect(notJson).toMatchObject({ status: 400, body: { error: "The body must be JSON" } });
    expect(await prisma.shipment.count({ where: { shop: store.domain, orderGid: { in: many } } })).toBe(0);
  });

  it("ships a mixed batch by the shop's rules and answers each order: booked, held, already booked, failed", async () => {
    await saveBookingRules(store.domain, { autoBooking: false, rules: [rule("Hold COD", "hold", { paymentMode: "cod" }), rule("Everything else", "recommended")] });
    const batch = [
      orderNamed("#1014").id, // prepaid, ready: booked with the recommended courier
      orderNamed("#1011").id, // COD: held by the first rule
      orderNamed("#1002").id, // booked above
      orderNamed("#1009").id, // no phone: failed, with what to fix
      "gid://shopify/Order/999999999", // not in this shop
    ];
    const answer = await bulk(batch);
    expect(answer.status).toBe(200);
    expectCors(answer);
    const results = answer.body.results;
    expect(results.map((result) => result.orderId)).toEqual(batch);
    expect(results.map((result) => [result.orderName, result.outcome])).toEqual([
      ["#1014", "booked"],
      ["#1011", "held"],
      ["#1002", "already_booked"],
      ["#1009", "failed"],
      ["Order 999999999", "failed"],
    ]);
    const [booked, held, already, failed] = results;
    expect(booked).toMatchObject({ awb: expect.any(String), courierName: expect.any(String) });
    expect(held).toMatchObject({ awb: null, reason: expect.stringMatching(/Hold COD/) });
    const shipment1002 = await prisma.shipment.findUniqueOrThrow({ where: { shop_orderGid_parcel: { shop: store.domain, orderGid: orderNamed("#1002").id, parcel: 1 } } });
    expect(already).toMatchObject({ awb: shipment1002.awb, courierName: shipment1002.courierName });
    expect(failed!.reason).toMatch(/phone/i);
    expect(orderNamed("#1014").fulfillments).toHaveLength(1);
    expect(orderNamed("#1002").fulfillments).toHaveLength(1);
  });
});

describe("CORS and sessions", () => {
  const routes: [string, Route, string][] = [
    ["GET /api/orders/{id}", orderLoader, "/api/orders/1"],
    ["book", bookLoader, "/api/orders/1/book"],
    ["sync", syncLoader, "/api/orders/1/sync"],
    ["bulk-ship", bulkLoader, "/api/orders/bulk-ship"],
  ];

  it.each(routes)("answers the browser's preflight of %s from the admin's origin 2xx with the CORS headers", async (_, loader, path) => {
    const preflight = new Request(`${getConfig().SHOPIFY_APP_URL}${path}`, {
      method: "OPTIONS",
      headers: { Origin: ADMIN_ORIGIN, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type" },
    });
    const answer = await call<null>(loader, preflight, { id: "1" });
    expect(answer.status).toBeGreaterThanOrEqual(200);
    expect(answer.status).toBeLessThan(300);
    expectCors(answer);
    expect(answer.headers.get("Access-Control-Allow-Headers")).toMatch(/Content-Type/);
  });

  it("refuses a request whose session token is not valid, with the CORS headers, and does nothing", async () => {
    const id = idOf("#1006");
    const forged = new Request(`${getConfig().SHOPIFY_APP_URL}/api/orders/${id}/book`, {
      method: "POST",
      headers: { Origin: ADMIN_ORIGIN, Authorization: "Bearer not.a.token", "Content-Type": "application/json" },
      body: JSON.stringify({ courierId: 1 }),
    });
    const answer = await call<null>(bookAction, forged, { id });
    expect(answer.status).toBe(401);
    expectCors(answer);

    const anonymous = new Request(`${getConfig().SHOPIFY_APP_URL}/api/orders/${id}`, { headers: { Origin: ADMIN_ORIGIN } });
    // No token at all reads as a document request to the library, which sends it to log in.
    const unauthenticated = await call<unknown>(orderLoader, anonymous, { id });
    expect(unauthenticated.status).toBe(302);
    expect(unauthenticated.headers.get("Location")).toBe("/auth/login");
    expectCors(unauthenticated);
    expect(await prisma.shipment.count({ where: { shop: store.domain, orderGid: orderNamed("#1006").id } })).toBe(0);
  });
});
