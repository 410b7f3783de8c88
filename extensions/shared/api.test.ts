import { afterEach, describe, expect, it, vi } from "vitest";
import { BULK_SHIP_LIMIT, chunk, createDakiyaApi, legacyIdOf } from "./api";
import { fakeBackend, json, ORDER_GID, orderShipping } from "./testing";

afterEach(() => vi.useRealTimers());

describe("legacyIdOf", () => {
  it("takes the number out of an order GID", () => {
    expect(legacyIdOf("gid://shopify/Order/5551234")).toBe("5551234");
  });

  it("refuses anything that is not an order GID", () => {
    expect(() => legacyIdOf("gid://shopify/Product/1")).toThrow("Not an order GID");
    expect(() => legacyIdOf("5551234")).toThrow("Not an order GID");
  });
});

describe("chunk", () => {
  it("splits into request-sized chunks in order", () => {
    const ids = Array.from({ length: 120 }, (_, index) => index);
    expect(chunk(ids).map((part) => part.length)).toEqual([50, 50, 20]);
    expect(chunk(ids).flat()).toEqual(ids);
    expect(chunk([1, 2, 3], 50)).toEqual([[1, 2, 3]]);
    expect(chunk([])).toEqual([]);
  });
});

describe("the Dakiya client", () => {
  it("sends each call with its method, path and JSON body", async () => {
    const backend = fakeBackend((call) =>
      call.path.endsWith("bulk-ship") ? json({ results: [] }) : call.path.endsWith("book") ? json({ outcome: "booked", message: null, order: orderShipping() }) : json(call.method === "GET" ? orderShipping() : { order: orderShipping() }),
    );
    const api = createDakiyaApi({ fetch: backend.fetch });

    await api.getOrder(ORDER_GID);
    await api.book(ORDER_GID, 33);
    await api.sync(ORDER_GID);
    await api.bulkShip([ORDER_GID]);

    expect(backend.calls).toEqual([
      { method: "GET", path: "/api/orders/5551234", body: undefined },
      { method: "POST", path: "/api/orders/5551234/book", body: { courierId: 33 } },
      { method: "POST", path: "/api/orders/5551234/sync", body: {} },
      { method: "POST", path: "/api/orders/bulk-ship", body: { orderIds: [ORDER_GID] } },
    ]);
    const [, init] = vi.mocked(backend.fetch).mock.calls[1]!;
    expect(init?.headers).toEqual({ Accept: "application/json", "Content-Type": "application/json" });
  });

  it("returns the answer when it has the contract's shape", async () => {
    const order = orderShipping();
    const api = createDakiyaApi({ fetch: fakeBackend(() => json(order)).fetch });
    await expect(api.getOrder(ORDER_GID)).resolves.toEqual({ ok: true, value: order });
  });

  it("turns a non-2xx status, a network error and a body of the wrong shape into failures", async () => {
    const statusApi = createDakiyaApi({ fetch: fakeBackend(() => json({ error: "Unauthorized" }, 401)).fetch });
    await expect(statusApi.getOrder(ORDER_GID)).resolves.toEqual({ ok: false, failure: { kind: "status", status: 401 } });

    const offlineApi = createDakiyaApi({ fetch: fakeBackend(() => "network-error").fetch });
    await expect(offlineApi.book(ORDER_GID, 1)).resolves.toEqual({ ok: false, failure: { kind: "network" } });

    const htmlApi = createDakiyaApi({ fetch: fakeBackend(() => new Response("<html>login</html>")).fetch });
    await expect(htmlApi.getOrder(ORDER_GID)).resolves.toEqual({ ok: false, failure: { kind: "malformed" } });

    const wrongApi = createDakiyaApi({ fetch: fakeBackend(() => json({ ...orderShipping(), state: "shipped" })).fetch });
    await expect(wrongApi.getOrder(ORDER_GID)).resolves.toEqual({ ok: false, failure: { kind: "malformed" } });
  });

  it("gives up on a call that takes too long, and aborts it", async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const hanging = vi.fn((_input: RequestInfo | URL, init?: RequestInit) => {
      signal = init?.signal ?? undefined;
      return new Promise<Response>((_, reject) => signal?.addEventListener("abort", () => reject(new Error("aborted"))));
    });
    const api = createDakiyaApi({ fetch: hanging, timeoutMs: { read: 1_000 } });

    const pending = api.getOrder(ORDER_GID);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(pending).resolves.toEqual({ ok: false, failure: { kind: "timeout" } });
    expect(signal?.aborted).toBe(true);
  });

  it(`refuses a bulk request of more than ${BULK_SHIP_LIMIT} orders or of none`, () => {
    const api = createDakiyaApi({ fetch: fakeBackend(() => json({ results: [] })).fetch });
    expect(() => api.bulkShip([])).toThrow("1..50");
    expect(() => api.bulkShip(Array.from({ length: 51 }, () => ORDER_GID))).toThrow("1..50");
  });
});
