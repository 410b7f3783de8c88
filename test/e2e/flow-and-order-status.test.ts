import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import type { Browser, FrameLocator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FLOW_PAYLOAD_LIMIT_BYTES, payloadProblem, type FlowTrigger } from "~/flow/flow-triggers";
import { DEMO_WORKFLOW_TRIGGERS } from "../../store/flow";
import type { StoreShop } from "../../store/model";
import { SEED_SHOP } from "../../store/seed";
import { TEST_DB_DIR } from "../support/global-setup";
import { createSteps, launchBrowser, openPage, PageWatcher, type Steps } from "./support/browser";
import { startDemo, type Demo } from "./support/demo";

/*
 * Shopify Flow and the shopper's order status page, after `npm run demo`'s day (store/journey.ts), on the production
 * build. The day's merchant turned on Flow workflows on a failed delivery, a delivery and an RTO (and none on a
 * booking or a parcel out for delivery): the local store must then hold exactly one flowTriggerReceive for each such
 * event of the day, each a valid payload for its trigger, and none for the triggers no workflow uses. Then, in
 * Chromium, the shopper of #1004 (the day's failed delivery) opens the order's status page in their customer account:
 * the app's customer account extension (its built bundle) shows the parcel's timeline and the failed attempt, where
 * the shopper's answer goes; in Hindi too; and the same page opened as another customer shows nothing of it.
 *
 * Ports 5500 + 10 × pool, apart from the other files' demos.
 */

const NAME = "e2e_flow_order_status";
let demo: Demo;
let browser: Browser;
let page: Page;
let watcher: PageWatcher;
let step: Steps;
let database: pg.Client;

beforeAll(async () => {
  demo = await startDemo({ name: NAME, basePort: 5500, journey: true, readyTimeoutMs: 170_000 });
  database = new pg.Client({ connectionString: demo.databaseUrl });
  await database.connect();
  browser = await launchBrowser();
  page = await openPage(browser);
  watcher = new PageWatcher(page);
  step = createSteps(page, watcher, "flow-and-order-status");
}, 240_000);

afterEach(() => {
  watcher?.expectNone("After the test");
});

afterAll(async () => {
  await browser?.close();
  await database?.end();
  await demo?.stop();
});

/** The store's shop as the demo saved it after its last change (store/store-state.ts). */
function savedShop(): StoreShop {
  const file = path.join(TEST_DB_DIR, `${NAME}_${Number(process.env.VITEST_POOL_ID ?? 0)}-store.json`);
  expect(existsSync(file), "the demo's store state").toBe(true);
  const state = JSON.parse(readFileSync(file, "utf8")) as { shops: StoreShop[] };
  return state.shops.find((shop) => shop.domain === SEED_SHOP)!;
}

interface Happened {
  trigger: FlowTrigger;
  awb: string;
  attempt: number | null;
}

/**
 * The day's events the workflows listen to, from what the app recorded of the courier: each forward parcel's delivery,
 * RTO and return to the warehouse once, and each failed delivery attempt on its own, numbered.
 */
async function eventsOfTheDay(): Promise<Happened[]> {
  const { rows } = await database.query<{ awb: string; code: number; attempt: string }>(
    `SELECT s.awb, t.code, row_number() OVER (PARTITION BY s.id, t.code ORDER BY t."happenedAt", t.id) AS attempt
       FROM "TrackingEvent" t JOIN "Shipment" s ON s.id = t."shipmentId"
      WHERE s.shop = $1 AND s.direction = 'forward' AND t.code IN (8, 9, 11, 12)`,
    [SEED_SHOP],
  );
  const byCode: Record<number, FlowTrigger> = { 8: "dakiya-parcel-delivered", 9: "dakiya-delivery-failed", 11: "dakiya-rto-started", 12: "dakiya-rto-delivered" };
  return rows
    .filter((row) => row.code === 9 || row.attempt === "1")
    .map((row) => ({ trigger: byCode[row.code]!, awb: row.awb, attempt: row.code === 9 ? Number(row.attempt) : null }));
}

const key = (event: Happened) => `${event.trigger} ${event.awb} ${event.attempt ?? ""}`;

describe("Shopify Flow after the demo's day", { timeout: 120_000 }, () => {
  it("holds exactly one flowTriggerReceive for each delivery, failed attempt and RTO of the day, each valid for its trigger; none for the triggers no workflow uses", async () => {
    expect([...DEMO_WORKFLOW_TRIGGERS].sort()).toEqual(["dakiya-delivery-failed", "dakiya-parcel-delivered", "dakiya-rto-delivered", "dakiya-rto-started"]);
    // The app sends in the background: wait until what happened and what Flow received agree, and nothing is left to send.
    let happened: Happened[] = [];
    let received: Happened[] = [];
    const deadline = Date.now() + 60_000;
    for (;;) {
      happened = await eventsOfTheDay();
      const { rows } = await database.query<{ left: string }>(`SELECT count(*) AS left FROM "FlowTriggerEvent" WHERE shop = $1 AND "sentAt" IS NULL AND "refusedAt" IS NULL`, [SEED_SHOP]);
      received = (savedShop().flow?.received ?? [])
        .filter((receipt) => receipt.errors.length === 0)
        .map((receipt) => {
          const payload = receipt.payload as { AWB: string; Attempt?: number };
          return { trigger: receipt.handle as FlowTrigger, awb: payload.AWB, attempt: payload.Attempt ?? null };
        });
      if ((rows[0]!.left === "0" && JSON.stringify(received.map(key).sort()) === JSON.stringify(happened.map(key).sort())) || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    // The day had each kind: #1001 and others delivered, #1004's failed attempt, #1002's RTO.
    for (const trigger of ["dakiya-parcel-delivered", "dakiya-delivery-failed", "dakiya-rto-started"] as const) expect(happened.filter((event) => event.trigger === trigger).length, trigger).toBeGreaterThan(0);
    expect(received.map(key).sort()).toEqual(happened.map(key).sort());

    // Every payload Flow received was its trigger's (the store checked it as Shopify does; the app's own table agrees).
    const all = savedShop().flow!.received;
    expect(all.filter((receipt) => receipt.errors.length > 0)).toEqual([]);
    for (const receipt of all) {
      expect(payloadProblem(receipt.handle as FlowTrigger, receipt.payload), receipt.handle ?? "").toBeNull();
      expect(Buffer.byteLength(JSON.stringify(receipt.payload))).toBeLessThan(FLOW_PAYLOAD_LIMIT_BYTES);
    }

    // Parcels were booked and went out for delivery all day, but no workflow starts with those triggers: nothing.
    const { rows: outForDelivery } = await database.query<{ count: string }>(`SELECT count(*) FROM "TrackingEvent" t JOIN "Shipment" s ON s.id = t."shipmentId" WHERE s.shop = $1 AND t.code = 7`, [SEED_SHOP]);
    expect(Number(outForDelivery[0]!.count)).toBeGreaterThan(0);
    expect(all.filter((receipt) => receipt.handle === "dakiya-out-for-delivery" || receipt.handle === "dakiya-parcel-booked")).toEqual([]);
  });
});

describe("the shopper's order status page", { timeout: 90_000 }, () => {
  const storeUrl = () => demo.adminUrl.replace(/\/admin$/, "");
  const order1004 = () => savedShop().orders.find((order) => order.name === "#1004")!;
  const parcelFrame = (): FrameLocator => page.frameLocator("iframe.customer-extension").first();

  it("shows #1004's shopper their parcel: the courier, the awb, the failed attempt where their answer goes, and the timeline", async () => {
    const order = order1004();
    const shipment = (await database.query<{ awb: string; courierName: string }>(`SELECT awb, "courierName" FROM "Shipment" WHERE shop = $1 AND "orderGid" = $2`, [SEED_SHOP, order.id])).rows[0]!;

    await step("from the admin's order page, More actions → View order status page", async () => {
      await page.goto(`${demo.adminUrl}/orders/${order.legacyResourceId}`);
      await page.getByText("More actions").click();
      await page.getByRole("link", { name: "View order status page" }).click();
      await page.getByRole("heading", { level: 1, name: "Order #1004" }).waitFor();
      await page.getByText("Signed in as the order's customer").waitFor();
    });

    await step("the parcel after its shipment: stage, courier and awb, the failed attempt, the courier's updates", async () => {
      await parcelFrame().getByRole("heading", { name: "Parcel #1004" }).waitFor();
      await parcelFrame().getByText(`${shipment.courierName} · AWB ${shipment.awb}`).waitFor();
      await parcelFrame().getByText("Delivery attempt failed", { exact: true }).first().waitFor();
      // The place of the shopper's answer to the failed-delivery desk: the attempt, the courier's reason, what comes next.
      await parcelFrame().getByRole("heading", { name: "We missed you" }).waitFor();
      await parcelFrame().getByText(/^The courier's delivery attempt failed: .+/).waitFor();
      await parcelFrame().getByRole("heading", { name: "Tracking updates" }).waitFor();
      const updates = await parcelFrame().locator("s-list-item").allTextContents();
      expect(updates.length).toBeGreaterThanOrEqual(4);
      expect(updates[0]).toContain("Delivery attempt failed");
      expect(updates.at(-1)).toContain("Booked with the courier");
      await expect(parcelFrame().getByRole("link", { name: "Open the tracking page" }).getAttribute("href")).resolves.toContain(shipment.awb);
    });

    await step("in Hindi, for a shopper whose account is in Hindi", async () => {
      await page.goto(`${storeUrl()}/account/orders/${order.legacyResourceId}?locale=hi`);
      await parcelFrame().getByRole("heading", { name: "पार्सल #1004" }).waitFor();
      await parcelFrame().getByRole("heading", { name: "हम आपसे मिल नहीं पाए" }).waitFor();
      await parcelFrame().getByRole("heading", { name: "ट्रैकिंग अपडेट" }).waitFor();
    });
  });

  it("shows another customer nothing of the parcel: the app refuses their token", async () => {
    const order = order1004();
    await step("the same page, opened as another signed-in customer", async () => {
      const answered = page.waitForResponse((response) => new URL(response.url()).pathname.startsWith("/api/customer/parcels/"));
      await page.goto(`${storeUrl()}/account/orders/${order.legacyResourceId}?customer=${encodeURIComponent("gid://shopify/Customer/999999")}`);
      await page.getByText("Signed in as another customer").waitFor();
      expect((await answered).status()).toBe(404);
      await expect.poll(() => parcelFrame().locator("body").innerText()).toBe("");
    });
  });
});
