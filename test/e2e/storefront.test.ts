import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startDemo, type Demo } from "./support/demo";
import { appFrame, createSteps, launchBrowser, openPage, PageWatcher, PHONE, STEP_TIMEOUT, type Steps } from "./support/browser";

/*
 * The Delivery estimate block on the local store's product page, as a shopper uses it: the demo (production build,
 * the local store rendering the extension's own Liquid and forwarding the store's proxy path to the app, signed as
 * Shopify signs it), the merchant turning the estimate on in Dakiya's Storefront page, then a shopper on a desktop
 * in English and on a phone in Hindi typing a PIN code. Every step fails on an uncaught error, a console error or an
 * answer ≥ 500 (support/browser.ts); the page's layout shifts are summed from the browser's own layout-shift entries.
 * Screenshots (every step with E2E_SCREENSHOTS=1, a failed one always): test-results/screenshots/storefront*.
 */

const DESKTOP = {
  viewport: { width: 1280, height: 900 },
  userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
};

let demo: Demo;
let browser: Browser;
const contexts: BrowserContext[] = [];
const watchers: PageWatcher[] = [];

beforeAll(async () => {
  demo = await startDemo({ name: "e2e_storefront", basePort: 3250 });
  browser = await launchBrowser();
}, 120_000);

afterEach(() => {
  for (const watcher of watchers) watcher.expectNone("After the test");
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await demo?.stop();
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

/**
 * Cumulative layout shift, as Chromium reports it. Lighthouse shows CLS to three decimals; a line box may round by a
 * fraction of a pixel when the answer's text replaces the reserved space, which reads as 0.0001 and is no shift anyone
 * sees, so "none" is anything under 0.001 (Google's "good" is under 0.1).
 */
const NO_LAYOUT_SHIFT = 0.001;
const layoutShift = (page: Page) => page.evaluate(() => (window as unknown as { __layoutShifts: number[] }).__layoutShifts.reduce((sum, value) => sum + value, 0));
const message = (page: Page) => page.locator(".dakiya-estimate__message");
const codLine = (page: Page) => page.locator(".dakiya-estimate__cod");

describe("the Delivery estimate block on the storefront", { timeout: 120_000 }, () => {
  it("is turned on by the merchant in Dakiya's Storefront page, with a preview", async () => {
    const page = await openPage(browser);
    const watcher = new PageWatcher(page);
    watchers.push(watcher);
    const step = createSteps(page, watcher, "storefront-admin");
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
