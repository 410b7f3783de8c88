import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "@prisma/client";
import prisma, { databasePool } from "~/db.server";
import { ServiceFailure } from "~/courier-service/failures";
import { insertOrder, isUniqueViolationOf, type NewServiceOrder } from "~/courier-service/order-statements.server";
import { DEFAULT_RATE_CARDS } from "~/courier-service/rate-cards";
import { ensureSandbox } from "~/courier-service/sandbox-seed.server";
import { createShipmentService } from "~/courier-service/shipment-service.server";
import { SANDBOX_KEY, SANDBOX_SECRET } from "../support/courier-service";
import { sampleOrder } from "../support/orders";

// 2026-03-10 09:00 in India; dates below are relative to it.
const NOW = new Date("2026-03-10T03:30:00Z");
const service = createShipmentService({ db: prisma, pool: databasePool(), now: () => NOW, rateCards: DEFAULT_RATE_CARDS });
let client: ApiClient;
beforeAll(async () => {
  const id = await ensureSandbox(prisma, SANDBOX_KEY, SANDBOX_SECRET);
  client = await prisma.apiClient.findUniqueOrThrow({ where: { id } });
});

const product = { product_name: "Steel tiffin", price: 450, quantity: 1 };
const products = (count: number) => Array.from({ length: count }, (_, index) => ({ ...product, sku: `SKU-${index}` }));

type Row = [rule: string, overrides: Record<string, unknown>, outcome: "ok" | { field: string; message?: RegExp }];

const rows: Row[] = [
  ["order_date today", { order_date: "2026-03-10" }, "ok"],
  ["order_date 7 days old", { order_date: "2026-03-03" }, "ok"],
  ["order_date 8 days old", { order_date: "2026-03-02" }, { field: "order_date", message: /last 7 days/ }],
  ["order_date tomorrow", { order_date: "2026-03-11" }, { field: "order_date", message: /future/ }],
  ["order_date not a day", { order_date: "2026-02-30" }, { field: "order_date", message: /calendar/ }],
  ["order_date wrong format", { order_date: "10/03/2026" }, { field: "order_date", message: /YYYY-MM-DD/ }],
  ["10 products", { products: products(10) }, "ok"],
  ["11 products", { products: products(11) }, { field: "products", message: /at most 10/ }],
  ["0 products", { products: [] }, { field: "products", message: /at least 1/ }],
  ["product without a name", { products: [{ price: 1, quantity: 1 }] }, { field: "products.0.product_name" }],
  ["length 2 cm", { package_length: 2 }, "ok"],
  ["length 1 cm", { package_length: 1 }, { field: "package_length", message: /more than 1 cm/ }],
  ["breadth 1 cm", { package_breadth: 1 }, { field: "package_breadth" }],
  ["height fractional", { package_height: 2.5 }, { field: "package_height", message: /whole/ }],
  ["pincode 5 digits", { pincode: "56003" }, { field: "pincode", message: /exactly 6 digits/ }],
  ["pincode 6 digits as integer", { pincode: 560038 }, "ok"],
  ["pincode 6 digits as string", { pincode: "560038" }, "ok"],
  ["pincode 7 digits", { pincode: 5600381 }, { field: "pincode" }],
  ["pincode with letters", { pincode: "56OO38" }, { field: "pincode" }],
  ["pincode starting with 0", { pincode: "060038" }, { field: "pincode" }],
  ["pincode no courier serves", { pincode: 900001 }, { field: "pincode", message: /not served/ }],
  ["payment_mode absent is cod", { payment_mode: undefined }, "ok"],
  ["payment_mode upi", { payment_mode: "upi" }, { field: "payment_mode" }],
  ["logistic_id 4", { logistic_id: 4 }, "ok"],
  ["logistic_id 0", { logistic_id: 0 }, { field: "logistic_id" }],
  ["logistic_id 5", { logistic_id: 5 }, { field: "logistic_id" }],
  ["fractional weight", { package_weight: 0.35 }, "ok"],
  ["zero weight", { package_weight: 0 }, { field: "package_weight" }],
  ["name empty", { name: "   " }, { field: "name", message: /must not be empty/ }],
  ["city missing", { city: undefined }, { field: "city", message: /is required/ }],
  ["mobile not Indian", { mobile: "12345" }, { field: "mobile" }],
  ["mobile with 0 prefix", { mobile: "09820012345" }, "ok"],
  ["email invalid", { email: "asha@" }, { field: "email" }],
  ["email valid", { email: "asha@example.in" }, "ok"],
  ["text at its maximum length", { name: "n".repeat(200), address_line_1: "a".repeat(500), city: "c".repeat(100), delivery_remarks: "r".repeat(500), gst_number: "G".repeat(20) }, "ok"],
  ["name of 201 characters", { name: "n".repeat(201) }, { field: "name", message: /name must be at most 200 characters/ }],
  ["address of 501 characters", { address_line_2: "a".repeat(501) }, { field: "address_line_2", message: /at most 500 characters/ }],
  ["email of 255 characters", { email: `${"a".repeat(250)}@x.in` }, { field: "email", message: /at most 254 characters/ }],
  ["product name of 256 characters", { products: [{ ...product, product_name: "p".repeat(256) }] }, { field: "products.0.product_name", message: /at most 255/ }],
  ["total_amount negative", { total_amount: -1 }, { field: "total_amount" }],
  ["total_amount ₹1,00,00,000 in paise", { total_amount: 9_999_999.99 }, "ok"],
  ["total_amount ₹1,00,00,000", { total_amount: 10_000_000, ewaybill_no: "123456789012" }, "ok"],
  ["total_amount above ₹1,00,00,000", { total_amount: 10_000_000.01 }, { field: "total_amount", message: /at most ₹1,00,00,000/ }],
  ["total_amount in fractions of a paisa", { total_amount: 2297.005 }, { field: "total_amount", message: /2 decimal places/ }],
  ["shipping_charge a float's rounding error", { shipping_charge: 0.1 + 0.2 }, { field: "shipping_charge", message: /2 decimal places/ }],
  ["price a tiny fraction", { products: [{ ...product, price: 1e-7 }] }, { field: "products.0.price", message: /2 decimal places/ }],
  ["quantity 10,000", { products: [{ ...product, quantity: 10_000 }] }, "ok"],
  ["quantity 10,001", { products: [{ ...product, quantity: 10_001 }] }, { field: "products.0.quantity", message: /at most 10,000/ }],
  ["package 500 cm a side", { package_length: 500, package_breadth: 500, package_height: 500 }, "ok"],
  ["package 501 cm long", { package_length: 501 }, { field: "package_length", message: /at most 500 cm/ }],
  ["weight 1000 kg", { package_weight: 1000 }, "ok"],
  ["weight to the gram", { package_weight: 0.125 }, "ok"],
  ["weight below the gram", { package_weight: 0.1255 }, { field: "package_weight", message: /3 decimal places/ }],
  ["warehouse_id past a 32-bit integer", { warehouse_id: 2 ** 31 }, { field: "warehouse_id", message: /at most 2147483647/ }],
  ["total_price disagreeing", { total_price: 10 }, { field: "total_price", message: /agree/ }],
  ["warehouse_id of nobody", { warehouse_id: 424242 }, { field: "warehouse_id", message: /not one of/ }],
  ["XpressBees to the North-East", { logistic_id: 3, pincode: 781001 }, { field: "logistic_id", message: /does not deliver/ }],
  ["reverse order", { order_type: "reverse" }, "ok"],
  ["order_type unknown", { order_type: "exchange" }, { field: "order_type" }],
];

describe("create-order rules", () => {
  it.each(rows)("%s", async (_rule, overrides, outcome) => {
    const body = sampleOrder({ order_date: "2026-03-10", ...overrides });
    for (const [key, value] of Object.entries(overrides)) if (value === undefined) delete (body as Record<string, unknown>)[key];
    const before = await prisma.serviceOrder.count();
    if (outcome === "ok") {
      const created = await service.createOrder(client, body);
      expect(created.awb).toMatch(/^[0-9D]/);
      if (overrides.payment_mode === undefined && "payment_mode" in overrides) {
        expect((await service.getOrder(client, created.awb)).payment_mode).toBe("cod");
      }
      return;
    }
    const failure = await service.createOrder(client, body).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ServiceFailure);
    const { status, errors } = failure as ServiceFailure;
    expect(status).toBe(422);
    const entry = errors.find((error) => error.field === outcome.field);
    expect(entry, JSON.stringify(errors)).toBeDefined();
    if (outcome.message) expect(entry!.message).toMatch(outcome.message);
    expect(await prisma.serviceOrder.count()).toBe(before);
  });

  it("judges a replay's order_date as of the order's creation, and a new order as of now", async () => {
    let clock = NOW;
    const movingService = createShipmentService({ db: prisma, pool: databasePool(), now: () => clock, rateCards: DEFAULT_RATE_CARDS });
    const body = sampleOrder({ order_date: "2026-03-03" });
    const created = await movingService.createOrder(client, body);
    clock = new Date(NOW.getTime() + 86_400_000);
    // 8 days old by now, 7 when created: the retry replays.
    expect(await movingService.createOrder(client, body)).toEqual(created);
    const fresh = await movingService.createOrder(client, { ...body, order_id: `${body.order_id}-b` }).catch((error: unknown) => error);
    expect(fresh).toBeInstanceOf(ServiceFailure);
    expect((fresh as ServiceFailure).errors).toEqual([{ field: "order_date", message: "order_date must fall within the last 7 days" }]);
  });

  it("writes the order, its Manifested event and the answer a replay gives, at the service's clock", async () => {
    const created = await service.createOrder(client, sampleOrder({ order_date: "2026-03-10" }));
    const stored = await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: created.awb }, include: { events: true } });
    expect(stored.id).toBe(created.id);
    expect(stored.createResult).toBe(JSON.stringify(created));
    expect([stored.createdAt, stored.updatedAt]).toEqual([NOW, NOW]);
    expect(stored.events).toMatchObject([{ step: 0, code: 2, happenedAt: NOW }]);
    expect((await service.getOrder(client, created.awb)).created_at).toBe(NOW.toISOString());
  });

  it("refuses a cancelled order's order_id as such before any other rule", async () => {
    const body = sampleOrder({ order_date: "2026-03-10" });
    const created = await service.createOrder(client, body);
    await service.cancelOrder(client, { awb: created.awb });
    const reused = await service.createOrder(client, { ...body, pincode: "56003" }).catch((error: unknown) => error);
    expect(reused).toMatchObject({ status: 409, errors: [{ field: "order_id", message: expect.stringMatching(/cancelled/) }] });
  });

  /** An order the service wrote, and a way to write it again with changes, as create-order's statement would. */
  async function writtenOrder() {
    const created = await service.createOrder(client, sampleOrder({ order_date: "2026-03-10" }));
    const { id: _id, createResult, cancelledAt: _cancelled, deliveredAt: _delivered, ...columns } = await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: created.awb } });
    const manifested = { step: 0, code: 2, happenedAt: NOW, location: null, activity: "Manifested" } as const;
    const writeAgain = (changes: Partial<NewServiceOrder>) => insertOrder(databasePool(), { ...columns, ...changes }, manifested, JSON.parse(createResult));
    return { columns, writeAgain };
  }

  it("refuses an awb already taken as that constraint's violation, which create-order retries with a new awb", async () => {
    const { columns, writeAgain } = await writtenOrder();
    const again = await writeAgain({ orderId: `${columns.orderId}-b` }).catch((error: unknown) => error);
    expect(isUniqueViolationOf(again, "ServiceOrder_awb_key")).toBe(true);
    expect(isUniqueViolationOf(again, "ServiceOrder_apiClientId_orderId_key")).toBe(false);
  });

  it("writes nothing, not even a tracking event, for an order_id the account already used", async () => {
    const { columns, writeAgain } = await writtenOrder();
    const events = await prisma.serviceTrackingEvent.count();
    expect(await writeAgain({ awb: `${columns.awb}9` })).toBeNull();
    expect(await prisma.serviceOrder.count({ where: { orderId: columns.orderId, apiClientId: client.id } })).toBe(1);
    expect(await prisma.serviceTrackingEvent.count()).toBe(events);
  });

  it("stores total_amount as sent, never recomputed from the products", async () => {
    const created = await service.createOrder(client, sampleOrder({ order_date: "2026-03-10", total_amount: 1 }));
    expect((await service.getOrder(client, created.awb)).total_amount).toBe(1);
  });

  it("prices a reverse shipment above the same forward one", async () => {
    const rate = (shipment_type: string) =>
      service.calculateRate({ shipment_type, payment_mode: "prepaid", pickup: 421302, delivery: 560038, length: 20, breadth: 20, height: 10, actual_weight: 1, amount: 999 });
    const [forward, reverse] = await Promise.all([rate("forward"), rate("reverse")]);
    forward.logistics.forEach((option, index) => {
      expect(reverse.logistics[index]!.total_charges).toBeGreaterThan(option.total_charges);
    });
  });

  it.each([
    ["pickup 5 digits", { pickup: 42130 }, "pickup"],
    ["delivery 7 digits", { delivery: 5600381 }, "delivery"],
    ["length 1 cm", { length: 1 }, "length"],
    ["length 2^53 cm", { length: 2 ** 53 }, "length"],
    ["amount past ₹1,00,00,000", { amount: 1.7976931348623157e308 }, "amount"],
    ["shipment_type missing", { shipment_type: undefined }, "shipment_type"],
    ["payment_mode missing", { payment_mode: undefined }, "payment_mode"],
  ])("calculate-rate refuses %s", async (_rule, overrides, field) => {
    const body = { shipment_type: "forward", payment_mode: "cod", pickup: 421302, delivery: 560038, length: 10, breadth: 10, height: 10, actual_weight: 1, amount: 100, ...overrides };
    const failure = (await service.calculateRate(body).catch((error: unknown) => error)) as ServiceFailure;
    expect(failure.status).toBe(422);
    expect(failure.errors.map((error) => error.field)).toEqual([field]);
  });
});

describe("rate cards", () => {
  it("refuses, at construction, a courier whose tracking address is not a web address", () => {
    const rateCards = DEFAULT_RATE_CARDS.map((card) => (card.id === 1 ? { ...card, trackingUrl: "javascript:alert('{awb}')" } : card));
    expect(() => createShipmentService({ db: prisma, pool: databasePool(), now: () => NOW, rateCards })).toThrowError(/0\.trackingUrl/);
  });
});

describe("tracking links", () => {
  it("carry a token of each shipment's own where the template asks for one, the same in every answer about it", async () => {
    const linking = createShipmentService({
      db: prisma,
      pool: databasePool(),
      now: () => NOW,
      rateCards: DEFAULT_RATE_CARDS,
      trackingUrlTemplate: "http://localhost:3000/track/{awb}?token={token}",
    });
    const order = (orderId: string) => ({ ...sampleOrder({ order_id: orderId }), order_date: "2026-03-10" });
    const runId = `link-${Date.now().toString(36)}`;
    const first = await linking.createOrder(client, order(`${runId}-1`));
    const second = await linking.createOrder(client, order(`${runId}-2`));
    const link = /^http:\/\/localhost:3000\/track\/(\w+)\?token=([\w-]{22})$/;
    const [, firstAwb, firstToken] = link.exec(first.tracking_url)!;
    const [, , secondToken] = link.exec(second.tracking_url)!;
    expect(firstAwb).toBe(first.awb);
    expect(firstToken).not.toBe(secondToken);
    // A replay and the tracking hand out the same link: it is the shipment's, not the answer's.
    expect((await linking.createOrder(client, order(`${runId}-1`))).tracking_url).toBe(first.tracking_url);
    expect((await linking.trackOrder(client, first.awb)).track_url).toBe(first.tracking_url);
  });
});
