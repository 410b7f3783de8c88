import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { draftOf, EMPTY_DRAFT, type RulePreview } from "~/automation/rules-form";
import { EXAMPLE_RULES } from "~/automation/rules";
import prisma from "~/db.server";
import { sayStored } from "~/locales/admin-language";
import { action, loader } from "~/routes/app.auto-booking";
import { loader as shipLoader } from "~/routes/app.orders.$id.ship";
import { action as ordersCreate } from "~/routes/webhooks.orders.create";
import * as shopSettings from "~/settings/shop-settings.server";
import * as orderMapping from "~/shopify/order-mapping";

const { getShopSettings } = shopSettings;
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { resetJobs, runJobs } from "../support/jobs";
import { shopperOrder } from "../support/orders";
import { serveRoutes, startStore } from "../support/store";

let courier: RunningCourierService;
let app: Awaited<ReturnType<typeof serveRoutes>>;
let store: Awaited<ReturnType<typeof startStore>>;

beforeAll(async () => {
  await resetJobs();
  courier = await startAppCourierService();
  app = await serveRoutes({ "/webhooks/orders/create": ordersCreate });
  store = await startStore({ appUrl: app.url, throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
  await store.install();
  await runJobs(["orders-reconcile", "order-check"]);
});
afterAll(async () => {
  await store.close();
  await app.close();
  await courier.close();
});

const submit = async (fields: Record<string, string>) => {
  const response = await action({ request: store.adminRequest("/app/auto-booking", { method: "POST", body: new URLSearchParams(fields) }), params: {}, context: {} });
  // Read as the browser reads it: any of the outcomes, the preview's when there is one.
  return { status: response.status, body: (await response.json()) as { kind: string; preview: RulePreview } & Record<string, unknown> };
};

describe("the auto-booking screen", () => {
  it("refuses a rule set with mistakes, naming each rule and field, and saves nothing", async () => {
    const rules = [draftOf(EXAMPLE_RULES[0]!), { ...EMPTY_DRAFT, name: "Heavy", minWeightKg: "10", maxWeightKg: "2", action: "courier" }];
    const { status, body } = await submit({ intent: "save", autoBooking: "on", rules: JSON.stringify(rules) });
    expect(status).toBe(422);
    expect(body).toMatchObject({ kind: "invalid", fieldErrors: { "1.maxWeightKg": "Rule 2 'Heavy': Maximum weight must not be below the minimum", "1.courierId": "Rule 2 'Heavy': Choose the courier this rule books" } });
    expect(await getShopSettings(store.domain)).toMatchObject({ autoBooking: false, bookingRules: "[]" });

    expect((await submit({ intent: "save", rules: "[oops" })).status).toBe(422);
    expect((await submit({ intent: "save", rules: "x".repeat(70_000) })).body).toMatchObject({ kind: "invalid", formError: expect.stringMatching(/too long/) });
  });

  it("previews unsaved rules on the shop's recent orders, from what was stored when each was checked", async () => {
    const page = await (await loader({ request: store.adminRequest("/app/auto-booking"), params: {}, context: {} })).json();
    expect(page).toMatchObject({ autoBooking: false, drafts: [] });
    const recent = await prisma.orderRecord.count({ where: { shop: store.domain, readiness: "ready" } });
    expect(recent).toBeGreaterThan(0);

    const shopifyRequests = store.simulator.requests;
    const rules = [{ ...EMPTY_DRAFT, name: "Prepaid", paymentMode: "prepaid", action: "fastest" }, { ...EMPTY_DRAFT, name: "COD", paymentMode: "cod", action: "hold" }];
    const { status, body } = await submit({ intent: "preview", rules: JSON.stringify(rules) });
    expect(status).toBe(200);
    expect(store.simulator.requests).toBe(shopifyRequests);
    const [prepaid, cod] = body.preview.byRule;
    expect(prepaid!.orders.length + cod!.orders.length + body.preview.unmatched.length).toBeGreaterThanOrEqual(recent);
    expect(prepaid!.orders.every((order) => /^fastest: \w+ ₹[\d,.]+$/.test(order.outcome))).toBe(true);
    expect(cod!.orders.every((order) => order.outcome === "held for review")).toBe(true);
    // A preview saves nothing.
    expect(await getShopSettings(store.domain)).toMatchObject({ autoBooking: false, bookingRules: "[]" });
  });

  it("saves the rules and the switch, and the next order arriving by webhook is booked by them, with the reason", async () => {
    const rules = [{ ...EMPTY_DRAFT, name: "Bengaluru COD", paymentMode: "cod", pincodePrefixes: "560", action: "cheapest" }, { ...EMPTY_DRAFT, name: "The rest", action: "hold" }];
    const { status, body } = await submit({ intent: "save", autoBooking: "on", rules: JSON.stringify(rules) });
    expect(status).toBe(200);
    expect(body).toMatchObject({ kind: "saved", autoBooking: true });
    const page = await (await loader({ request: store.adminRequest("/app/auto-booking"), params: {}, context: {} })).json();
    expect(page.drafts.map((draft: { name: string }) => draft.name)).toEqual(["Bengaluru COD", "The rest"]);

    // shopperOrder(0) is cash on delivery to Bengaluru (560038).
    const order = store.simulator.placeOrder(store.domain, shopperOrder(0));
    await store.simulator.settled();
    expect((await runJobs(["order-check", "shipment-complete"])).failed).toEqual([]);
    expect(await prisma.orderRecord.findUniqueOrThrow({ where: { shop_orderGid: { shop: store.domain, orderGid: order.id } } })).toMatchObject({
      decision: "booked",
      decisionReason: expect.stringMatching(/^Rule 1 'Bengaluru COD' → cheapest: \w+ ₹[\d,.]+$/),
    });
    expect(await prisma.shipment.findUnique({ where: { shop_orderGid_parcel: { shop: store.domain, orderGid: order.id, parcel: 1 } } })).toMatchObject({ status: "fulfilled" });
    // The order's page says so, and why.
    const id = order.legacyResourceId;
    const shipPage = await (await shipLoader({ request: store.adminRequest(`/app/orders/${id}/ship`), params: { id }, context: {} })).json();
    expect(shipPage.decision).toEqual({ kind: "booked", reason: expect.stringMatching(/^Rule 1 'Bengaluru COD' → cheapest: /), words: expect.objectContaining({ key: "decisions.book" }) });
    // Its words, kept beside the reason, say the same in English and the decision in Hindi on a Hindi admin.
    expect(sayStored("en", shipPage.decision?.words, "")).toBe(shipPage.decision?.reason);
    expect(sayStored("hi", shipPage.decision?.words, "")).toMatch(/^नियम 1 'Bengaluru COD' → सबसे सस्ता: \w+ ₹[\d,.]+$/);
  });

  it("checks, decides and books an order with one read of the shop's settings and one mapping of the order", async () => {
    const order = store.simulator.placeOrder(store.domain, shopperOrder(0));
    await store.simulator.settled();
    const settingsReads = vi.spyOn(shopSettings, "getShopSettings");
    const mappings = vi.spyOn(orderMapping, "toCourierOrder");
    try {
      expect((await runJobs(["order-check"])).failed).toEqual([]);
      expect(await prisma.shipment.findUnique({ where: { shop_orderGid_parcel: { shop: store.domain, orderGid: order.id, parcel: 1 } } })).toMatchObject({ status: "fulfilled" });
      expect(settingsReads).toHaveBeenCalledTimes(1);
      expect(mappings).toHaveBeenCalledTimes(1);
    } finally {
      settingsReads.mockRestore();
      mappings.mockRestore();
    }
  });
});
