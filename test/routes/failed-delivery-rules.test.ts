import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { enqueue } from "~/jobs/job-queue.server";
import { shipOrders } from "~/orders/ship-orders.server";
import { getConfig } from "~/config.server";
import { action as deskAction, loader as deskLoader } from "~/routes/app.failed-deliveries";
import { action as rulesAction, loader as rulesLoader } from "~/routes/app.failed-deliveries_.rules";
import { action as trackAction } from "~/routes/track.$awb";
import { action as instructionsAction } from "~/routes/app.failed-deliveries.instructions";
import { trackingLinkTokenOf } from "~/shipping/tracking-url";
import { preferredDays } from "~/failed-deliveries/shopper-answer";
import { draftOfRule, type DeskRule } from "~/failed-deliveries/desk-rules";
import { courierClientFor, sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { syncShipment } from "~/tracking/sync.server";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { queuedJobs, resetJobs, runJobs } from "../support/jobs";
import { shopperOrder } from "../support/orders";
import { startStore } from "../support/store";
import { uniqueShop } from "../support/webhooks";

/**
 * The failed-delivery desk's rules, through the path that records attempts: the courier sandbox puts a parcel into a
 * failed attempt, one tracking cycle reads it, and the shop's first matching rule decides it in the parcel's history
 * (by the rule, named) — once, however often the entry is read and however many workers read it at once. A rule that
 * waits leaves it to the shopper's answer until the time left runs out, then its fallback decides. The rules page
 * refuses what it cannot take with a 422 naming each rule and field.
 */
let courier: RunningCourierService;
let store: Awaited<ReturnType<typeof startStore>>;
let placed = 0;
let clock = new Date();
const HOUR = 3_600_000;
const REASON = "Delivery attempted: consignee not available";

beforeAll(async () => {
  await resetJobs();
  courier = await startAppCourierService({ appTrackingLinks: true });
  store = await startStore({ domain: uniqueShop("desk-rules"), throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
  await store.install();
  await prisma.shipment.updateMany({ where: { shop: { not: store.domain } }, data: { nextSyncAt: null } });
});
afterAll(async () => {
  await store.close();
  await courier.close();
});

const later = (hours: number) => (clock = new Date(clock.getTime() + hours * HOUR));

/** A parcel booked for a new order: cash on delivery, or prepaid. */
async function bookedShipment(payment: "cod" | "prepaid") {
  placed += 1;
  const order = store.simulator.placeOrder(store.domain, shopperOrder(700 + placed * 2 + (payment === "cod" ? 0 : 1)));
  const [result] = await shipOrders(store.domain, await defaultJobDeps.adminFor(store.domain), [order.id], { policy: "recommended" });
  expect(result).toMatchObject({ outcome: "booked" });
  const shipment = await prisma.shipment.findUniqueOrThrow({ where: { shop_orderGid_parcel: { shop: store.domain, orderGid: order.id, parcel: 1 } } });
  expect(shipment.paymentMode).toBe(payment);
  return shipment;
}

/** One tracking cycle: the sweep and the shop's sync read what the courier says now. */
async function trackingCycle() {
  await enqueue("tracking-sweep", {});
  const run = await runJobs(["tracking-sweep", "tracking-sync"], { deps: { now: () => later(1) } });
  expect(run.failed).toEqual([]);
}

/** The courier moves the parcel on; a failed attempt is the consignee not being available (REASON), which the rules here match. */
async function courierMoves(awb: string, to: number) {
  await courierClientFor(sandboxCredentialsFor(store.domain)).advanceSandboxShipment(awb, to, to === 9 ? "consignee_unavailable" : undefined);
  await trackingCycle();
}

async function saveRules(rules: readonly Partial<DeskRule>[] | unknown, locale = "en") {
  const drafts = Array.isArray(rules) ? rules.map((rule) => draftOfRule({ name: "Rule", reasons: [], payment: "any", fromAttempt: 1, toAttempt: null, action: "reattempt", otherwise: null, ...(rule as Partial<DeskRule>) })) : rules;
  const response = await rulesAction({ request: store.adminRequest("/app/failed-deliveries/rules", { method: "POST", body: new URLSearchParams({ intent: "rules", locale, rules: typeof drafts === "string" ? drafts : JSON.stringify(drafts) }) }), params: {}, context: {} });
  // Either answer's fields, for the test to compare whole.
  return { status: response.status, body: (await response.json()) as { ok: boolean; drafts?: unknown; formError?: string | null; fieldErrors?: Record<string, string> } };
}

async function desk(query = "") {
  return (await deskLoader({ request: store.adminRequest(`/app/failed-deliveries${query}`), params: {}, context: {} })).json();
}
/** The desk's row of a shipment in a view ("" the parcels to decide); the test fails where it is not listed. */
async function rowOf(shipmentId: number, query = "?view=all") {
  const row = (await desk(query)).rows.find((candidate) => candidate.shipmentId === shipmentId);
  if (!row) throw new Error(`shipment ${shipmentId} is not on the desk's ${query}`);
  return row;
}

const historyOf = async (shipmentId: number) =>
  // In the order they were written: the tracking cycles here run on a clock ahead of the shopper's.
  (await prisma.failedDeliveryEvent.findMany({ where: { failedDelivery: { shipmentId } }, orderBy: { id: "asc" } })).map((event) => ({ transition: event.transition, to: event.toState, by: `${event.actorKind}:${event.actorName}`, reason: event.reason }));

async function answer(shipment: { awb: string | null; trackingUrl: string | null }, fields: Record<string, string>) {
  const awb = shipment.awb!;
  const query = new URLSearchParams({ lang: "en", token: trackingLinkTokenOf(shipment.trackingUrl)! });
  const response = await trackAction({ request: new Request(`${getConfig().SHOPIFY_APP_URL}/track/${awb}?${query}`, { method: "POST", body: new URLSearchParams(fields) }), params: { awb }, context: { clientAddress: "198.51.100.9" } });
  return response.status;
}

describe("the failed-delivery desk's rules", () => {
  it("are saved on the rules page, which answers 422 naming each rule and field it cannot take, in the admin's language", async () => {
    expect(await (await rulesLoader({ request: store.adminRequest("/app/failed-deliveries/rules"), params: {}, context: {} })).json()).toEqual({ drafts: [], returnAfterHours: 24 });
    const refused = await saveRules([{ name: "" }, { name: "Backwards", fromAttempt: 3, toAttempt: 2 }]);
    expect(refused).toEqual({ status: 422, body: { ok: false, formError: null, fieldErrors: { "0.name": "Rule 1: give it a name.", "1.toAttempt": "Rule 2 'Backwards': the last attempt cannot come before the first." } } });
    expect((await saveRules([{ name: "x".repeat(61) }], "hi")).body.fieldErrors).toEqual({ "0.name": `नियम 1 '${"x".repeat(60)}': नाम 60 अक्षरों तक रखें।` });
    expect(await saveRules(JSON.stringify(Array.from({ length: 21 }, () => ({ name: "Same" }))))).toMatchObject({ status: 422, body: { formError: "At most 20 rules: remove 1." } });
    expect(await saveRules("{not json")).toMatchObject({ status: 422, body: { formError: "The rules could not be read. Reload the page and try again." } });
    // Nothing refused was kept.
    expect((await prisma.failedDeliverySettings.findUnique({ where: { shop: store.domain } }))?.rules ?? "[]").toBe("[]");

    const saved = await saveRules([{ name: "Not available", reasons: ["not available"], action: "wait", otherwise: "rto" }]);
    expect(saved).toEqual({ status: 200, body: { ok: true, drafts: [{ name: "Not available", reasons: "not available", payment: "any", fromAttempt: "1", toAttempt: "", action: "wait", otherwise: "rto" }] } });
    expect((await (await rulesLoader({ request: store.adminRequest("/app/failed-deliveries/rules"), params: {}, context: {} })).json()).drafts).toEqual(saved.body.drafts);
    expect((await desk()).ruleCount).toBe(1);
  });

  it("decides an attempt by the first matching rule as tracking reads it, once — the same entry read again, or by two workers at once, decides nothing more", async () => {
    // The first rule is for COD parcels only; the prepaid parcel falls to the second.
    expect((await saveRules([{ name: "COD: return", payment: "cod", action: "rto" }, { name: "Prepaid: deliver again", reasons: ["refused", "NOT AVAILABLE"], payment: "prepaid", action: "reattempt" }])).status).toBe(200);
    const shipment = await bookedShipment("prepaid");
    await courierMoves(shipment.awb!, 9);
    // Two workers read the same answer at once (each from the row as it was before either read).
    const deps = { admin: await defaultJobDeps.adminFor(store.domain), now: () => later(1) };
    await Promise.all([syncShipment(shipment, deps), syncShipment(shipment, deps)]);
    // And the next cycles read the same entry again.
    await trackingCycle();
    await trackingCycle();

    expect(await historyOf(shipment.id)).toEqual([
      { transition: "opened", to: "open", by: "job:tracking-sync", reason: "Attempt 1" },
      { transition: "rule_decided", to: "decided", by: "rule:Prepaid: deliver again", reason: "Rule 'Prepaid: deliver again': Re-attempt" },
    ]);
    expect(await rowOf(shipment.id, "?view=handoff")).toMatchObject({ state: "decided", decision: "reattempt", rule: "Prepaid: deliver again", attempts: 1, reason: REASON });
    // The rule's decision goes to the courier with the day's instructions, as the merchant's would.
    const csv = await (await instructionsAction({ request: store.adminRequest("/app/failed-deliveries/instructions", { method: "POST" }), params: {}, context: {} })).text();
    expect(csv).toContain(`${shipment.awb},`);
    expect(csv.split("\r\n").find((line) => line.startsWith(shipment.awb!))).toContain(",RE-ATTEMPT,");

    // The merchant's own decision afterwards is theirs: no rule is named for it.
    await deskAction({ request: store.adminRequest("/app/failed-deliveries", { method: "POST", body: new URLSearchParams({ intent: "decide", decision: "rto", shipmentIds: String(shipment.id) }) }), params: {}, context: {} });
    expect(await rowOf(shipment.id)).toMatchObject({ decision: "rto", rule: null });

    // A second failed attempt is the rules' again: the COD-only rule still does not match it.
    for (const to of [7, 9]) await courierMoves(shipment.awb!, to);
    expect(await rowOf(shipment.id)).toMatchObject({ attempts: 2, state: "decided", decision: "reattempt", rule: "Prepaid: deliver again" });
    expect((await historyOf(shipment.id)).filter((step) => step.transition === "rule_decided")).toHaveLength(2);
  });

  it("waits for the shopper's answer when the rule says so: the answer decides by the rule, and the desk shows the time left meanwhile", async () => {
    expect((await saveRules([{ name: "Ask the shopper", reasons: ["not available"], action: "wait", otherwise: "rto" }])).status).toBe(200);
    const kept = await bookedShipment("cod");
    const dropped = await bookedShipment("cod");
    for (const shipment of [kept, dropped]) await courierMoves(shipment.awb!, 9);

    // Beside the parcels to decide, not among them: the rule waits for the shopper.
    const page = await desk();
    expect(page.rows.map((candidate) => candidate.shipmentId)).not.toContain(kept.id);
    const row = page.waiting.find((candidate) => candidate.shipmentId === kept.id)!;
    expect(row).toMatchObject({ state: "waiting", rule: "Ask the shopper", waitOtherwise: "rto", decision: null });
    // The rule waits until the courier's usual return: 24 hours after the attempt, as the desk counts the time left.
    const attempt = await prisma.trackingEvent.findFirstOrThrow({ where: { shipmentId: kept.id, code: 9 } });
    expect(row.waitUntil).toBe(new Date(attempt.happenedAt.getTime() + 24 * HOUR).toISOString());
    expect(row.waitHoursLeft).toBeGreaterThan(0);
    expect(page.counts.waiting).toBeGreaterThanOrEqual(2);
    expect(page.counts.decide).toBe(page.rows.length);
    expect(await queuedJobs("failed-delivery-wait", store.domain)).toEqual(expect.arrayContaining([expect.objectContaining({ data: { shop: store.domain, shipmentId: kept.id } })]));

    const day = preferredDays(new Date(), { closedWeekdays: [0], closedDates: [] })[1]!;
    expect(await answer(kept, { answer: "deliver_again", preferredDate: day, preferredSlot: "morning" })).toBe(200);
    expect(await answer(dropped, { answer: "cancel" })).toBe(200);
    expect(await rowOf(kept.id, "?view=handoff")).toMatchObject({ state: "decided", decision: "reattempt", rule: "Ask the shopper", answer: { kind: "deliver_again", preferredDate: day } });
    expect(await rowOf(dropped.id, "?view=handoff")).toMatchObject({ state: "decided", decision: "rto", rule: "Ask the shopper" });
    expect(await historyOf(kept.id)).toEqual([
      { transition: "opened", to: "open", by: "job:tracking-sync", reason: "Attempt 1" },
      { transition: "rule_waiting", to: "waiting", by: "rule:Ask the shopper", reason: "Rule 'Ask the shopper': wait for the shopper's answer, else Return to origin" },
      { transition: "shopper_answered", to: "answered", by: "shopper:Tracking link", reason: `Deliver again on ${day} (morning); corrected: -` },
      { transition: "rule_decided", to: "decided", by: "rule:Ask the shopper", reason: "Rule 'Ask the shopper': Re-attempt, as the shopper answered" },
    ]);
    // The wait's end finds nothing left to decide.
    const run = await runJobs(["failed-delivery-wait"], { deps: { now: () => new Date(Date.now() + 30 * HOUR) } });
    expect(run.failed).toEqual([]);
    expect((await historyOf(kept.id)).filter((step) => step.transition === "rule_decided")).toHaveLength(1);
  });

  it("decides by the rule's fallback when the time left runs out unanswered — not before", async () => {
    expect((await saveRules([{ name: "Ask, else deliver again", action: "wait", otherwise: "reattempt" }])).status).toBe(200);
    const shipment = await bookedShipment("prepaid");
    await courierMoves(shipment.awb!, 9);
    const { waitUntil } = await prisma.failedDelivery.findUniqueOrThrow({ where: { shipmentId: shipment.id } });

    // An hour before the time runs out, the job waits on (and comes again at the time).
    expect((await runJobs(["failed-delivery-wait"], { deps: { now: () => new Date(waitUntil!.getTime() - HOUR) } })).failed).toEqual([]);
    expect((await desk()).waiting.find((candidate) => candidate.shipmentId === shipment.id)).toMatchObject({ state: "waiting", decision: null });
    const again = await queuedJobs("failed-delivery-wait", store.domain);
    expect(again.find((job) => (job.data as { shipmentId: number }).shipmentId === shipment.id)?.startAfter).toEqual(waitUntil);

    expect((await runJobs(["failed-delivery-wait"], { deps: { now: () => new Date(waitUntil!.getTime() + 60_000) } })).failed).toEqual([]);
    expect(await rowOf(shipment.id, "?view=handoff")).toMatchObject({ state: "decided", decision: "reattempt", rule: "Ask, else deliver again", waitUntil: null });
    expect((await historyOf(shipment.id)).at(-1)).toEqual({ transition: "rule_decided", to: "decided", by: "rule:Ask, else deliver again", reason: "Rule 'Ask, else deliver again': Re-attempt, no answer in time" });
  });

  it("leaves an attempt no rule matches to the merchant, saying so; rules saved after an attempt arrived leave it alone", async () => {
    expect((await saveRules([{ name: "Refused", reasons: ["refused"], action: "rto" }])).status).toBe(200);
    const unmatched = await bookedShipment("cod");
    await courierMoves(unmatched.awb!, 9);
    expect(await rowOf(unmatched.id, "")).toMatchObject({ state: "open", decision: null, rule: null });
    expect(await historyOf(unmatched.id)).toEqual([
      { transition: "opened", to: "open", by: "job:tracking-sync", reason: "Attempt 1" },
      { transition: "rules_checked", to: null, by: "job:tracking-sync", reason: "No rule matched: the decision is yours" },
    ]);

    // An attempt read while the shop has no rules, then a rule that would match it, saved after it arrived: the parcel
    // stays the merchant's, however often it is read.
    expect((await saveRules([])).status).toBe(200);
    const before = await bookedShipment("cod");
    await courierMoves(before.awb!, 9);
    expect(await prisma.failedDelivery.count({ where: { shipmentId: before.id } })).toBe(0);
    expect((await saveRules([{ name: "Everything: return", action: "rto" }])).status).toBe(200);
    await trackingCycle();
    await trackingCycle();
    expect(await rowOf(before.id, "")).toMatchObject({ state: "open", decision: null });
    expect((await historyOf(before.id)).map((step) => step.transition)).not.toContain("rule_decided");
    // The next attempt arrives after the rules: they decide it.
    for (const to of [7, 9]) await courierMoves(before.awb!, to);
    expect(await rowOf(before.id)).toMatchObject({ attempts: 2, decision: "rto", rule: "Everything: return" });
  });
});
