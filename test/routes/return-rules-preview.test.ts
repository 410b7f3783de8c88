import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookOrder } from "~/orders/book-order.server";
import prisma from "~/db.server";
import { checkReturn } from "~/returns/check-return.server";
import type { ReturnRulesPreview } from "~/returns/return-rules-preview.server";
import { action as returnsAction } from "~/routes/app.orders.returns";
import { action as ordersCreate } from "~/routes/webhooks.orders.create";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { resetJobs } from "../support/jobs";
import { returnRulesField } from "../support/return-rules";
import { shopperOrder } from "../support/orders";
import { serveRoutes, startStore } from "../support/store";
import { uniqueShop } from "../support/webhooks";

/**
 * Orders to ship → Returns, "Preview on recent returns": the rules as edited (not saved) sort the shop's recorded
 * returns exactly as the return check decided them, from what Dakiya recorded (no Shopify call), and only this shop's.
 */

let courier: RunningCourierService;
let app: Awaited<ReturnType<typeof serveRoutes>>;
let store: Awaited<ReturnType<typeof startStore>>;
const deps = { ...defaultJobDeps, now: () => new Date() };

beforeAll(async () => {
  await resetJobs();
  courier = await startAppCourierService();
  app = await serveRoutes({ "/webhooks/orders/create": ordersCreate });
  store = await startStore({ appUrl: app.url, throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
  await store.install();
});
afterAll(async () => {
  await store.close();
  await app.close();
  await courier.close();
});

type ActionBody = { ok: boolean; message: string; errors?: Record<string, string>; preview?: ReturnRulesPreview };
const call = async (fields: Record<string, string>) => {
  const response = await returnsAction({ request: store.adminRequest("/app/orders/returns", { method: "POST", body: new URLSearchParams(fields) }), params: {}, context: {} });
  return { status: response.status, body: (await response.json()) as ActionBody };
};

/** A shopper's order shipped through Dakiya (shopperOrder's index picks its city), and a return of its item opened by the merchant. */
async function openReturn(index: number, returnReason: string, returnReasonNote = "") {
  const order = store.simulator.placeOrder(store.domain, shopperOrder(index));
  const booked = await bookOrder({ shop: store.domain, admin: await deps.adminFor(store.domain) }, { orderGid: order.id, courierId: 1 });
  expect(booked.kind).toBe("booked");
  const fulfillmentLineItemId = store.shop.orders.find((candidate) => candidate.id === order.id)!.fulfillments[0]!.lines[0]!.id!;
  return store.simulator.returnAction(store.domain, "returnCreate", { returnInput: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId, quantity: 1, returnReason, returnReasonNote }] } });
}

/** Where a preview put a return: "rule 1", "default" or "not booked". */
function placeIn(preview: ReturnRulesPreview, returnGid: string): string | null {
  const rule = preview.byRule.findIndex((returns) => returns.some((ret) => ret.returnGid === returnGid));
  if (rule !== -1) return `rule ${rule + 1}`;
  if (preview.byDefault.some((ret) => ret.returnGid === returnGid)) return "default";
  if (preview.notBooked.some((ret) => ret.returnGid === returnGid)) return "not booked";
  return null;
}

/** Where the return check's recorded decision put it, in the same words. */
async function placeDecided(returnGid: string): Promise<string | null> {
  const record = await prisma.returnRecord.findUniqueOrThrow({ where: { shop_returnGid: { shop: store.domain, returnGid } } });
  if (record.state === "declined" || record.state === "cancelled") return "not booked";
  const rule = /^Return rule (\d+) /.exec(record.decisionReason ?? "");
  if (rule) return `rule ${rule[1]}`;
  return record.decisionReason?.startsWith("Default return rule") ? "default" : null;
}

describe("Preview on recent returns", () => {
  it("sorts the shop's recent returns by the rule that decides each, as the return check decided them, without saving or asking Shopify", async () => {
    const drafts = returnRulesField({ name: "Damaged", reasons: "damaged, defective" }, { name: "Mumbai pickups", pincodePrefixes: "400", action: "cheapest" });
    expect(await call({ intent: "settings", returnRule: "hold", returnDisposition: "inspect", returnRules: drafts })).toMatchObject({ status: 200, body: { ok: true } });

    // shopperOrder's cities by index: 0 Bengaluru 560038, 1 Mumbai 400050, 2 New Delhi 110017, 3 Chennai 600020, 4 Pune 411001, 6 Mumbai again.
    const defective = await openReturn(0, "DEFECTIVE");
    const mumbaiColour = await openReturn(1, "COLOR");
    const damagedByNote = await openReturn(3, "OTHER", "Arrived damaged");
    const sizeInDelhi = await openReturn(2, "SIZE_TOO_SMALL");
    const defectiveInMumbai = await openReturn(6, "DEFECTIVE");
    const declinedOrder = store.simulator.placeOrder(store.domain, shopperOrder(4));
    expect((await bookOrder({ shop: store.domain, admin: await deps.adminFor(store.domain) }, { orderGid: declinedOrder.id, courierId: 1 })).kind).toBe("booked");
    const declinedLine = store.shop.orders.find((candidate) => candidate.id === declinedOrder.id)!.fulfillments[0]!.lines[0]!.id!;
    const declined = store.simulator.returnAction(store.domain, "returnRequest", { input: { orderId: declinedOrder.id, returnLineItems: [{ fulfillmentLineItemId: declinedLine, quantity: 1, returnReason: "DEFECTIVE" }] } });
    store.simulator.returnAction(store.domain, "returnDeclineRequest", { input: { id: declined, declineReason: "FINAL_SALE" } });
    const returns = [defective, mumbaiColour, damagedByNote, sizeInDelhi, defectiveInMumbai, declined];
    // The real decisions, by the saved rules.
    for (const returnGid of returns) await checkReturn(store.domain, returnGid, deps);
    expect(await Promise.all(returns.map(placeDecided))).toEqual(["rule 1", "rule 2", "rule 1", "default", "rule 1", "not booked"]);

    // Another shop's return that every rule would match, recorded as the newest: never shown.
    const otherShop = uniqueShop("other");
    await prisma.returnRecord.create({
      data: { shop: otherShop, returnGid: "gid://shopify/Return/990001", orderGid: "gid://shopify/Order/990001", returnName: "#9901-R1", state: "approved", totalPaise: 79_900, pincode: "400050", reasons: ["damaged"], requestedAt: new Date(Date.now() + 60_000) },
    });

    // The saved rules are now different: the preview is of the drafts sent, not of what is stored.
    await prisma.shopSettings.update({ where: { shop: store.domain }, data: { returnRule: "cheapest", returnRules: "[]" } });
    const shopifyRequests = store.simulator.requests;
    const previewed = await call({ intent: "preview", returnRule: "hold", returnDisposition: "inspect", returnRules: drafts });
    expect(previewed).toMatchObject({ status: 200, body: { ok: true, message: "Previewed on the 6 most recent returns; nothing was saved." } });
    expect(store.simulator.requests).toBe(shopifyRequests);
    const preview = previewed.body.preview!;
    // Each return where the return check's decision put it: a reason word (also one in the shopper's note only), a
    // PIN code prefix, the first rule before the second, the default, and a declined return no rule books.
    expect(await Promise.all(returns.map(placeDecided))).toEqual(returns.map((returnGid) => placeIn(preview, returnGid)));
    expect(preview.notBooked).toEqual([expect.objectContaining({ returnGid: declined, why: "declined in Shopify" })]);
    expect(preview.byRule.flat().concat(preview.byDefault, preview.notBooked).map((ret) => ret.returnName)).toEqual(expect.arrayContaining([expect.stringMatching(/^#\d+-R1$/)]));
    expect(JSON.stringify(preview)).not.toContain("990001");
    expect(await prisma.shopSettings.findUniqueOrThrow({ where: { shop: store.domain } })).toMatchObject({ returnRule: "cheapest", returnRules: "[]" });

    // Moved first, the Mumbai rule takes the defective return picked up in Mumbai.
    const reordered = await call({ intent: "preview", returnRule: "hold", returnDisposition: "inspect", returnRules: returnRulesField({ name: "Mumbai pickups", pincodePrefixes: "400", action: "cheapest" }, { name: "Damaged", reasons: "damaged, defective" }) });
    expect(reordered.status).toBe(200);
    expect(returns.map((returnGid) => placeIn(reordered.body.preview!, returnGid))).toEqual(["rule 2", "rule 1", "rule 2", "default", "rule 1", "not booked"]);
  });

  it("refuses rules a save would refuse, with the same errors, and previews nothing", async () => {
    const mistaken = { returnRule: "courier", returnDisposition: "inspect", returnRules: returnRulesField({ name: "Mumbai", pincodePrefixes: "40x" }, { name: "Cheap", minValueRupees: "-5", action: "courier" }) };
    const previewed = await call({ intent: "preview", ...mistaken });
    const saved = await call({ intent: "settings", ...mistaken });
    expect(previewed.status).toBe(422);
    expect(previewed.body.preview).toBeUndefined();
    expect(previewed.body.errors).toEqual(saved.body.errors);
    expect(previewed.body.errors).toMatchObject({
      returnCourierId: "Choose the courier your default return rule books",
      "rules.0.pincodePrefixes": expect.stringMatching(/^Return rule 1 'Mumbai': PIN code prefixes are 1 to 6 digits/),
      "rules.1.minValueRupees": expect.stringMatching(/^Return rule 2 'Cheap': Minimum value must not be negative/),
      "rules.1.courierId": expect.stringMatching(/Choose the courier this rule books/),
    });
    expect(await call({ intent: "preview", returnRule: "hold", returnDisposition: "inspect", returnRules: "{not json" })).toMatchObject({ status: 422, body: { errors: { returnRules: expect.stringMatching(/could not be read/) } } });
  });
});
