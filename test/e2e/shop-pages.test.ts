import type { Browser, BrowserContext, Frame, Locator, Page, Response } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pdfBarcodes, pdfPageCount, pdfPages } from "../support/pdf-reading";
import { openEmbeddedAdmin } from "./support/admin";
import { seriousViolations } from "./support/axe";
import { appFrame, createSteps, expectHydrated, launchBrowser, openPage, PageWatcher, PHONE, STEP_TIMEOUT, type Steps } from "./support/browser";
import { startDemo, type Demo } from "./support/demo";

/*
 * Dakiya on the shop's own pages, in Chromium: the local admin's order pages with Dakiya's card and its "Ship with
 * Dakiya" action, Shopify's Print menus with Dakiya's print action (and the app's Shipments page beside them), and
 * the Delivery estimate block on the storefront. Every step fails on an uncaught error, a console error and any
 * answer ≥ 500 (support/browser.ts). Screenshots (every step with E2E_SCREENSHOTS=1, a failed one always):
 * test-results/screenshots/{order-page,printing,storefront-*}/.
 *
 * The three parts share one demo (production build, the local store and its admin, the app's jobs) and one Chromium,
 * each part in browser contexts of its own, and leave each other's orders alone so that they pass in any order:
 * - the order pages ship #1003, look at #1007 and create and cancel an order of their own;
 * - printing books #2004 and #2001 to #2003 (the demo's extra ready orders) and keeps #1001 unbooked;
 * - the storefront turns the delivery estimate on, which no order page reads.
 * Both admin parts book with the recommended courier, so one pickup may wait for shipments of both: printing reads
 * what its pickup holds before it makes that pickup's manifest.
 */

let demo: Demo;
let browser: Browser;

beforeAll(async () => {
  // The bucket restores 1,000 points a second rather than the Standard plan's 100: the admin parts' order lists and
  // bookings then never wait for it. Four extra ready orders (#2001…#2004) are printing's own.
  demo = await startDemo({ name: "e2e_shop_pages", basePort: 5300, restoreRate: 1_000, extraOrders: 4 });
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

interface WatchedPage {
  page: Page;
  watcher: PageWatcher;
  step: Steps;
}

/** A desktop page in a browser context of its own, watched, its steps screenshotted to test-results/screenshots/{suite}/. */
async function watchedPage(suite: string): Promise<WatchedPage> {
  const page = await openPage(browser);
  const watcher = new PageWatcher(page);
  return { page, watcher, step: createSteps(page, watcher, suite) };
}

/**
 * A part's own desktop page for all its tests (see `watchedPage`), handed to `use` before the part's first test; after
 * each test, whatever the browser reported since its last step fails that test, not the next one. Closed after the
 * part's last test, so that nothing it left open (the app's frame, the order card) runs beside the next part.
 */
function pageOfThePart(suite: string, use: (watched: WatchedPage) => void): void {
  let watched: WatchedPage | undefined;
  beforeAll(async () => {
    watched = await watchedPage(suite);
    use(watched);
  });
  afterEach(() => {
    watched?.watcher.expectNone("After the test");
  });
  afterAll(async () => {
    await watched?.page.close();
  });
}

const ordersUrl = () => `${demo.adminUrl}/orders`;

/** From the admin's Orders list, the order named `name` (#1003), as a merchant opens it. */
async function openOrder(page: Page, name: string): Promise<void> {
  await page.goto(ordersUrl());
  await page.getByRole("table", { name: "Orders" }).getByRole("link", { name, exact: true }).click();
  await page.getByRole("heading", { level: 1, name }).waitFor();
  // The heading is drawn before the page's deferred scripts run (the Print menu, the Dakiya card): a click on Print
  // before them does nothing, as it would for a merchant that quick. They have run by DOMContentLoaded.
  await page.waitForLoadState("domcontentloaded");
}

/*
 * The local admin's order pages (store/admin-orders.ts): the Orders list, an order's page with Dakiya's block as a
 * card and the "Ship with Dakiya" action as a dialog, both on the app's real /api/orders/… routes, called
 * cross-origin with a session token as the admin's fetch calls them (so the browser sends the CORS preflight; a
 * refused CORS request is a console error). Orders are created and cancelled through the store, which sends the app
 * its webhooks. Relies only on store/seed.ts: #1003 (Chennai, prepaid, ready to ship) and #1007 (a PIN code of 5 digits).
 */
describe("the local admin's order pages, with Dakiya on them", { timeout: 90_000 }, () => {
  let page: Page;
  let watcher: PageWatcher;
  let step: Steps;

  pageOfThePart("order-page", (watched) => ({ page, watcher, step } = watched));

  const card = (): Locator => page.locator("#dakiya-card");
  const action = (): Locator => page.getByRole("dialog", { name: "Ship with Dakiya" });

  it("ships an order from its page: the rates with the recommended courier chosen, Book, the awb and its tracking link, Sync now", async () => {
    // The card's calls, as the browser saw them: cross-origin to the app, each let through by its CORS headers.
    const apiAnswers: { url: string; status: number; allowOrigin: string | null }[] = [];
    const recordApiAnswer = (response: Response) => {
      if (new URL(response.url()).pathname.startsWith("/api/orders/")) apiAnswers.push({ url: response.url(), status: response.status(), allowOrigin: response.headers()["access-control-allow-origin"] ?? null });
    };
    page.on("response", recordApiAnswer);

    await step("the Orders list, from the shell's navigation", async () => {
      await page.goto(demo.adminUrl);
      await page.locator("nav").getByRole("link", { name: "Orders", exact: true }).click();
      await page.getByRole("heading", { level: 1, name: "Orders" }).waitFor();
      const names = await page.getByRole("table", { name: "Orders" }).locator("tbody tr").getByRole("link").allTextContents();
      expect(names).toEqual(expect.arrayContaining(["#1001", "#1003", "#1007", "#1014"]));
    });

    await step("an order's page: the order, and Dakiya's card offering to ship it", async () => {
      await openOrder(page, "#1003");
      await page.getByText("Kanjivaram silk stole").waitFor();
      await page.locator("section", { has: page.getByRole("heading", { name: "Shipping address" }) }).getByText(/Chennai/).waitFor();
      await page.locator("section", { has: page.getByRole("heading", { name: "Payment" }) }).getByText("Paid", { exact: true }).waitFor();
      await card().getByText("Not shipped with Dakiya yet.").waitFor();
    });

    let courier = "";
    await step("Ship with Dakiya: every courier's rate, the recommended one chosen", async () => {
      await card().getByRole("button", { name: "Ship with Dakiya" }).click();
      await action().getByRole("radio").first().waitFor();
      expect(await action().getByRole("radio").count()).toBe(4);
      expect(await action().getByRole("radio", { checked: true }).count()).toBe(1);
      const chosen = (await action().locator("label", { has: page.locator("input:checked") }).textContent()) ?? "";
      expect(chosen).toMatch(/Recommended/);
      courier = chosen.split(" · ")[0]!.trim();
      expect(await action().locator("label", { hasText: "Recommended" }).count()).toBe(1);
      await action().getByRole("button", { name: `Book with ${courier}` }).waitFor();
    });

    let awb = "";
    await step("Book: booked, with the awb and the tracking link", async () => {
      await action().getByRole("button", { name: `Book with ${courier}` }).click();
      await action().getByText(`Booked with ${courier}`).waitFor();
      awb = ((await action().getByText(/^AWB \S+$/).textContent()) ?? "").replace("AWB ", "");
      expect(awb).toMatch(/^\w{6,}$/);
      expect(await action().getByRole("link", { name: "Track shipment" }).getAttribute("href")).toContain(awb);
      await action().getByRole("button", { name: "Done" }).click();
      await action().waitFor({ state: "hidden" });
    });

    await step("the card shows the shipment; Sync now reads the courier's tracking", async () => {
      await card().getByText(awb, { exact: true }).waitFor();
      await card().getByText(courier, { exact: true }).waitFor();
      await card().getByRole("button", { name: "Sync now" }).click();
      await card().getByRole("button", { name: "Sync now", disabled: false }).waitFor();
      await card().getByText(/^Manifested · /).waitFor();
      await card().getByText(awb, { exact: true }).waitFor();
    });

    await step("Shopify's order is fulfilled with the courier's tracking", async () => {
      await page.reload();
      await page.getByRole("heading", { level: 1, name: "#1003" }).waitFor();
      await page.locator(".page-head").getByText("Fulfilled", { exact: true }).waitFor();
    });

    page.off("response", recordApiAnswer);
    const pageOrigin = new URL(page.url()).origin;
    expect(apiAnswers.map((answer) => new URL(answer.url).pathname)).toEqual(expect.arrayContaining([expect.stringMatching(/^\/api\/orders\/\d+$/), expect.stringMatching(/\/book$/), expect.stringMatching(/\/sync$/)]));
    for (const answer of apiAnswers) {
      expect(new URL(answer.url).origin).not.toBe(pageOrigin);
      expect(answer).toMatchObject({ status: 200, allowOrigin: "*" });
    }
  });

  it("keeps the shell's app pages: each link frames its page, from an order page as from the admin", async () => {
    await step("from an order page, Shipments opens the admin with the app's Shipments framed", async () => {
      await openOrder(page, "#1003");
      await page.locator("nav").getByRole("link", { name: "Shipments", exact: true }).click();
      await expectHydrated(await appFrame(page), { path: "/app/shipments", watcher });
    });
    await step("in the admin, Orders to ship loads into the frame", async () => {
      await page.locator("nav").getByText("Orders to ship", { exact: true }).click();
      await expectHydrated(await appFrame(page), { path: "/app/orders", watcher });
      expect(new URL(page.url()).pathname).toBe("/admin");
    });
  });

  it("shows what stops an order shipping", async () => {
    await step("an order with a PIN code of 5 digits", async () => {
      await openOrder(page, "#1007");
      await card().getByText("This order can't be shipped yet").waitFor();
      await card().getByText(/PIN code/).first().waitFor();
      await card().getByRole("button", { name: "Check again" }).waitFor();
    });
  });

  it("creates a test order, which appears in the list, and cancels it from its page", async () => {
    let name = "";
    await step("Create test order: the new order is in the list", async () => {
      await page.goto(ordersUrl());
      const before = await page.getByRole("table", { name: "Orders" }).locator("tbody tr").count();
      await page.getByRole("button", { name: "Create test order" }).click();
      const notice = page.getByRole("status").filter({ hasText: "Created order" });
      await notice.waitFor();
      name = (await notice.getByRole("link").textContent()) ?? "";
      expect(name).toMatch(/^#\d+$/);
      expect(await page.getByRole("table", { name: "Orders" }).locator("tbody tr").count()).toBe(before + 1);
      // Newest first.
      expect(await page.getByRole("table", { name: "Orders" }).locator("tbody tr").first().getByRole("link").textContent()).toBe(name);
    });

    await step("the new order's page: Dakiya can ship it", async () => {
      await page.getByRole("table", { name: "Orders" }).getByRole("link", { name, exact: true }).click();
      await page.getByRole("heading", { level: 1, name }).waitFor();
      await card().getByText("Not shipped with Dakiya yet.").waitFor();
    });

    await step("Cancel order: cancelled in Shopify, and Dakiya will not ship it", async () => {
      await page.getByRole("button", { name: "Cancel order" }).click();
      await page.getByText("This order was cancelled").waitFor();
      await page.locator(".page-head").getByText("Cancelled", { exact: true }).waitFor();
      await card().getByText("This order is cancelled; Dakiya will not ship it.").waitFor();
      expect(await page.getByRole("button", { name: "Cancel order" }).count()).toBe(0);
    });

    await step("the list shows it cancelled", async () => {
      await page.goto(ordersUrl());
      const row = page.getByRole("table", { name: "Orders" }).locator("tbody tr", { has: page.getByRole("link", { name, exact: true }) });
      await row.getByText("Cancelled", { exact: true }).waitFor();
    });
  });
});

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

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/*
 * Printing as the merchant does it in the local admin. On an order's page, and in the Orders list for the orders
 * selected there, Shopify's Print menu has Dakiya's entry: the app's print-action extension (its built bundle) runs
 * in the print dialog and sets the document's `src`, which the dialog loads from the app with the admin's session
 * token. On the app's Shipments page, the selected shipments' labels and the pickup's manifest open as signed links.
 * Every PDF the browser got is read back as a person and a scanner would: its text (the awb, the PIN code, prepaid)
 * and the awb's barcode, decoded by zbarimg from the rasterised page.
 *
 * Relies only on store/seed.ts: #1001 (ready, not booked here), and four extra ready orders, #2001 to #2004
 * (Bengaluru 560011, prepaid): #2004 booked first, the others after the pickup's manifest.
 */
describe("printing labels and the pickup manifest in the local admin", { timeout: 120_000 }, () => {
  let page: Page;
  let watcher: PageWatcher;
  let step: Steps;

  pageOfThePart("printing", (watched) => ({ page, watcher, step } = watched));

  const printDialog = (): Locator => page.locator("#print-dialog");
  const extensionFrame = () => page.frameLocator("#print-dialog iframe.extension");

  /** Books `name` from its page: Ship with Dakiya, Book with the recommended courier; the awb it got and the courier. */
  async function bookFromItsPage(name: string): Promise<{ awb: string; courier: string }> {
    await openOrder(page, name);
    await page.locator("#dakiya-card").getByRole("button", { name: "Ship with Dakiya" }).click();
    const action = page.getByRole("dialog", { name: "Ship with Dakiya" });
    const book = action.getByRole("button", { name: /^Book with / });
    await book.waitFor();
    const courier = ((await book.textContent()) ?? "").replace(/^Book with /, "");
    await book.click();
    const awb = ((await action.getByText(/^AWB \S+$/).textContent()) ?? "").replace("AWB ", "");
    expect(awb).toMatch(/^\w{6,}$/);
    await action.getByRole("button", { name: "Done" }).click();
    await action.waitFor({ state: "hidden" });
    return { awb, courier };
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

  let booked = { awb: "", courier: "" };

  it("prints an order's label from Shopify's Print menu on the order page", async () => {
    await step("#2004 booked from its page", async () => {
      booked = await bookFromItsPage("#2004");
    });

    let pdf: Buffer = Buffer.alloc(0);
    await step("Print → Dakiya shipping label: the extension names the label and the preview loads it", async () => {
      const preview = await printPreview(async () => {
        await page.locator(".page-head").getByText("Print", { exact: true }).click();
        await page.getByRole("button", { name: "Dakiya shipping label" }).click();
        await printDialog().getByText("Dakiya shipping label").first().waitFor();
      }, new RegExp(`^#2004: .+ label, awb ${booked.awb}$`));
      expect(preview.orders).toEqual([expect.stringMatching(/^\d+$/)]);
      pdf = preview.pdf;
    });

    await step("the label PDF: one 4 × 6 in page with the awb, the PIN code and prepaid, its barcode scanned", async () => {
      expect(pdfPageCount(pdf)).toBe(1);
      expectLabels(pdf, [{ awb: booked.awb, pincode: "560011" }]);
      await printDialog().getByRole("button", { name: "Close" }).click();
      await printDialog().waitFor({ state: "hidden" });
    });
  });

  it("has nothing to print for an order not booked yet", async () => {
    await step("#1001's Print menu: the extension says to book first; Print stays off", async () => {
      await openOrder(page, "#1001");
      await page.locator(".page-head").getByText("Print", { exact: true }).click();
      await page.getByRole("button", { name: "Dakiya shipping label" }).click();
      await extensionFrame().getByText("#1001 is not booked with Dakiya yet: book it first, then print its label.").waitFor();
      expect(await printDialog().getByRole("button", { name: "Print", exact: true }).isDisabled()).toBe(true);
      expect(await printDialog().locator("iframe.preview").isHidden()).toBe(true);
      await printDialog().getByRole("button", { name: "Close" }).click();
    });
  });

  it("prints the selected labels and the pickup's manifest from the Shipments page", async () => {
    const { awb, courier } = booked;
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
      expectLabels(pdf, [{ awb, pincode: "560011" }]);
      await frame.getByText("1 label is ready.").waitFor();
    });

    await step("Print manifest: the pickup's manifest lists the shipment, with signature lines", async () => {
      // The pickup of this shipment's courier: every shipment it holds goes in its manifest, the order pages' #1003
      // among them when that part booked it first with the same courier.
      const waiting = frame.getByText(new RegExp(`^Warehouse \\d+ · ${escapeRegExp(courier)} · \\d+ shipments? waiting$`));
      const count = Number(/· (\d+) shipments? waiting$/.exec((await waiting.textContent()) ?? "")?.[1]);
      expect(count).toBeGreaterThanOrEqual(1);
      const pickup = waiting.locator("xpath=..");
      const pdf = await documentOpened(() => pickup.getByRole("button", { name: "Print manifest" }).click());
      const text = pdfPages(pdf).join("\n");
      expect(text).toContain(awb);
      expect(text).toContain("#2004");
      expect(text).toMatch(/signature/i);
      expect(pdfBarcodes(pdf).flat()).toContain(awb);
      await frame.getByText(new RegExp(`^Manifest #\\d+ lists ${count} shipments?, now handed over\\.`)).waitFor();
    });
  });

  it("prints the labels of the orders selected in Shopify's Orders list, and no other", async () => {
    const awbs: Record<string, string> = {};
    await step("#2001, #2002 and #2003 booked from their pages", async () => {
      for (const name of ["#2001", "#2002", "#2003"]) awbs[name] = (await bookFromItsPage(name)).awb;
    });

    const orders = () => page.getByRole("table", { name: "Orders" });
    const printMenu = () => page.locator("[data-bulk-actions]").getByRole("button", { name: "Print", exact: true });
    await step("Orders: Print is offered only while orders are selected", async () => {
      await page.goto(ordersUrl());
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

const DESKTOP = {
  viewport: { width: 1280, height: 900 },
  userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
};

/**
 * Cumulative layout shift, as Chromium reports it. Lighthouse shows CLS to three decimals; a line box may round by a
 * fraction of a pixel when the answer's text replaces the reserved space, which reads as 0.0001 and is no shift anyone
 * sees, so "none" is anything under 0.001 (Google's "good" is under 0.1).
 */
const NO_LAYOUT_SHIFT = 0.001;
const layoutShift = (page: Page) => page.evaluate(() => (window as unknown as { __layoutShifts: number[] }).__layoutShifts.reduce((sum, value) => sum + value, 0));
const message = (page: Page) => page.locator(".dakiya-estimate__message");
const codLine = (page: Page) => page.locator(".dakiya-estimate__cod");

/*
 * The Delivery estimate block on the local store's product page, as a shopper uses it: the local store renders the
 * extension's own Liquid and forwards the store's proxy path to the app, signed as Shopify signs it; the merchant turns
 * the estimate on in Dakiya's Storefront page, then a shopper on a desktop in English and on a phone in Hindi types a
 * PIN code. The page's layout shifts are summed from the browser's own layout-shift entries.
 */
describe("the Delivery estimate block on the storefront", { timeout: 120_000 }, () => {
  const contexts: BrowserContext[] = [];
  const watchers: PageWatcher[] = [];

  afterEach(() => {
    for (const watcher of watchers) watcher.expectNone("After the test");
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  const productUrl = (language: "en" | "hi") => demo.adminUrl.replace(/\/admin$/, `${language === "hi" ? "/hi" : ""}/products/handloom-cotton-kurta`);

  async function shopperPage(suite: string, device: typeof PHONE | typeof DESKTOP): Promise<{ page: Page; step: Steps }> {
    const context = await browser.newContext({ ...device });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT);
    // Every layout shift the page makes, as Lighthouse's CLS counts them (shifts right after input excepted).
    await page.addInitScript(() => {
      const shifts: number[] = [];
      (window as unknown as { __layoutShifts: number[] }).__layoutShifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!entry.hadRecentInput) shifts.push(entry.value);
      }).observe({ type: "layout-shift", buffered: true });
    });
    const watcher = new PageWatcher(page);
    watchers.push(watcher);
    return { page, step: createSteps(page, watcher, suite) };
  }

  it("is turned on by the merchant in Dakiya's Storefront page, with a preview", async () => {
    const { page, watcher, step } = await watchedPage("storefront-admin");
    contexts.push(page.context());
    watchers.push(watcher);
    await step("the Storefront page in the admin", async () => {
      // The first open installs the app, whose first read of the shop's orders runs beside it in the same process.
      await page.goto(`${demo.adminUrl}?app=/app/storefront`, { timeout: 60_000 });
      const frame = await appFrame(page);
      await frame.getByRole("heading", { name: "Delivery estimate" }).waitFor();
    });
    await step("the estimate turned on and saved", async () => {
      const frame = await appFrame(page);
      await frame.getByLabel("Show delivery estimates on the storefront").check();
      await frame.getByRole("button", { name: "Save" }).click();
      await frame.getByText("Storefront settings saved").waitFor();
    });
    await step("a preview for a PIN code", async () => {
      const frame = await appFrame(page);
      await frame.getByLabel("PIN code").fill("110001");
      await frame.getByRole("button", { name: "Check" }).click();
      await frame.getByText(/^Delivered by /).waitFor();
    });
  });

  it("shows a desktop shopper in English the date and cash on delivery, and remembers the PIN code", async () => {
    const { page, step } = await shopperPage("storefront-desktop-en", DESKTOP);
    await step("the product page", async () => {
      await page.goto(productUrl("en"));
      await page.getByRole("heading", { level: 1, name: "Handloom cotton kurta" }).waitFor();
      await page.waitForLoadState("load");
    });
    await step("a malformed PIN code named", async () => {
      await page.getByLabel("Check delivery to your PIN code").fill("5600");
      await page.getByRole("button", { name: "Check" }).click();
      await expect.poll(() => message(page).textContent(), { timeout: STEP_TIMEOUT }).toContain("Enter a 6-digit PIN code");
    });
    await step("the date for a PIN code", async () => {
      await page.getByLabel("Check delivery to your PIN code").fill("560038");
      await page.getByLabel("Check delivery to your PIN code").press("Enter");
      await expect.poll(() => message(page).textContent(), { timeout: STEP_TIMEOUT }).toMatch(/^Delivered by \w{3}, \d{1,2} \w{3}$/);
      expect(await codLine(page).textContent()).toBe("Cash on delivery available");
      expect(await page.getByRole("status").count()).toBe(1);
      expect(await layoutShift(page)).toBeLessThan(NO_LAYOUT_SHIFT);
    });
    await step("an unserviceable PIN code", async () => {
      await page.getByLabel("Check delivery to your PIN code").fill("990001");
      await page.getByRole("button", { name: "Check" }).click();
      await expect.poll(() => message(page).textContent(), { timeout: STEP_TIMEOUT }).toBe("We don't deliver to this PIN code yet");
    });
    await step("the PIN code remembered on the next product", async () => {
      await page.getByLabel("Check delivery to your PIN code").fill("400001");
      await page.getByRole("button", { name: "Check" }).click();
      await expect.poll(() => message(page).textContent(), { timeout: STEP_TIMEOUT }).toMatch(/^Delivered by/);
      await page.goto(productUrl("en").replace("handloom-cotton-kurta", "brass-diya-set"));
      expect(await page.getByLabel("Check delivery to your PIN code").inputValue()).toBe("400001");
      await expect.poll(() => message(page).textContent(), { timeout: STEP_TIMEOUT }).toMatch(/^Delivered by/);
      expect(await layoutShift(page)).toBeLessThan(NO_LAYOUT_SHIFT);
    });
  });

  it("shows the cart's estimate for the whole cart, from the optional cart block", async () => {
    const { page, step } = await shopperPage("storefront-cart-en", DESKTOP);
    await step("the cart page, with the block below the total", async () => {
      await page.goto(demo.adminUrl.replace(/\/admin$/, "/cart"));
      await page.getByRole("heading", { level: 1, name: "Your cart" }).waitFor();
      await page.waitForLoadState("load");
    });
    await step("the date for a PIN code, quoted for the cart's weight and total", async () => {
      const asked = page.waitForRequest((request) => new URL(request.url()).pathname === "/apps/dakiya/delivery-estimate");
      await page.getByLabel("Check delivery to your PIN code").fill("560038");
      await page.getByRole("button", { name: "Check", exact: true }).click();
      const query = new URL((await asked).url()).searchParams;
      // One kurta (450 g, ₹1,299) and one diya set (1,200 g, ₹2,499).
      expect(query.get("grams")).toBe("1650");
      expect(query.get("amount")).toBe("379800");
      await expect.poll(() => message(page).textContent(), { timeout: STEP_TIMEOUT }).toMatch(/^Delivered by \w{3}, \d{1,2} \w{3}$/);
      expect(await codLine(page).textContent()).toBe("Cash on delivery available");
      expect(await layoutShift(page)).toBeLessThan(NO_LAYOUT_SHIFT);
    });
  });

  it("shows a phone shopper in Hindi the date, with no layout shift", async () => {
    const { page, step } = await shopperPage("storefront-phone-hi", PHONE);
    await step("the product page in Hindi", async () => {
      await page.goto(productUrl("hi"));
      await page.waitForLoadState("load");
      expect(await page.locator("html").getAttribute("lang")).toBe("hi");
    });
    await step("the date for a PIN code, in Hindi", async () => {
      const field = page.getByLabel("अपने पिन कोड पर डिलीवरी जाँचें");
      await field.fill("110001");
      await page.getByRole("button", { name: "जाँचें" }).click();
      await expect.poll(() => message(page).textContent(), { timeout: STEP_TIMEOUT }).toMatch(/तक डिलीवरी$/);
      expect(await codLine(page).textContent()).toBe("कैश ऑन डिलीवरी उपलब्ध है");
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      expect(await layoutShift(page)).toBeLessThan(NO_LAYOUT_SHIFT);
    });
  });
});
