import type { Browser, Frame, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pdfBarcodes, pdfPageCount, pdfPages } from "../support/pdf-reading";
import { openEmbeddedAdmin } from "./support/admin";
import { createSteps, launchBrowser, openPage, PageWatcher, type Steps } from "./support/browser";
import { startDemo, type Demo } from "./support/demo";

/*
 * Printing as the merchant does it in the local admin, in Chromium. On an order's page, Shopify's Print menu has
 * Dakiya's entry: the app's print-action extension (its built bundle) runs in the print dialog and sets the
 * document's `src`, which the dialog loads from the app with the admin's session token. On the app's Shipments
 * page, the selected shipments' labels and the pickup's manifest open as signed links. Every PDF the browser got is
 * read back as a person and a scanner would: its text (the awb, the PIN code, prepaid) and the awb's barcode,
 * decoded by zbarimg from the rasterised page. Any page error, console error or 5xx fails the step.
 *
 * Relies only on store/seed.ts: #1003 (Chennai 600018, prepaid, ready to ship) and #1001 (ready, not booked here).
 */

let demo: Demo;
let browser: Browser;
let page: Page;
let watcher: PageWatcher;
let step: Steps;

beforeAll(async () => {
  demo = await startDemo({ name: "e2e_printing", basePort: 5300, restoreRate: 1_000 });
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

/** The label of a booked shipment, read back: its awb and PIN code in words, and the awb's barcode on its page. */
function expectLabel(pdf: Buffer, { awb, pincode }: { awb: string; pincode: string }): void {
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  const text = pdfPages(pdf).join("\n");
  expect(text).toContain(awb);
  expect(text).toContain(pincode);
  expect(text).toMatch(/PREPAID/);
  expect(pdfBarcodes(pdf).flat()).toContain(awb);
}

describe("printing labels and the pickup manifest in the local admin", { timeout: 120_000 }, () => {
  let awb = "";

  it("prints an order's label from Shopify's Print menu on the order page", async () => {
    await step("#1003 booked from its page", async () => {
      await openOrder("#1003");
      await page.locator("#dakiya-card").getByRole("button", { name: "Ship with Dakiya" }).click();
      const action = page.getByRole("dialog", { name: "Ship with Dakiya" });
      const book = action.getByRole("button", { name: /^Book with / });
      await book.waitFor();
      await book.click();
      awb = ((await action.getByText(/^AWB \S+$/).textContent()) ?? "").replace("AWB ", "");
      expect(awb).toMatch(/^\w{6,}$/);
      await action.getByRole("button", { name: "Done" }).click();
      await action.waitFor({ state: "hidden" });
    });

    let pdf: Buffer = Buffer.alloc(0);
    await step("Print → Dakiya shipping label: the extension names the label and the preview loads it", async () => {
      const labelAnswer = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/labels" && response.request().method() === "GET");
      await page.locator(".page-head").getByText("Print", { exact: true }).click();
      await page.getByRole("button", { name: "Dakiya shipping label" }).click();
      await printDialog().getByText("Dakiya shipping label").first().waitFor();
      await extensionFrame().getByText(new RegExp(`^#1003: .+ label, awb ${awb}$`)).waitFor();
      const answer = await labelAnswer;
      // The extension's src, on the app's origin, loaded with the admin's session token.
      expect(new URL(answer.url()).origin).toBe(demo.appUrl);
      expect(new URL(answer.url()).searchParams.get("orders")).toMatch(/^\d+$/);
      expect(await answer.request().headerValue("authorization")).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
      expect(answer.status()).toBe(200);
      expect(answer.headers()["content-type"]).toBe("application/pdf");
      await printDialog().getByRole("status").getByText("Ready to print.").waitFor();
      // The document the preview shows and Print prints.
      const shown = await fetchedIn(page, (await printDialog().locator("iframe.preview").getAttribute("src"))!);
      expect(shown.type).toBe("application/pdf");
      pdf = shown.bytes;
      await printDialog().getByRole("button", { name: "Print", exact: true }).waitFor({ state: "visible" });
      expect(await printDialog().getByRole("button", { name: "Print", exact: true }).isEnabled()).toBe(true);
    });

    await step("the label PDF: one 4 × 6 in page with the awb, the PIN code and prepaid, its barcode scanned", async () => {
      expect(pdfPageCount(pdf)).toBe(1);
      expectLabel(pdf, { awb, pincode: "600018" });
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
      expectLabel(pdf, { awb, pincode: "600018" });
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
});
