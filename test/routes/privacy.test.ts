import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import prisma from "~/db.server";
import { enqueue, jobQueue } from "~/jobs/job-queue.server";
import { action as shipAction } from "~/routes/app.orders.$id.ship";
import { loader as dataRequestDownload } from "~/routes/app.data-requests.$id";
import { action as customersDataRequest } from "~/routes/webhooks.customers.data_request";
import { action as customersRedact } from "~/routes/webhooks.customers.redact";
import { listNeedsAttention } from "~/attention/needs-attention.server";
import { action as shopRedact } from "~/routes/webhooks.shop.redact";
import { sandboxAccountCredentials } from "~/shipping/sandbox-accounts.server";
import { seedShop } from "../../store/seed";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { queuedJobs, resetJobs, runJobs } from "../support/jobs";
import { shopperOrder } from "../support/orders";
import { startStore } from "../support/store";
import { responseOf, signedWebhookRequest, uniqueShop } from "../support/webhooks";

// Two shops whose handles are prefixes of each other: erasing the first must not touch the second.
const tag = randomUUID().slice(0, 6);
const SHOP = `shop-${tag}.myshopify.com`;
const NEIGHBOUR = `shop-${tag}-2.myshopify.com`;
// A third shop, installed, that never sees the others' data.
const OTHER = `other-${tag}.myshopify.com`;

let courier: RunningCourierService;
let store: Awaited<ReturnType<typeof startStore>>;
beforeAll(async () => {
  await resetJobs();
  courier = await startAppCourierService();
  store = await startStore({ domain: SHOP, shops: [seedShop(SHOP), seedShop(NEIGHBOUR), seedShop(OTHER)], throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
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

describe("a customer's erasure", () => {
  /** A shopper with a phone and e-mail of their own, whose order is checked and booked. */
  async function bookedShopper(index: number) {
    const phone = `9${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
    const email = `erase-${tag}-${index}@example.in`;
    await store.install(SHOP);
    const base = shopperOrder(index);
    const order = store.simulator.placeOrder(SHOP, { ...base, email, shippingAddress: { ...base.shippingAddress, phone } });
    await enqueue("order-check", { shop: SHOP, orderGid: order.id });
    expect((await runJobs(["order-check"])).failed).toEqual([]);
    const { awb, legacyId } = await bookOrderNamed(SHOP, order.name);
    expect((await prisma.serviceOrder.findUniqueOrThrow({ where: { awb } })).mobile).toContain(phone);
    return { phone, email, awb, legacyId, orderGid: order.id };
  }

  /** Every text and JSON column of every table, the queue's schema included, that holds `needle`. */
  async function columnsHolding(needle: string): Promise<string[]> {
    const columns = await prisma.$queryRawUnsafe<{ table_schema: string; table_name: string; column_name: string }[]>(
      `SELECT c.table_schema::text, c.table_name::text, c.column_name::text FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
        WHERE c.table_schema IN ('public', 'pgboss') AND c.data_type IN ('text', 'character varying', 'json', 'jsonb', 'ARRAY')`,
    );
    expect(columns.length).toBeGreaterThan(40);
    const holding: string[] = [];
    for (const { table_schema: schema, table_name: table, column_name: column } of columns) {
      const [row] = await prisma.$queryRawUnsafe<{ found: boolean }[]>(`SELECT EXISTS (SELECT 1 FROM "${schema}"."${table}" WHERE "${column}"::text LIKE $1) AS found`, `%${needle}%`);
      if (row?.found) holding.push(`${schema}.${table}.${column}`);
    }
    return holding;
  }

  it("leaves the shopper's phone nowhere in the database: bookings, errors, problems, reasons, tracking and the queue's records", async () => {
    const shopper = await bookedShopper(901);
    const shipment = await prisma.shipment.findFirstOrThrow({ where: { shop: SHOP, awb: shopper.awb } });
    // Everywhere the shopper's details can end up: words that quoted them, and the queue's record of a failed job.
    await prisma.shipment.update({ where: { id: shipment.id }, data: { lastError: `The courier refused the phone ${shopper.phone}`, lastErrorWords: { key: "activity.stored.willRetry", values: { message: `The courier refused the phone ${shopper.phone}` } } } });
    await prisma.trackingEvent.create({ data: { shop: SHOP, shipmentId: shipment.id, fingerprint: "called", code: 6, label: "Out for delivery", activity: `Called ${shopper.phone}, no answer`, happenedAt: new Date() } });
    await prisma.orderRecord.update({
      where: { shop_orderGid: { shop: SHOP, orderGid: shopper.orderGid } },
      data: { problems: [{ code: "PHONE_INVALID", message: `The phone ${shopper.phone} is not a mobile number.`, fix: `Correct ${shopper.phone} in Shopify.` }], decisionReason: `Held: ${shopper.phone} looks like a landline` },
    });
    await enqueue("order-cancelled", { shop: SHOP, orderGid: shopper.orderGid });
    const boss = await jobQueue();
    const [job] = await boss.fetch("order-cancelled");
    await boss.fail("order-cancelled", job!.id, { message: `Shopify refused the address of ${shopper.phone} (${shopper.email})` });
    expect(await columnsHolding(shopper.phone)).toEqual(expect.arrayContaining(["public.Shipment.requestPayload", "public.Shipment.lastError", "public.Shipment.lastErrorWords", "public.OrderRecord.problems", "pgboss.job.output"]));

    const request = webhook("customers/redact", SHOP, { shop_id: 1, shop_domain: SHOP, customer: { id: 78 }, orders_to_redact: [Number(shopper.legacyId)] });
    expect((await responseOf(() => customersRedact({ request, params: {}, context: {} }))).status).toBe(200);
    expect((await runJobs(["customers-redact", "sandbox-erase"])).failed).toEqual([]);

    expect(await columnsHolding(shopper.phone)).toEqual([]);
    expect(await columnsHolding(shopper.email)).toEqual([]);
    // What identifies no one stays: the awb, the booking's status, the kind of problem.
    expect(await prisma.shipment.findFirstOrThrow({ where: { id: shipment.id } })).toMatchObject({ awb: shopper.awb, status: "fulfilled", lastError: "[redacted]" });
    expect(await prisma.orderRecord.findFirstOrThrow({ where: { shop: SHOP, orderGid: shopper.orderGid } })).toMatchObject({ problems: [expect.objectContaining({ code: "PHONE_INVALID" })], decisionReason: "[redacted]" });
  });

  it("clears the shopper's details here at once while the sandbox cannot be reached, and there once it can", async () => {
    const shopper = await bookedShopper(902);
    const port = Number(new URL(courier.url).port);
    const warnings = vi.spyOn(console, "warn");
    await courier.close();
    const request = webhook("customers/redact", SHOP, { shop_id: 1, shop_domain: SHOP, customer: { id: 79 }, orders_to_redact: [Number(shopper.legacyId)] });
    expect((await responseOf(() => customersRedact({ request, params: {}, context: {} }))).status).toBe(200);
    const down = await runJobs(["customers-redact", "sandbox-erase"]);
    expect(down.failed.map((failure) => failure.queue)).toEqual(["sandbox-erase"]);
    expect((await prisma.shipment.findFirstOrThrow({ where: { shop: SHOP, awb: shopper.awb } })).requestPayload).not.toContain(shopper.phone);
    expect((await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: shopper.awb } })).mobile).toContain(shopper.phone);
    const logged = warnings.mock.calls.flat().join("\n");
    warnings.mockRestore();
    expect(logged).toContain(`Erasure at the courier sandbox for ${SHOP} not done yet (attempt 1): 1 booking left`);
    expect(logged).not.toContain(shopper.phone);
    expect(logged).not.toContain(shopper.awb);

    courier = await (await import("../support/courier-service")).startCourierService({ port });
    expect(await runJobs(["sandbox-erase"])).toEqual({ ran: 1, failed: [] });
    expect(await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: shopper.awb } })).toMatchObject({ mobile: "[redacted]", customerName: "[redacted]" });
  });

  it("shows a customer's data request to the merchant on Needs attention, with what Dakiya holds for those orders to download", async () => {
    const shopper = await bookedShopper(903);
    const request = webhook("customers/data_request", SHOP, { shop_id: 1, shop_domain: SHOP, customer: { id: 80, email: shopper.email }, orders_requested: [Number(shopper.legacyId)] });
    expect((await responseOf(() => customersDataRequest({ request, params: {}, context: {} }))).status).toBe(200);
    expect((await runJobs(["customers-data-request"])).failed).toEqual([]);

    const { dataRequests } = await listNeedsAttention(SHOP);
    expect(dataRequests).toEqual([expect.objectContaining({ customerId: "80", orders: 1 })]);
    const id = dataRequests[0]!.id;
    const download = await responseOf(() => dataRequestDownload({ request: store.adminRequest(`/app/data-requests/${id}`, {}, SHOP), params: { id: String(id) }, context: {} }));
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="dakiya-data-request-\d+\.json"$/);
    const compiled = (await download.json()) as { orders: { orderId: string; shipments: { awb: string; sentToCourier: { mobile: string } }[] }[] };
    expect(compiled.orders).toEqual([expect.objectContaining({ orderId: shopper.legacyId, shipments: [expect.objectContaining({ awb: shopper.awb, sentToCourier: expect.objectContaining({ mobile: expect.stringContaining(shopper.phone) }) })], returns: [] })]);

    // Another shop's admin cannot read it, and nothing of it shows on that shop's page.
    const neighbourDownload = await responseOf(() => dataRequestDownload({ request: store.adminRequest(`/app/data-requests/${id}`, {}, OTHER), params: { id: String(id) }, context: {} }));
    expect(neighbourDownload.status).toBe(404);
    expect((await listNeedsAttention(OTHER)).dataRequests).toEqual([]);
  });
});

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
    await prisma.orderRecord.create({ data: { shop: SHOP, orderGid: booked.orderGid, orderName: "#1002", readiness: "shipment", tags: ["rahul-9839012345"], addressDigest: "digest", destination: "Lucknow 226024", shopperName: "Rahul Verma" } });

    const request = webhook("customers/redact", SHOP, { shop_id: 1, shop_domain: SHOP, customer: { id: 77 }, orders_to_redact: [Number(redacted.legacyId)] });
    expect((await responseOf(() => customersRedact({ request, params: {}, context: {} }))).status).toBe(200);
    expect((await runJobs(["customers-redact", "sandbox-erase"])).failed).toEqual([]);

    const shipment = await prisma.shipment.findFirstOrThrow({ where: { shop: SHOP, awb: redacted.awb } });
    expect(shipment.requestPayload).not.toMatch(/Rahul|9839012345|Aliganj/);
    expect(JSON.parse(shipment.requestPayload)).toMatchObject({ name: "[redacted]", mobile: "[redacted]", pincode: "226024" });
    const serviceOrder = await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: redacted.awb } });
    expect(serviceOrder).toMatchObject({ customerName: "[redacted]", mobile: "[redacted]", addressLine1: "[redacted]", awb: redacted.awb });
    expect((await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: kept.awb } })).customerName).toBe("Priya Sharma");
    // The courier's place may be the shopper's door ("Left at 12, Aliganj"): it goes with the words.
    expect(await prisma.trackingEvent.findMany({ where: { shipmentId: shipment.id }, select: { activity: true, location: true } })).toEqual([{ activity: "Delivered", location: null }]);
    expect(await prisma.orderRecord.findFirstOrThrow({ where: { shop: SHOP, orderGid: shipment.orderGid } })).toMatchObject({ tags: [], addressDigest: null, shopperName: "", destination: "Lucknow 226024" });
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
    expect((await runJobs(["shop-redact", "sandbox-erase"])).failed).toEqual([]);
    const jobsOf = async (shop: string) =>
      prisma.$queryRawUnsafe<{ name: string; orderGid: string | null }[]>(`SELECT name, data->>'orderGid' AS "orderGid" FROM pgboss.job WHERE data->>'shop' = $1 AND name NOT IN ('shop-redact', 'sandbox-erase')`, shop);
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

  it("erases the shop here at once while the sandbox cannot be reached, and there once it can", async () => {
    const shop = NEIGHBOUR;
    const port = Number(new URL(courier.url).port);
    const warnings = vi.spyOn(console, "warn");
    await courier.close();
    await store.simulator.uninstallApp(shop);
    const request = webhook("shop/redact", shop, { shop_id: 2, shop_domain: shop });
    expect((await responseOf(() => shopRedact({ request, params: {}, context: {} }))).status).toBe(200);
    const down = await runJobs(["shop-redact", "sandbox-erase"]);
    expect(down.failed.map((failure) => failure.queue)).toEqual(["sandbox-erase"]);
    expect(await prisma.shipment.count({ where: { shop } })).toBe(0);
    expect(await prisma.session.count({ where: { shop } })).toBe(0);
    expect(await prisma.apiClient.count({ where: { name: shop } })).toBe(1);
    expect(warnings.mock.calls.flat().join("\n")).toContain(`Erasure at the courier sandbox for ${shop} not done yet (attempt 1): the shop's whole account left`);
    warnings.mockRestore();

    courier = await (await import("../support/courier-service")).startCourierService({ port });
    expect(await runJobs(["sandbox-erase"])).toEqual({ ran: 1, failed: [] });
    expect(await prisma.apiClient.count({ where: { name: shop } })).toBe(0);
  });

  it("asks nothing of the sandbox for a shop that never booked on it", async () => {
    const shop = uniqueShop("never-booked");
    store.simulator.addShop(seedShop(shop));
    await store.install(shop);
    await store.simulator.uninstallApp(shop);
    const before = courier.requests;
    expect((await responseOf(() => shopRedact({ request: webhook("shop/redact", shop, { shop_id: 3, shop_domain: shop }), params: {}, context: {} }))).status).toBe(200);
    expect((await runJobs(["shop-redact"])).failed).toEqual([]);
    expect(await queuedJobs("sandbox-erase", shop)).toHaveLength(0);
    expect(courier.requests).toBe(before);
    expect(await prisma.session.count({ where: { shop } })).toBe(0);
  });
});

function courierCredentialsFor(shop: string) {
  return sandboxAccountCredentials({ apiKey: process.env.SANDBOX_API_KEY!, secretKey: process.env.SANDBOX_SECRET_KEY! }, shop);
}
