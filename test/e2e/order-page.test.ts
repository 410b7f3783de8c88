import type { Browser, Locator, Page, Response } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { appFrame, createSteps, expectHydrated, launchBrowser, openPage, PageWatcher, type Steps } from "./support/browser";
import { startDemo, type Demo } from "./support/demo";

/*
 * The local admin's order pages in Chromium (store/admin-orders.ts): the Orders list, an order's page with Dakiya's
 * block as a card and the "Ship with Dakiya" action as a dialog, both on the app's real /api/orders/… routes,
 * called cross-origin with a session token as the admin's fetch calls them (so the browser sends the CORS
 * preflight). Orders are created and cancelled through the store, which sends the app its webhooks. Every step
 * fails on an uncaught error, a console error (a refused CORS request is one) and any answer ≥ 500.
 * Screenshots (every step with E2E_SCREENSHOTS=1, a failed one always): test-results/screenshots/order-page/.
 *
 * Relies only on store/seed.ts: #1003 (Chennai, prepaid, ready to ship) and #1007 (a PIN code of 5 digits).
 */

let demo: Demo;
let browser: Browser;
let page: Page;
let watcher: PageWatcher;
let step: Steps;

beforeAll(async () => {
  // Its own database and ports (portOffset), so it never meets the admin-shell walk in the same worker.
  demo = await startDemo({ name: "e2e_order_page", portOffset: 4, restoreRate: 1_000 });
  browser = await launchBrowser();
  page = await openPage(browser);
  watcher = new PageWatcher(page);
  step = createSteps(page, watcher, "order-page");
}, 120_000);

afterEach(() => {
  watcher.expectNone("After the test");
});

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

const ordersUrl = () => `${demo.adminUrl}/orders`;
const card = (): Locator => page.locator("#dakiya-card");
const action = (): Locator => page.getByRole("dialog", { name: "Ship with Dakiya" });

async function openOrder(name: string): Promise<void> {
  await page.goto(ordersUrl());
  await page.getByRole("table", { name: "Orders" }).getByRole("link", { name, exact: true }).click();
  await page.getByRole("heading", { level: 1, name }).waitFor();
}

describe("the local admin's order pages, with Dakiya on them", { timeout: 90_000 }, () => {
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
      await openOrder("#1003");
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
      await openOrder("#1003");
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
      await openOrder("#1007");
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
