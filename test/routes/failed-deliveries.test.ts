import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { enqueue } from "~/jobs/job-queue.server";
import { shipOrders } from "~/orders/ship-orders.server";
import { getConfig } from "~/config.server";
import { action as deskAction, loader as deskLoader } from "~/routes/app.failed-deliveries";
import { action as shopTrackAction } from "~/routes/proxy.track.$awb";
import { action as instructionsAction } from "~/routes/app.failed-deliveries.instructions";
import { countAwaitingDecision, listFailedDeliveries } from "~/failed-deliveries/desk.server";
import { action as trackAction, loader as trackLoader } from "~/routes/track.$awb";
import { trackingLinkTokenOf } from "~/shipping/tracking-url";
import { preferredDays } from "~/failed-deliveries/shopper-answer";
import { proxiedUrl } from "../../store/app-proxy";
import { courierClientFor, sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { resetJobs, runJobs } from "../support/jobs";
import { shopperOrder } from "../support/orders";
import { startStore } from "../support/store";
import { uniqueShop } from "../support/webhooks";
import { seedShop } from "../../store/seed";

/**
 * The failed-delivery desk through the real courier sandbox, the tracking sync and the local Shopify store: a parcel
 * the courier could not deliver is on the desk after one tracking cycle with the courier's reason, Shopify's
 * fulfillment has the ATTEMPTED_DELIVERY event with it, and the merchant decides per parcel and in bulk, each
 * decision with its history row; a parcel the courier moved on, or another shop's, is not decided.
 */
let courier: RunningCourierService;
let store: Awaited<ReturnType<typeof startStore>>;
const OTHER = uniqueShop("desk-other");
let placed = 0;
let clock = new Date();

beforeAll(async () => {
  await resetJobs();
  courier = await startAppCourierService({ appTrackingLinks: true });
  const domain = uniqueShop("desk");
  store = await startStore({ domain, shops: [seedShop(domain), seedShop(OTHER)], throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
  await store.install();
  await store.install(OTHER);
  await prisma.shipment.updateMany({ where: { shop: { notIn: [store.domain, OTHER] } }, data: { nextSyncAt: null } });
});
afterAll(async () => {
  await store.close();
  await courier.close();
});

const later = (hours: number) => (clock = new Date(clock.getTime() + hours * 3_600_000));

async function bookedShipment(shop = store.domain, index = 600 + ++placed) {
  const order = store.simulator.placeOrder(shop, shopperOrder(index));
  const [result] = await shipOrders(shop, await defaultJobDeps.adminFor(shop), [order.id], { policy: "recommended" });
  expect(result).toMatchObject({ outcome: "booked" });
  const shipment = await prisma.shipment.findUniqueOrThrow({ where: { shop_orderGid_parcel: { shop, orderGid: order.id, parcel: 1 } } });
  return { order: store.simulator.shop(shop).orders.find((candidate) => candidate.id === order.id)!, shipment };
}

/** The courier moves the parcel on, and one tracking cycle (the sweep and the shop's sync) reads it. */
async function courierMoves(shop: string, awb: string, to: number) {
  await courierClientFor(sandboxCredentialsFor(shop)).advanceSandboxShipment(awb, to, to === 9 ? "consignee_unavailable" : undefined);
  await enqueue("tracking-sweep", {});
  const run = await runJobs(["tracking-sweep", "tracking-sync"], { deps: { now: () => later(1) } });
  expect(run.failed).toEqual([]);
}

async function desk(query = "", shop = store.domain) {
  return (await deskLoader({ request: store.adminRequest(`/app/failed-deliveries${query}`, {}, shop), params: {}, context: {} })).json();
}

/** The desk's row of a shipment; the test fails where it is not listed. */
function rowOf(page: Awaited<ReturnType<typeof desk>>, shipmentId: number) {
  const row = page.rows.find((candidate) => candidate.shipmentId === shipmentId);
  if (!row) throw new Error(`shipment ${shipmentId} is not on the desk`);
  return row;
}

async function decide(shipmentIds: number[], decision: string, remarks = "") {
  const response = await deskAction({ request: store.adminRequest("/app/failed-deliveries", { method: "POST", body: new URLSearchParams({ intent: "decide", decision, remarks, shipmentIds: shipmentIds.join(",") }) }), params: {}, context: {} });
  return { status: response.status, body: await response.json() };
}

/** The shopper's tracking page, as their link opens it (`token`: the link's own unless given). */
async function trackingPage(awb: string, token: string | null, language = "en") {
  const query = new URLSearchParams({ lang: language, ...(token ? { token } : {}) });
  const response = await trackLoader({ request: new Request(`${getConfig().SHOPIFY_APP_URL}/track/${awb}?${query}`), params: { awb }, context: { clientAddress: "198.51.100.7" } });
  return { status: response.status, html: await response.text() };
}

/** The shopper sends the page's form. */
async function answer(awb: string, token: string | null, fields: Record<string, string>, language = "en") {
  const query = new URLSearchParams({ lang: language, ...(token ? { token } : {}) });
  const request = new Request(`${getConfig().SHOPIFY_APP_URL}/track/${awb}?${query}`, { method: "POST", body: new URLSearchParams(fields) });
  const response = await trackAction({ request, params: { awb }, context: { clientAddress: "198.51.100.7" } });
  return { status: response.status, html: await response.text() };
}

const tokenOf = (shipment: { trackingUrl: string | null }) => trackingLinkTokenOf(shipment.trackingUrl)!;
const today = () => preferredDays(new Date(), { closedWeekdays: [0], closedDates: [] });

/** A CSV line's fields: quoted ones may hold commas and doubled quotes. */
const csvLine = (line: string) => [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map(([, value]) => (value!.startsWith('"') ? value!.slice(1, -1).replace(/""/g, '"') : value!));

/** The day's NDR instructions as the desk's button downloads them: the CSV's rows by column. */
async function instructions() {
  const response = await instructionsAction({ request: store.adminRequest("/app/failed-deliveries/instructions", { method: "POST" }), params: {}, context: {} });
  expect(response.headers.get("content-type")).toContain("text/csv");
  const [header, ...lines] = (await response.text()).replace(/^\uFEFF/, "").trim().split("\r\n").map(csvLine);
  return lines.map((line) => Object.fromEntries(line.map((value, index) => [header![index]!, value])));
}

const historyOf = async (shipmentId: number) =>
  (await prisma.failedDeliveryEvent.findMany({ where: { failedDelivery: { shipmentId } }, orderBy: [{ at: "asc" }, { id: "asc" }] })).map((event) => ({ transition: event.transition, to: event.toState, by: event.actorKind, reason: event.reason }));

describe("the failed-delivery desk", () => {
  it("lists a parcel the courier could not deliver within one tracking cycle, with its reason, and Shopify's fulfillment has ATTEMPTED_DELIVERY with it", async () => {
    const { order, shipment } = await bookedShipment();
    await courierMoves(store.domain, shipment.awb!, 9);

    const page = await desk();
    const row = rowOf(page, shipment.id);
    expect(row).toMatchObject({
      name: order.name,
      awb: shipment.awb,
      attempts: 1,
      reason: "Delivery attempted: consignee not available",
      hoursSince: expect.any(Number),
      paymentMode: shipment.paymentMode,
      amountPaise: 79_900,
      pincode: expect.stringMatching(/^\d{6}$/),
      state: "open",
      answer: null,
      decision: null,
      awaitingAction: true,
    });
    // The courier usually returns it a day after the attempt; the desk counts down from the attempt's own time.
    expect(row.hoursLeft).toBe(24 - row.hoursSince!);
    expect(page.counts.decide).toBeGreaterThanOrEqual(1);

    const events = order.fulfillments[0]!.events;
    expect(events.at(-1)).toMatchObject({ status: "ATTEMPTED_DELIVERY", message: "Delivery attempted: consignee not available" });

    // Found by its awb, its order number and its PIN code; not by a PIN code it does not have.
    for (const query of [shipment.awb!, order.name.slice(1), row.pincode!]) expect((await desk(`?q=${encodeURIComponent(query)}`)).rows.map((found) => found.shipmentId)).toContain(shipment.id);
    expect((await desk("?q=000000")).rows).toEqual([]);
    expect((await desk(`?payment=${shipment.paymentMode === "cod" ? "prepaid" : "cod"}`)).rows.map((found) => found.shipmentId)).not.toContain(shipment.id);
  });

  it("takes the merchant's decision per parcel and in bulk, each with its history row, and refuses a parcel the courier moved on or another shop's", async () => {
    const first = await bookedShipment();
    const second = await bookedShipment();
    const moved = await bookedShipment();
    const theirs = await bookedShipment(OTHER, 900);
    for (const { shipment } of [first, second, moved]) await courierMoves(store.domain, shipment.awb!, 9);
    await courierMoves(OTHER, theirs.shipment.awb!, 9);
    // The courier takes the third out again on its own before the merchant decides.
    await courierMoves(store.domain, moved.shipment.awb!, 7);

    expect(await decide([first.shipment.id], "call")).toMatchObject({ status: 200, body: { ok: true, notice: { id: "decided", decided: 1, refused: 0 } } });
    const bulk = await decide([first.shipment.id, second.shipment.id, moved.shipment.id, theirs.shipment.id], "reattempt", "Shopper asked for the evening");
    expect(bulk).toMatchObject({ status: 200, body: { notice: { id: "decided", decided: 2, refused: 2 } } });

    expect(await prisma.failedDelivery.findMany({ where: { shipmentId: { in: [first.shipment.id, second.shipment.id, moved.shipment.id, theirs.shipment.id] } }, orderBy: { shipmentId: "asc" } })).toEqual([
      expect.objectContaining({ shipmentId: first.shipment.id, state: "decided", decision: "reattempt", remarks: "Shopper asked for the evening", attempt: 1 }),
      expect.objectContaining({ shipmentId: second.shipment.id, state: "decided", decision: "reattempt" }),
    ]);
    expect(await historyOf(first.shipment.id)).toEqual([
      { transition: "opened", to: "open", by: "merchant", reason: "Attempt 1" },
      { transition: "decided", to: "decided", by: "merchant", reason: "Call the shopper" },
      { transition: "decided", to: "decided", by: "merchant", reason: "Re-attempt" },
    ]);

    const page = await desk("?view=handoff");
    expect(page.rows.map((row) => row.shipmentId)).toEqual(expect.arrayContaining([first.shipment.id, second.shipment.id]));
    // The other shop's desk has its own parcel, undecided.
    expect((await desk("", OTHER)).rows).toEqual([expect.objectContaining({ shipmentId: theirs.shipment.id, state: "open", decision: null })]);
    // The parcel out again is on the desk's full list, with the courier re-attempting, and cannot be decided.
    expect(rowOf(await desk("?view=all"), moved.shipment.id)).toMatchObject({ awaitingAction: false, hoursLeft: null });
  });

  it("opens a parcel again when the courier's next attempt fails too: the last attempt's decision is cleared", async () => {
    const { shipment } = await bookedShipment();
    await courierMoves(store.domain, shipment.awb!, 9);
    expect((await decide([shipment.id], "reattempt")).body.notice).toMatchObject({ decided: 1 });
    for (const to of [7, 9]) await courierMoves(store.domain, shipment.awb!, to);
    const row = rowOf(await desk(), shipment.id);
    expect(row).toMatchObject({ attempts: 2, state: "open", decision: null });
    expect((await decide([shipment.id], "rto")).body.notice).toMatchObject({ decided: 1 });
    expect((await historyOf(shipment.id)).map((step) => [step.transition, step.reason])).toEqual([
      ["opened", "Attempt 1"],
      ["decided", "Re-attempt"],
      ["reopened", "Attempt 2"],
      ["decided", "Return to origin"],
    ]);
  });

  it("refuses what it cannot take, saying what to fix", async () => {
    const { shipment } = await bookedShipment();
    await courierMoves(store.domain, shipment.awb!, 9);
    expect(await decide([shipment.id], "burn")).toMatchObject({ status: 422, body: { ok: false, notice: { id: "unknownDecision" } } });
    expect(await decide([], "reattempt")).toMatchObject({ status: 422, body: { notice: { id: "chooseParcels" } } });
    expect(await decide([shipment.id], "reattempt", "x".repeat(201))).toMatchObject({ status: 422, body: { notice: { id: "remarksTooLong" } } });
    expect(await decide([shipment.id], "reattempt", "line\nbreak")).toMatchObject({ status: 422, body: { notice: { id: "remarksTooLong" } } });
    const hours = async (value: string) => (await deskAction({ request: store.adminRequest("/app/failed-deliveries", { method: "POST", body: new URLSearchParams({ intent: "settings", returnAfterHours: value }) }), params: {}, context: {} })).status;
    expect(await hours("0")).toBe(422);
    expect(await hours("1e3")).toBe(422);
    expect(await hours("48")).toBe(200);
    const row = rowOf(await desk(), shipment.id);
    expect(row.hoursLeft).toBe(48 - row.hoursSince!);
    expect(await prisma.failedDelivery.count({ where: { shipmentId: shipment.id } })).toBe(0);
  });

  it("takes the shopper's answer through the parcel's own tracking link — a day, a time and a corrected landmark — and the desk shows it; a forged or missing token answers nothing", async () => {
    const { shipment } = await bookedShipment();
    await courierMoves(store.domain, shipment.awb!, 9);
    const token = tokenOf(shipment);

    // The page offers the form to the link's holder, in English and in Hindi, with the next days but the shop's closed Sunday.
    const page = await trackingPage(shipment.awb!, token);
    expect(page.status).toBe(200);
    expect(page.html).toContain("The courier could not deliver: tell us what to do");
    const days = today();
    expect(days.length).toBeGreaterThanOrEqual(5);
    for (const day of days) expect(page.html).toContain(`value="${day}"`);
    expect((await trackingPage(shipment.awb!, token, "hi")).html).toContain("कूरियर डिलीवर नहीं कर सका: बताइए क्या करें");
    // Without the link's token, or with another, no form, and an answer is refused.
    expect((await trackingPage(shipment.awb!, null)).html).not.toContain('name="preferredDate"');
    const fields = { answer: "deliver_again", preferredDate: days[1]!, preferredSlot: "evening", landmark: "Opposite the Hanuman temple", alternatePhone: "+91 99001 12345" };
    expect((await answer(shipment.awb!, null, fields)).status).toBe(403);
    expect((await answer(shipment.awb!, "AAAAAAAAAAAAAAAAAAAAAA", fields)).status).toBe(403);
    expect((await answer(shipment.awb!, `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`, fields)).status).toBe(403);
    expect(await prisma.failedDelivery.count({ where: { shipmentId: shipment.id } })).toBe(0);

    // Fields it cannot take are named, and nothing is kept.
    const refused = await answer(shipment.awb!, token, { ...fields, preferredDate: "2020-01-01", phone: "12345", landmark: "line\nbreak" });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain("Choose one of the days offered.");
    expect(refused.html).toContain("Enter the phone number as a 10-digit mobile number.");
    expect(refused.html).toContain("Keep the landmark to one line of at most 100 characters.");
    expect(await prisma.failedDelivery.count({ where: { shipmentId: shipment.id } })).toBe(0);

    const sent = await answer(shipment.awb!, token, fields, "hi");
    expect(sent.status).toBe(200);
    expect(sent.html).toContain("धन्यवाद: विक्रेता को आपका जवाब मिल गया है।");
    // The page says the answer's kind and day back, never the number or the landmark sent.
    expect(sent.html).not.toContain("Hanuman");
    expect(sent.html).not.toContain("99001");

    const row = rowOf(await desk(), shipment.id);
    expect(row).toMatchObject({ state: "answered", answer: { kind: "deliver_again", preferredDate: days[1], preferredSlot: "evening", landmark: "Opposite the Hanuman temple", alternatePhone: "9900112345", phone: null, language: "hi" } });
    expect(await historyOf(shipment.id)).toEqual([
      { transition: "opened", to: "open", by: "shopper", reason: "Attempt 1" },
      { transition: "shopper_answered", to: "answered", by: "shopper", reason: `Deliver again on ${days[1]} (evening); corrected: phone, landmark` },
    ]);
  });

  it("refuses a body that is not the page's form — JSON, plain text, none, a broken multipart, one too large — with a 415 or 413, never a 500, on both addresses, and records nothing", async () => {
    const { shipment } = await bookedShipment();
    await courierMoves(store.domain, shipment.awb!, 9);
    const url = `${getConfig().SHOPIFY_APP_URL}/track/${shipment.awb}?token=${tokenOf(shipment)}`;
    const proxied = `${proxiedUrl({ proxyUrl: `${getConfig().SHOPIFY_APP_URL}/proxy`, apiSecret: getConfig().SHOPIFY_API_SECRET, shop: store.domain, pathPrefix: "/apps/dakiya", pathAndQuery: `/track/${shipment.awb}?token=${tokenOf(shipment)}` })}`;
    const bodies: [RequestInit, number][] = [
      [{ headers: { "Content-Type": "application/json" }, body: JSON.stringify({ answer: "deliver_again" }) }, 415],
      [{ headers: { "Content-Type": "text/plain" }, body: "answer=deliver_again" }, 415],
      [{}, 415],
      [{ headers: { "Content-Type": "multipart/form-data; boundary=none" }, body: "--x--" }, 415],
      [{ headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: `landmark=${"a".repeat(20_000)}` }, 413],
    ];
    for (const [init, status] of bodies) {
      const direct = await trackAction({ request: new Request(url, { method: "POST", ...init }), params: { awb: shipment.awb! }, context: { clientAddress: "198.51.100.7" } });
      expect(direct.status, JSON.stringify(init.headers)).toBe(status);
      expect(await direct.text()).toMatch(/form/);
      const viaShop = await shopTrackAction({ request: new Request(proxied, { method: "POST", ...init }), params: { awb: shipment.awb! }, context: {} });
      expect(viaShop.status, JSON.stringify(init.headers)).toBe(status);
    }
    expect((await prisma.failedDelivery.findUnique({ where: { shipmentId: shipment.id } }))?.answerCount ?? 0).toBe(0);
  });

  it("limits the answers of one attempt, and takes them on the shop's own domain through the app proxy", async () => {
    const { shipment } = await bookedShipment();
    await courierMoves(store.domain, shipment.awb!, 9);
    const token = tokenOf(shipment);
    const day = today()[0]!;
    const proxied = (query: string, body: Record<string, string>, secret = getConfig().SHOPIFY_API_SECRET) =>
      new Request(proxiedUrl({ proxyUrl: `${getConfig().SHOPIFY_APP_URL}/proxy`, apiSecret: secret, shop: store.domain, pathPrefix: "/apps/dakiya", pathAndQuery: `/track/${shipment.awb}?${query}` }), { method: "POST", body: new URLSearchParams(body) });
    const viaShop = async (request: Request) => {
      try {
        return await shopTrackAction({ request, params: { awb: shipment.awb! }, context: {} });
      } catch (thrown) {
        if (thrown instanceof Response) return thrown;
        throw thrown;
      }
    };

    const first = await viaShop(proxied(`token=${token}`, { answer: "deliver_again", preferredDate: day, preferredSlot: "morning", landmark: "Near the water tank" }));
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toContain("application/liquid");
    expect(await first.text()).toContain("Thank you: the seller has your answer.");
    // A request Shopify did not sign, or without the link's token, answers nothing.
    expect((await viaShop(proxied(`token=${token}`, { answer: "cancel" }, "forged"))).status).toBe(400);
    expect((await viaShop(proxied("", { answer: "cancel" }))).status).toBe(403);

    expect((await answer(shipment.awb!, token, { answer: "deliver_again", preferredDate: day, preferredSlot: "afternoon" })).status).toBe(200);
    expect((await answer(shipment.awb!, token, { answer: "cancel" })).status).toBe(200);
    const fourth = await answer(shipment.awb!, token, { answer: "deliver_again", preferredDate: day, preferredSlot: "evening" });
    expect(fourth.status).toBe(409);
    expect(fourth.html).toContain("This parcel has had its answers for this attempt.");
    expect(await prisma.failedDelivery.findUniqueOrThrow({ where: { shipmentId: shipment.id } })).toMatchObject({ answer: "cancel", answerCount: 3, landmark: null });
  });

  it("puts the merchant's re-attempt into the day's NDR instructions with the shopper's day and landmark, hands each off once, and follows what the courier did", async () => {
    const { order, shipment } = await bookedShipment();
    const sentBack = await bookedShipment();
    await courierMoves(store.domain, shipment.awb!, 9);
    await courierMoves(store.domain, sentBack.shipment.awb!, 9);
    const day = today()[1]!;
    expect((await answer(shipment.awb!, tokenOf(shipment), { answer: "deliver_again", preferredDate: day, preferredSlot: "afternoon", landmark: "Behind the Shiv mandir, blue gate", phone: "9811122233" })).status).toBe(200);
    expect((await decide([shipment.id], "reattempt", "Call before coming")).body.notice).toMatchObject({ decided: 1 });
    expect((await decide([sentBack.shipment.id], "rto")).body.notice).toMatchObject({ decided: 1 });

    const rows = await instructions();
    expect(rows.find((row) => row.AWB === shipment.awb)).toEqual({
      AWB: shipment.awb,
      Order: order.name,
      Courier: shipment.courierName,
      Action: "RE-ATTEMPT",
      "Preferred date": day,
      Window: "13:00-17:00",
      Phone: "9811122233",
      "Alternate phone": "",
      "Address line": "",
      Landmark: "Behind the Shiv mandir, blue gate",
      Remarks: "Call before coming",
    });
    expect(rows.find((row) => row.AWB === sentBack.shipment.awb)).toMatchObject({ Action: "RTO", "Preferred date": "", Landmark: "" });
    // Handed off once: the next download has neither; the shopper's form says the seller passed the answer on.
    expect((await instructions()).map((row) => row.AWB)).not.toContain(shipment.awb);
    const late = await answer(shipment.awb!, tokenOf(shipment), { answer: "cancel" });
    expect(late.status).toBe(409);
    expect(late.html).toContain("The seller has passed your answer to the courier.");
    expect(rowOf(await desk("?view=handed_off"), shipment.id)).toMatchObject({ state: "handed_off", handedOffAt: expect.any(String), courierAction: "none", raisedAgain: false });
    expect((await historyOf(shipment.id)).at(-1)).toMatchObject({ transition: "handed_off", to: "handed_off", by: "merchant", reason: "In the NDR instructions downloaded" });

    // A day on with no courier action, the decision is raised again.
    const dayLater = await listFailedDeliveries(store.domain, { view: "handed_off", search: null, payment: null }, new Date(Date.now() + 25 * 3_600_000));
    expect(dayLater.rows.find((row) => row.shipmentId === shipment.id)).toMatchObject({ raisedAgain: true });

    // The courier's next tracking entry says it acted: out again, then delivered (off the desk).
    await courierMoves(store.domain, shipment.awb!, 7);
    expect(rowOf(await desk("?view=all"), shipment.id)).toMatchObject({ courierAction: "reattempting", awaitingAction: false });
    await courierMoves(store.domain, sentBack.shipment.awb!, 11);
    await courierMoves(store.domain, shipment.awb!, 8);
    const all = await desk("?view=all");
    expect(all.rows.map((row) => row.shipmentId)).not.toContain(shipment.id);
    expect(all.rows.map((row) => row.shipmentId)).not.toContain(sentBack.shipment.id);
  });
});

describe("a busy shop's desk", () => {
  it("lists every parcel in a failed attempt first, however many once-failed parcels are out again or handed off, and counts it on Home", async () => {
    // A shop whose earlier failed attempts, 320 parcels, were re-attempted and are out for delivery again; then one
    // new failed attempt. (Seeded as rows: the desk reads them as it reads any parcel.)
    const shop = uniqueShop("busy-desk");
    const parcel = (index: number, outcome: string) => ({ shop, orderGid: `gid://shopify/Order/${90_000 + index}`, orderName: `#${90_000 + index}`, awb: `BUSY${shop.length}${index}`, status: "fulfilled", direction: "forward", requestPayload: "{}", courierEnvironment: "test", paymentMode: "cod", outcome, deliveryAttempts: 1 });
    await prisma.shipment.createMany({ data: Array.from({ length: 320 }, (_, index) => parcel(index, "out_for_delivery")) });
    const fresh = await prisma.shipment.create({ data: parcel(999, "delivery_attempted") });
    await prisma.trackingEvent.create({ data: { shop, shipmentId: fresh.id, fingerprint: `busy-${fresh.id}`, code: 9, label: "Undelivered", activity: "Consignee not available", happenedAt: new Date() } });

    const desk = await listFailedDeliveries(shop, { view: "decide", search: null, payment: null });
    expect(desk.rows.map((row) => row.shipmentId)).toEqual([fresh.id]);
    expect(desk.counts.decide).toBe(1);
    expect(await countAwaitingDecision(shop)).toBe(1);
    // The re-attempted ones still fill the rest of the list, newest first.
    const all = await listFailedDeliveries(shop, { view: "all", search: null, payment: null });
    expect(all.rows).toHaveLength(300);
    expect(all.rows.map((row) => row.shipmentId)).toContain(fresh.id);
  });
});
