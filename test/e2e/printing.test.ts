import type { Browser, Frame, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pdfBarcodes, pdfPageCount, pdfPages } from "../support/pdf-reading";
import { openEmbeddedAdmin } from "./support/admin";
import { seriousViolations } from "./support/axe";
import { createSteps, launchBrowser, openPage, PageWatcher, type Steps } from "./support/browser";
import { startDemo, type Demo } from "./support/demo";

/*
 * Printing as the merchant does it in the local admin, in Chromium. On an order's page, and in the Orders list for
 * the orders selected there, Shopify's Print menu has Dakiya's entry: the app's print-action extension (its built
 * bundle) runs in the print dialog and sets the document's `src`, which the dialog loads from the app with the
 * admin's session token. On the app's Shipments
 * page, the selected shipments' labels and the pickup's manifest open as signed links. Every PDF the browser got is
 * read back as a person and a scanner would: its text (the awb, the PIN code, prepaid) and the awb's barcode,
 * decoded by zbarimg from the rasterised page. Any page error, console error or 5xx fails the step.
 *
 * Relies only on store/seed.ts: #1003 (Chennai 600018, prepaid, ready to ship), #1001 (ready, not booked here), and
 * three extra ready orders, #2001 to #2003 (Bengaluru 560011, prepaid), booked after the pickup's manifest.
 */

let demo: Demo;
let browser: Browser;
let page: Page;
let watcher: PageWatcher;
let step: Steps;

beforeAll(async () => {
  demo = await startDemo({ name: "e2e_printing", basePort: 5300, restoreRate: 1_000, extraOrders: 3 });
  browser = await launchBrowser();
  page = await openPage(browser);
  watcher = new PageWatcher(page);
  step = createSteps(page, watcher, "printing");
}, 120_000);

afterEach(() => {
  watcher.expectNone("After the test");
});

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

const printDialog = (): Locator => page.locator("#print-dialog");
const extensionFrame = () => page.frameLocator("#print-dialog iframe.extension");

async function openOrder(name: string): Promise<void> {
  await page.goto(`${demo.adminUrl}/orders`);
  await page.getByRole("table", { name: "Orders" }).getByRole("link", { name, exact: true }).click();
  await page.getByRole("heading", { level: 1, name }).waitFor();
}

/** Books `name` from its page: Ship with Dakiya, Book with the recommended courier; the awb it got. */
async function bookFromItsPage(name: string): Promise<string> {
  await openOrder(name);
  await page.locator("#dakiya-card").getByRole("button", { name: "Ship with Dakiya" }).click();
  const action = page.getByRole("dialog", { name: "Ship with Dakiya" });
  const book = action.getByRole("button", { name: /^Book with / });
  await book.waitFor();
  await book.click();
  const awb = ((await action.getByText(/^AWB \S+$/).textContent()) ?? "").replace("AWB ", "");
  expect(awb).toMatch(/^\w{6,}$/);
  await action.getByRole("button", { name: "Done" }).click();
  await action.waitFor({ state: "hidden" });
  return awb;
}

/** The bytes at `address` as the browser gets them in `where` (a blob the page holds, a link it opened). */
async function fetchedIn(where: Page | Frame, address: string): Promise<{ type: string | null; bytes: Buffer }> {
  const { type, base64 } = await where.evaluate(async (url) => {
    const response = await fetch(url);
    const bytes = new Uint8Array(await response.arrayBuffer());
    let binary = "";
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return { type: response.headers.get("Content-Type"), base64: btoa(binary) };
  }, address);
  return { type, bytes: Buffer.from(base64, "base64") };
}

/**
 * Runs `choose` (Print, then an entry) and waits for the print dialog's preview: the extension says `says`, and the
 * `src` it set is loaded from the app with the admin's session token, shown, and Print is on. The orders the app
 * was asked for, and the PDF the preview shows and Print prints.
 */
async function printPreview(choose: () => Promise<void>, says: string | RegExp): Promise<{ orders: string[]; pdf: Buffer }> {
  const [answer] = await Promise.all([
    page.waitForResponse((response) => new URL(response.url()).pathname === "/api/labels" && response.request().method() === "GET"),
    choose().then(() => extensionFrame().getByText(says).waitFor()),
  ]);
  expect(new URL(answer.url()).origin).toBe(demo.appUrl);
  expect(await answer.request().headerValue("authorization")).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toBe("application/pdf");
  await printDialog().getByRole("status").getByText("Ready to print.").waitFor();
  const shown = await fetchedIn(page, (await printDialog().locator("iframe.preview").getAttribute("src"))!);
  expect(shown.type).toBe("application/pdf");
  await printDialog().getByRole("button", { name: "Print", exact: true }).waitFor({ state: "visible" });
  expect(await printDialog().getByRole("button", { name: "Print", exact: true }).isEnabled()).toBe(true);
  return { orders: new URL(answer.url()).searchParams.get("orders")?.split(",") ?? [], pdf: shown.bytes };
}

/** Labels of booked prepaid shipments, read back: each awb and PIN code in words, and each awb's barcode. */
function expectLabels(pdf: Buffer, labels: readonly { awb: string; pincode: string }[]): void {
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  const text = pdfPages(pdf).join("\n");
  const barcodes = pdfBarcodes(pdf).flat();
  expect(text).toMatch(/PREPAID/);
  for (const { awb, pincode } of labels) {
    expect(text).toContain(awb);
    expect(text).toContain(pincode);
    expect(barcodes).toContain(awb);
  }
}

describe("printing labels and the pickup manifest in the local admin", { timeout: 120_000 }, () => {
  let awb = "";

  it("prints an order's label from Shopify's Print menu on the order page", async () => {
    await step("#1003 booked from its page", async () => {
      awb = await bookFromItsPage("#1003");
    });

    let pdf: Buffer = Buffer.alloc(0);
    await step("Print → Dakiya shipping label: the extension names the label and the preview loads it", async () => {
      const preview = await printPreview(async () => {
        await page.locator(".page-head").getByText("Print", { exact: true }).click();
        await page.getByRole("button", { name: "Dakiya shipping label" }).click();
        await printDialog().getByText("Dakiya shipping label").first().waitFor();
      }, new RegExp(`^#1003: .+ label, awb ${awb}$`));
      expect(preview.orders).toEqual([expect.stringMatching(/^\d+$/)]);
      pdf = preview.pdf;
    });

    await step("the label PDF: one 4 × 6 in page with the awb, the PIN code and prepaid, its barcode scanned", async () => {
      expect(pdfPageCount(pdf)).toBe(1);
      expectLabels(pdf, [{ awb, pincode: "600018" }]);
      await printDialog().getByRole("button", { name: "Close" }).click();
      await printDialog().waitFor({ state: "hidden" });
    });
  });

  it("has nothing to print for an order not booked yet", async () => {
    await step("#1001's Print menu: the extension says to book first; Print stays off", async () => {
      await openOrder("#1001");
      await page.locator(".page-head").getByText("Print", { exact: true }).click();
      await page.getByRole("button", { name: "Dakiya shipping label" }).click();
      await extensionFrame().getByText("#1001 is not booked with Dakiya yet: book it first, then print its label.").waitFor();
      expect(await printDialog().getByRole("button", { name: "Print", exact: true }).isDisabled()).toBe(true);
      expect(await printDialog().locator("iframe.preview").isHidden()).toBe(true);
      await printDialog().getByRole("button", { name: "Close" }).click();
    });
  });

  it("prints the selected labels and the pickup's manifest from the Shipments page", async () => {
    const admin = await openEmbeddedAdmin(page, watcher, demo.adminUrl);
    await admin.openFromNav("Shipments", { path: "/app/shipments" }, "Shipments");
    const frame = admin.frame;

    /** Runs `click` and returns the PDF of the signed link the page opens, as the browser's new tab got it. */
    const documentOpened = async (click: () => Promise<void>): Promise<Buffer> => {
      const popup = page.context().waitForEvent("page");
      await click();
      const tab = await popup;
      await tab.waitForURL(/\/documents\/[\w-]+\.[\w-]+$/);
      const opened = tab.url();
      await tab.close();
      // The link the new tab opened, fetched as the browser fetches it (Chromium's PDF viewer keeps the tab's own copy).
      const { type, bytes } = await fetchedIn(frame, opened);
      expect(type).toBe("application/pdf");
      return bytes;
    };

    await step("select the shipment and Print labels: its label opens as a PDF", async () => {
      const row = frame.locator("table tbody tr").filter({ has: frame.getByText(awb, { exact: true }) });
      await row.getByRole("checkbox").first().check({ force: true });
      const pdf = await documentOpened(() => frame.getByRole("button", { name: "Print labels" }).click());
      expectLabels(pdf, [{ awb, pincode: "600018" }]);
      await frame.getByText("1 label is ready.").waitFor();
    });

    await step("Print manifest: the pickup's manifest lists the shipment, with signature lines", async () => {
      const pdf = await documentOpened(() => frame.getByRole("button", { name: "Print manifest" }).first().click());
      const text = pdfPages(pdf).join("\n");
      expect(text).toContain(awb);
      expect(text).toContain("#1003");
      expect(text).toMatch(/signature/i);
      expect(pdfBarcodes(pdf).flat()).toContain(awb);
      await frame.getByText(/Manifest #\d+ lists 1 shipment, now handed over\./).waitFor();
    });
  });

  it("prints the labels of the orders selected in Shopify's Orders list, and no other", async () => {
    const awbs: Record<string, string> = {};
    await step("#2001, #2002 and #2003 booked from their pages", async () => {
      for (const name of ["#2001", "#2002", "#2003"]) awbs[name] = await bookFromItsPage(name);
    });

    const orders = () => page.getByRole("table", { name: "Orders" });
    const printMenu = () => page.locator("[data-bulk-actions]").getByRole("button", { name: "Print", exact: true });
    await step("Orders: Print is offered only while orders are selected", async () => {
      await page.goto(`${demo.adminUrl}/orders`);
      await orders().getByRole("checkbox", { name: "Select #2001" }).waitFor();
      expect(await page.getByRole("button", { name: "Print", exact: true }).count()).toBe(0);
      const rows = await orders().locator("tbody tr").count();
      await orders().getByRole("checkbox", { name: "Select all orders" }).check();
      await page.getByText(`${rows} selected`, { exact: true }).waitFor();
      expect(await orders().getByRole("checkbox", { name: /^Select #/, checked: false }).count()).toBe(0);
      await orders().getByRole("checkbox", { name: "Select all orders" }).uncheck();
      await printMenu().waitFor({ state: "hidden" });
      expect(await page.getByRole("button", { name: "Print", exact: true }).count()).toBe(0);
    });

    let pdf: Buffer = Buffer.alloc(0);
    await step("#2001 and #2002 selected, Print → Dakiya shipping labels: the preview loads both orders' labels", async () => {
      await orders().getByRole("checkbox", { name: "Select #2001" }).check();
      await orders().getByRole("checkbox", { name: "Select #2002" }).check();
      await page.getByText("2 selected", { exact: true }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      const preview = await printPreview(async () => {
        await printMenu().click();
        await page.getByRole("button", { name: "Dakiya shipping labels" }).click();
      }, "The Dakiya labels of the 2 selected orders in one PDF; orders not booked yet are left out.");
      expect(preview.orders).toHaveLength(2);
      pdf = preview.pdf;
    });

    await step("the PDF: #2001's and #2002's labels, each with its barcode, and not #2003's", async () => {
      expect(pdfPageCount(pdf)).toBe(2);
      expectLabels(pdf, [
        { awb: awbs["#2001"]!, pincode: "560011" },
        { awb: awbs["#2002"]!, pincode: "560011" },
      ]);
      expect(pdfPages(pdf).join("\n")).not.toContain(awbs["#2003"]!);
      await printDialog().getByRole("button", { name: "Close" }).click();
      await printDialog().waitFor({ state: "hidden" });
    });
  });
});
