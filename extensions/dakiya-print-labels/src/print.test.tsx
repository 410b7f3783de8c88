import { getExtension } from "@shopify/ui-extensions-tester";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hostI18n, pageText, unmount, type Locale } from "../../shared/testing";
import en from "../locales/en.default.json";
import hi from "../locales/hi.json";

const extension = getExtension("admin.order-index.selection-print-action.render");

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

const select = (...ids: number[]) => {
  extension.shopify.data.selected = ids.map((id) => ({ id: `gid://shopify/Order/${id}` }));
};
const printAction = () => document.body.querySelector("s-admin-print-action")!;

describe("the order list's Print menu: Dakiya shipping labels", () => {
  it("prints the selected orders' labels in one PDF, leaving out those not booked", async () => {
    select(5551234, 5551235, 5551236);
    await extension.render();
    expect(printAction().getAttribute("src")).toBe("/api/labels?orders=5551234,5551235,5551236&skip=unbooked");
    expect(pageText()).toContain("The Dakiya labels of the 3 selected orders in one PDF");
  });

  it("refuses a selection over one document's 500 labels, naming the limit — in Hindi too", async () => {
    useLocale("hi");
    select(...Array.from({ length: 501 }, (_, index) => 1000 + index));
    await extension.render();
    expect(printAction().hasAttribute("src")).toBe(false);
    expect(pageText()).toContain("अधिकतम 500 लेबल");
    expect(pageText()).toContain("501 ऑर्डर");
  });

  it("asks for a selection when there is none", async () => {
    select();
    await extension.render();
    expect(printAction().hasAttribute("src")).toBe(false);
    expect(pageText()).toContain("Select the orders whose labels to print.");
  });
});
