import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { toPaise } from "~/money";
import { action as bulkAction } from "~/routes/api.orders.bulk-ship";
import { action as settingsAction } from "~/routes/app.settings";
import { action as shipAction, loader as shipLoader } from "~/routes/app.orders.$id.ship";
import { loader as orderLoader } from "~/routes/api.orders.$id";
import type { BulkAnswer, OrderShipping } from "../../extensions/shared/api";
import { LOCATION_BHIWANDI, LOCATION_GURUGRAM } from "../../store/seed";
import { courierClientFor, courierCredentialsOf, getShopSettings } from "~/settings/shop-settings.server";
import { enqueue } from "~/jobs/job-queue.server";
import { resetJobs, runJobs } from "../support/jobs";
import { twoWarehouseOrder as twoWarehouseOrderInput } from "../support/orders";
import { startShippingWorld, type startStore } from "../support/store";

/*
 * An order whose items sit at two warehouses, and one of more products than one courier order takes, shipped as
 * parcels: one booking (awb, label, Shopify fulfillment, tracking) per fulfillment order, each from its location's
 * warehouse with only its own items and its share of the cash to collect.
 */

let world: Awaited<ReturnType<typeof startShippingWorld>>;
let store: Awaited<ReturnType<typeof startStore>>;

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
};

beforeAll(async () => {
  await resetJobs();
  world = await startShippingWorld();
  ({ store } = world);
  await store.install();
  // The merchant's Settings: each Shopify location picks up from its own sandbox warehouse (1 Bhiwandi, 2 Gurugram).
  const saved = await settingsAction({
    request: store.adminRequest("/app/settings", {
      method: "POST",
      body: form({ mode: "sandbox", environment: "test", defaultWarehouseId: "", packageLength: "20", packageBreadth: "15", packageHeight: "10", defaultWeightKg: "0.5", codTag: "cod", prepaidTag: "prepaid", notifyCustomer: "on", [`location:${LOCATION_BHIWANDI}`]: "1", [`location:${LOCATION_GURUGRAM}`]: "2" }),
    }),
    params: {},
    context: {},
  });
  expect(saved.status).toBe(200);
});
afterAll(() => world.close());

const ADMIN_ORIGIN = "https://admin.shopify.com";
const bulk = async (orderIds: string[]) => {
  const request = store.adminRequest("/api/orders/bulk-ship", { method: "POST", body: JSON.stringify({ orderIds }), headers: { Origin: ADMIN_ORIGIN, "Content-Type": "application/json" } });
  const response = await bulkAction({ request, params: {}, context: {} });
  return (await response.json()) as BulkAnswer;
};
const orderView = async (legacyId: string) => {
  const response = await orderLoader({ request: store.adminRequest(`/api/orders/${legacyId}`, { headers: { Origin: ADMIN_ORIGIN } }), params: { id: legacyId }, context: {} });
  return (await response.json()) as OrderShipping;
};
const inShopify = (id: string) => store.shop.orders.find((order) => order.id === id)!;

/** The Admin API operations the app asked of the store while `run` ran, by their names, in order. */
async function operationsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const asked: string[] = [];
  const handle = store.simulator.handle;
  store.simulator.handle = async (request: Request) => {
    if (request.method === "POST" && /\/admin\/api\/[^/]+\/graphql\.json$/.test(new URL(request.url).pathname)) {
      const { query } = (await request.clone().json()) as { query: string };
      asked.push(/^\s*(?:query|mutation)\s+(\w+)/m.exec(query)?.[1] ?? "anonymous");
    }
    return handle.call(store.simulator, request);
  };
  try {
    await run();
  } finally {
    store.simulator.handle = handle;
  }
  return asked;
}

/** A cash-on-delivery order with one item stocked only at Bhiwandi and two of one stocked only at Gurugram. */
const twoWarehouseOrder = (index: number) => store.simulator.placeOrder(store.domain, twoWarehouseOrderInput(index, { diya: "899.11", stoles: 2, stole: "599.11" }));

describe("an order whose items ship from two warehouses", () => {
  it("books through bulk ship as two parcels: two fulfillments at the two locations, each awb's order only its warehouse's items, the COD amounts adding up to the paisa", async () => {
    const order = twoWarehouseOrder(1);
    let answer: BulkAnswer | undefined;
    const asked = await operationsDuring(async () => (answer = await bulk([order.id])));
    if (!answer) throw new Error("The bulk ship answered nothing");
    expect(answer.results).toEqual([expect.objectContaining({ orderId: order.id, outcome: "booked" })]);
    // One read of the order for both parcels; the tag is added with the first parcel, the second writes the metafields alone.
    expect(asked.filter((operation) => operation === "OrderForBooking")).toHaveLength(1);
    expect(asked.filter((operation) => /^(MarkOrderBooked|RecordBookedParcels)$/.test(operation))).toEqual(["MarkOrderBooked", "RecordBookedParcels"]);
    expect(inShopify(order.id).tags).toContain("dakiya-booked");
    const awbs = answer.results[0]!.awb!.split(", ");
    expect(awbs).toHaveLength(2);
    expect(new Set(awbs).size).toBe(2);

    const shopify = inShopify(order.id);
    expect(shopify.fulfillments.map((fulfillment) => [fulfillment.locationId, fulfillment.trackingInfo.map((info) => info.number)])).toEqual([
      [LOCATION_BHIWANDI, [awbs[0]]],
      [LOCATION_GURUGRAM, [awbs[1]]],
    ]);
    expect(shopify.fulfillmentOrders.every((fo) => fo.status === "CLOSED")).toBe(true);

    const client = courierClientFor(courierCredentialsOf(await getShopSettings(store.domain)));
    const [first, second] = await Promise.all(awbs.map((awb) => client.getOrder(awb)));
    expect(first).toMatchObject({ order_id: `${shopify.name.slice(1)}`, warehouse_id: 1, payment_mode: "cod", products: [expect.objectContaining({ sku: "DIY-210", quantity: 1 })] });
    expect(second).toMatchObject({ order_id: `${shopify.name.slice(1)}-2`, warehouse_id: 2, payment_mode: "cod", products: [expect.objectContaining({ sku: "PSH-220", quantity: 2 })] });
    // What the shopper owes, to the paisa, shared by the value of each parcel's items.
    expect(toPaise(first!.total_amount) + toPaise(second!.total_amount)).toBe(toPaise(899.11 + 2 * 599.11 + 79));
    expect(first!.total_amount).toBeLessThan(second!.total_amount);

    // Each parcel is its own booking, numbered in its order, from its own warehouse.
    const parcels = await prisma.shipment.findMany({ where: { shop: store.domain, orderGid: order.id }, orderBy: { parcel: "asc" } });
    expect(parcels.map((parcel) => [parcel.parcel, parcel.status, parcel.warehouseId, parcel.locationName])).toEqual([
      [1, "fulfilled", 1, "Bhiwandi Warehouse"],
      [2, "fulfilled", 2, "Gurugram Warehouse"],
    ]);
    // The order's metafields list both awbs.
    expect(shopify.metafields.find((metafield) => metafield.key === "awb")?.value).toBe(awbs.join(", "));

    // The order-page extensions see the whole order booked, parcel by parcel.
    const view = await orderView(shopify.legacyResourceId);
    expect(view.state).toBe("shipment");
    expect(view.parcels?.map((parcel) => [parcel.number, parcel.of, parcel.location, parcel.shipment?.awb, parcel.shipment?.name])).toEqual([
      [1, 2, "Bhiwandi Warehouse", awbs[0], shopify.name],
      [2, 2, "Gurugram Warehouse", awbs[1], `${shopify.name}-2`],
    ]);

    // Shipped again (a retry, a second click): nothing more is booked.
    expect((await bulk([order.id])).results[0]).toMatchObject({ outcome: "already_booked", awb: awbs.join(", ") });
    expect(inShopify(order.id).fulfillments).toHaveLength(2);
    expect(await prisma.serviceOrder.count({ where: { orderId: { startsWith: shopify.name.slice(1) }, apiClient: { name: store.domain } } })).toBe(2);
  });

  it("gives concurrent bookings of the order one awb per parcel and one fulfillment each", async () => {
    const order = twoWarehouseOrder(2);
    const answers = await Promise.all(Array.from({ length: 6 }, () => bulk([order.id])));
    expect(answers.filter((answer) => answer.results[0]!.outcome === "booked").length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) expect(["booked", "already_booked"]).toContain(answer.results[0]!.outcome);
    const parcels = await prisma.shipment.findMany({ where: { shop: store.domain, orderGid: order.id } });
    expect(parcels.map((parcel) => parcel.status).sort()).toEqual(["fulfilled", "fulfilled"]);
    expect(new Set(parcels.map((parcel) => parcel.awb)).size).toBe(2);
    expect(inShopify(order.id).fulfillments).toHaveLength(2);
  });

  it("ships the order's second parcel from the ship page after its first was booked on its own, and cancels every parcel not yet picked up when Shopify cancels the order", async () => {
    const order = twoWarehouseOrder(3);
    const id = order.legacyResourceId;
    const page = await (await shipLoader({ request: store.adminRequest(`/app/orders/${id}/ship`), params: { id }, context: {} })).json();
    expect(page.outcome.kind).toBe("quoted");
    const quoted = page.outcome as { parcels: { parcel: { fulfillmentOrderId: string; locationName: string }; rates: { id: number; isRecommended: boolean }[] }[] };
    expect(quoted.parcels.map((each) => each.parcel.locationName)).toEqual(["Bhiwandi Warehouse", "Gurugram Warehouse"]);
    const gurugram = quoted.parcels[1]!;
    const courierId = String(gurugram.rates.find((rate) => rate.isRecommended)!.id);
    const booked = await shipAction({ request: store.adminRequest(`/app/orders/${id}/ship`, { method: "POST", body: form({ courierId, fulfillmentOrderId: gurugram.parcel.fulfillmentOrderId }) }), params: { id }, context: {} });
    expect(booked.status).toBe(200);
    // One parcel booked: the order still has one to book, and says so.
    expect(inShopify(order.id).fulfillments.map((fulfillment) => fulfillment.locationId)).toEqual([LOCATION_GURUGRAM]);
    const partly = await orderView(id);
    expect(partly.state).toBe("ready");
    expect(partly.parcels?.map((parcel) => [parcel.location, Boolean(parcel.shipment)])).toEqual([
      ["Gurugram Warehouse", true],
      ["Bhiwandi Warehouse", false],
    ]);
    const rest = await bulk([order.id]);
    expect(rest.results[0]).toMatchObject({ outcome: "booked" });
    expect(inShopify(order.id).fulfillments).toHaveLength(2);
    // Parcel numbers are given as parcels are first booked: the Gurugram box is the order's parcel 1.
    const parcels = await prisma.shipment.findMany({ where: { shop: store.domain, orderGid: order.id }, orderBy: { parcel: "asc" } });
    expect(parcels.map((parcel) => parcel.locationName)).toEqual(["Gurugram Warehouse", "Bhiwandi Warehouse"]);
    // Booked after the Gurugram box was fulfilled, the Bhiwandi box collects its own share of the cash, not all the
    // order still owes: the shopper pays the order's total once, to the paisa, across the two couriers.
    const collected = parcels.map((parcel) => (JSON.parse(parcel.requestPayload) as { total_amount: number }).total_amount);
    expect(toPaise(collected[0]!) + toPaise(collected[1]!)).toBe(toPaise(899.11 + 2 * 599.11 + 79));
    expect(parcels.map((parcel) => parcel.cashToCollectPaise)).toEqual(collected.map(toPaise));
    expect(collected[1]).toBeLessThan(collected[0]!);

    store.simulator.cancelOrder(store.domain, order.id);
    // What orders/cancelled does (its webhook has nowhere to go in this test): the cancellation's job.
    await enqueue("order-cancelled", { shop: store.domain, orderGid: order.id });
    expect((await runJobs(["order-cancelled"])).failed).toEqual([]);
    const after = await prisma.shipment.findMany({ where: { shop: store.domain, orderGid: order.id } });
    expect(after.map((parcel) => parcel.status)).toEqual(["cancelled", "cancelled"]);
    expect(inShopify(order.id).tags).toContain("dakiya-courier-cancelled");
  });
});

describe("an address changed after one parcel of two was booked", () => {
  it("flags the parcel booked to the old address while the other still waits to be booked", async () => {
    const order = twoWarehouseOrder(5);
    const id = order.legacyResourceId;
    const page = await (await shipLoader({ request: store.adminRequest(`/app/orders/${id}/ship`), params: { id }, context: {} })).json();
    const gurugram = (page.outcome as { parcels: { parcel: { fulfillmentOrderId: string }; rates: { id: number; isRecommended: boolean }[] }[] }).parcels[1]!;
    const courierId = String(gurugram.rates.find((rate) => rate.isRecommended)!.id);
    expect((await shipAction({ request: store.adminRequest(`/app/orders/${id}/ship`, { method: "POST", body: form({ courierId, fulfillmentOrderId: gurugram.parcel.fulfillmentOrderId }) }), params: { id }, context: {} })).status).toBe(200);

    // The shopper's address is corrected in Shopify; the next check of the order reads it whole (a parcel is to book).
    const stored = inShopify(order.id);
    stored.shippingAddress!.address1 = "Flat 9B, Brigade Road";
    stored.updatedAt = new Date(Date.now() + 1_000).toISOString();
    await enqueue("order-check", { shop: store.domain, orderGid: order.id });
    expect((await runJobs(["order-check"])).failed).toEqual([]);
    const parcels = await prisma.shipment.findMany({ where: { shop: store.domain, orderGid: order.id } });
    expect(parcels.map((parcel) => [parcel.locationName, parcel.attention])).toEqual([["Gurugram Warehouse", "address_changed"]]);
  });
});

describe("the merchant's own parcels, before booking", () => {
  const page = async (legacyId: string) => {
    const loaded = await (await shipLoader({ request: store.adminRequest(`/app/orders/${legacyId}/ship`), params: { id: legacyId }, context: {} })).json();
    return loaded.outcome as { kind: string; parcels: { parcel: { fulfillmentOrderId: string; locationGid: string; lines: { id: string; quantity: number }[]; fields: { products: { sku: string; quantity: number }[] } } }[] };
  };
  const change = async (legacyId: string, fields: Record<string, string | string[]>) => {
    const body = new FormData();
    for (const [key, value] of Object.entries(fields)) for (const each of [value].flat()) body.append(key, each);
    const response = await shipAction({ request: store.adminRequest(`/app/orders/${legacyId}/ship`, { method: "POST", body }), params: { id: legacyId }, context: {} });
    return { status: response.status, body: (await response.json()) as { kind: string; message: string } };
  };

  it("moves an item to another location, puts items into a parcel of their own and merges parcels back, through Shopify's own changes; refuses what Shopify refuses and what is not a parcel to book", async () => {
    const order = store.simulator.placeOrder(store.domain, {
      tags: ["prepaid"],
      financialStatus: "PAID",
      shippingAddress: { firstName: "Asha", lastName: "Rao", phone: "+91 98450 12345", address1: "12, MG Road", city: "Pune", provinceCode: "MH", zip: "411001", countryCode: "IN" },
      lineItems: [
        { title: "Brass diya set", sku: "DIY-210", quantity: 1, priceSet: { shopMoney: { amount: "899.00" } } },
        { title: "Cotton kurta", sku: "KUR-77", quantity: 2, priceSet: { shopMoney: { amount: "799.00" } } },
      ],
    });
    const id = order.legacyResourceId;
    const [only] = (await page(id)).parcels;
    expect(only!.parcel.fields.products.map((product) => product.sku)).toEqual(["DIY-210", "KUR-77"]);
    const [diya, kurta] = only!.parcel.lines;

    // The diya is stocked at Bhiwandi only: Shopify refuses, and says why.
    const refused = await change(id, { intent: "move", fulfillmentOrderId: only!.parcel.fulfillmentOrderId, lineId: diya!.id, quantity: "1", locationId: LOCATION_GURUGRAM });
    expect(refused).toMatchObject({ status: 422, body: { kind: "refused", message: "Shopify did not change the parcels: The destination location doesn't stock Brass diya set." } });
    expect(await change(id, { intent: "move", fulfillmentOrderId: only!.parcel.fulfillmentOrderId, lineId: kurta!.id, quantity: "0", locationId: LOCATION_GURUGRAM })).toMatchObject({ status: 422, body: { kind: "refused" } });
    expect(await change(id, { intent: "move", fulfillmentOrderId: "gid://shopify/FulfillmentOrder/1", lineId: kurta!.id, quantity: "1", locationId: LOCATION_GURUGRAM })).toMatchObject({ status: 409, body: { kind: "refused" } });

    // One kurta ships from Gurugram: two parcels.
    expect(await change(id, { intent: "move", fulfillmentOrderId: only!.parcel.fulfillmentOrderId, lineId: kurta!.id, quantity: "1", locationId: LOCATION_GURUGRAM })).toMatchObject({ status: 200, body: { kind: "parcels_changed" } });
    const moved = await page(id);
    expect(moved.parcels.map((each) => [each.parcel.locationGid, each.parcel.fields.products.map((product) => `${product.sku}×${product.quantity}`)])).toEqual([
      [LOCATION_BHIWANDI, ["DIY-210×1", "KUR-77×1"]],
      [LOCATION_GURUGRAM, ["KUR-77×1"]],
    ]);

    // The diya into a box of its own at Bhiwandi: three parcels; then merged back into one there.
    const bhiwandi = moved.parcels[0]!.parcel;
    expect(await change(id, { intent: "split", fulfillmentOrderId: bhiwandi.fulfillmentOrderId, lineId: bhiwandi.lines[0]!.id, quantity: "1" })).toMatchObject({ status: 200 });
    const split = await page(id);
    expect(split.parcels).toHaveLength(3);
    const atBhiwandi = split.parcels.filter((each) => each.parcel.locationGid === LOCATION_BHIWANDI).map((each) => each.parcel.fulfillmentOrderId);
    expect(atBhiwandi).toHaveLength(2);
    expect(await change(id, { intent: "merge", fulfillmentOrderIds: atBhiwandi })).toMatchObject({ status: 200, body: { kind: "parcels_changed" } });
    const merged = await page(id);
    expect(merged.parcels.map((each) => each.parcel.locationGid).sort()).toEqual([LOCATION_BHIWANDI, LOCATION_GURUGRAM].sort());

    // Booked, a parcel is no longer the merchant's to change.
    expect((await bulk([order.id])).results[0]).toMatchObject({ outcome: "booked" });
    expect(await change(id, { intent: "merge", fulfillmentOrderIds: merged.parcels.map((each) => each.parcel.fulfillmentOrderId) })).toMatchObject({ status: 409, body: { kind: "refused" } });
  });
});

describe("a return of an item that shipped in an order's second parcel", () => {
  it("goes back to the warehouse that parcel left from", async () => {
    const order = twoWarehouseOrder(4);
    expect((await bulk([order.id])).results[0]).toMatchObject({ outcome: "booked" });
    const gurugram = inShopify(order.id).fulfillments.find((fulfillment) => fulfillment.locationId === LOCATION_GURUGRAM)!;
    const returnGid = store.simulator.returnAction(store.domain, "returnCreate", { returnInput: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: gurugram.lines[0]!.id!, quantity: 1 }] } });
    const { quoteReturnPickup } = await import("~/returns/return-pickup.server");
    const { defaultJobDeps } = await import("~/workers/job-handlers.server");
    const quote = await quoteReturnPickup({ shop: store.domain, admin: await defaultJobDeps.adminFor(store.domain) }, { returnGid });
    expect(quote).toMatchObject({ kind: "quoted", shipment: { locationGid: LOCATION_GURUGRAM, fields: { order_type: "reverse", warehouse_id: 2 } } });
  });
});

describe("an order of more products than one courier order takes", () => {
  it("ships 12 products as parcels of 10 and 2, split in Shopify first, all 12 fulfilled", async () => {
    const order = store.simulator.placeOrder(store.domain, {
      tags: ["prepaid"],
      financialStatus: "PAID",
      shippingAddress: { firstName: "Meera", lastName: "Nair", phone: "9895012345", address1: "TC 25/1120, Thampanoor", city: "Thiruvananthapuram", provinceCode: "KL", zip: "695001", countryCode: "IN" },
      lineItems: Array.from({ length: 12 }, (_, index) => ({ title: `Spice sampler no. ${index + 1}`, sku: `SPICE-${index}`, quantity: 1, priceSet: { shopMoney: { amount: "149.00" } }, weight: { unit: "GRAMS", value: 100 } })),
    });
    expect((await bulk([order.id])).results[0]).toMatchObject({ outcome: "booked" });
    const shopify = inShopify(order.id);
    expect(shopify.fulfillments.map((fulfillment) => fulfillment.lines.length)).toEqual([10, 2]);
    expect(shopify.fulfillments.flatMap((fulfillment) => fulfillment.lines).reduce((sum, line) => sum + line.quantity, 0)).toBe(12);
    expect(shopify.fulfillmentOrders.filter((fo) => !fo.hidden).map((fo) => fo.status)).toEqual(["CLOSED", "CLOSED"]);
    const parcels = await prisma.shipment.findMany({ where: { shop: store.domain, orderGid: order.id }, orderBy: { parcel: "asc" } });
    const bodies = parcels.map((parcel) => JSON.parse(parcel.requestPayload) as { order_id: string; products: unknown[]; total_amount: number; payment_mode: string });
    expect(bodies.map((body) => [body.order_id, body.products.length, body.payment_mode])).toEqual([
      [shopify.name.slice(1), 10, "prepaid"],
      [`${shopify.name.slice(1)}-2`, 2, "prepaid"],
    ]);
    expect(toPaise(bodies[0]!.total_amount) + toPaise(bodies[1]!.total_amount)).toBe(toPaise(12 * 149));
  });
});
