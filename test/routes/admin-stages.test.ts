import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { action as ordersAction, loader as ordersLoader } from "~/routes/app.orders._index";
import { loader as homeLoader } from "~/routes/app._index";
import { action as exportAction } from "~/routes/app.shipments.export";
import { loader as shipmentsLoader } from "~/routes/app.shipments._index";
import { resumeTracking, stopTracking } from "~/shipments/shipment-changes.server";
import { resetJobs, runJobs } from "../support/jobs";
import { startShippingWorld, type startStore } from "../support/store";

let world: Awaited<ReturnType<typeof startShippingWorld>>;
let store: Awaited<ReturnType<typeof startStore>>;
beforeAll(async () => {
  await resetJobs();
  world = await startShippingWorld();
  ({ store } = world);
  await ordersLoader({ request: store.adminRequest("/app/orders"), params: {}, context: {} });
  expect((await runJobs(["orders-reconcile", "order-check"])).failed).toEqual([]);
});
afterAll(() => world.close());

const idOf = (name: string) => store.shop.orders.find((order) => order.name === name)!.legacyResourceId;
const jsonOf = async (response: Response) => (await response.json()) as Record<string, unknown>;
type Listed = { orderName: string; awb: string | null; stage: string; paymentMode: string; codAmountPaise: number | null };
const shipments = async (query = "") => (await jsonOf(await shipmentsLoader({ request: store.adminRequest(`/app/shipments${query}`), params: {}, context: {} }))) as { shipments: Listed[]; filtered: boolean; problems: string[] };
type Count = { key: string; count: number; url: string };
const home = async () => (await jsonOf(await homeLoader({ request: store.adminRequest("/app"), params: {}, context: {} }))) as {
  counts: { orders: Count[]; shipments: Count[]; cod: { outPaise: number; deliveredPaise: number; outUrl: string }; trackingLag: { overdue: number; oldestOverdueSeconds: number } };
  setup: { key: string; done: boolean }[];
};
const exportCsv = async (fields: Record<string, string> = {}) => {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.set(key, value);
  return (await exportAction({ request: store.adminRequest("/app/shipments/export", { method: "POST", body }), params: {}, context: {} })) as Response;
};

describe("Home, Shipments and the export count and list by the merchant's stages", () => {
  it("counts orders by stage, each linked to the list it counts, and shows the setup steps left", async () => {
    const { counts, setup } = await home();
    const ready = counts.orders.find((count) => count.key === "ready")!;
    const fixing = counts.orders.find((count) => count.key === "needs_fixing")!;
    expect(ready.count).toBeGreaterThan(0);
    expect(fixing.count).toBeGreaterThan(0);
    const readyList = (await jsonOf(await ordersLoader({ request: store.adminRequest(ready.url), params: {}, context: {} }))) as { rows: { stage: string }[] };
    expect(readyList.rows).toHaveLength(ready.count);
    expect(readyList.rows.every((row) => row.stage === "ready")).toBe(true);
    const fixingList = (await jsonOf(await ordersLoader({ request: store.adminRequest(fixing.url), params: {}, context: {} }))) as { rows: { stage: string }[] };
    expect(fixingList.rows).toHaveLength(fixing.count);
    expect(setup.find((step) => step.key === "first")).toMatchObject({ done: false });
  });

  it("lists booked shipments by stage, searches by order number, awb and phone, and filters by dates", async () => {
    const form = new FormData();
    for (const name of ["#1001", "#1002", "#1003"]) form.append("orderId", idOf(name));
    const { results } = (await jsonOf(await ordersAction({ request: store.adminRequest("/app/orders", { method: "POST", body: form }), params: {}, context: {} }))) as { results: { outcome: string }[] };
    expect(results.map((result) => result.outcome)).toEqual(["booked", "booked", "booked"]);

    const all = await shipments();
    expect(all.shipments).toHaveLength(3);
    expect(all.shipments.every((shipment) => shipment.stage === "awaiting_pickup")).toBe(true);
    const cod = all.shipments.find((shipment) => shipment.paymentMode === "cod");
    if (cod) expect(cod.codAmountPaise).toBeGreaterThan(0);

    expect((await shipments("?stage=awaiting_pickup")).shipments).toHaveLength(3);
    const none = await shipments("?stage=delivered");
    expect(none).toMatchObject({ shipments: [], filtered: true });

    expect((await shipments("?q=1002")).shipments.map((shipment) => shipment.orderName)).toEqual(["#1002"]);
    expect((await shipments("?q=%231002")).shipments.map((shipment) => shipment.orderName)).toEqual(["#1002"]);
    const awb = all.shipments.find((shipment) => shipment.orderName === "#1003")!.awb!;
    expect((await shipments(`?q=${awb}`)).shipments.map((shipment) => shipment.orderName)).toEqual(["#1003"]);

    const booked = await prisma.shipment.findFirstOrThrow({ where: { shop: store.domain, orderName: "#1001" } });
    const mobile = (JSON.parse(booked.requestPayload) as { mobile: string }).mobile;
    const byPhone = await shipments(`?q=${encodeURIComponent(`+91 ${mobile.slice(0, 5)} ${mobile.slice(5)}`)}`);
    expect(byPhone.shipments.map((shipment) => shipment.orderName)).toContain("#1001");
    // The page never sends the search back: it may be a shopper's mobile.
    expect(JSON.stringify(byPhone)).not.toContain(mobile);

    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Kolkata" }).format(new Date());
    expect((await shipments(`?from=${today}&to=${today}`)).shipments).toHaveLength(3);
    expect((await shipments("?to=2020-01-01")).shipments).toHaveLength(0);
    expect((await shipments("?from=yesterday")).problems).toEqual(["The start date must be a day such as 2026-11-25."]);

    const { counts, setup } = await home();
    expect(counts.shipments.find((count) => count.key === "awaiting_pickup")!.count).toBe(3);
    expect(setup.find((step) => step.key === "first")).toMatchObject({ done: true });

    // Home says how far tracking is behind: three parcels just booked, each due for its first read at once; then one
    // read twenty minutes overdue.
    expect(counts.trackingLag.overdue).toBe(3);
    expect(counts.trackingLag.oldestOverdueSeconds).toBeLessThan(10 * 60);
    const { nextSyncAt } = booked;
    await prisma.shipment.update({ where: { id: booked.id }, data: { nextSyncAt: new Date(Date.now() - 20 * 60_000) } });
    const behind = (await home()).counts.trackingLag;
    await prisma.shipment.update({ where: { id: booked.id }, data: { nextSyncAt } });
    expect(behind.overdue).toBe(3);
    expect(behind.oldestOverdueSeconds).toBeGreaterThanOrEqual(20 * 60);
  });

  it("filters by each shipment's latest history event, in the list and the export, and names an unknown one", async () => {
    const names = async (query: string) => (await shipments(query)).shipments.map((shipment) => shipment.orderName).sort();
    // Booked by hand above, each one's history ends with Shopify's fulfillment.
    expect(await names("?event=fulfilled")).toEqual(["#1001", "#1002", "#1003"]);
    expect(await names("?event=tracking_stopped")).toEqual([]);

    const tracking = { actor: { kind: "job", name: "tracking-sync" }, at: new Date() } as const;
    const shipmentOf = (orderName: string) => prisma.shipment.findFirstOrThrow({ where: { shop: store.domain, orderName } });
    expect(await stopTracking(await shipmentOf("#1002"), "Tracking stopped: the courier does not know this awb", tracking)).not.toBeNull();
    expect(await stopTracking(await shipmentOf("#1003"), "Tracking stopped: the courier does not know this awb", tracking)).not.toBeNull();
    // Stopped, then started again: its latest event is the resumption, whatever came before.
    expect(await resumeTracking(await shipmentOf("#1003"), { actor: { kind: "merchant", name: "Ship order page" }, at: new Date(Date.now() + 1_000) })).not.toBeNull();

    expect(await names("?event=tracking_stopped")).toEqual(["#1002"]);
    expect(await names("?event=tracking_resumed")).toEqual(["#1003"]);
    expect(await names("?event=fulfilled")).toEqual(["#1001"]);
    // With the other filters, and marked as a filtered list.
    expect(await names("?event=tracking_stopped&q=1003")).toEqual([]);
    expect(await shipments("?event=tracking_stopped&stage=awaiting_pickup")).toMatchObject({ filtered: true, problems: [] });
    expect(await names("?event=tracking_stopped&stage=awaiting_pickup")).toEqual(["#1002"]);

    // A transition the history never keeps, or no transition at all, is named as a problem and not applied.
    for (const unknown of ["tracking_checked", "nothing"]) {
      const answer = await shipments(`?event=${unknown}`);
      expect(answer.problems).toEqual(["Choose one of the events a shipment's history records."]);
      expect(answer.shipments).toHaveLength(3);
    }

    const csv = async (fields: Record<string, string>) => (await (await exportCsv(fields)).text()).trim().split("\r\n").slice(1).map((line) => line.split(",")[0]);
    expect(await csv({ event: "tracking_stopped" })).toEqual(["#1002"]);
    expect(await csv({ event: "tracking_resumed" })).toEqual(["#1003"]);
    const refused = await exportCsv({ event: "nothing" });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toBe("Choose one of the events a shipment's history records.");

    // Started again, the list has nothing stopped.
    expect(await resumeTracking(await shipmentOf("#1002"), { actor: { kind: "merchant", name: "Ship order page" }, at: new Date(Date.now() + 2_000) })).not.toBeNull();
    expect(await names("?event=tracking_stopped")).toEqual([]);
  });

  it("exports the filtered list as CSV", async () => {
    const response = await exportCsv({ q: "1002" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).trim().split("\r\n");
    expect(lines[0]).toMatch(/^Order,Booked,Shopper,Courier,AWB,Payment,COD amount/);
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(/^#1002,/);
    expect((await exportCsv({ stage: "nowhere" })).status).toBe(422);
  });

  it("streams an export of thousands of rows in order, one batch in memory at a time", async () => {
    const template = await prisma.shipment.findFirstOrThrow({ where: { shop: store.domain, orderName: "#1001" } });
    const many = 5_000;
    // Copies of one booked shipment, made by PostgreSQL in one statement (row by row through Prisma takes half a minute).
    const changed: Record<string, string> = {
      orderGid: `'gid://shopify/Order/9' || n`,
      orderName: `'#9' || n`,
      fulfillmentOrderGid: `'gid://shopify/FulfillmentOrder/9' || n`,
      awb: `'BULK' || n`,
      courierStatusCode: "5",
      outcome: "'in_transit'",
      status: "'fulfilled'",
      createdAt: "now()",
      updatedAt: "now()",
    };
    const columns = (await prisma.$queryRaw<{ name: string }[]>`SELECT column_name::text AS name FROM information_schema.columns WHERE table_name = 'Shipment' AND column_name <> 'id'`).map((column) => column.name);
    await prisma.$executeRawUnsafe(
      `INSERT INTO "Shipment" (${columns.map((column) => `"${column}"`).join(", ")})
       SELECT ${columns.map((column) => changed[column] ?? `t."${column}"`).join(", ")} FROM "Shipment" t, generate_series(0, ${many - 1}) n WHERE t.id = $1`,
      template.id,
    );
    try {
      const response = await exportCsv({ stage: "in_transit" });
      const reader = response.body!.getReader();
      let chunks = 0;
      let text = "";
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks += 1;
        text += decoder.decode(value, { stream: true });
      }
      const lines = text.trim().split("\r\n");
      expect(lines).toHaveLength(many + 1);
      expect(new Set(lines.slice(1).map((line) => line.split(",")[0])).size).toBe(many);
      expect(chunks).toBeGreaterThan(many / 200);
    } finally {
      await prisma.shipment.deleteMany({ where: { shop: store.domain, awb: { startsWith: "BULK" } } });
    }
  }, 120_000);
});
