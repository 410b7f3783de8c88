import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../support/database";
import { npmStart, waitForHealth, type StartedServer } from "../support/npm-start";
import { createSteps, launchBrowser, PageWatcher, PHONE, STEP_TIMEOUT, type Steps } from "./support/browser";
import { productionBuild } from "../support/production-build";

/*
 * The public tracking page as a shopper opens it from Shopify's shipping email: the production build under
 * `npm start` (no background jobs in the process, WORKER_CONCURRENCY=0) on a database of its own, into which a
 * shipment and its courier entries are written as the booking and the tracking sync write them; Chromium at a
 * phone's size. Every step fails on an uncaught error, a console error (a Content-Security-Policy refusal is one)
 * or an answer ≥ 500 (support/browser.ts).
 *
 * The page is server-rendered HTML with no client JavaScript on purpose (app/tracking/tracking-document.server.tsx
 * says why): there is nothing to hydrate, so instead of expectHydrated each page checks that no script is there or
 * loaded, that Remix's client router never started, and that what a shopper does — switch language, look up a
 * number — works as plain links and forms. Screenshots (every step with E2E_SCREENSHOTS=1, a failed one always): test-results/screenshots/tracking-page*.
 */

const port = 4300 + Number(process.env.VITEST_POOL_ID ?? 0) * 10;
const BASE = `http://localhost:${port}`;
const SHOP = "tracking-e2e.myshopify.com";
const SHOPPER = { name: "Asha Rao", mobile: "9820012345", email: "asha.rao@example.in", address_line_1: "12, 3rd Cross, Indiranagar", city: "Bengaluru", state: "Karnataka", pincode: "560038" };
const PERSONAL = ["Asha", "9820012345", "asha.rao@example.in", "3rd Cross", "Indiranagar", "560038", "5531999"];
const AWB = "14123456789012";
const STALE_AWB = "14999988887777";
// The tokens the courier sandbox put into each shipment's tracking link: the link in the shipping email.
const TOKEN = "e2eTrackingLinkToken01";
const STALE_TOKEN = "e2eTrackingLinkToken02";
const linkOf = (awb: string, token: string) => `/track/${awb}?token=${token}`;

let server: StartedServer;
let db: PrismaClient;
let browser: Browser;
const contexts: BrowserContext[] = [];
const watchers: PageWatcher[] = [];

const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000);

async function seed(awb: string, { token, syncedAt, nextSyncAt, orderNumber }: { token: string; syncedAt: Date; nextSyncAt: Date; orderNumber: number }) {
  const shipment = await db.shipment.create({
    data: {
      shop: SHOP,
      orderGid: `gid://shopify/Order/${orderNumber}`,
      orderName: "#5531",
      status: "fulfilled",
      requestPayload: JSON.stringify({ order_id: "#5531", ...SHOPPER, products: [{ product_name: "Cotton kurta", price: 1299, quantity: 1 }], payment_mode: "cod", total_amount: 1299, logistic_id: 3 }),
      courierEnvironment: "test",
      awb,
      courierId: 3,
      courierName: "Ekart",
      paymentMode: "cod",
      trackingUrl: `${BASE}${linkOf(awb, token)}`,
      courierStatusCode: 6,
      courierStatusLabel: "Reached at Destination",
      courierStatusAt: hoursFromNow(-2),
      lastScanAt: hoursFromNow(-2),
      estimatedDeliveryAt: hoursFromNow(30),
      syncedAt,
      nextSyncAt,
    },
  });
  const entries = [
    { code: 2, label: "Manifested", activity: "Shipment manifested; awaiting pick-up", location: "Bhiwandi", happenedAt: hoursFromNow(-50) },
    { code: 3, label: "Out for Pickup", activity: "Courier executive out to pick up the shipment", location: "Bhiwandi", happenedAt: hoursFromNow(-46) },
    { code: 5, label: "In Transit", activity: "Shipment picked up and in transit to Bengaluru", location: "Bhiwandi hub", happenedAt: hoursFromNow(-30) },
    { code: 6, label: "Reached at Destination", activity: "Shipment reached the Bengaluru delivery centre; consignee Asha Rao informed on 9820012345", location: "Bengaluru", happenedAt: hoursFromNow(-2) },
  ];
  await db.trackingEvent.createMany({ data: entries.map((entry, index) => ({ shop: SHOP, shipmentId: shipment.id, fingerprint: `${awb}-${index}`, ...entry, postedAt: new Date() })) });
}

beforeAll(async () => {
  await productionBuild();
  const url = await createDatabase(`e2e_tracking_${process.env.VITEST_POOL_ID ?? 0}`, { replace: true });
  db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 2 }) });
  // Synced a minute ago: nothing to ask for. Synced two hours ago at "reached destination" (polled every 30 minutes
  // by default): the page asks for a sync.
  await seed(AWB, { token: TOKEN, syncedAt: hoursFromNow(-1 / 60), nextSyncAt: hoursFromNow(0.5), orderNumber: 5531999 });
  await seed(STALE_AWB, { token: STALE_TOKEN, syncedAt: hoursFromNow(-2), nextSyncAt: hoursFromNow(-1.5), orderNumber: 5531998 });
  await db.shopDocumentSettings.create({ data: { shop: SHOP, shopName: "Khadi & Co" } });
  await db.trackingPageSettings.create({ data: { shop: SHOP, contactEmail: "help@khadi.example", contactPhone: "+919812345678" } });
  server = npmStart({ DATABASE_URL: url, PORT: String(port), WORKER_CONCURRENCY: "0" });
  expect((await waitForHealth(port, server.output)).status).toBe(200);
  browser = await launchBrowser();
}, 120_000);

afterEach(() => {
  for (const watcher of watchers) watcher.expectNone("After the test");
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
  await db?.$disconnect();
});

interface PhonePage {
  page: Page;
  step: Steps;
  /** Every address the page requested since it opened. */
  requested: string[];
}

/** A phone's browser; `locale` sets what it sends as Accept-Language. */
async function openPhone(suite: string, locale = "en-IN"): Promise<PhonePage> {
  const context = await browser.newContext({ ...PHONE, locale });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT);
  page.setDefaultNavigationTimeout(STEP_TIMEOUT);
  const watcher = new PageWatcher(page);
  watchers.push(watcher);
  const requested: string[] = [];
  page.on("request", (request) => requested.push(new URL(request.url()).pathname));
  return { page, step: createSteps(page, watcher, suite), requested };
}

/** No script in the document, none fetched, and Remix's client never started: the page is HTML and CSS only. */
async function expectNoScript({ page, requested }: PhonePage): Promise<void> {
  expect(await page.locator("script").count()).toBe(0);
  expect(requested.filter((path) => path.endsWith(".js"))).toEqual([]);
  expect(await page.evaluate(() => "__remixRouter" in window || "__remixContext" in window)).toBe(false);
}

/**
 * Every word of these elements sits on one line: a word wrapped inside itself ("Delivere" / "d") has a range over
 * its letters that spans two lines. Answers the broken words.
 */
async function wordsBrokenIn(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((elements) => {
    const broken: string[] = [];
    for (const element of elements) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const tops = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
          if (tops.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  });
}

/** Fits a phone: no sideways scrolling, the stylesheet applied, one h1, the document's language declared. */
async function expectPhoneLayout(page: Page, language: "en" | "hi"): Promise<void> {
  expect(await page.locator("html").getAttribute("lang")).toBe(language);
  expect(await page.locator("h1").count()).toBe(1);
  const { scrollWidth, innerWidth, font } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, font: getComputedStyle(document.body).fontFamily }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  // The linked stylesheet loaded under the page's Content-Security-Policy.
  expect(font).toMatch(/system-ui/);
}

describe("the public tracking page on a phone", () => {
  it("shows the parcel's progress in English, switches to Hindi by its link, and shows no personal details", async () => {
    const phone = await openPhone("tracking-page");
    const { page, step } = phone;

    await step("open the link from the shipping email", async () => {
      const response = await page.goto(`${BASE}${linkOf(AWB, TOKEN)}`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()["cache-control"]).toBe("private, max-age=60");
      await expectPhoneLayout(page, "en");
      await expect.poll(() => page.locator("h1").textContent()).toBe("In your city");
      expect(await page.locator(".stage").innerText()).toMatch(/Your parcel has reached the courier's delivery centre in your city\.\s+Expected delivery: \w{3}, \d{1,2} \w{3},? \d{4}/);
      expect(await page.locator(".facts").innerText()).toMatch(/Tracking number\s+14123456789012\s+Courier\s+Ekart\s+Delivering to\s+Bengaluru/);
      expect(await page.locator(".stage").innerText()).toContain("Keep ₹1,299 ready");
      expect(await page.locator('.progress [aria-current="step"]').innerText()).toMatch(/^In your city/);
      expect(await page.getByRole("link", { name: "Khadi & Co – back to the store" }).getAttribute("href")).toBe(`https://${SHOP}`);
      expect(await page.locator(".facts").innerText()).toMatch(/^Order\s+#5531\s+/);
      expect(await page.locator(".cod strong").innerText()).toBe("Keep ₹1,299 ready");
      expect(await page.getByRole("link", { name: "+91 98123 45678" }).getAttribute("href")).toBe("tel:+919812345678");
      const entries = await page.locator(".timeline li .entry-activity").allInnerTexts();
      expect(entries).toEqual([
        "Shipment reached the Bengaluru delivery centre; consignee ••• informed on •••",
        "Shipment picked up and in transit to Bengaluru",
        "Courier executive out to pick up the shipment",
        "Shipment manifested; awaiting pick-up",
      ]);
      expect(await page.locator(".timeline li").first().locator("time").getAttribute("datetime")).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(await page.getByText("We are asking the courier").count()).toBe(0);
      const html = await page.content();
      for (const value of PERSONAL) expect(html, value).not.toContain(value);
      await expectNoScript(phone);
    });

    await step("switch to Hindi", async () => {
      await page.getByRole("navigation", { name: "Language" }).getByRole("link", { name: "हिन्दी" }).tap();
      await page.waitForURL(`${BASE}${linkOf(AWB, TOKEN)}&lang=hi`);
      await expectPhoneLayout(page, "hi");
      expect(await page.locator("h1").textContent()).toBe("आपके शहर में");
      expect(await page.locator(".facts").innerText()).toMatch(/ट्रैकिंग नंबर\s+14123456789012\s+कूरियर\s+Ekart\s+डिलीवरी का शहर\s+Bengaluru/);
      expect(await page.getByRole("heading", { level: 2, name: "कूरियर से मिली जानकारी" }).count()).toBe(1);
      expect(await page.getByRole("link", { name: "English" }).getAttribute("href")).toBe(`${linkOf(AWB, TOKEN)}&lang=en`);
      expect(await page.locator(".cod strong").innerText()).toBe("₹1,299 तैयार रखें");
      const times = (await page.locator(".timeline time").allInnerTexts()).join(" | ");
      expect(times).toMatch(/सुबह|दोपहर|शाम|रात/);
      expect(times).not.toMatch(/\b[ap]m\b/i);
      expect(await page.locator(".timeline .entry-line").first().innerText()).toBe("आपका पार्सल आपके शहर में कूरियर के डिलीवरी सेंटर पर पहुँच गया है।");
      await expectNoScript(phone);
    });
  });

  it.each([320, 360])("at %i px wide, breaks no word inside itself, in English and in Hindi", async (width) => {
    const phone = await openPhone(`tracking-page-${width}px`);
    const { page, step } = phone;
    await page.setViewportSize({ width, height: 780 });
    for (const language of ["en", "hi"] as const) {
      await step(`the page in ${language} at ${width} px`, async () => {
        expect((await page.goto(`${BASE}${linkOf(AWB, TOKEN)}&lang=${language}`))?.status()).toBe(200);
        await expectPhoneLayout(page, language);
        expect(await wordsBrokenIn(page, ".progress li, .stage, .facts, .bar, h1, h2")).toEqual([]);
      });
    }
  });

  it("is in Hindi for a phone whose language is Hindi", async () => {
    const phone = await openPhone("tracking-page-hindi", "hi-IN");
    await phone.step("open the link on a Hindi phone", async () => {
      const response = await phone.page.goto(`${BASE}${linkOf(AWB, TOKEN)}`);
      expect(response?.status()).toBe(200);
      await expectPhoneLayout(phone.page, "hi");
      expect(await phone.page.locator("h1").textContent()).toBe("आपके शहर में");
      expect(await phone.page.locator(".stage").innerText()).toContain("डिलीवरी की अनुमानित तारीख");
      await expectNoScript(phone);
    });
  });

  it("says so for an unknown or malformed number, and finds a parcel by the form on that page", async () => {
    const phone = await openPhone("tracking-page-not-found");
    const { page, step } = phone;

    await step("an unknown number", async () => {
      const response = await page.goto(`${BASE}/track/19999999999999`);
      expect(response?.status()).toBe(404);
      expect(response?.headers()["cache-control"]).toBe("no-store");
      await expectPhoneLayout(page, "en");
      expect(await page.locator("h1").textContent()).toBe("We could not find this tracking number");
      await expectNoScript(phone);
    });

    await step("a malformed one, in Hindi", async () => {
      const response = await page.goto(`${BASE}/track/${"x".repeat(300)}%3Cb%3E?lang=hi`);
      expect(response?.status()).toBe(404);
      await expectPhoneLayout(page, "hi");
      expect(await page.locator("h1").textContent()).toBe("यह ट्रैकिंग नंबर नहीं मिला");
    });

    await step("type the right number into the form: its stage, and nothing of where or when", async () => {
      await page.getByLabel("ट्रैकिंग नंबर (AWB)").fill(` ${AWB} `);
      await page.getByRole("button", { name: "ट्रैक करें" }).tap();
      await page.waitForURL(`${BASE}/track/${AWB}?lang=hi`);
      expect(await page.locator("h1").textContent()).toBe("आपके शहर में");
      expect(await page.locator('.progress [aria-current="step"]').innerText()).toMatch(/^आपके शहर में/);
      expect(await page.locator(".facts").innerText()).toMatch(/^ट्रैकिंग नंबर\s+14123456789012$/);
      expect(await page.locator(".timeline, time").count()).toBe(0);
      const text = await page.locator("main").innerText();
      for (const detail of ["Ekart", "Bengaluru", "Bhiwandi", "डिलीवरी की अनुमानित तारीख"]) expect(text, detail).not.toContain(detail);
      expect(text).toContain("ट्रैकिंग लिंक");
      await expectNoScript(phone);
    });
  });

  it("asks for a sync of a stale shipment and shows what it knows meanwhile", async () => {
    const phone = await openPhone("tracking-page-stale");
    await phone.step("open a shipment last synced two hours ago", async () => {
      const response = await phone.page.goto(`${BASE}${linkOf(STALE_AWB, STALE_TOKEN)}`);
      expect(response?.status()).toBe(200);
      expect(await phone.page.locator("h1").textContent()).toBe("In your city");
      expect(await phone.page.locator(".note").innerText()).toContain("We are asking the courier for newer updates.");
    });
    // The app process runs no jobs (WORKER_CONCURRENCY=0): the job waits in its queue for a worker.
    await expect
      .poll(async () => (await db.$queryRaw<{ count: bigint }[]>`SELECT count(*) FROM pgboss.job WHERE name = 'tracking-sync' AND data->>'shop' = ${SHOP}`)[0]!.count, { timeout: 10_000 })
      .toBe(1n);
  });
});
