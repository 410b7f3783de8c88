import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as ordersAction, loader as ordersLoader } from "~/routes/app.orders._index";
import { loader as compareLoader } from "~/routes/app.orders.compare";
import { loader as shipmentsLoader } from "~/routes/app.shipments._index";
import { startShippingWorld, type startStore } from "../support/store";

let world: Awaited<ReturnType<typeof startShippingWorld>>;
let store: Awaited<ReturnType<typeof startStore>>;
beforeAll(async () => {
  world = await startShippingWorld();
  ({ store } = world);
});
afterAll(() => world.close());

const idOf = (name: string) => store.shop.orders.find((order) => order.name === name)!.legacyResourceId;
const jsonOf = async (response: Response) => (await response.json()) as Record<string, unknown>;

type Row = { name: string; problems: { code: string }[]; paymentMode: string | null; weightKg: number | null; destination: string; shipmentStatus: string | null };

describe("orders to ship", () => {
  it("lists unshipped and partly shipped orders, each ready or with its problems", async () => {
    const { rows, nextCursor } = (await jsonOf(await ordersLoader({ request: store.adminRequest("/app/orders"), params: {}, context: {} }))) as { rows: Row[]; nextCursor: string | null };
    const byName = new Map(rows.map((row) => [row.name, row]));
    expect([...byName.keys()]).not.toContain("#1013"); // cancelled
    expect(byName.get("#1011")).toMatchObject({ problems: [], paymentMode: "cod" }); // partly fulfilled
    expect(byName.get("#1001")).toMatchObject({ problems: [], paymentMode: "prepaid", weightKg: 0.71, destination: "Bengaluru 560066" });
    expect(byName.get("#1007")!.problems.map((problem) => problem.code)).toEqual(["PINCODE_INVALID"]);
    expect(byName.get("#1005")!.problems.map((problem) => problem.code)).toEqual(["TOO_MANY_ITEMS"]);
    expect(byName.get("#1010")!.problems.map((problem) => problem.code)).toEqual(["OUTSIDE_INDIA"]);
    expect(rows).toHaveLength(13);
    expect(nextCursor).toBeNull();
  });

  it("pages through the Admin API", async () => {
    store.shop.orders.push(
      ...Array.from({ length: 10 }, (_, index) => ({
        ...structuredClone(store.shop.orders[0]!),
        id: `gid://shopify/Order/9${index}`,
        legacyResourceId: `9${index}`,
        name: `#20${index}`,
      })),
    );
    try {
      const first = (await jsonOf(await ordersLoader({ request: store.adminRequest("/app/orders"), params: {}, context: {} }))) as { rows: Row[]; nextCursor: string };
      expect(first.rows).toHaveLength(20);
      const second = (await jsonOf(await ordersLoader({ request: store.adminRequest(`/app/orders?after=${encodeURIComponent(first.nextCursor)}`), params: {}, context: {} }))) as { rows: Row[]; nextCursor: string | null };
      expect(second.rows).toHaveLength(3);
      expect(new Set([...first.rows, ...second.rows].map((row) => row.name)).size).toBe(23);
    } finally {
      store.shop.orders.splice(-10);
    }
  });

  it("compares rates for selected orders", async () => {
    const { compared } = (await jsonOf(await compareLoader({ request: store.adminRequest(`/app/orders/compare?id=${idOf("#1001")}&id=${idOf("#1008")}`), params: {}, context: {} }))) as {
      compared: { outcome: { kind: string; rates?: { isRecommended: boolean }[]; problems?: { code: string }[] } }[];
    };
    expect(compared[0]!.outcome.kind).toBe("quoted");
    expect(compared[0]!.outcome.rates!.filter((rate) => rate.isRecommended)).toHaveLength(1);
    expect(compared[1]!.outcome).toMatchObject({ kind: "problems", problems: [{ code: "PINCODE_MISSING" }] });
  });

  it("books selected orders with their recommended courier and reports each", async () => {
    const form = new FormData();
    for (const name of ["#1001", "#1009"]) form.append("orderId", idOf(name));
    const { results } = (await jsonOf(await ordersAction({ request: store.adminRequest("/app/orders", { method: "POST", body: form }), params: {}, context: {} }))) as {
      results: { booked: boolean; summary: string }[];
    };
    expect(results[0]).toMatchObject({ booked: true, summary: expect.stringMatching(/^booked with \w+, awb \w+$/) });
    expect(results[1]).toMatchObject({ booked: false, summary: expect.stringMatching(/no phone number/) });
    expect(store.shop.orders.find((order) => order.name === "#1001")!.fulfillments).toHaveLength(1);

    const empty = await ordersAction({ request: store.adminRequest("/app/orders", { method: "POST", body: new FormData() }), params: {}, context: {} });
    expect(empty.status).toBe(422);
  });

  it("lists shipments, filtered by state, and only this shop's", async () => {
    const all = (await jsonOf(await shipmentsLoader({ request: store.adminRequest("/app/shipments"), params: {}, context: {} }))) as { shipments: { orderName: string; status: string }[] };
    expect(all.shipments).toEqual([expect.objectContaining({ orderName: "#1001", status: "fulfilled" })]);
    const failed = (await jsonOf(await shipmentsLoader({ request: store.adminRequest("/app/shipments?status=failed"), params: {}, context: {} }))) as { shipments: unknown[] };
    expect(failed.shipments).toEqual([]);
  });
});
