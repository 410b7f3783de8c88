import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shipOrders } from "~/orders/ship-orders.server";
import { getConfig } from "~/config.server";
import prisma from "~/db.server";
import { loader } from "~/routes/api.customer.parcels.$id";
import { courierClientFor, sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { syncShipment } from "~/tracking/sync.server";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import type { CustomerParcelAnswer } from "../../extensions/shared/customer-parcel";
import { signCustomerAccountSessionToken } from "../../store/auth";
import { resetJobs } from "../support/jobs";
import { appCredentials, startShippingWorld } from "../support/store";
import { responseOf } from "../support/webhooks";

/*
 * The order status page's endpoint: a parcel for the signed-in customer whose order it is, read with the customer
 * account's session token (signed as Shopify signs it), and for no one else.
 */

let world: Awaited<ReturnType<typeof startShippingWorld>>;
let store: Awaited<ReturnType<typeof startShippingWorld>>["store"];
let parcel: { orderGid: string; customerGid: string; fulfillmentNumber: string; awb: string };
let clock = new Date();

beforeAll(async () => {
  await resetJobs();
  world = await startShippingWorld();
  store = world.store;
  await store.install();
  // #1003 in the seed: Chennai, prepaid, placed by a signed-in customer.
  const order = store.shop.orders.find((candidate) => candidate.name === "#1003")!;
  const admin = await defaultJobDeps.adminFor(store.domain);
  const [booked] = await shipOrders(store.domain, admin, [order.id], { policy: "recommended" });
  expect(booked).toMatchObject({ outcome: "booked" });
  const shipment = await prisma.shipment.findFirstOrThrow({ where: { shop: store.domain, orderGid: order.id } });
  // The courier tries, and fails, to deliver it.
  const courierClient = courierClientFor(sandboxCredentialsFor(store.domain));
  for (const code of [5, 7, 9]) {
    await courierClient.advanceSandboxShipment(shipment.awb!, code);
    clock = new Date(clock.getTime() + 3_600_000);
    await syncShipment(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } }), { admin, now: () => clock });
  }
  parcel = { orderGid: order.id, customerGid: order.customer!.id, fulfillmentNumber: shipment.fulfillmentGid!.split("/").pop()!, awb: shipment.awb! };
}, 60_000);
afterAll(async () => {
  await world.close();
});

function request(fulfillmentNumber: string, { customer, shop = store.domain, secret, method = "GET" }: { customer: string | null; shop?: string; secret?: string; method?: string }) {
  const token = signCustomerAccountSessionToken({ ...appCredentials(), ...(secret ? { apiSecret: secret } : {}) }, shop, customer);
  return new Request(`${getConfig().SHOPIFY_APP_URL}/api/customer/parcels/${fulfillmentNumber}`, { method, headers: { Authorization: `Bearer ${token}`, Origin: "https://extensions.shopifycdn.com" } });
}

const ask = (fulfillmentNumber: string, options: Parameters<typeof request>[1]) => responseOf(() => loader({ request: request(fulfillmentNumber, options), params: { id: fulfillmentNumber }, context: {} }));

describe("GET /api/customer/parcels/{fulfillment}", () => {
  it("answers the order's customer with the parcel's stage, courier, awb and the courier's updates, newest first, with CORS headers", async () => {
    const shopifyReads = store.simulator.requests;
    const answer = await ask(parcel.fulfillmentNumber, { customer: parcel.customerGid });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const { parcel: view } = (await answer.json()) as CustomerParcelAnswer;
    expect(view).toMatchObject({ name: "#1003", stage: "delivery_failed", awb: parcel.awb, courierName: expect.any(String), trackingUrl: expect.stringContaining(parcel.awb), estimatedDelivery: expect.any(String), deliveredAt: null });
    expect(view.timeline.map((update) => update.code)).toEqual([9, 7, 6, 5, 3, 2]);
    expect(view.failedAttempt).toEqual({ attempt: 1, reason: view.timeline[0]!.activity, at: view.timeline[0]!.at, answerForm: null });
    // Whose order it is was read from Shopify once, and kept.
    expect(store.simulator.requests).toBe(shopifyReads + 1);
    expect(await prisma.orderRecord.findUnique({ where: { shop_orderGid: { shop: store.domain, orderGid: parcel.orderGid } }, select: { customerGid: true } })).toEqual({ customerGid: parcel.customerGid });
    await ask(parcel.fulfillmentNumber, { customer: parcel.customerGid });
    expect(store.simulator.requests).toBe(shopifyReads + 1);
  });

  it("refuses another customer's token, as it refuses a fulfillment that is not a Dakiya parcel: the same 404", async () => {
    const other = await ask(parcel.fulfillmentNumber, { customer: "gid://shopify/Customer/424242" });
    const unknown = await ask("987654321", { customer: parcel.customerGid });
    expect([other.status, unknown.status]).toEqual([404, 404]);
    expect(await other.json()).toEqual(await unknown.json());
    // Nor does another shop's token for the same customer reach this shop's parcel.
    expect((await ask(parcel.fulfillmentNumber, { customer: parcel.customerGid, shop: "another-shop.myshopify.com" })).status).toBe(404);
  });

  it("asks to sign in when the token names no customer, and refuses a token not signed with the app's secret", async () => {
    const anonymous = await ask(parcel.fulfillmentNumber, { customer: null });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: "Sign in to your account to see this parcel", code: "login_required" });
    expect((await ask(parcel.fulfillmentNumber, { customer: parcel.customerGid, secret: "someone-elses-secret" })).status).toBe(401);
    const noToken = new Request(`${getConfig().SHOPIFY_APP_URL}/api/customer/parcels/${parcel.fulfillmentNumber}`);
    expect((await responseOf(() => loader({ request: noToken, params: { id: parcel.fulfillmentNumber }, context: {} }))).status).toBe(401);
  });

  it("answers 503 with Retry-After while Shopify is too busy to say whose order it is, and the parcel once it answers", async () => {
    const order = store.shop.orders.find((candidate) => candidate.name === "#1001")!;
    const [booked] = await shipOrders(store.domain, await defaultJobDeps.adminFor(store.domain), [order.id], { policy: "recommended" });
    expect(booked).toMatchObject({ outcome: "booked" });
    const shipment = await prisma.shipment.findFirstOrThrow({ where: { shop: store.domain, orderGid: order.id } });
    const fulfillment = shipment.fulfillmentGid!.split("/").pop()!;
    store.shop.faults.set("order", { kind: "THROTTLED", times: 4 });
    const busy = await ask(fulfillment, { customer: order.customer!.id });
    expect(busy.status).toBe(503);
    expect(Number(busy.headers.get("Retry-After"))).toBeGreaterThan(0);
    store.shop.faults.delete("order");
    expect((await ask(fulfillment, { customer: order.customer!.id })).status).toBe(200);
  });

  it("answers a malformed id 400, and the browser's preflight 204 with CORS headers", async () => {
    const bad = await ask("gid-123", { customer: parcel.customerGid });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "The id must be the number of a fulfillment's GID" });
    const preflight = await ask(parcel.fulfillmentNumber, { customer: parcel.customerGid, method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toContain("Authorization");
  });
});
