import { Prisma } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { enqueue } from "~/jobs/job-queue.server";
import { action as settingsAction, loader as settingsLoader } from "~/routes/app.settings";
import { action as shipAction, loader as shipLoader } from "~/routes/app.orders.$id.ship";
import { loader as trackLoader } from "~/routes/track.$awb";
import type { RunningCourierService } from "../support/courier-service";
import { queuedJobs, resetJobs, runJobs } from "../support/jobs";
import { startShippingWorld, type startStore } from "../support/store";

let world: Awaited<ReturnType<typeof startShippingWorld>>;
let courier: RunningCourierService;
let store: Awaited<ReturnType<typeof startStore>>;

beforeAll(async () => {
  await resetJobs();
  world = await startShippingWorld();
  ({ courier, store } = world);
  // Install: the first authenticated request exchanges the session token for an offline token.
  await settingsLoader({ request: store.adminRequest("/app/settings"), params: {}, context: {} });
});
afterAll(() => world.close());

const orderNamed = (name: string) => store.shop.orders.find((order) => order.name === name)!;

async function call<T>(run: () => Promise<T>): Promise<{ status: number; body: Record<string, unknown> }> {
  try {
    const response = (await run()) as unknown as Response;
    return { status: response.status, body: await response.json() };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, body: {} };
    throw thrown;
  }
}

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

const SETTINGS_FORM = {
  mode: "sandbox",
  environment: "test",
  defaultWarehouseId: "",
  packageLength: "20",
  packageBreadth: "15",
  packageHeight: "10",
  defaultWeightKg: "0.5",
  codTag: "cod",
  prepaidTag: "prepaid",
  notifyCustomer: "on",
};

const saveSettings = (fields: Record<string, string>) =>
  call(() => settingsAction({ request: store.adminRequest("/app/settings", { method: "POST", body: form(fields) }), params: {}, context: {} }));

const book = (name: string, courierId: number, extra: Record<string, string> = {}) =>
  call(() =>
    shipAction({
      request: store.adminRequest(`/app/orders/${orderNamed(name).legacyResourceId}/ship`, { method: "POST", body: form({ courierId: String(courierId), ...extra }) }),
      params: { id: orderNamed(name).legacyResourceId },
      context: {},
    }),
  );

describe("settings", () => {
  it("refuses bad values field by field and saves nothing", async () => {
    const { status, body } = await saveSettings({ ...SETTINGS_FORM, packageLength: "1", codTag: "", defaultWarehouseId: "abc" });
    expect(status).toBe(422);
    expect(body.errors).toMatchObject({ packageLength: "Length must be more than 1 cm", codTag: expect.stringMatching(/cash-on-delivery/), defaultWarehouseId: expect.stringMatching(/warehouse number/) });
    expect(await prisma.shopSettings.findUnique({ where: { shop: store.domain } })).toBeNull();
  });

  it("on the sandbox, shows the configured warehouse and the sandbox's by name and address, asking the courier once for each", async () => {
    const before = courier.requests;
    const loaded = (await (await settingsLoader({ request: store.adminRequest("/app/settings"), params: {}, context: {} })).json()) as { warehouses: unknown[]; sandboxWarehouses: unknown[] };
    const bhiwandi = { id: 1, description: "Bhiwandi Warehouse, Building A4, Indian Corporation Warehousing Park, Bhiwandi, Maharashtra 421302", problem: null };
    expect(loaded.warehouses).toEqual([bhiwandi]);
    expect(loaded.sandboxWarehouses).toEqual([bhiwandi, { id: 2, description: "Gurugram Warehouse, Plot 52, Sector 37, Gurugram, Haryana 122001", problem: null }]);
    expect(courier.requests - before).toBe(2);
  });

  it("checks the courier account live: wrong keys and unknown warehouses are refused", async () => {
    const noWarehouse = await saveSettings({ ...SETTINGS_FORM, mode: "account", apiKey: "not-a-key", secretKey: "not-a-secret" });
    expect(noWarehouse.body.errors).toEqual({ defaultWarehouseId: "Enter the pickup warehouse id from your courier account" });
    const wrongKeys = await saveSettings({ ...SETTINGS_FORM, mode: "account", apiKey: "not-a-key", secretKey: "not-a-secret", defaultWarehouseId: "1" });
    expect(wrongKeys.body.errors).toEqual({ apiKey: "The courier service refused this API key and secret key" });
    const unknownWarehouse = await saveSettings({ ...SETTINGS_FORM, defaultWarehouseId: "424242" });
    expect(unknownWarehouse.body.errors).toEqual({ defaultWarehouseId: "Warehouse 424242 does not exist in this courier account" });
    expect(await prisma.shopSettings.findUnique({ where: { shop: store.domain } })).toBeNull();
  });

  it("saves an account with its secret encrypted, shows the warehouse, and never sends the secret back", async () => {
    const saved = await saveSettings({
      ...SETTINGS_FORM,
      mode: "account",
      defaultWarehouseId: "1",
      apiKey: process.env.SANDBOX_API_KEY!,
      secretKey: process.env.SANDBOX_SECRET_KEY!,
      [`location:${store.shop.locations[1]!.id}`]: "2",
      preset0Name: "Small box",
      preset0Length: "22",
      preset0Breadth: "16",
      preset0Height: "8",
      preset0MaxWeightKg: "1",
    });
    expect(saved.status).toBe(200);
    expect(saved.body.warehouses).toEqual([expect.objectContaining({ id: 1, city: "Bhiwandi", pincode: 421302 }), expect.objectContaining({ id: 2, city: "Gurugram" })]);
    const row = await prisma.shopSettings.findUniqueOrThrow({ where: { shop: store.domain } });
    expect(row.courierSecretCipher).toMatch(/^v1\./);
    expect(row.courierSecretCipher).not.toContain(process.env.SANDBOX_SECRET_KEY!);

    const loaded = (await (await settingsLoader({ request: store.adminRequest("/app/settings"), params: {}, context: {} })).json()) as { warehouses: { id: number; description: string }[] };
    expect(loaded.warehouses).toEqual([
      { id: 1, description: "Bhiwandi Warehouse, Building A4, Indian Corporation Warehousing Park, Bhiwandi, Maharashtra 421302", problem: null },
      { id: 2, description: "Gurugram Warehouse, Plot 52, Sector 37, Gurugram, Haryana 122001", problem: null },
    ]);
    const page = JSON.stringify(loaded);
    expect(page).not.toContain(process.env.SANDBOX_SECRET_KEY!);
    expect(page).not.toContain(process.env.SANDBOX_API_KEY!);
    expect(page).toContain('"hasSecret":true');
  });
});

describe("shipping an order", () => {
  it("shows each courier's rate for a ready order, with one recommended", async () => {
    const order = orderNamed("#1001");
    const { body } = await call(() => shipLoader({ request: store.adminRequest(`/app/orders/${order.legacyResourceId}/ship`), params: { id: order.legacyResourceId }, context: {} }));
    const outcome = body.outcome as { kind: string; rates: { name: string; isRecommended: boolean; zone: string }[]; shipment: { fields: { package_length: number } } };
    expect(outcome.kind).toBe("quoted");
    expect(outcome.rates.map((rate) => rate.name).sort()).toEqual(["Bluedart", "DTDC", "Delhivery", "XpressBees"]);
    expect(outcome.rates.filter((rate) => rate.isRecommended)).toHaveLength(1);
    expect(outcome.shipment.fields.package_length).toBe(22);
  });

  it("lists what to fix instead of booking an order that cannot ship", async () => {
    const { status, body } = await book("#1007", 1);
    expect(status).toBe(422);
    expect(body).toMatchObject({ kind: "problems", problems: [{ code: "PINCODE_INVALID" }] });
    expect(await prisma.shipment.count({ where: { shop: store.domain, orderName: "#1007" } })).toBe(0);
  });

  it("books one awb and fulfills the order with the courier's tracking number, URL and name", async () => {
    const { status, body } = await book("#1002", 1);
    expect(status).toBe(200);
    const shipment = (body as { shipment: { awb: string; status: string; trackingUrl: string; courierName: string } }).shipment;
    expect(shipment).toMatchObject({ status: "fulfilled", courierName: "Delhivery" });

    const order = orderNamed("#1002");
    expect(order.fulfillments).toHaveLength(1);
    expect(order.fulfillments[0]!.trackingInfo).toEqual([{ company: "Delhivery", number: shipment.awb, url: shipment.trackingUrl }]);
    expect(shipment.trackingUrl).toContain(shipment.awb);
    expect(order.fulfillments[0]!.notifyCustomer).toBe(true);
    expect(order.fulfillmentOrders[0]!.status).toBe("CLOSED");
    expect(order.tags).toContain("dakiya-booked");
    expect(order.metafields.find((metafield) => metafield.key === "awb")?.value).toBe(shipment.awb);

    const stored = await courier.client().getOrder(shipment.awb);
    expect(stored).toMatchObject({ order_id: "1002", payment_mode: "cod", customer_name: "Rahul Verma", pincode: 226024 });

    const again = await book("#1002", 2);
    expect(again.body).toMatchObject({ kind: "already_booked", shipment: { awb: shipment.awb } });
    expect(order.fulfillments).toHaveLength(1);
  });

  it("gives 20 concurrent book requests for one order a single awb and a single fulfillment", async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, index) => book("#1003", (index % 4) + 1)));
    const awbs = new Set(results.map((result) => (result.body.shipment as { awb?: string } | undefined)?.awb).filter(Boolean));
    expect(awbs.size).toBe(1);
    expect(results.filter((result) => result.body.kind === "booked")).toHaveLength(1);
    expect(await prisma.shipment.count({ where: { shop: store.domain, orderGid: orderNamed("#1003").id } })).toBe(1);
    expect(await prisma.serviceOrder.count({ where: { awb: { in: [...awbs] as string[] } } })).toBe(1);
    expect(orderNamed("#1003").fulfillments).toHaveLength(1);
  });

  it("keeps the awb when Shopify throttles the fulfillment, and the booking's job completes it", async () => {
    // Longer than the app's own waits for the bucket: Shopify stays throttled past the request.
    store.shop.faults.set("fulfillmentCreate", { kind: "THROTTLED", times: 4 });
    const { body } = await book("#1014", 2);
    const shipment = (body as { shipment: { id: number; awb: string; status: string; lastError: string } }).shipment;
    expect(shipment.status).toBe("booked_unfulfilled");
    expect(shipment.awb).toBeTruthy();
    expect(shipment.lastError).toMatch(/will retry/);
    expect(orderNamed("#1014").fulfillments).toHaveLength(0);
    // The claim enqueued the booking's watchdog, due two minutes later.
    const [watchdog] = await queuedJobs("shipment-complete", store.domain).then((jobs) => jobs.filter((job) => (job.data as { shipmentId: number }).shipmentId === shipment.id));
    expect(watchdog!.startAfter.getTime()).toBeGreaterThan(Date.now() + 60_000);

    const run = await runJobs(["shipment-complete"]);
    expect(run.failed).toEqual([]);
    const done = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
    expect(done).toMatchObject({ status: "fulfilled", awb: shipment.awb, lastError: null });
    expect(orderNamed("#1014").fulfillments).toHaveLength(1);
    expect(orderNamed("#1014").fulfillments[0]!.trackingInfo[0]).toMatchObject({ company: "Bluedart", number: shipment.awb });
  });

  it("marks a booking interrupted before it reached the courier as failed, and lets the order be booked again", async () => {
    const order = orderNamed("#1011");
    const stuck = await prisma.shipment.create({
      data: { shop: store.domain, orderGid: order.id, orderName: "", status: "booking", requestPayload: "", courierEnvironment: "", paymentMode: "", updatedAt: new Date(Date.now() - 10 * 60_000) },
    });
    await enqueue("shipment-complete", { shop: store.domain, shipmentId: stuck.id });
    expect((await runJobs(["shipment-complete"])).failed).toEqual([]);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: stuck.id } })).toMatchObject({
      status: "failed",
      lastError: "The booking was interrupted before it reached the courier. Book the order again.",
      lastErrorWords: { key: "activity.stored.interrupted" },
    });
    expect(await prisma.shipmentEvent.findFirstOrThrow({ where: { shipmentId: stuck.id, transition: "failed" } })).toMatchObject({ reasonWords: { key: "activity.stored.interrupted" } });
    const again = await book("#1011", 1);
    expect(again.body).toMatchObject({ kind: "booked", shipment: { id: stuck.id, status: "fulfilled" } });
  });

  it("retries a booking whose courier could not be reached, and books it once when the courier is back", async () => {
    const order = orderNamed("#1001");
    // More 503s than the client's own attempts: the courier stays down past the request.
    courier.failNext("create-order", 3);
    const { body } = await book("#1001", 3);
    const pending = (body as { shipment: { id: number; status: string; awb: string | null; lastError: string } }).shipment;
    expect(pending).toMatchObject({ status: "booking", awb: null, lastError: expect.stringMatching(/did not answer.*retry the booking automatically/) });
    expect(order.fulfillments).toHaveLength(0);

    expect((await runJobs(["shipment-complete"])).failed).toEqual([]);
    const done = await prisma.shipment.findUniqueOrThrow({ where: { id: pending.id } });
    expect(done).toMatchObject({ status: "fulfilled", courierName: "XpressBees", lastError: null, lastErrorWords: null });
    // The history's reasons are kept as words beside their English: the wait, the courier chosen, the booking.
    const reasons = await prisma.shipmentEvent.findMany({ where: { shipmentId: pending.id, reasonWords: { not: Prisma.DbNull } }, orderBy: { id: "asc" }, select: { transition: true, reason: true, reasonWords: true } });
    expect(reasons).toEqual([
      { transition: "courier_chosen", reason: expect.stringMatching(/^XpressBees ₹/), reasonWords: { key: "activity.stored.courierChoice", values: { courier: "XpressBees", total: expect.any(String) } } },
      { transition: "booking_retrying", reason: expect.stringMatching(/retry the booking automatically/), reasonWords: { key: "activity.stored.willRetry", values: { message: { key: "outcomes.booking.noAnswer" } } } },
      { transition: "booked", reason: `XpressBees, awb ${done.awb}`, reasonWords: { key: "activity.stored.bookedWith", values: { courier: "XpressBees", awb: done.awb } } },
    ]);
    // One order at the courier, in the account the shop books with.
    const booked = await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: done.awb! } });
    expect(await prisma.serviceOrder.count({ where: { orderId: "1001", apiClientId: booked.apiClientId } })).toBe(1);
    expect(order.fulfillments).toHaveLength(1);
    expect(order.fulfillments[0]!.trackingInfo[0]!.number).toBe(done.awb);
  });

  it("resumes a booking interrupted after the courier booked it, with the same awb", async () => {
    const order = orderNamed("#1004");
    const { body } = await call(() => shipLoader({ request: store.adminRequest(`/app/orders/${order.legacyResourceId}/ship`), params: { id: order.legacyResourceId }, context: {} }));
    const fields = (body.outcome as { shipment: { fields: Record<string, unknown> } }).shipment.fields;
    const payload = { ...fields, order_id: `crash-${store.domain}`, logistic_id: 1 };
    // The courier booked it, but the process died before the answer was recorded.
    const lost = await courier.client().createOrder(payload as never);
    const stuck = await prisma.shipment.create({
      data: {
        shop: store.domain,
        orderGid: order.id,
        orderName: order.name,
        status: "booking",
        requestPayload: JSON.stringify(payload),
        courierEnvironment: "test",
        courierId: 1,
        courierName: "Delhivery",
        paymentMode: "cod",
        locationGid: order.fulfillmentOrders[0]!.locationId,
        updatedAt: new Date(Date.now() - 10 * 60_000),
      },
    });
    // The watchdog job the claim had enqueued.
    await enqueue("shipment-complete", { shop: store.domain, shipmentId: stuck.id });

    expect((await runJobs(["shipment-complete"])).failed).toEqual([]);
    const resumed = await prisma.shipment.findUniqueOrThrow({ where: { id: stuck.id } });
    expect(resumed).toMatchObject({ status: "fulfilled", awb: lost.awb });
    expect(order.fulfillments).toHaveLength(1);
    expect(order.fulfillments[0]!.trackingInfo[0]!.number).toBe(lost.awb);
  });
});

describe("the shopper's tracking page, as Settings set it", () => {
  it("refuses a logo that is not https, an e-mail or phone of the wrong shape, and anything too long; nothing is saved", async () => {
    for (const [field, value, message] of [
      ["logoUrl", "http://cdn.example.in/logo.png", /https:\/\//],
      ["logoUrl", "javascript:alert(1)", /https:\/\//],
      ["logoUrl", `https://cdn.example.in/${"a".repeat(500)}.png`, /at most 500/],
      ["contactEmail", "help at store", /help@yourstore\.in/],
      ["contactEmail", `${"a".repeat(250)}@store.in`, /at most 254/],
      ["contactPhone", "12345", /10-digit/],
      ["contactPhone", "9".repeat(21), /at most 20/],
    ] as const) {
      const { status, body } = await saveSettings({ ...SETTINGS_FORM, logoUrl: "", contactEmail: "", contactPhone: "", [field]: value });
      expect(status, `${field}=${value}`).toBe(422);
      expect((body.errors as Record<string, string>)[field]).toMatch(message);
    }
    expect(await prisma.trackingPageSettings.findUnique({ where: { shop: store.domain } })).toBeNull();
  });

  it("saves its three parts together or not at all: the settings, the label layout and the tracking page's contact", async () => {
    const contact = { logoUrl: "", contactPhone: "" };
    expect((await saveSettings({ ...SETTINGS_FORM, ...contact, labelLayout: "thermal_4x6", contactEmail: "first@store.example.in" })).status).toBe(200);
    // The database refuses the tracking page's row (a trigger stands in for that write failing): the form's other parts,
    // written before it in the same save, must not stay written.
    await prisma.$executeRawUnsafe(`CREATE FUNCTION refuse_tracking_page() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$ LANGUAGE plpgsql`);
    await prisma.$executeRawUnsafe(`CREATE TRIGGER refuse_tracking_page BEFORE UPDATE ON "TrackingPageSettings" FOR EACH ROW EXECUTE FUNCTION refuse_tracking_page()`);
    try {
      await expect(saveSettings({ ...SETTINGS_FORM, ...contact, packageLength: "33", labelLayout: "a4_four_up", contactEmail: "second@store.example.in" })).rejects.toThrow(/refused for the test/);
    } finally {
      await prisma.$executeRawUnsafe(`DROP TRIGGER refuse_tracking_page ON "TrackingPageSettings"`);
      await prisma.$executeRawUnsafe(`DROP FUNCTION refuse_tracking_page()`);
    }
    expect(await prisma.shopSettings.findUniqueOrThrow({ where: { shop: store.domain } })).toMatchObject({ packageLength: 20 });
    expect(await prisma.shopDocumentSettings.findUniqueOrThrow({ where: { shop: store.domain } })).toMatchObject({ labelLayout: "thermal_4x6" });
    expect(await prisma.trackingPageSettings.findUniqueOrThrow({ where: { shop: store.domain } })).toMatchObject({ contactEmail: "first@store.example.in" });
    // Saved again once the database takes it: all three.
    expect((await saveSettings({ ...SETTINGS_FORM, ...contact, packageLength: "33", labelLayout: "a4_four_up", contactEmail: "second@store.example.in" })).status).toBe(200);
    expect(await prisma.shopSettings.findUniqueOrThrow({ where: { shop: store.domain } })).toMatchObject({ packageLength: 33 });
    expect(await prisma.shopDocumentSettings.findUniqueOrThrow({ where: { shop: store.domain } })).toMatchObject({ labelLayout: "a4_four_up" });
    await saveSettings({ ...SETTINGS_FORM, ...contact, labelLayout: "thermal_4x6", contactEmail: "" });
  });

  it("shows the shop's name from Shopify, its logo and contact, the order number and the cash to keep ready through the shipping email's link", async () => {
    const saved = await saveSettings({ ...SETTINGS_FORM, logoUrl: " https://cdn.shopify.com/s/files/1/logo.png ", contactEmail: "help@store.example.in", contactPhone: "98765 43210" });
    expect(saved.status).toBe(200);
    // Settings reads the shop's name from Shopify, as a merchant opening the page does.
    const loaded = (await (await settingsLoader({ request: store.adminRequest("/app/settings"), params: {}, context: {} })).json()) as { sellerContact: Record<string, string> };
    expect(loaded.sellerContact).toEqual({ logoUrl: "https://cdn.shopify.com/s/files/1/logo.png", contactEmail: "help@store.example.in", contactPhone: "+919876543210" });

    const booked = await book("#1004", 1);
    expect(booked.status).toBe(200);
    const { awb } = (booked.body as { shipment: { awb: string } }).shipment;
    // This world's courier hands out its own tracking address; Dakiya's sandbox hands out the app's page with a token
    // of the shipment's own, as here.
    const link = new URL(`http://localhost:3000/track/${awb}?token=shippingTestToken000001`);
    await prisma.shipment.updateMany({ where: { shop: store.domain, awb }, data: { trackingUrl: link.href } });
    const response = await trackLoader({ request: new Request(link), params: { awb }, context: { clientAddress: "198.51.100.7" } });
    expect(response.status).toBe(200);
    const html = await response.text();
    const order = orderNamed("#1004");
    expect(html).toContain(`<a href="https://${store.domain}" rel="noopener"><img src="https://cdn.shopify.com/s/files/1/logo.png"`);
    expect(html).toContain(`<span>${store.shop.name.replace(/&/g, "&amp;")}</span>`);
    expect(html).toContain(`<dd>${order.name}</dd>`);
    expect(html).toContain('<a href="tel:+919876543210">+91 98765 43210</a>');
    // #1004 is cash on delivery: the booked amount, as India writes it.
    expect(html).toMatch(/<strong>Keep ₹\d{1,2}(,\d\d)*,?\d{3}(\.\d\d)? ready<\/strong>/);
    // The shopper's own details stay off the page.
    for (const detail of [order.shippingAddress?.name, order.shippingAddress?.phone, order.shippingAddress?.address1].filter(Boolean)) expect(html).not.toContain(detail);
  });
});
