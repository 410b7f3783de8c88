import { getExtension } from "@shopify/ui-extensions-tester";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { BulkAnswer } from "../../shared/api";
import {
  allByText,
  bulkResult,
  button,
  click,
  deferred,
  fakeBackend,
  hostI18n,
  json,
  pageText,
  unmount,
  type BackendAnswer,
  type BackendCall,
  type Locale,
} from "../../shared/testing";
import en from "../locales/en.default.json";
import hi from "../locales/hi.json";

const extension = getExtension("admin.order-index.selection-action.render");

beforeEach(() => {
  extension.setUp();
  useLocale("en");
});

afterEach(() => {
  unmount();
  extension.tearDown();
});

function useLocale(locale: Locale) {
  extension.shopify.i18n = hostI18n(locale, { en, hi });
}

const gids = (count: number, from = 1001) =>
  Array.from({ length: count }, (_, index) => `gid://shopify/Order/${from + index}`);

async function open(selected: string[], respond: (call: BackendCall) => BackendAnswer | Promise<BackendAnswer>) {
  extension.shopify.data.selected = selected.map((id) => ({ id }));
  const backend = fakeBackend(respond);
  extension.fetch = backend.fetch;
  await extension.render();
  return backend;
}

/** Books every order it is sent, as the backend would with no rules and no problems. */
const bookEverything = (call: BackendCall) =>
  json({
    results: (call.body as { orderIds: string[] }).orderIds.map((orderId) => bulkResult({ orderId })),
  } satisfies BulkAnswer);

const bulkCall = (orderIds: string[]) => ({ method: "POST", path: "/api/orders/bulk-ship", body: { orderIds } });

const rows = () =>
  [...document.body.querySelectorAll("s-table-body s-table-row")].map((row) =>
    [...row.querySelectorAll("s-table-cell")].map((cell) => cell.textContent),
  );

describe("shipping the selected orders", () => {
  it("asks before shipping, then ships them by the shop's policy and shows each order's result", async () => {
    const selected = gids(4);
    const backend = await open(selected, () =>
      json({
        results: [
          bulkResult({ orderId: selected[0]!, orderName: "#1001", outcome: "booked", courierName: "Delhivery", awb: "DL100" }),
          bulkResult({ orderId: selected[1]!, orderName: "#1002", outcome: "held", awb: null, courierName: null, reason: "Rule 1 holds COD orders over ₹5,000." }),
          bulkResult({ orderId: selected[2]!, orderName: "#1003", outcome: "already_booked", courierName: "Blue Dart", awb: "BD200" }),
          bulkResult({ orderId: selected[3]!, orderName: "#1004", outcome: "failed", awb: null, courierName: null, reason: "Pincode 000000 is not serviceable." }),
        ],
      } satisfies BulkAnswer),
    );

    expect(document.body.querySelector("s-admin-action")!.getAttribute("heading")).toBe("Ship 4 orders with Dakiya");
    expect(pageText()).toContain("Dakiya books each order with the courier your shipping rules choose");
    expect(backend.calls).toEqual([]);

    click(button("Ship 4 orders"));
    await vi.waitFor(() => expect(rows()).toHaveLength(4));
    expect(backend.calls).toEqual([bulkCall(selected)]);
    expect(rows()).toEqual([
      ["#1001", "Booked", "Delhivery, AWB DL100"],
      ["#1002", "Held", "Rule 1 holds COD orders over ₹5,000."],
      ["#1003", "Already booked", "Blue Dart, AWB BD200"],
      ["#1004", "Failed", "Pincode 000000 is not serviceable."],
    ]);
    expect(pageText()).toContain("Booked 1 · Held 1 · Already booked 1 · Failed 1");
    expect(button("Done")).toBeTruthy();
  });

  it("sends a large selection fifty at a time and shows the progress of each batch", async () => {
    const selected = gids(120);
    const answers = [deferred<Response>(), deferred<Response>(), deferred<Response>()];
    const backend = await open(selected, () => answers[backend.calls.length - 1]!.promise);

    click(button("Ship 120 orders"));
    await vi.waitFor(() => expect(pageText()).toContain("Sending batch 1 of 3"));
    expect(pageText()).toContain("0 of 120 orders done");
    expect(button("Ship 120 orders").hasAttribute("loading")).toBe(true);

    answers[0]!.resolve(bookEverything(backend.calls[0]!));
    await vi.waitFor(() => expect(pageText()).toContain("Sending batch 2 of 3"));
    expect(pageText()).toContain("50 of 120 orders done");
    expect(rows()).toHaveLength(50);

    answers[1]!.resolve(bookEverything(backend.calls[1]!));
    await vi.waitFor(() => expect(pageText()).toContain("Sending batch 3 of 3"));
    expect(pageText()).toContain("100 of 120 orders done");

    answers[2]!.resolve(bookEverything(backend.calls[2]!));
    await vi.waitFor(() => expect(rows()).toHaveLength(120));
    expect(backend.calls).toEqual([
      bulkCall(selected.slice(0, 50)),
      bulkCall(selected.slice(50, 100)),
      bulkCall(selected.slice(100)),
    ]);
    expect(pageText()).toContain("Booked 120 · Held 0 · Already booked 0 · Failed 0");
    expect(pageText()).not.toContain("Sending batch");
  });

  it("stops at a batch that fails, keeps the results so far, and sends only the rest on retry", async () => {
    const selected = gids(110);
    let secondBatchTries = 0;
    const backend = await open(selected, (call) => {
      const sent = (call.body as { orderIds: string[] }).orderIds;
      if (sent[0] === selected[50] && ++secondBatchTries === 1) return json({ error: "Service unavailable" }, 503);
      return bookEverything(call);
    });

    click(button("Ship 110 orders"));
    await vi.waitFor(() => expect(pageText()).toContain("Batch 2 of 3 didn't go through"));
    expect(pageText()).toContain("Dakiya couldn't handle the request (error 503). Try again.");
    expect(pageText()).toContain("50 of 110 orders have their results below. Try again to send the rest.");
    expect(rows()).toHaveLength(50);

    click(button("Try again"));
    await vi.waitFor(() => expect(rows()).toHaveLength(110));
    expect(backend.calls).toEqual([
      bulkCall(selected.slice(0, 50)),
      bulkCall(selected.slice(50, 100)),
      bulkCall(selected.slice(50, 100)),
      bulkCall(selected.slice(100)),
    ]);
    expect(pageText()).not.toContain("didn't go through");
  });

  it("shows an order the backend left out of its answer as failed", async () => {
    const selected = gids(2);
    await open(selected, () => json({ results: [bulkResult({ orderId: selected[0]!, orderName: "#1001" })] }));

    click(button("Ship 2 orders"));
    await vi.waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows()[1]).toEqual(["Order 1002", "Failed", "Dakiya sent no result for this order. Open the order to check it."]);
  });

  it("shows a network failure as a plain error with a retry", async () => {
    let tries = 0;
    const backend = await open(gids(1), (call) => (++tries === 1 ? "network-error" : bookEverything(call)));

    click(button("Ship 1 order"));
    await vi.waitFor(() => expect(pageText()).toContain("Couldn't reach Dakiya. Check your connection and try again."));
    click(button("Try again"));
    await vi.waitFor(() => expect(rows()).toHaveLength(1));
    expect(backend.calls).toHaveLength(2);
  });

  it("asks for a selection when none was made, and sends nothing", async () => {
    const backend = await open([], bookEverything);

    expect(pageText()).toContain("Select the orders to ship first.");
    expect(allByText("s-button", /^Ship/)).toHaveLength(0);
    expect(button("Close")).toBeTruthy();
    expect(backend.calls).toEqual([]);
  });
});

describe("in Hindi", () => {
  it("shows the heading, the button and the results in Hindi", async () => {
    useLocale("hi");
    const selected = gids(3);
    await open(selected, bookEverything);

    expect(document.body.querySelector("s-admin-action")!.getAttribute("heading")).toBe("3 ऑर्डर डाकिया से भेजें");
    click(button("3 ऑर्डर भेजें"));
    await vi.waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()[0]).toEqual(["#1001", "बुक हुआ", "Delhivery, AWB DL0000000001"]);
    expect(pageText()).toContain("बुक हुए 3 · रोके गए 0 · पहले से बुक 0 · विफल 0");
    expect(button("हो गया")).toBeTruthy();
  });
});
