import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { enqueue } from "~/jobs/job-queue.server";
import { loader as shipLoader } from "~/routes/app.orders.$id.ship";
import { action as ordersAction, loader as ordersLoader } from "~/routes/app.orders._index";
import { loader as compareLoader } from "~/routes/app.orders.compare";
import { loader as shipmentsLoader } from "~/routes/app.shipments._index";
import { resetJobs, runJobs } from "../support/jobs";
import { createOrders } from "../support/orders";
import { startShippingWorld, type startStore } from "../support/store";

let world: Awaited<ReturnType<typeof startShippingWorld>>;
let store: Awaited<ReturnType<typeof startStore>>;
beforeAll(async () => {
  await resetJobs();
  world = await startShippingWorld();
  ({ store } = world);
});
afterAll(() => world.close());

const idOf = (name: string) => store.shop.orders.find((order) => order.name === name)!.legacyResourceId;
const jsonOf = async (response: Response) => (await response.json()) as Record<string, unknown>;
const listPage = async (query = "") => (await jsonOf(await ordersLoader({ request: store.adminRequest(`/app/orders${query}`), params: {}, context: {} }))) as Page;

type Row = { name: string; problems: { code: string }[]; paymentMode: string | null; weightKg: number | null; destination: string; shopperName: string; shipmentStatus: string | null };
type Page = { rows: Row[]; nextCursor: string | null; reading: boolean };

describe("orders to ship", () => {
  it("reads a newly installed shop's orders, then lists each ready or with its problems without asking Shopify", async () => {
    // The first visit after install: the shop's orders are being read.
    const first = await listPage();
    expect(first).toMatchObject({ reading: true, rows: [] });
    const run = await runJobs(["orders-reconcile", "order-check"]);
    expect(run.failed).toEqual([]);
    // The reconciliation, then a check of each order of the last 8 days (#1012 is ten days old: the courier
    // would refuse it anyway).
    expect(run.ran).toBe(1 + 13);

    const calls = store.simulator.requests;
    const { rows, nextCursor, reading } = await listPage();
    expect(store.simulator.requests).toBe(calls);
    expect(reading).toBe(false);
    const byName = new Map(rows.map((row) => [row.name, row]));
    expect([...byName.keys()]).not.toContain("#1013"); // cancelled
    expect([...byName.keys()]).not.toContain("#1012"); // older than the first look back
    expect(byName.get("#1011")).toMatchObject({ problems: [], paymentMode: "cod" }); // partly fulfilled
    expect(byName.get("#1001")).toMatchObject({ problems: [], paymentMode: "prepaid", weightKg: 0.71, destination: "Bengaluru 560066", shopperName: "Priya Sharma" });
    expect(byName.get("#1007")!.problems.map((problem) => problem.code)).toEqual(["PINCODE_INVALID"]);
    // Twelve products: more than one courier order takes, so it ships as parcels of 10 and 2, ready like any other.
    expect(byName.get("#1005")).toMatchObject({ problems: [], paymentMode: "prepaid", weightKg: 1.2 });
    expect(byName.get("#1010")!.problems.map((problem) => problem.code)).toEqual(["OUTSIDE_INDIA"]);
    expect(rows).toHaveLength(12);
    expect(nextCursor).toBeNull();
  });

  it("pages through the stored orders, newest first", async () => {
    await createOrders(store, 10);
    await enqueue("orders-reconcile", { shop: store.domain });
    expect((await runJobs(["orders-reconcile", "order-check"])).failed).toEqual([]);
    const first = await listPage();
    expect(first.rows).toHaveLength(20);
    expect(first.rows[0]!.name).toMatch(/^#1\d+$/);
    const second = await listPage(`?after=${encodeURIComponent(first.nextCursor!)}`);
    expect(second.rows).toHaveLength(2);
    expect(new Set([...first.rows, ...second.rows].map((row) => row.name)).size).toBe(22);
  });

  it("compares rates for selected orders, sending the page the orders' names and destinations and nothing else of their shoppers", async () => {
    const response = await compareLoader({ request: store.adminRequest(`/app/orders/compare?id=${idOf("#1001")}&id=${idOf("#1008")}`), params: {}, context: {} });
    const text = await response.clone().text();
    const { compared } = (await jsonOf(response)) as {
      compared: { outcome: { kind: string; order?: { name: string; destination: string }; rates?: { isRecommended: boolean }[]; problems?: { code: string }[] } }[];
    };
    expect(compared[0]!.outcome).toMatchObject({ kind: "quoted", order: { name: "#1001", destination: expect.any(String) } });
    expect(compared[0]!.outcome.rates!.filter((rate) => rate.isRecommended)).toHaveLength(1);
    expect(compared[1]!.outcome).toMatchObject({ kind: "problems", problems: [{ code: "PINCODE_MISSING" }] });
    // The courier's body for these orders holds the shoppers' phones, e-mails and street addresses: none reaches the page.
    for (const name of ["#1001", "#1008"]) {
      const order = store.shop.orders.find((candidate) => candidate.name === name)!;
      for (const personal of [order.shippingAddress?.phone, order.email, order.shippingAddress?.address1].filter((value): value is string => Boolean(value))) expect(text).not.toContain(personal);
    }
    expect(text).not.toMatch(/"mobile"|"address_line_1"|"fields"/);
  });

  it("books selected orders with their recommended courier and reports each by name", async () => {
    const form = new FormData();
    for (const name of ["#1001", "#1009"]) form.append("orderId", idOf(name));
    const { results } = (await jsonOf(await ordersAction({ request: store.adminRequest("/app/orders", { method: "POST", body: form }), params: {}, context: {} }))) as {
      results: { orderName: string; outcome: string; awb: string | null; reason: string | null }[];
    };
    expect(results[0]).toMatchObject({ orderName: "#1001", outcome: "booked", awb: expect.stringMatching(/^\w+$/) });
    expect(results[1]).toMatchObject({ orderName: "#1009", outcome: "failed", reason: expect.stringMatching(/no phone number/) });
    expect(store.shop.orders.find((order) => order.name === "#1001")!.fulfillments).toHaveLength(1);

    const empty = await ordersAction({ request: store.adminRequest("/app/orders", { method: "POST", body: new FormData() }), params: {}, context: {} });
    expect(empty.status).toBe(422);
  });

  it("the ship page of a booked order gives its times in the shop's own time zone", async () => {
    const before = store.shop.ianaTimezone;
    store.shop.ianaTimezone = "Asia/Dubai";
    try {
      const page = (await jsonOf(await shipLoader({ request: store.adminRequest(`/app/orders/${idOf("#1001")}/ship`), params: { id: idOf("#1001") }, context: {} }))) as { timeZone: string; history: unknown[] };
      expect(page.timeZone).toBe("Asia/Dubai");
      expect(page.history.length).toBeGreaterThan(0);
    } finally {
      store.shop.ianaTimezone = before;
    }
  });

  it("lists shipments, filtered by state, and only this shop's", async () => {
    const all = (await jsonOf(await shipmentsLoader({ request: store.adminRequest("/app/shipments"), params: {}, context: {} }))) as { shipments: { orderName: string; status: string }[] };
    expect(all.shipments).toEqual([expect.objectContaining({ orderName: "#1001", status: "fulfilled" })]);
    const failed = (await jsonOf(await shipmentsLoader({ request: store.adminRequest("/app/shipments?stage=not_booked"), params: {}, context: {} }))) as { shipments: unknown[] };
    expect(failed.shipments).toEqual([]);
  });
});

describe("when Shopify stays busy", () => {
  const status = async (run: () => Promise<Response>) => {
    try {
      return await run();
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  };

  it("answers the compare page and the ship page 429 with a plain reason and Retry-After, never a 500", async () => {
    // More throttled answers than Dakiya's own waits: Shopify stays throttled past the request.
    store.shop.faults.set("order", { kind: "THROTTLED", times: 10 });
    const compare = await status(() => compareLoader({ request: store.adminRequest(`/app/orders/compare?id=${idOf("#1003")}`), params: {}, context: {} }));
    expect(compare.status).toBe(429);
    expect(compare.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await compare.json()).toEqual({ shopifyBusy: expect.stringMatching(/^Shopify is busy/) });
    store.shop.faults.delete("order");

    store.shop.faults.set("order", { kind: "HTTP_503", times: 10 });
    const ship = await status(() => shipLoader({ request: store.adminRequest(`/app/orders/${idOf("#1003")}/ship`), params: { id: idOf("#1003") }, context: {} }));
    expect(ship.status).toBe(429);
    expect(await ship.json()).toEqual({ shopifyBusy: expect.stringMatching(/^Shopify did not answer/) });
    store.shop.faults.delete("order");
  });

  it("answers every one of 10 racing bulk bookings with a result per order, and books each order once", async () => {
    store.shop.faults.set("order", { kind: "THROTTLED", times: 12 });
    const bulk = () => {
      const body = new FormData();
      for (const name of ["#1004", "#1014"]) body.append("orderId", idOf(name));
      return status(() => ordersAction({ request: store.adminRequest("/app/orders", { method: "POST", body }), params: {}, context: {} }));
    };
    const answers = await Promise.all(Array.from({ length: 10 }, bulk));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const results = (await Promise.all(answers.map((answer) => answer.json()))) as { results: { orderName: string; outcome: string; reason: string | null }[] }[];
    for (const { results: perOrder } of results) {
      expect(perOrder.map((result) => result.orderName).sort()).toEqual(["#1004", "#1014"]);
      // Each request books the order, finds it booked (or being booked, or fulfilled) by another, or meets Shopify busy.
      for (const result of perOrder) expect(`${result.outcome} ${result.reason ?? ""}`).toMatch(/^booked|^already_booked|already fulfilled|Shopify is busy/);
    }
    store.shop.faults.delete("order");
    const shipments = await prisma.shipment.findMany({ where: { shop: store.domain, orderName: { in: ["#1004", "#1014"] }, awb: { not: null } } });
    expect(new Set(shipments.map((shipment) => shipment.orderName)).size).toBe(shipments.length);
  });
});
