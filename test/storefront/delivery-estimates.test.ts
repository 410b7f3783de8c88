import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { createDeliveryEstimates } from "~/storefront/delivery-estimate.server";
import type { EstimateQuery } from "~/storefront/delivery-estimate";
import { saveStorefrontSettings, type StorefrontSettingsUpdate } from "~/storefront/storefront-settings.server";
import { startCourierService, type RunningCourierService } from "../support/courier-service";
import { uniqueShop } from "../support/webhooks";

/*
 * The storefront's estimates against the real courier service over HTTP and the shop's settings in the real
 * database. The service counts its requests: that is how a test knows the courier was (not) asked.
 */

let courier: RunningCourierService;
beforeAll(async () => {
  courier = await startCourierService();
});
afterAll(() => courier.close());

const SETTINGS: StorefrontSettingsUpdate = {
  estimateEnabled: true,
  handlingDays: 1,
  cutoffMinutes: 14 * 60,
  closedWeekdays: [0],
  closedDates: [],
  showCod: true,
  codMaxPaise: 2_000_00,
  defaultWeightGrams: 500,
  trackOnShopDomain: false,
};

// Monday 23 November 2026, 10:00 in India.
const MONDAY_MORNING = new Date("2026-11-23T10:00:00+05:30");

async function world(settings: Partial<StorefrontSettingsUpdate> = {}, options: Parameters<typeof createDeliveryEstimates>[0] = {}) {
  const shop = uniqueShop("storefront");
  await saveStorefrontSettings(shop, { ...SETTINGS, ...settings });
  const estimates = createDeliveryEstimates({ clientFor: () => courier.client(), now: () => MONDAY_MORNING, ...options });
  return { shop, estimates };
}

const query = (pincode: string, extra: Partial<EstimateQuery> = {}): EstimateQuery => ({ pincode, grams: null, amountPaise: null, language: "en", ...extra });

/** The courier's calculate-rate calls made while `run` runs. */
async function rateCalls<T>(run: () => Promise<T>): Promise<{ result: T; calls: number }> {
  const before = courier.requests;
  const result = await run();
  return { result, calls: courier.requests - before };
}

describe("delivery estimates", () => {
  it("answers a served PIN code with the date, from the warehouse's PIN code, the handling day and the courier's days", async () => {
    const { shop, estimates } = await world();
    const answer = await estimates.estimate(shop, query("110001"));
    // The sandbox's primary warehouse is at 421302 (Maharashtra) → Delhi: rest of India. Dispatch Tuesday 24th.
    expect(answer).toMatchObject({ status: "deliverable", cod: "available", codMessage: "Cash on delivery available", fresh: true });
    expect(answer.deliverBy! > "2026-11-24").toBe(true);
    expect(answer.message).toMatch(/^Delivered by \w{3}, \d{1,2} \w{3}$/);
  });

  it("says so for a PIN code no courier serves", async () => {
    const { shop, estimates } = await world();
    expect(await estimates.estimate(shop, query("900001"))).toMatchObject({ status: "unserviceable", message: "We don't deliver to this PIN code yet", deliverBy: null, cod: "hidden" });
  });

  it("turns cash on delivery off above the shop's limit, in the shopper's language", async () => {
    const { shop, estimates } = await world();
    expect(await estimates.estimate(shop, query("560038", { amountPaise: 2_000_00 }))).toMatchObject({ cod: "available" });
    const over = await estimates.estimate(shop, query("560038", { amountPaise: 2_000_01, language: "hi" }));
    expect(over).toMatchObject({ cod: "over_limit", codLimitPaise: 2_000_00 });
    expect(over.codMessage).toContain("2,000");
    expect(over.message).toContain("तक डिलीवरी");
  });

  it("hides cash on delivery when the shop does not show it, and answers 'off' when the estimate is off", async () => {
    const hidden = await world({ showCod: false });
    expect(await hidden.estimates.estimate(hidden.shop, query("560038"))).toMatchObject({ status: "deliverable", cod: "hidden", codMessage: null });
    const off = await world({ estimateEnabled: false });
    const { result, calls } = await rateCalls(() => off.estimates.estimate(off.shop, query("560038")));
    expect(result.status).toBe("off");
    expect(calls).toBe(0);
  });

  it("moves the date with the cut-off and the closed days", async () => {
    const { shop, estimates } = await world({ handlingDays: 0 });
    const before = await estimates.estimate(shop, query("400001"));
    const late = createDeliveryEstimates({ clientFor: () => courier.client(), now: () => new Date("2026-11-23T14:30:00+05:30") });
    const after = await late.estimate(shop, query("400001"));
    expect(Date.parse(after.deliverBy!) - Date.parse(before.deliverBy!)).toBe(86_400_000);
    await saveStorefrontSettings(shop, { ...SETTINGS, handlingDays: 0, closedWeekdays: [0, 2] });
    const closedTuesday = createDeliveryEstimates({ clientFor: () => courier.client(), now: () => new Date("2026-11-23T14:30:00+05:30") });
    expect(Date.parse((await closedTuesday.estimate(shop, query("400001"))).deliverBy!) - Date.parse(after.deliverBy!)).toBe(86_400_000);
  });

  it("makes one courier call for 100 concurrent shoppers on one new route", async () => {
    const { shop, estimates } = await world();
    await estimates.estimate(shop, query("110001")); // the warehouse's PIN code is now known
    const { result, calls } = await rateCalls(() => Promise.all(Array.from({ length: 100 }, () => estimates.estimate(shop, query("700001")))));
    expect(new Set(result.map((answer) => answer.deliverBy)).size).toBe(1);
    expect(result[0]!.status).toBe("deliverable");
    expect(calls).toBe(1);
    expect((await rateCalls(() => estimates.estimate(shop, query("700001")))).calls).toBe(0);
  });

  // 10,000 keys through the cache alone: app/storefront/answer-cache.test.ts; here every miss is a real courier call.
  it("keeps its cache bounded over 1,000 distinct PIN codes with room for 100", async () => {
    const { shop, estimates } = await world({}, { maxQuotes: 100, maxQuotesPerShop: 100, quotesPerMinute: 10_000 });
    const pins = Array.from({ length: 1_000 }, (_, index) => String(110_000 + index));
    for (let start = 0; start < pins.length; start += 100) {
      await Promise.all(pins.slice(start, start + 100).map((pin) => estimates.estimate(shop, query(pin))));
      expect(estimates.stats().quotes).toBeLessThanOrEqual(100);
    }
    expect(estimates.stats().courierQuotes).toBe(1_000);
  }, 60_000);

  it("keeps the last answer when the courier is down, and says to check at checkout when it has none", async () => {
    let at = MONDAY_MORNING.getTime();
    const { shop, estimates } = await world({}, { now: () => new Date(at), quoteFreshMs: 60_000, retryAfterMs: 30_000 });
    const served = await estimates.estimate(shop, query("600001"));
    expect(served.status).toBe("deliverable");
    courier.failNext("calculate-rate", 1_000);
    try {
      at += 120_000;
      expect(await estimates.estimate(shop, query("600001"))).toMatchObject({ status: "deliverable", deliverBy: served.deliverBy, fresh: false });
      const down = await estimates.estimate(shop, query("600002"));
      expect(down).toMatchObject({ status: "unavailable", deliverBy: null });
      expect(down.message).toContain("checkout");
      // Within the retry window the courier is not asked again, by either key.
      expect((await rateCalls(() => Promise.all([estimates.estimate(shop, query("600001")), estimates.estimate(shop, query("600002"))]))).calls).toBe(0);
    } finally {
      courier.failNext("calculate-rate", 0);
    }
  });

  it("asks the courier about at most its share of new routes a minute per shop, answering the rest 'try again shortly' and known routes from memory", async () => {
    let at = MONDAY_MORNING.getTime();
    const { shop, estimates } = await world({}, { now: () => new Date(at), quotesPerMinute: 5 });
    const other = await world({}, { now: () => new Date(at), quotesPerMinute: 5 });
    const pins = Array.from({ length: 8 }, (_, index) => String(400_001 + index));
    const { result, calls } = await rateCalls(async () => {
      const answers = [];
      for (const pin of pins) answers.push(await estimates.estimate(shop, query(pin)));
      return answers;
    });
    // Five new routes quoted (one or two calls each: COD, then prepaid where no courier collects cash), then at once "try again".
    expect(result.slice(0, 5).map((answer) => answer.status)).toEqual(Array(5).fill("deliverable"));
    expect(calls).toBeLessThanOrEqual(10);
    for (const answer of result.slice(5)) {
      expect(answer).toMatchObject({ status: "unavailable", message: "We're still checking this PIN code: try again in a moment" });
      expect(answer.retryAfterSeconds).toBeGreaterThan(0);
      expect(answer.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    // Routes already quoted still answer, costing nothing; another shop has a share of its own.
    expect((await rateCalls(() => estimates.estimate(shop, query(pins[0]!)))).result.status).toBe("deliverable");
    expect((await other.estimates.estimate(other.shop, query(pins[7]!))).status).toBe("deliverable");
    // The admin's preview is the merchant's own.
    expect((await estimates.estimate(shop, query(pins[6]!), { evenWhenOff: true })).status).toBe("deliverable");
    // A minute on, the share is back.
    at += 60_001;
    expect((await estimates.estimate(shop, query(pins[5]!))).status).toBe("deliverable");
  });

  it("quotes a variant at the weight Dakiya keeps, never reading Shopify on the request; one Shopify lacks gets the shop's default after a while", async () => {
    let at = MONDAY_MORNING.getTime();
    const asked: string[][] = [];
    const { shop, estimates } = await world({}, { now: () => new Date(at), requestWeights: async (_, variantGids) => (asked.push([...variantGids]), true) });
    const kept = "gid://shopify/ProductVariant/7700001";
    await prisma.storefrontVariantWeight.create({ data: { shop, variantGid: kept, grams: 4_200, readAt: new Date(at) } });
    expect(await estimates.estimate(shop, query("560038", { variantId: kept }))).toMatchObject({ status: "deliverable", weightGrams: 5_000 });

    const unknown = "gid://shopify/ProductVariant/7700999";
    expect(await estimates.estimate(shop, query("560038", { variantId: unknown }))).toMatchObject({ status: "unavailable", retryAfterSeconds: 5 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(asked).toEqual([[unknown]]);
    // Two minutes on and still not kept (the read found no such variant): the shop's default weight.
    at += 2 * 60_000 + 1;
    expect(await estimates.estimate(shop, query("560038", { variantId: unknown }))).toMatchObject({ status: "deliverable", weightGrams: 500 });
  });
});
