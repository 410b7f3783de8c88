import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { enqueue } from "~/jobs/job-queue.server";
import { action as shipAction } from "~/routes/app.orders.$id.ship";
import { action as customersRedact } from "~/routes/webhooks.customers.redact";
import { action as shopRedact } from "~/routes/webhooks.shop.redact";
import { sandboxAccountCredentials } from "~/shipping/sandbox-accounts.server";
import { seedShop } from "../../store/seed";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { resetJobs, runJobs } from "../support/jobs";
import { startStore } from "../support/store";
import { responseOf, signedWebhookRequest } from "../support/webhooks";

// Two shops whose handles are prefixes of each other: erasing the first must not touch the second.
const tag = randomUUID().slice(0, 6);
const SHOP = `shop-${tag}.myshopify.com`;
const NEIGHBOUR = `shop-${tag}-2.myshopify.com`;

let courier: RunningCourierService;
let store: Awaited<ReturnType<typeof startStore>>;
beforeAll(async () => {
  await resetJobs();
  courier = await startAppCourierService();
  store = await startStore({ domain: SHOP, shops: [seedShop(SHOP), seedShop(NEIGHBOUR)], throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
});
afterAll(async () => {
  await store.close();
  await courier.close();
});

async function bookOrderNamed(shop: string, name: string): Promise<{ awb: string; legacyId: string }> {
  const order = store.simulator.shop(shop).orders.find((candidate) => candidate.name === name)!;
  const body = new FormData();
  body.set("courierId", "1");
  const response = await shipAction({ request: store.adminRequest(`/app/orders/${order.legacyResourceId}/ship`, { method: "POST", body }, shop), params: { id: order.legacyResourceId }, context: {} });
  const { shipment } = (await response.json()) as { shipment: { awb: string } };
  return { awb: shipment.awb, legacyId: order.legacyResourceId };
}

const webhook = (topic: string, shop: string, payload: unknown) => signedWebhookRequest(`http://localhost:3999/webhooks/${topic}`, { topic, shop, payload });

describe("compliance webhooks", () => {
  it("books each shop on a sandbox account of its own, with its plain order numbers", async () => {
    const mine = await bookOrderNamed(SHOP, "#1003");
    const theirs = await bookOrderNamed(NEIGHBOUR, "#1003");
    const [myOrder, theirOrder] = await Promise.all([mine, theirs].map(({ awb }) => prisma.serviceOrder.findUniqueOrThrow({ where: { awb }, include: { apiClient: true } })));
    expect(myOrder!.orderId).toBe("1003");
    expect(theirOrder!.orderId).toBe("1003");
    expect(myOrder!.apiClient).toMatchObject({ isSandbox: true, name: SHOP });
    expect(theirOrder!.apiClient).toMatchObject({ isSandbox: true, name: NEIGHBOUR });
  });

  it("customers/redact removes the shopper's name, phone and address from shipments and the sandbox's copy", async () => {
    const kept = await bookOrderNamed(SHOP, "#1001");
    const redacted = await bookOrderNamed(SHOP, "#1002");
    expect((await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: redacted.awb } })).customerName).toBe("Rahul Verma");
    // A courier that writes the shopper's name into its tracking, and the order as Dakiya stored it when checked.
    const booked = await prisma.shipment.findFirstOrThrow({ where: { shop: SHOP, awb: redacted.awb } });
    await prisma.trackingEvent.create({ data: { shop: SHOP, shipmentId: booked.id, fingerprint: "delivered", code: 8, label: "Delivered", activity: "Delivered to Rahul Verma (9839012345)", location: "Lucknow", happenedAt: new Date() } });
    await prisma.orderRecord.create({ data: { shop: SHOP, orderGid: booked.orderGid, orderName: "#1002", readiness: "shipment", tags: ["rahul-9839012345"], addressDigest: "digest", destination: "Lucknow 226024" } });

    const request = webhook("customers/redact", SHOP, { shop_id: 1, shop_domain: SHOP, customer: { id: 77 }, orders_to_redact: [Number(redacted.legacyId)] });
    expect((await responseOf(() => customersRedact({ request, params: {}, context: {} }))).status).toBe(200);
    expect((await runJobs(["customers-redact"])).failed).toEqual([]);

    const shipment = await prisma.shipment.findFirstOrThrow({ where: { shop: SHOP, awb: redacted.awb } });
    expect(shipment.requestPayload).not.toMatch(/Rahul|9839012345|Aliganj/);
    expect(JSON.parse(shipment.requestPayload)).toMatchObject({ name: "[redacted]", mobile: "[redacted]", pincode: "226024" });
    const serviceOrder = await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: redacted.awb } });
    expect(serviceOrder).toMatchObject({ customerName: "[redacted]", mobile: "[redacted]", addressLine1: "[redacted]", awb: redacted.awb });
    expect((await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: kept.awb } })).customerName).toBe("Priya Sharma");
    expect(await prisma.trackingEvent.findMany({ where: { shipmentId: shipment.id }, select: { activity: true, location: true } })).toEqual([{ activity: "Delivered", location: "Lucknow" }]);
    expect(await prisma.orderRecord.findFirstOrThrow({ where: { shop: SHOP, orderGid: shipment.orderGid } })).toMatchObject({ tags: [], addressDigest: null, destination: "Lucknow 226024" });
  });

  it("shop/redact forgets the shop's settings, shipments and sandbox account, and nothing of a shop whose handle it prefixes", async () => {
    const neighbourAwbs = (await prisma.shipment.findMany({ where: { shop: NEIGHBOUR } })).map((shipment) => shipment.awb!);
    expect(neighbourAwbs).toHaveLength(1);
    expect(await prisma.shipment.count({ where: { shop: SHOP } })).toBeGreaterThan(0);

    // Work still queued for both shops: the erased shop's goes with it, the neighbour's stays.
    const [shopOrder, neighbourOrder] = ["gid://shopify/Order/77001", "gid://shopify/Order/77002"];
    await enqueue("order-check", { shop: SHOP, orderGid: shopOrder });
    await enqueue("order-check", { shop: NEIGHBOUR, orderGid: neighbourOrder });
    await store.simulator.uninstallApp(SHOP);
    const request = webhook("shop/redact", SHOP, { shop_id: 1, shop_domain: SHOP });
    expect((await responseOf(() => shopRedact({ request, params: {}, context: {} }))).status).toBe(200);
    expect((await runJobs(["shop-redact"])).failed).toEqual([]);
    const jobsOf = async (shop: string) =>
      prisma.$queryRawUnsafe<{ name: string; orderGid: string | null }[]>(`SELECT name, data->>'orderGid' AS "orderGid" FROM pgboss.job WHERE data->>'shop' = $1 AND name <> 'shop-redact'`, shop);
    expect(await jobsOf(SHOP)).toEqual([]);
    expect(await jobsOf(NEIGHBOUR)).toContainEqual({ name: "order-check", orderGid: neighbourOrder });

    expect(await prisma.shipment.count({ where: { shop: SHOP } })).toBe(0);
    expect(await prisma.trackingEvent.count({ where: { shop: SHOP } })).toBe(0);
    expect(await prisma.orderRecord.count({ where: { shop: SHOP } })).toBe(0);
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(0);
    expect(await prisma.apiClient.count({ where: { name: SHOP } })).toBe(0);
    expect(await prisma.serviceOrder.count({ where: { apiClient: { name: SHOP } } })).toBe(0);

    expect(await prisma.shipment.count({ where: { shop: NEIGHBOUR } })).toBe(1);
    expect(await prisma.serviceOrder.count({ where: { awb: { in: neighbourAwbs }, apiClient: { name: NEIGHBOUR } } })).toBe(1);
    expect((await courier.client(courierCredentialsFor(NEIGHBOUR)).getOrder(neighbourAwbs[0]!)).customer_name).toBe("Ananya Iyer");
  });

  it("retries shop/redact while the sandbox cannot be reached, and erases nothing locally until it can", async () => {
    const shop = NEIGHBOUR;
    const port = Number(new URL(courier.url).port);
    await courier.close();
    await store.simulator.uninstallApp(shop);
    const request = webhook("shop/redact", shop, { shop_id: 2, shop_domain: shop });
    expect((await responseOf(() => shopRedact({ request, params: {}, context: {} }))).status).toBe(200);
    const down = await runJobs(["shop-redact"]);
    expect(down.failed).toHaveLength(1);
    expect(await prisma.shipment.count({ where: { shop } })).toBe(1);

    courier = await (await import("../support/courier-service")).startCourierService({ port });
    expect((await runJobs(["shop-redact"])).failed).toEqual([]);
    expect(await prisma.shipment.count({ where: { shop } })).toBe(0);
    expect(await prisma.apiClient.count({ where: { name: shop } })).toBe(0);
  });
});

function courierCredentialsFor(shop: string) {
  return sandboxAccountCredentials({ apiKey: process.env.SANDBOX_API_KEY!, secretKey: process.env.SANDBOX_SECRET_KEY! }, shop);
}
