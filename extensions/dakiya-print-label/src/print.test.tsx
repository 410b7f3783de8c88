import { getExtension } from "@shopify/ui-extensions-tester";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeBackend, hostI18n, json, ORDER_GID, orderShipping, pageText, shipment, unmount, type BackendAnswer, type BackendCall, type Locale } from "../../shared/testing";
import en from "../locales/en.default.json";
import hi from "../locales/hi.json";

const extension = getExtension("admin.order-details.print-action.render");

beforeEach(() => {
  extension.setUp();
  extension.shopify.data.selected = [{ id: ORDER_GID }];
  useLocale("en");
});

afterEach(() => {
  unmount();
  extension.tearDown();
});

function useLocale(locale: Locale) {
  extension.shopify.i18n = hostI18n(locale, { en, hi });
}

async function open(respond: (call: BackendCall) => BackendAnswer | Promise<BackendAnswer>) {
  const backend = fakeBackend(respond);
  extension.fetch = backend.fetch;
  await extension.render();
  return backend;
}

const printAction = () => document.body.querySelector("s-admin-print-action")!;
const booked = orderShipping({ state: "shipment", rates: [], shipment: shipment({ status: "booked", courierName: "Delhivery", awb: "15616928599560" }) });

describe("the order page's Print menu: Dakiya shipping label", () => {
  it("points the print preview at the booked order's label PDF on the app", async () => {
    const backend = await open(() => json(booked));
    await vi.waitFor(() => expect(printAction().getAttribute("src")).toBe("/api/labels?orders=5551234"));
    expect(backend.calls).toEqual([{ method: "GET", path: "/api/orders/5551234", body: undefined }]);
    expect(pageText()).toContain("#1042: Delhivery label, awb 15616928599560");
  });

  it("says to book first, with nothing to print, for an order not booked yet — in Hindi too", async () => {
    useLocale("hi");
    await open(() => json(orderShipping({ state: "ready", shipment: null })));
    await vi.waitFor(() => expect(pageText()).toContain("#1042 अभी डाकिया से बुक नहीं हुआ है"));
    expect(printAction().hasAttribute("src")).toBe(false);
  });

  it("has nothing to print for a cancelled shipment", async () => {
    await open(() => json(orderShipping({ state: "shipment", rates: [], shipment: shipment({ status: "cancelled", labelUrl: null }) })));
    await vi.waitFor(() => expect(pageText()).toContain("#1042 was cancelled: it has no label to print."));
    expect(printAction().hasAttribute("src")).toBe(false);
  });

  it("says so when the order's shipment cannot be loaded", async () => {
    await open(() => "network-error");
    await vi.waitFor(() => expect(pageText()).toContain("Couldn't load this order's shipment"));
    expect(printAction().hasAttribute("src")).toBe(false);
  });
});
