import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { CourierError, createCourierClient } from "~/shipping/client.server";
import { Ajv2020 } from "ajv/dist/2020.js";
import { MAX_JSON_DEPTH, SERVICE_OPERATION_NAMES } from "~/shipping/contract";
import { serveEmbeddedService } from "~/courier-service/embedded.server";
import { createServiceHandler } from "~/courier-service/http.server";
import type { buildOpenApiDocument } from "~/courier-service/openapi";
import { ensureSandbox } from "~/courier-service/sandbox-seed.server";
import { sandboxAccountCredentials } from "~/shipping/sandbox-accounts.server";
import { serveFetch } from "../../store/serve-fetch";
import { SANDBOX_KEY, SANDBOX_SECRET, startCourierService, type RunningCourierService } from "../support/courier-service";
import { createAnswerJudge } from "../support/openapi-answers";
import { sampleOrder } from "../support/orders";

let courier: RunningCourierService;
beforeAll(async () => {
  courier = await startCourierService();
});
afterAll(() => courier.close());
// Every answer of every test here, successes and refusals alike, is one the service's OpenAPI document allows.
afterEach(() => {
  const outside = courier.answersOutsideTheDocument.splice(0);
  expect(outside).toEqual([]);
});

async function failureOf(promise: Promise<unknown>): Promise<CourierError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CourierError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

const rawPost = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${courier.url}${path}`, {
    method: "POST",
    headers: { "X-Api-Key": SANDBOX_KEY, "X-Secret-Key": SANDBOX_SECRET, "Content-Type": "application/json", ...headers },
    body,
  });

describe("calculate-rate", () => {
  const parcel = { shipment_type: "forward", payment_mode: "prepaid", length: 30, breadth: 25, height: 8, actual_weight: 0.9, amount: 2297 } as const;

  it("quotes every courier that serves the route, with total_logistics equal to the list", async () => {
    const rates = await courier.client().calculateRate({ ...parcel, pickup: 421302, delivery: "560038" });
    expect(rates.logistics.map((option) => option.name)).toEqual(["Delhivery", "Bluedart", "XpressBees", "DTDC"]);
    expect(rates.total_logistics).toBe(4);
    for (const option of rates.logistics) {
      expect(option.zone).toBe("D");
      expect(option.chargeable_weight).toBe("1.5 KG");
      expect(option.cod_charges).toBe(0);
      expect(option.total_charges).toBe(option.freight_charges);
      expect(option.edd).toMatch(/^\d+ - \d+$/);
    }
  });

  it("leaves out a courier that does not serve the zone", async () => {
    const rates = await courier.client().calculateRate({ ...parcel, pickup: 421302, delivery: 781001 });
    expect(rates.logistics.map((option) => option.name)).toEqual(["Delhivery", "Bluedart", "DTDC"]);
    expect(rates.total_logistics).toBe(3);
    expect(rates.logistics.every((option) => option.zone === "E")).toBe(true);
  });

  it("quotes nothing for a PIN code no courier serves", async () => {
    const rates = await courier.client().calculateRate({ ...parcel, pickup: 421302, delivery: 900001 });
    expect(rates).toEqual({ success: true, logistics: [], total_logistics: 0 });
  });
});

describe("create-order, get-order, track-order", () => {
  it("books an order whose zone and charges match the quote, and stores every field", async () => {
    const client = courier.client();
    const order = sampleOrder({
      alt_mobile: "09845012345",
      company_name: "Rao Textiles",
      email: "asha@example.in",
      gst_number: "29ABCDE1234F1Z5",
      discount: 100,
      shipping_charge: 49,
      transaction_charge: 10,
      giftwrap_charge: 25,
      ewaybill_no: "EWB123456789",
      delivery_remarks: "Call before delivery",
      order_type: "forward",
    });
    const quote = await client.calculateRate({
      shipment_type: "forward",
      payment_mode: "cod",
      pickup: 421302,
      delivery: 560038,
      length: 30,
      breadth: 25,
      height: 8,
      actual_weight: 0.9,
      amount: 2297,
    });

    const created = await client.createOrder(order);
    const details = await client.getOrder(created.awb);
    const delhivery = quote.logistics.find((option) => option.id === 1)!;

    expect(created.logistic).toBe("Delhivery");
    expect(created.tracking_url).toContain(created.awb);
    expect(created.additional_info).toMatch(/^Sandbox shipment/);
    expect(details).toMatchObject({
      order_id: order.order_id,
      awb: created.awb,
      order_status: "MANIFESTED",
      customer_name: "Asha Rao",
      customer_email: "asha@example.in",
      alt_mobile: "09845012345",
      customer_company_name: "Rao Textiles",
      customer_gst_number: "29ABCDE1234F1Z5",
      address_line_2: "Near 100 Feet Road",
      pincode: 560038,
      package_width: 25,
      actual_weight: 0.9,
      discount: 100,
      shipping_charge: 49,
      transaction_charge: 10,
      giftwrap_charge: 25,
      total_amount: 2297,
      ewaybill_no: "EWB123456789",
      delivery_remarks: "Call before delivery",
      zone: delhivery.zone,
      logistic_data: { name: "Delhivery", mode: "surface" },
      warehouse_id: expect.any(Number),
    });
    const stored = await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: created.awb } });
    expect(stored.totalChargesPaise).toBe(Math.round(delhivery.total_charges * 100));
    expect(details.products).toHaveLength(2);
  });

  it("takes total_price as total_amount, as the spec's sample sends it", async () => {
    const { total_amount, ...rest } = sampleOrder();
    const created = await courier.client().createOrder({ ...rest, total_price: total_amount } as never);
    expect((await courier.client().getOrder(created.awb)).total_amount).toBe(total_amount);
  });

  it("picks up from the primary warehouse unless told otherwise", async () => {
    const client = courier.client();
    const primary = await client.createOrder(sampleOrder());
    const gurugram = { id: 2 };
    const chosen = await client.createOrder(sampleOrder({ warehouse_id: gurugram.id }));
    const primaryWarehouse = await client.getWarehouse((await client.getOrder(primary.awb)).warehouse_id);
    expect(primaryWarehouse).toMatchObject({ city: "Bhiwandi", pincode: 421302, is_active: true });
    expect((await client.getOrder(chosen.awb)).warehouse_id).toBe(gurugram.id);
  });

  it("flags a missing e-waybill at ₹50,000 or more, and books the order", async () => {
    const created = await courier.client().createOrder(sampleOrder({ total_amount: 50_000, payment_mode: "prepaid" }));
    expect(created.message).toMatch(/ewaybill_no/);
    const under = await courier.client().createOrder(sampleOrder({ total_amount: 49_999 }));
    expect(under.message).toBe("Order created successfully");
  });

  it("starts tracking at Manifested and moves on with the sandbox clock", async () => {
    const created = await courier.client().createOrder(sampleOrder());
    const first = await courier.client().trackOrder(created.awb);
    expect(first.tracking_history.map((entry) => entry.service_status)).toEqual([2]);
    expect(first.order_status).toBe("MANIFESTED");
    expect(first.delivered_date).toBe("");

    courier.setNow(new Date(Date.now() + 30 * 86_400_000));
    try {
      const later = await courier.client().trackOrder(created.awb);
      const codes = later.tracking_history.map((entry) => entry.service_status);
      expect(codes.length).toBeGreaterThan(3);
      const times = later.tracking_history.map((entry) => Date.parse(entry.timestamp));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      expect([8, 12, 14, 15]).toContain(codes[codes.length - 1]);
      // The same awb tells the same story on every read.
      expect((await courier.client().trackOrder(created.awb)).tracking_history).toEqual(later.tracking_history);
    } finally {
      courier.setNow(new Date());
    }
  });
});

describe("idempotent creation", () => {
  it("replays the same order_id and payload with the original awb", async () => {
    const order = sampleOrder();
    const first = await courier.client().createOrder(order);
    const again = await courier.client().createOrder(order);
    expect(again).toEqual(first);
    expect(await prisma.serviceOrder.count({ where: { orderId: order.order_id } })).toBe(1);
  });

  it("sends a stored body again days later, past the order_date window, and gets the original awb; a first send that old is refused before it leaves", async () => {
    const order = sampleOrder();
    const first = await courier.client().createOrder(order);
    // Eight days on: the answer was lost, and the watchdog (or a cancellation) sends the stored body again.
    const later = courier.client({ now: () => new Date(Date.now() + 8 * 86_400_000) });
    expect(await later.createOrder(order, { stored: true })).toEqual(first);
    expect(await prisma.serviceOrder.count({ where: { orderId: order.order_id } })).toBe(1);
    const fresh = sampleOrder();
    const refused = await failureOf(later.createOrder(fresh));
    expect(refused).toMatchObject({ kind: "invalid", fieldErrors: [expect.objectContaining({ field: "order_date" })] });
    // Stored but never sent: the service refuses the new order itself, as too old.
    const unsent = await failureOf(later.createOrder(sampleOrder({ order_date: new Date(Date.now() - 9 * 86_400_000).toISOString().slice(0, 10) }), { stored: true }));
    expect(unsent).toMatchObject({ kind: "invalid", status: 422 });
    expect(await prisma.serviceOrder.count({ where: { orderId: fresh.order_id } })).toBe(0);
  });

  it("refuses the same order_id with a different payload (409)", async () => {
    const order = sampleOrder();
    await courier.client().createOrder(order);
    const failure = await failureOf(courier.client().createOrder({ ...order, total_amount: 1 }));
    expect(failure.kind).toBe("conflict");
    expect(failure.status).toBe(409);
    expect(failure.fieldErrors[0]?.field).toBe("order_id");
  });

  it("gives concurrent creates of one order a single awb", async () => {
    const order = sampleOrder();
    const results = await Promise.all(Array.from({ length: 10 }, () => courier.client().createOrder(order)));
    expect(new Set(results.map((result) => result.awb)).size).toBe(1);
    expect(await prisma.serviceOrder.count({ where: { orderId: order.order_id } })).toBe(1);
  });
});

describe("cancel-order", () => {
  it("cancels, records code 10, and refuses the order_id afterwards", async () => {
    const order = sampleOrder();
    const created = await courier.client().createOrder(order);
    const cancelled = await courier.client().cancelOrder(created.awb);
    expect(cancelled).toMatchObject({ awb: created.awb, order_status: "CANCELLED" });
    expect(await courier.client().cancelOrder(created.awb)).toEqual(cancelled);

    const tracking = await courier.client().trackOrder(created.awb);
    expect(tracking.tracking_history.at(-1)?.service_status).toBe(10);
    expect((await courier.client().getOrder(created.awb)).order_status).toBe("CANCELLED");

    const reuse = await failureOf(courier.client().createOrder(order));
    expect(reuse.status).toBe(409);
    expect(reuse.message).toMatch(/cancelled/);
  });

  it("refuses to cancel a shipment already picked up", async () => {
    const created = await courier.client().createOrder(sampleOrder());
    await courier.client().advanceSandboxShipment(created.awb, 5);
    const failure = await failureOf(courier.client().cancelOrder(created.awb));
    expect(failure.status).toBe(409);
    expect(failure.message).toMatch(/In Transit/);
  });
});

describe("sandbox advance", () => {
  it("moves one stage, or along the graph to a code", async () => {
    const created = await courier.client().createOrder(sampleOrder());
    const next = await courier.client().advanceSandboxShipment(created.awb);
    expect(next.tracking_history.map((entry) => entry.service_status)).toEqual([2, 3]);
    expect(next.order_status).toBe("OUTFORPICKUP");

    const delivered = await courier.client().advanceSandboxShipment(created.awb, 8);
    expect(delivered.tracking_history.map((entry) => entry.service_status)).toEqual([2, 3, 5, 6, 7, 8]);
    expect(delivered.order_status).toBe("DELIVERED");
    expect(delivered.delivered_date).not.toBe("");

    const stuck = await failureOf(courier.client().advanceSandboxShipment(created.awb));
    expect(stuck.status).toBe(409);
  });

  it("says a parcel's stage and delivery date as its history does, even when the order is read before a step commits", async () => {
    const created = await courier.client().createOrder(sampleOrder());
    await courier.client().advanceSandboxShipment(created.awb, 7);
    // A step and the order's own stage and delivery date commit together, but a read takes the order and then its
    // history: a Delivered step committed in between is what that second statement sees beside the order as it was.
    const order = await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: created.awb }, include: { events: { orderBy: { step: "desc" }, take: 1 } } });
    const deliveredAt = new Date(order.events[0]!.happenedAt.getTime() + 60_000);
    await prisma.serviceTrackingEvent.create({ data: { orderId: order.id, step: order.events[0]!.step + 1, code: 8, location: "Bengaluru", activity: "Delivered to the consignee", happenedAt: deliveredAt } });
    const tracked = await courier.client().trackOrder(created.awb);
    expect(tracked.tracking_history.map((entry) => entry.service_status)).toEqual([2, 3, 5, 6, 7, 8]);
    expect(tracked).toMatchObject({ order_status: "DELIVERED", delivered_date: deliveredAt.toISOString() });
    expect((await courier.client().getOrder(created.awb)).order_status).toBe("DELIVERED");
  });

  it("takes exception paths: undelivered, return to origin", async () => {
    const created = await courier.client().createOrder(sampleOrder());
    await courier.client().advanceSandboxShipment(created.awb, 9);
    const returned = await courier.client().advanceSandboxShipment(created.awb, 12);
    expect(returned.tracking_history.map((entry) => entry.service_status)).toEqual([2, 3, 5, 6, 7, 9, 11, 12]);
    expect(returned.order_status).toBe("RTODELIVERED");
    const illegal = await failureOf(courier.client().advanceSandboxShipment(created.awb, 8));
    expect(illegal.status).toBe(409);
  });
});

describe("sandbox failed attempts and re-attempts", () => {
  const codesOf = (tracking: { tracking_history: { service_status: number }[] }) => tracking.tracking_history.map((entry) => entry.service_status);

  /** A front of the service that passes each request on but, for the first `sandbox/…` move, holds the answer past the client's patience: the move is made, its answer lost. */
  async function answerLostOnce() {
    let lost = 0;
    const front = await serveFetch(async (request) => {
      const answer = await fetch(new Request(`${courier.url}${new URL(request.url).pathname}`, request));
      const body = await answer.text();
      if (lost === 0 && /\/v1\/sandbox\/(advance|reattempt)$/.test(new URL(request.url).pathname)) {
        lost += 1;
        await new Promise((resolve) => setTimeout(resolve, 1_500));
      }
      return new Response(body, { status: answer.status, headers: { "Content-Type": "application/json" } });
    });
    return { front, lost: () => lost };
  }

  it("fails an attempt with the reason asked, and a retried advance whose answer was lost changes nothing", async () => {
    const created = await courier.client().createOrder(sampleOrder());
    const { front, lost } = await answerLostOnce();
    try {
      const patient = courier.client({ sandboxUrl: front.url, timeoutMs: 1_000, attempts: 3 });
      const failed = await patient.advanceSandboxShipment(created.awb, 9, "address_incomplete");
      expect(lost()).toBe(1);
      expect(codesOf(failed)).toEqual([2, 3, 5, 6, 7, 9]);
      expect(failed.tracking_history.at(-1)!.activity).toBe("Delivery attempted: address incomplete; landmark needed");
      // One stage, asked again after a lost answer: moved once.
      const other = await courier.client().createOrder(sampleOrder());
      const { front: second, lost: lostSecond } = await answerLostOnce();
      try {
        const moved = await courier.client({ sandboxUrl: second.url, timeoutMs: 1_000, attempts: 3 }).advanceSandboxShipment(other.awb);
        expect(lostSecond()).toBe(1);
        expect(codesOf(moved)).toEqual([2, 3]);
      } finally {
        await second.close();
      }
    } finally {
      await front.close();
    }
    // Asked again by hand, the same move answers the shipment as it is.
    const again = await rawPost("/v1/sandbox/advance", JSON.stringify({ awb: created.awb, to: 9 }));
    expect(again.status).toBe(200);
    expect(codesOf((await again.json()) as { tracking_history: { service_status: number }[] })).toEqual([2, 3, 5, 6, 7, 9]);
  });

  it("varies the reasons of its own failed attempts, as couriers' NDR reasons", async () => {
    const reasons = new Set<string>();
    for (let index = 0; index < 12; index += 1) {
      const created = await courier.client().createOrder(sampleOrder());
      const failed = await courier.client().advanceSandboxShipment(created.awb, 9);
      reasons.add(failed.tracking_history.at(-1)!.activity);
    }
    expect(reasons.size).toBeGreaterThanOrEqual(3);
    for (const reason of reasons) expect(reason).toMatch(/^Delivery attempted: (consignee not available|address incomplete; landmark needed|consignee refused the delivery|COD amount not ready|premises closed|consignee asked for delivery another day)$/);
  });

  it("re-attempts: out again and delivered; failed again, then back to origin; a retry whose answer was lost changes nothing", async () => {
    const saved = await courier.client().createOrder(sampleOrder());
    await courier.client().advanceSandboxShipment(saved.awb, 9, "consignee_unavailable");
    const { front, lost } = await answerLostOnce();
    try {
      const delivered = await courier.client({ sandboxUrl: front.url, timeoutMs: 1_000, attempts: 3 }).reattemptSandboxShipment(saved.awb, 1, "delivered");
      expect(lost()).toBe(1);
      expect(codesOf(delivered)).toEqual([2, 3, 5, 6, 7, 9, 7, 8]);
      expect(delivered.order_status).toBe("DELIVERED");
    } finally {
      await front.close();
    }
    // The first attempt was delivered on its re-attempt: it cannot go back as well.
    const refused = await failureOf(courier.client().reattemptSandboxShipment(saved.awb, 1, "rto"));
    expect(refused.status).toBe(409);
    expect(refused.message).toMatch(/Failed attempt 1 was followed by Out for Delivery \(7\) already/);
    expect(refused.fieldErrors[0]!.field).toBe("attempt");

    const back = await courier.client().createOrder(sampleOrder());
    await courier.client().advanceSandboxShipment(back.awb, 9, "cod_not_ready");
    const again = await courier.client().reattemptSandboxShipment(back.awb, 1, "failed", "refused");
    expect(codesOf(again)).toEqual([2, 3, 5, 6, 7, 9, 7, 9]);
    expect(again.tracking_history.at(-1)!.activity).toBe("Delivery attempted: consignee refused the delivery");
    const tooFar = await failureOf(courier.client().reattemptSandboxShipment(back.awb, 3, "rto"));
    expect(tooFar.status).toBe(409);
    expect(tooFar.message).toMatch(/has had 2 failed delivery attempts/);
    const returning = await courier.client().reattemptSandboxShipment(back.awb, 2, "rto");
    expect(codesOf(returning)).toEqual([2, 3, 5, 6, 7, 9, 7, 9, 11]);
    expect(returning.order_status).toBe("RTO");
    // Each earlier step asked again is answered as it is.
    expect(codesOf(await courier.client().reattemptSandboxShipment(back.awb, 1, "failed"))).toEqual(codesOf(returning));
    expect(codesOf(await courier.client().reattemptSandboxShipment(back.awb, 2, "rto"))).toEqual(codesOf(returning));
  });

  it("refuses what it cannot do with a 4xx naming the field", async () => {
    const created = await courier.client().createOrder(sampleOrder());
    const notFailed = await rawPost("/v1/sandbox/reattempt", JSON.stringify({ awb: created.awb, attempt: 1, result: "delivered" }));
    expect(notFailed.status).toBe(409);
    expect(((await notFailed.json()) as { message: string }).message).toMatch(/has had 0 failed delivery attempts/);
    for (const [body, field] of [
      [{ awb: created.awb, attempt: 0, result: "delivered" }, "attempt"],
      [{ awb: created.awb, attempt: 1.5, result: "delivered" }, "attempt"],
      [{ awb: created.awb, attempt: 21, result: "delivered" }, "attempt"],
      [{ awb: created.awb, attempt: 1, result: "lost" }, "result"],
      [{ awb: created.awb, attempt: 1, result: "delivered", reason: "refused" }, "reason"],
      [{ awb: created.awb, attempt: 1, result: "failed", reason: "weather" }, "reason"],
      [{ awb: created.awb, to: 8, reason: "refused" }, "reason"],
    ] as const) {
      const path = "to" in body ? "/v1/sandbox/advance" : "/v1/sandbox/reattempt";
      const answer = await rawPost(path, JSON.stringify(body));
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(((await answer.json()) as { errors: { field: string }[] }).errors.map((error) => error.field)).toContain(field);
    }
    const unknown = await rawPost("/v1/sandbox/reattempt", JSON.stringify({ awb: "NOPE12345", attempt: 1, result: "delivered" }));
    expect(unknown.status).toBe(404);
  });
});

describe("sandbox accounts and erasure", () => {
  const master = { apiKey: SANDBOX_KEY, secretKey: SANDBOX_SECRET };
  const accountClient = (account: string) => courier.client(sandboxAccountCredentials(master, account));

  it("opens an account of its own for each derived key pair, with its own warehouses 1 and 2 and order ids", async () => {
    const first = accountClient(`acct-${Date.now()}-a.example`);
    const second = accountClient(`acct-${Date.now()}-b.example`);
    expect((await first.getWarehouse(1)).city).toBe("Bhiwandi");
    expect((await second.getWarehouse(2)).city).toBe("Gurugram");
    const mine = await first.createOrder(sampleOrder({ order_id: "1001" }));
    const theirs = await second.createOrder(sampleOrder({ order_id: "1001" }));
    expect(mine.awb).not.toBe(theirs.awb);
    // Each account sees only its own shipments.
    expect((await failureOf(second.getOrder(mine.awb))).kind).toBe("not_found");
  });

  it("refuses a derived key with a secret that was not derived for it", async () => {
    const { apiKey } = sandboxAccountCredentials(master, "someone.example");
    const forged = courier.client({ apiKey, secretKey: sandboxAccountCredentials(master, "someone-else.example").secretKey });
    expect((await failureOf(forged.getWarehouse(1))).kind).toBe("unauthorized");
    expect(await prisma.apiClient.count({ where: { name: "someone.example" } })).toBe(0);
  });

  it("erases one account's orders and leaves every other account's, and redacts a shopper by awb", async () => {
    const stamp = Date.now();
    const erased = accountClient(`shop-${stamp}.example`);
    const neighbour = accountClient(`shop-${stamp}-2.example`);
    const gone = await erased.createOrder(sampleOrder({ order_id: "7" }));
    const kept = await neighbour.createOrder(sampleOrder({ order_id: "7", name: "Meera Nair" }));
    const redacted = await neighbour.createOrder(sampleOrder({ order_id: "8", name: "Kavya Joshi" }));

    expect(await erased.eraseSandboxAccount()).toEqual({ success: true, erased_orders: 1 });
    expect(await prisma.serviceOrder.count({ where: { awb: gone.awb } })).toBe(0);
    // The same keys open a fresh account at once, never the erased one.
    expect((await erased.getWarehouse(1)).city).toBe("Bhiwandi");
    expect((await failureOf(erased.getOrder(gone.awb))).kind).toBe("not_found");
    expect((await erased.createOrder(sampleOrder({ order_id: "7" }))).awb).not.toBe(gone.awb);
    expect((await neighbour.getOrder(kept.awb)).customer_name).toBe("Meera Nair");

    expect(await neighbour.redactSandboxOrders([redacted.awb, gone.awb])).toEqual({ success: true, redacted_orders: 1 });
    expect(await neighbour.getOrder(redacted.awb)).toMatchObject({ customer_name: "[redacted]", mobile: "[redacted]", address_line_1: "[redacted]", awb: redacted.awb });
    expect((await neighbour.getOrder(kept.awb)).customer_name).toBe("Meera Nair");
  });

  it("will not erase the shared sandbox account", async () => {
    expect(await failureOf(courier.client().eraseSandboxAccount())).toMatchObject({ kind: "conflict", status: 409 });
  });
});

describe("errors", () => {
  it("401 for wrong credentials, and the old sandbox pair stops working when it changes", async () => {
    const failure = await failureOf(courier.client({ secretKey: "wrong-secret" }).getWarehouse(1));
    expect(failure).toMatchObject({ kind: "unauthorized", status: 401 });

    // Working until the moment it changes.
    expect((await courier.client().getWarehouse(1)).city).toBe("Bhiwandi");
    await ensureSandbox(prisma, "rotated_key_1", "rotated_secret_1");
    try {
      expect((await failureOf(courier.client().getWarehouse(1))).status).toBe(401);
      const rotated = courier.client({ apiKey: "rotated_key_1", secretKey: "rotated_secret_1" });
      expect((await rotated.calculateRate({ shipment_type: "forward", payment_mode: "cod", pickup: 421302, delivery: 400001, length: 10, breadth: 10, height: 10, actual_weight: 1, amount: 100 })).total_logistics).toBe(4);
    } finally {
      await ensureSandbox(prisma, SANDBOX_KEY, SANDBOX_SECRET);
    }
  });

  it("404 for an unknown awb or warehouse", async () => {
    expect(await failureOf(courier.client().trackOrder("NO-SUCH-AWB"))).toMatchObject({ kind: "not_found", status: 404 });
    expect(await failureOf(courier.client().getOrder("NO-SUCH-AWB"))).toMatchObject({ status: 404 });
    expect(await failureOf(courier.client().getWarehouse(99999))).toMatchObject({ kind: "not_found", status: 404 });
  });

  it("400 for a body that is not a JSON object, 413 over 1 MB, each in the error shape", async () => {
    const notJson = await rawPost("/v1/create-order", "{not json");
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ success: false, message: "The body must be JSON" });
    expect((await rawPost("/v1/calculate-rate", "[1,2]")).status).toBe(400);

    const huge = await rawPost("/v1/create-order", JSON.stringify({ padding: "x".repeat(1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ success: false, message: "The body is larger than 1 MB", errors: [] });
  });

  it("422 lists every bad field at once and writes nothing", async () => {
    const before = await prisma.serviceOrder.count();
    const response = await rawPost(
      "/v1/create-order",
      JSON.stringify({ ...sampleOrder(), name: "", pincode: "5600", products: [], logistic_id: 7, email: "not-an-email" }),
    );
    expect(response.status).toBe(422);
    const body = (await response.json()) as { errors: { field: string }[] };
    expect(body.errors.map((error) => error.field).sort()).toEqual(["email", "logistic_id", "name", "pincode", "products"]);
    expect(await prisma.serviceOrder.count()).toBe(before);
  });

  it("surfaces the service's field errors unchanged", async () => {
    const failure = await failureOf(courier.client().createOrder(sampleOrder({ pincode: 781001, logistic_id: 3 })));
    expect(failure.kind).toBe("invalid");
    expect(failure.fieldErrors).toEqual([
      { field: "logistic_id", message: "XpressBees does not deliver from 421302 to 781001; choose another courier" },
    ]);
  });
});

describe("never answers a client's mistake with a 5xx", () => {
  const headers = { "X-Api-Key": SANDBOX_KEY, "X-Secret-Key": SANDBOX_SECRET };
  const POST_OPERATIONS = ["/v1/create-order", "/v1/calculate-rate", "/v1/cancel-order", "/v1/sandbox/advance"];
  const nestedArrays = (levels: number) => `{"products":${"[".repeat(levels)}${"]".repeat(levels)}}`;
  const nestedObjects = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

  type Mistake = { mistake: string; send: () => Promise<Response>; status: number; field?: string };

  const LARGEST_DOUBLE = 1.7976931348623157e308;
  const createWith = (overrides: Record<string, unknown>) => () => rawPost("/v1/create-order", JSON.stringify(sampleOrder(overrides)));
  const productWith = (overrides: Record<string, unknown>) => createWith({ products: [{ product_name: "Kurta", price: 1299, quantity: 1, ...overrides }] });
  const rateWith = (overrides: Record<string, unknown>) => () =>
    rawPost(
      "/v1/calculate-rate",
      JSON.stringify({ shipment_type: "forward", payment_mode: "cod", pickup: 421302, delivery: 560038, length: 10, breadth: 10, height: 10, actual_weight: 1, amount: 100, ...overrides }),
    );

  function textPastItsMaximum(): Mistake[] {
    const long = (length: number) => "x".repeat(length);
    const orderFields: [field: string, value: string][] = [
      ["order_id", long(65)],
      ["name", long(201)],
      ["company_name", long(201)],
      ["mobile", "9".repeat(21)],
      ["alt_mobile", "9".repeat(21)],
      ["email", `${long(250)}@x.in`],
      ["gst_number", long(21)],
      ["address_line_1", long(501)],
      ["address_line_2", long(501)],
      ["city", long(101)],
      ["state", long(101)],
      ["ewaybill_no", long(21)],
      ["delivery_remarks", long(501)],
    ];
    const productFields: [field: string, value: string][] = [
      ["product_name", long(256)],
      ["sku", long(101)],
    ];
    const awb = long(65);
    return [
      ...orderFields.map(([field, value]) => ({ mistake: `create-order ${field} of ${value.length} characters`, send: createWith({ [field]: value }), status: 422, field })),
      ...productFields.map(([field, value]) => ({
        mistake: `create-order product ${field} of ${value.length} characters`,
        send: productWith({ [field]: value }),
        status: 422,
        field: `products.0.${field}`,
      })),
      { mistake: "cancel-order awb of 65 characters", send: () => rawPost("/v1/cancel-order", JSON.stringify({ awb })), status: 422, field: "awb" },
      { mistake: "sandbox/advance awb of 65 characters", send: () => rawPost("/v1/sandbox/advance", JSON.stringify({ awb })), status: 422, field: "awb" },
      { mistake: "track-order awb of 65 characters", send: () => fetch(`${courier.url}/v1/track-order/${awb}`, { headers }), status: 422, field: "awb" },
      { mistake: "get-order awb of 5,000 digits", send: () => fetch(`${courier.url}/v1/get-order/${"9".repeat(5000)}`, { headers }), status: 422, field: "awb" },
    ];
  }

  function numberPastItsMaximum(): Mistake[] {
    const orderFields: [field: string, value: number][] = [
      ...["total_amount", "total_price", "discount", "shipping_charge", "transaction_charge", "giftwrap_charge"].flatMap((field): [string, number][] => [
        [field, LARGEST_DOUBLE],
        [field, 10_000_000.01],
        [field, 10.005],
      ]),
      ["package_length", 2 ** 53],
      ["package_breadth", 501],
      ["package_height", LARGEST_DOUBLE],
      ["package_weight", LARGEST_DOUBLE],
      ["package_weight", 1000.001],
      ["package_weight", 0.0005],
      ["warehouse_id", 2 ** 31],
      ["warehouse_id", LARGEST_DOUBLE],
    ];
    const productFields: [field: string, value: number][] = [
      ["price", LARGEST_DOUBLE],
      ["price", 0.001],
      ["tax", 10_000_001],
      ["discount", LARGEST_DOUBLE],
      ["quantity", 10_001],
      ["quantity", 2 ** 53],
    ];
    const rateFields: [field: string, value: number][] = [
      ["amount", LARGEST_DOUBLE],
      ["amount", 99.999],
      ["length", 2 ** 53],
      ["breadth", 501],
      ["height", LARGEST_DOUBLE],
      ["actual_weight", LARGEST_DOUBLE],
      ["actual_weight", 1.0001],
    ];
    return [
      ...orderFields.map(([field, value]) => ({ mistake: `create-order ${field} ${value}`, send: createWith({ [field]: value }), status: 422, field })),
      ...productFields.map(([field, value]) => ({ mistake: `create-order product ${field} ${value}`, send: productWith({ [field]: value }), status: 422, field: `products.0.${field}` })),
      ...rateFields.map(([field, value]) => ({ mistake: `calculate-rate ${field} ${value}`, send: rateWith({ [field]: value }), status: 422, field })),
      ...[16, 2 ** 53, LARGEST_DOUBLE].map((to) => ({
        mistake: `sandbox/advance to ${to}`,
        send: () => rawPost("/v1/sandbox/advance", JSON.stringify({ awb: "1234567890", to })),
        status: 422,
        field: "to",
      })),
    ];
  }
  /** Text PostgreSQL cannot hold (NUL) or a label cannot print: refused naming the field, never a 500. */
  function textThatCannotBeStored(): Mistake[] {
    const orderFields = ["order_id", "name", "company_name", "mobile", "alt_mobile", "gst_number", "address_line_1", "address_line_2", "city", "state", "ewaybill_no", "delivery_remarks"];
    const characters: [what: string, value: (field: string) => string][] = [
      ["NUL", (field) => (field.includes("mobile") ? "98200\u000012345" : "Asha\u0000Rao")],
      ["a bell", () => "Asha\u0007"],
      ["an escape", () => "\u001b[31mAsha"],
      ["a C1 control", () => "Asha\u0085Rao"],
      ["a lone surrogate", () => "Asha\ud800"],
    ];
    const awbs = ["12345\u0000678", "12345\n678", "\ud83d12345678"];
    return [
      ...orderFields.flatMap((field) =>
        characters.map(([what, value]) => ({ mistake: `create-order ${field} with ${what}`, send: createWith({ [field]: value(field) }), status: 422, field })),
      ),
      ...["name", "address_line_1", "city", "order_id"].map((field) => ({ mistake: `create-order ${field} with a line break`, send: createWith({ [field]: "Asha\nRao" }), status: 422, field })),
      { mistake: "create-order email with NUL", send: createWith({ email: "asha\u0000@example.in" }), status: 422, field: "email" },
      ...["product_name", "sku"].map((field) => ({ mistake: `create-order product ${field} with NUL`, send: productWith({ [field]: "Kurta\u0000" }), status: 422, field: `products.0.${field}` })),
      ...awbs.flatMap((awb): Mistake[] => [
        { mistake: `cancel-order awb ${JSON.stringify(awb)}`, send: () => rawPost("/v1/cancel-order", JSON.stringify({ awb })), status: 422, field: "awb" },
        { mistake: `sandbox/advance awb ${JSON.stringify(awb)}`, send: () => rawPost("/v1/sandbox/advance", JSON.stringify({ awb })), status: 422, field: "awb" },
        { mistake: `sandbox/redact-orders awb ${JSON.stringify(awb)}`, send: () => rawPost("/v1/sandbox/redact-orders", JSON.stringify({ awbs: [awb] })), status: 422, field: "awbs.0" },
      ]),
      ...["track-order", "get-order"].flatMap((operation): Mistake[] =>
        ["AB%00CD", "AB%0ACD", "AB%0DCD", "%1B%5B31m", "AB%C2%85CD"].map((awb) => ({
          mistake: `${operation}/${awb}`,
          send: () => fetch(`${courier.url}/v1/${operation}/${awb}`, { headers }),
          status: 422,
          field: "awb",
        })),
      ),
      { mistake: "get-warehouse/1%00", send: () => fetch(`${courier.url}/v1/get-warehouse/1%00`, { headers }), status: 404 },
    ];
  }

  const mistakes: Mistake[] = [
    { mistake: "a PIN code with a blank before it", send: createWith({ pincode: " 560001" }), status: 422, field: "pincode" },
    { mistake: "a PIN code with a blank after it", send: createWith({ pincode: "560001 " }), status: 422, field: "pincode" },
    { mistake: "a PIN code of 6 digits and a fraction", send: createWith({ pincode: 560001.5 }), status: 422, field: "pincode" },
    { mistake: "a pickup PIN code with a line break", send: rateWith({ pickup: "421302\n" }), status: 422, field: "pickup" },
    { mistake: "a delivery PIN code as 5 digits", send: rateWith({ delivery: 56003 }), status: 422, field: "delivery" },
    { mistake: "a malformed escape in a path", send: () => fetch(`${courier.url}/v1/track-order/%E0%A4%A`, { headers }), status: 404 },
    { mistake: "a negative warehouse id", send: () => fetch(`${courier.url}/v1/get-warehouse/-1`, { headers }), status: 404 },
    { mistake: "GET on a POST operation", send: () => fetch(`${courier.url}/v1/create-order`, { headers }), status: 405 },
    { mistake: "an unknown path", send: () => fetch(`${courier.url}/v1/nowhere`, { headers }), status: 404 },
    {
      mistake: "wrong types everywhere",
      send: () => rawPost("/v1/create-order", JSON.stringify({ ...sampleOrder(), products: [null], pincode: { nested: true }, order_id: 42 })),
      status: 422,
      field: "pincode",
    },
    { mistake: "a status code as a word", send: () => rawPost("/v1/sandbox/advance", JSON.stringify({ awb: "nope", to: "eight" })), status: 422, field: "to" },
    { mistake: "a null body", send: () => rawPost("/v1/cancel-order", "null"), status: 400, field: "body" },
    ...POST_OPERATIONS.flatMap((path): Mistake[] => [
      { mistake: `${path}: arrays nested 3,000 deep`, send: () => rawPost(path, nestedArrays(3000)), status: 400, field: "body" },
      { mistake: `${path}: objects nested 3,000 deep`, send: () => rawPost(path, nestedObjects(3000)), status: 400, field: "body" },
      { mistake: `${path}: one level past the limit`, send: () => rawPost(path, nestedObjects(MAX_JSON_DEPTH + 1)), status: 400, field: "body" },
      { mistake: `${path}: a list of 100,000 entries`, send: () => rawPost(path, `{"products":[${Array(100_000).fill("1").join(",")}]}`), status: 400, field: "body" },
    ]),
    ...numberPastItsMaximum(),
    ...textPastItsMaximum(),
    ...textThatCannotBeStored(),
  ];

  const rowCounts = async () => ({ orders: await prisma.serviceOrder.count(), events: await prisma.serviceTrackingEvent.count() });

  it.each(mistakes)("$mistake → $status, and nothing is written", async ({ send, status, field }) => {
    const before = await rowCounts();
    const answer = await send();
    expect(answer.status).toBe(status);
    const body = (await answer.json()) as { errors: { field: string; message: string }[] };
    expect(body).toMatchObject({ success: false, message: expect.any(String), errors: expect.any(Array) });
    if (field) expect(body.errors.map((error) => error.field)).toContain(field);
    expect(await rowCounts()).toEqual(before);
  });

  it("takes line breaks and tabs in delivery remarks, blanks around text, and a PIN code as a number or 6-digit string", async () => {
    const client = courier.client();
    const remarks = "Ring twice.\r\nLeave with the guard\tif out.";
    const created = await client.createOrder(sampleOrder({ delivery_remarks: remarks, name: "  Asha Rao  ", pincode: "560038" }));
    const stored = await client.getOrder(created.awb);
    expect(stored).toMatchObject({ delivery_remarks: remarks, customer_name: "Asha Rao", pincode: 560038 });
    expect((await client.createOrder(sampleOrder({ pincode: 560038 }))).awb).toBeTruthy();
  });

  it("takes a body nested to the limit as an ordinary body, judged field by field", async () => {
    const answer = await rawPost("/v1/calculate-rate", nestedObjects(MAX_JSON_DEPTH));
    expect(answer.status).toBe(422);
    expect(((await answer.json()) as { errors: { field: string }[] }).errors.map((error) => error.field)).toContain("shipment_type");
  });
});

describe("the client", () => {
  it("validates before sending: nothing reaches the service", async () => {
    const before = courier.requests;
    const failure = await failureOf(courier.client().createOrder(sampleOrder({ pincode: 12345, package_length: 1 })));
    expect(failure.kind).toBe("invalid");
    expect(failure.fieldErrors.map((error) => error.field)).toEqual(["pincode", "package_length"]);
    const longAwb = "1".repeat(65);
    for (const call of [
      () => courier.client().trackOrder(longAwb),
      () => courier.client().getOrder(longAwb),
      () => courier.client().cancelOrder(longAwb),
      () => courier.client().advanceSandboxShipment(longAwb),
      () => courier.client().advanceSandboxShipment("1234567890", 99),
    ]) {
      expect((await failureOf(call())).kind).toBe("invalid");
    }
    expect(courier.requests).toBe(before);
  });

  it("retries 5xx and network failures, then succeeds; never retries a 4xx", async () => {
    let calls = 0;
    const flaky = await serveFetch(async (request) => {
      calls += 1;
      if (calls <= 2) return new Response(JSON.stringify({ success: false, message: "busy", errors: [] }), { status: 503 });
      return fetch(new Request(`${courier.url}${new URL(request.url).pathname}`, request));
    });
    try {
      const warehouse = await courier.client({ sandboxUrl: flaky.url }).getWarehouse(1);
      expect(warehouse.city).toBe("Bhiwandi");
      expect(calls).toBe(3);

      const before = courier.requests;
      await failureOf(courier.client().trackOrder("NOPE"));
      expect(courier.requests - before).toBe(1);
    } finally {
      await flaky.close();
    }
  });

  it("gives up on a silent service after its attempts, as unavailable", async () => {
    let calls = 0;
    const silent = await serveFetch(async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return new Response("{}");
    });
    try {
      const failure = await failureOf(courier.client({ sandboxUrl: silent.url, timeoutMs: 150, attempts: 2 }).getWarehouse(1));
      expect(failure).toMatchObject({ kind: "unavailable", retryable: true });
      expect(failure.message).toMatch(/no answer within 150 ms/);
      expect(calls).toBe(2);
    } finally {
      await silent.close();
    }
  });

  it("names the field when an answer breaks the spec", async () => {
    const broken = await serveFetch(() => new Response(JSON.stringify({ success: true, logistics: [], total_logistics: "0" })));
    try {
      const failure = await failureOf(
        createCourierClient({ apiKey: "k", secretKey: "s", environment: "test", sandboxUrl: broken.url }).calculateRate({
          shipment_type: "forward",
          payment_mode: "cod",
          pickup: 421302,
          delivery: 560038,
          length: 10,
          breadth: 10,
          height: 10,
          actual_weight: 1,
          amount: 100,
        }),
      );
      expect(failure.kind).toBe("bad_response");
      expect(failure.message).toMatch(/total_logistics/);
    } finally {
      await broken.close();
    }
  });

  it("refuses an answer whose tracking address is not a web address, naming the field", async () => {
    const created = await courier.client().createOrder(sampleOrder());
    const tracked = await courier.client().trackOrder(created.awb);
    let unsafe = "javascript:alert(document.cookie)";
    // A service gone wrong: its answers are real ones with the tracking address swapped.
    const fake = await serveFetch((request) =>
      new URL(request.url).pathname === "/v1/create-order"
        ? Response.json({ ...created, tracking_url: unsafe })
        : Response.json({ ...tracked, track_url: unsafe }),
    );
    try {
      const client = courier.client({ sandboxUrl: fake.url });
      for (const scheme of ["javascript:alert(document.cookie)", "data:text/html,<script>alert(1)</script>", "http://tracking.example.in/1"]) {
        unsafe = scheme;
        const booking = await failureOf(client.createOrder(sampleOrder()));
        expect(booking.kind, scheme).toBe("bad_response");
        expect(booking.message).toMatch(/tracking_url/);
        const tracking = await failureOf(client.trackOrder(created.awb));
        expect(tracking.kind, scheme).toBe("bad_response");
        expect(tracking.message).toMatch(/track_url/);
      }
      unsafe = "http://127.0.0.1:41000/track/1";
      expect((await client.trackOrder(created.awb)).track_url).toBe(unsafe);
    } finally {
      await fake.close();
    }
  });

  it("sends live accounts to the production address only", async () => {
    const failure = await failureOf(courier.client({ environment: "live", productionUrl: undefined }).getWarehouse(1));
    expect(failure.message).toMatch(/COURIER_PRODUCTION_URL/);
    expect(courier.client({ environment: "live", productionUrl: courier.url }).baseUrl).toBe(courier.url);
  });
});

describe("OpenAPI", () => {
  it("is served without credentials and generated from the schemas", async () => {
    const response = await fetch(`${courier.url}/v1/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      openapi: string;
      paths: Record<string, unknown>;
      components: { schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }> };
    };
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(["/v1/create-order", "/v1/calculate-rate", "/v1/get-warehouse/{id}", "/v1/track-order/{awb}", "/v1/get-order/{awb}", "/v1/cancel-order"]));
    expect(document.components.schemas.RateRequest?.required).toEqual(
      expect.arrayContaining(["shipment_type", "payment_mode", "pickup", "delivery", "length", "breadth", "height", "actual_weight", "amount"]),
    );
    expect(document.components.schemas.OrderDetails?.properties).toHaveProperty("package_width");
  });

  it("documents the 429 for too many failed authentications, with Retry-After, on every authenticated operation", async () => {
    type Operation = { security?: unknown[]; responses: Record<string, { headers?: Record<string, { schema: { type: string } }>; content?: unknown }> };
    const document = (await (await fetch(`${courier.url}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, Operation>> };
    const operations = Object.entries(document.paths)
      .filter(([path]) => path !== "/v1/openapi.json")
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ name: `${method} ${path}`, operation })));
    expect(operations).toHaveLength(SERVICE_OPERATION_NAMES.length);
    for (const { name, operation } of operations) {
      expect(operation.security, name).toBeDefined();
      expect(operation.responses["429"]?.headers?.["Retry-After"]?.schema.type, name).toBe("integer");
      expect(operation.responses["429"]?.content, name).toEqual({ "application/json": { schema: { $ref: "#/components/schemas/ErrorResult" } } });
    }
  });

  it("shows every numeric maximum the service enforces", async () => {
    const document = (await (await fetch(`${courier.url}/v1/openapi.json`)).json()) as { components: { schemas: Record<string, Schema> } };
    type Schema = { properties: Record<string, Schema>; items: Schema; [keyword: string]: unknown };
    const { CreateOrderRequest: order, RateRequest: rate, AdvanceRequest: advance } = document.components.schemas;
    const money = { minimum: 0, maximum: 10_000_000, multipleOf: 0.01 };
    for (const field of ["total_amount", "total_price", "discount", "shipping_charge", "transaction_charge", "giftwrap_charge"]) {
      expect(order!.properties[field], field).toMatchObject(money);
    }
    const product = order!.properties.products!.items.properties;
    for (const field of ["price", "tax", "discount"]) expect(product[field], field).toMatchObject(money);
    expect(product.quantity).toMatchObject({ type: "integer", minimum: 1, maximum: 10_000 });
    for (const field of ["package_length", "package_breadth", "package_height"]) {
      expect(order!.properties[field], field).toMatchObject({ type: "integer", exclusiveMinimum: 1, maximum: 500 });
    }
    expect(order!.properties.package_weight).toMatchObject({ exclusiveMinimum: 0, maximum: 1000, multipleOf: 0.001 });
    expect(order!.properties.warehouse_id).toMatchObject({ type: "integer", maximum: 2_147_483_647 });
    expect(rate!.properties.amount).toMatchObject(money);
    for (const field of ["length", "breadth", "height"]) expect(rate!.properties[field], field).toMatchObject({ maximum: 500 });
    expect(rate!.properties.actual_weight).toMatchObject({ maximum: 1000, multipleOf: 0.001 });
    expect(advance!.properties.to).toMatchObject({ enum: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] });
  });

  type Document = ReturnType<typeof buildOpenApiDocument>;
  const documentOf = async (url = courier.url, headers: Record<string, string> = {}) => (await (await fetch(`${url}/v1/openapi.json`, { headers })).json()) as Document;

  it("names the configured address as its server, never the request's Host", async () => {
    const service = courier.service;
    const configured = await serveFetch(createServiceHandler({ db: prisma, service, ready: async () => undefined, publicUrl: "https://dakiya.example.in/" }));
    try {
      expect((await documentOf(configured.url, { "X-Forwarded-Host": "evil.example" })).servers).toEqual([{ url: "https://dakiya.example.in", description: "This deployment" }]);
    } finally {
      await configured.close();
    }
    // Unconfigured: relative to wherever it was read, never the Host the caller wrote.
    expect((await documentOf()).servers[0]!.url).toBe("/");
    // The app's own service names SHOPIFY_APP_URL whatever Host a request carries.
    const embedded = await serveEmbeddedService(new Request("http://evil.example/v1/openapi.json", { headers: { Host: "evil.example" } }), "203.0.113.9");
    expect(((await embedded.json()) as Document).servers[0]!.url).toBe(process.env.SHOPIFY_APP_URL);
  });

  it("states the spec's rules: 6-digit PIN codes, the 7-day order_date window, couriers 1–4, status codes 2–15, the business rules", async () => {
    const document = await documentOf();
    type Schema = { properties: Record<string, Schema>; items: Schema; [keyword: string]: unknown };
    const schemas = document.components.schemas as unknown as Record<string, Schema>;
    const order = schemas.CreateOrderRequest!;
    const sixDigits = { anyOf: [{ type: "integer", minimum: 100_000, maximum: 999_999 }, { type: "string", pattern: "^[1-9]\\d{5}$" }] };
    expect(order.properties.pincode).toMatchObject(sixDigits);
    for (const field of ["pickup", "delivery"]) expect(schemas.RateRequest!.properties[field]).toMatchObject(sixDigits);
    expect(order.properties.order_date).toMatchObject({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: expect.stringMatching(/within the last 7 days in India time/) });
    expect(order.properties.logistic_id).toMatchObject({ enum: [1, 2, 3, 4] });
    expect(order.properties.products).toMatchObject({ maxItems: 10 });
    expect(schemas.RateResult!.properties.logistics!.items.properties.id).toMatchObject({ enum: [1, 2, 3, 4] });
    const codes = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
    expect(schemas.TrackingResult!.properties.tracking_history!.items.properties.service_status).toMatchObject({ enum: codes });
    expect(schemas.AdvanceRequest!.properties.to).toMatchObject({ enum: codes });
    expect(order.properties.name).toMatchObject({ pattern: "^[^\\u0000-\\u001f\\u007f-\\u009f]*$" });

    const createOrder = document.paths["/v1/create-order"]!.post as { description: string };
    for (const rule of [/never recomputed/, /reverse order cannot use a quality check/, /primary warehouse/, /cancelled order is refused \(409\)/, /last 7 days/, /at most 10 products/, /₹50,000/]) {
      expect(createOrder.description).toMatch(rule);
    }
    expect((document.paths["/v1/calculate-rate"]!.post as { description: string }).description).toMatch(/total_logistics equals the number of options/);
  });

  it("gives every operation an operationId, a description and every status the service sends", async () => {
    const document = await documentOf();
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods as Record<string, { operationId: string; description: string; requestBody?: unknown; responses: Record<string, unknown> }>).map(([method, operation]) => ({ name: `${method} ${path}`, ...operation })),
    );
    expect(new Set(operations.map((operation) => operation.operationId)).size).toBe(operations.length);
    for (const operation of operations) {
      expect(operation.operationId, operation.name).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.description.length, operation.name).toBeGreaterThan(40);
      expect(Object.keys(operation.responses), operation.name).toEqual(expect.arrayContaining(["200", "404", "405", "500"]));
      if (operation.requestBody) expect(Object.keys(operation.responses), operation.name).toEqual(expect.arrayContaining(["400", "413"]));
    }
  });

  it("takes as valid every body the service takes: total_price in place of total_amount, but not neither", async () => {
    const judge = createAnswerJudge();
    const ajv = new Ajv2020({ strict: false, multipleOfPrecision: 6 });
    ajv.addSchema({ $id: "openapi.json", components: judge.document.components });
    const isValid = ajv.compile({ $ref: "openapi.json#/components/schemas/CreateOrderRequest" });
    const { total_amount: amount, ...withoutTotal } = sampleOrder({ order_id: `alias-${Date.now()}` });
    const aliased = { ...withoutTotal, total_price: amount };
    expect(isValid(aliased), JSON.stringify(isValid.errors)).toBe(true);
    expect((await rawPost("/v1/create-order", JSON.stringify(aliased))).status).toBe(200);
    expect(isValid(withoutTotal)).toBe(false);
    expect((await rawPost("/v1/create-order", JSON.stringify(withoutTotal))).status).toBe(422);
  });

  it("shows every text field's maximum length, the awb in a path too", async () => {
    type Schema = { properties: Record<string, Schema>; items: Schema; maxLength?: number };
    const document = (await (await fetch(`${courier.url}/v1/openapi.json`)).json()) as {
      components: { schemas: Record<string, Schema> };
      paths: Record<string, { get?: { parameters: { name: string; schema: Schema }[] } }>;
    };
    const order = document.components.schemas.CreateOrderRequest!.properties;
    const lengths = Object.fromEntries(
      ["order_id", "name", "company_name", "mobile", "alt_mobile", "email", "gst_number", "address_line_1", "address_line_2", "city", "state", "ewaybill_no", "delivery_remarks"].map(
        (field) => [field, order[field]?.maxLength],
      ),
    );
    expect(lengths).toEqual({
      order_id: 64,
      name: 200,
      company_name: 200,
      mobile: 20,
      alt_mobile: 20,
      email: 254,
      gst_number: 20,
      address_line_1: 500,
      address_line_2: 500,
      city: 100,
      state: 100,
      ewaybill_no: 20,
      delivery_remarks: 500,
    });
    expect(order.products!.items.properties.product_name?.maxLength).toBe(255);
    expect(order.products!.items.properties.sku?.maxLength).toBe(100);
    expect(document.components.schemas.CancelOrderRequest!.properties.awb?.maxLength).toBe(64);
    expect(document.components.schemas.AdvanceRequest!.properties.awb?.maxLength).toBe(64);
    for (const path of ["/v1/track-order/{awb}", "/v1/get-order/{awb}"]) {
      expect(document.paths[path]!.get!.parameters[0]!.schema.maxLength, path).toBe(64);
    }
  });
});
