import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import prisma from "../app/db.server";
import { EXAMPLE_RULES } from "../app/automation/rules";
import { draftOf } from "../app/automation/rules-form";
import type { ProblemCode } from "../app/shopify/order-mapping";
import type { CourierClient } from "../app/shipping/client.server";
import { DECISION, READINESS } from "../app/orders/readiness";
import type { DocumentActionAnswer, DocumentReady } from "../app/documents/shipments-page.server";
import { adminStrings, plural } from "../app/locales/admin-language";
import { isServiceStatusCode, pathBetween, SERVICE_STATUS, type ServiceStatusCode, type UndeliveredReason } from "../app/shipping/status";
import { SHIPMENT_OUTCOME } from "../app/shipments/lifecycle";
import { preferredDays } from "../app/failed-deliveries/shopper-answer";
import { getStorefrontSettings } from "../app/storefront/storefront-settings.server";
import { signSessionToken, type AppCredentials } from "./auth";
import { CORRECTED_ADDRESS, JOURNEY_ORDERS, NOT_SEEN, parcelsAsOne, PLACED_ORDERS, plannedHops, RETURNED_ORDER, progressOf, SAVING_ANSWER, tally, trackingHops, type OrderObservation, type PlannedOrder, type ShopperAnswer } from "./journey-plan";
import { NOT_CHECKED, progressLine, renderTable, rowLine, rowOf, type Row } from "./journey-table";
import type { StoreOrder } from "./model";
import { fulfillmentLines, returnsOf } from "./returns";
import { turnOnDemoWorkflows } from "./flow";
import { assessAsShopify } from "./order-payments";
import type { StoreSimulator } from "./simulator";

/**
 * The merchant's day that `npm run demo` plays on embedded defaults, through the product's own paths only: Dakiya
 * is installed by the admin's first request (token exchange), the example rules are saved through the Auto-booking
 * screen's action, the seed's orders reach the app as signed orders/create webhooks and a shopper places one more,
 * the app's job workers check and book them, the courier sandbox is moved on over HTTP through the app's courier
 * client, and the app's tracking sync carries each stage to Shopify. The journey only watches the app's records
 * (OrderRecord, Shipment) to draw its table; it never writes them.
 *
 * Every step first looks at what is already done, so a second run on the same data continues where the first
 * stopped (or was killed): orders are placed once, webhooks carry stable ids the app has already claimed, bookings
 * are the app's exactly-once ones, and a shipment already at or past a stage is not moved again.
 */

export interface JourneyDeps {
  appUrl: string;
  app: AppCredentials;
  simulator: StoreSimulator;
  shop: string;
  /** The shop's sandbox account, through the app's courier client. */
  courier: Pick<CourierClient, "trackOrder" | "advanceSandboxShipment" | "reattemptSandboxShipment" | "sandboxFreightInvoice">;
  /** What the app recorded of these orders, by order GID. */
  observe: (orderGids: string[]) => Promise<Map<string, OrderObservation>>;
  /** Runs the tracking sweep now rather than at its next minute (the app's own scheduled job). */
  requestTrackingSweep: () => Promise<void>;
  view: JourneyView;
  /** How long each step may wait for the app before the journey says so and goes on. */
  stepTimeoutMs?: number;
  /** Where the day's labels and pickup manifests are written as PDF files; without it the day prints nothing. */
  documentsDir?: string;
}

export interface JourneyOutcome {
  done: number;
  offCourse: number;
  total: number;
  /** Planned orders that are neither at their end nor off course when the journey gave up waiting. */
  unfinished: string[];
  /** The files the day wrote: the day's NDR instructions for the courier, then its labels and each pickup's manifest (PDF). */
  documents: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The app refused a step of the day; the message says which and how, and quotes nothing of a shopper. */
export class JourneyError extends Error {
  override name = "JourneyError";
}

/** What the app has recorded of the shop's orders: readiness, decision, shipment and every stage it has seen. */
export async function observeOrders(shop: string, orderGids: string[]): Promise<Map<string, OrderObservation>> {
  const [records, shipments] = await Promise.all([
    prisma.orderRecord.findMany({ where: { shop, orderGid: { in: orderGids } }, select: { orderGid: true, readiness: true, problems: true, decision: true, decisionReason: true } }),
    prisma.shipment.findMany({
      where: { shop, orderGid: { in: orderGids } },
      orderBy: { parcel: "asc" },
      select: { orderGid: true, status: true, awb: true, courierName: true, trackingUrl: true, trackingEvents: { select: { code: true }, orderBy: [{ happenedAt: "asc" }, { id: "asc" }] } },
    }),
  ]);
  const seen = new Map<string, OrderObservation>();
  for (const record of records) {
    const problems = Array.isArray(record.problems) ? (record.problems as { code: ProblemCode }[]).map((problem) => problem.code) : [];
    seen.set(record.orderGid, { readiness: record.readiness, problems, decision: record.decision, decisionReason: record.decisionReason, shipment: null, parcels: [] });
  }
  for (const { orderGid, trackingEvents, ...shipment } of shipments) {
    const observation = seen.get(orderGid) ?? { ...NOT_SEEN };
    const stages = trackingEvents.map((event) => event.code);
    const parcels = [...observation.parcels, { ...shipment, latestStage: stages.at(-1) ?? null, stagesSeen: [...new Set(stages)] }];
    seen.set(orderGid, { ...observation, parcels, shipment: parcelsAsOne(parcels) });
  }
  return seen;
}

export async function playJourney(deps: JourneyDeps): Promise<JourneyOutcome> {
  const { simulator, shop, view } = deps;
  const stepTimeoutMs = deps.stepTimeoutMs ?? 90_000;
  const orderIn = (name: string) => simulator.shop(shop).orders.find((order) => order.name === name) ?? null;
  let latest = new Map<string, OrderObservation>();

  const seenOf = (planned: PlannedOrder): OrderObservation => {
    const order = orderIn(planned.name);
    return (order && latest.get(order.id)) ?? NOT_SEEN;
  };
  const refresh = async (): Promise<Row[]> => {
    const gids = JOURNEY_ORDERS.map((planned) => orderIn(planned.name)?.id).filter((gid): gid is string => Boolean(gid));
    latest = await deps.observe(gids);
    const rows = JOURNEY_ORDERS.map((planned) => rowOf(planned, seenOf(planned)));
    view.update(rows);
    return rows;
  };
  /** Waits (drawing the table) until every planned order passes `isThere`; false, with the laggards said, on timeout. */
  const until = async (what: string, isThere: (planned: PlannedOrder, seen: OrderObservation) => boolean): Promise<boolean> => {
    const deadline = Date.now() + stepTimeoutMs;
    for (;;) {
      await refresh();
      const lagging = JOURNEY_ORDERS.filter((planned) => !isThere(planned, seenOf(planned)));
      if (lagging.length === 0) return true;
      if (Date.now() > deadline) {
        view.log(`✗ Gave up waiting after ${Math.round(stepTimeoutMs / 1000)} s for ${what}: ${lagging.map((planned) => planned.name).join(", ")}`);
        return false;
      }
      await sleep(400);
    }
  };
  const settled = (planned: PlannedOrder, seen: OrderObservation) => {
    const progress = progressOf(planned.expected, seen);
    return progress === "done" || progress === "off-course";
  };

  // 1. Install: the admin opens the app with a session token; the app exchanges it for an offline token and, on a
  // new install, starts reading the shop's recent orders in the background.
  await refresh();
  const installedBefore = latest.size > 0;
  await installApp(deps);
  view.log(
    installedBefore
      ? `✓ Dakiya opens in ${shop}'s admin: it was installed on an earlier run`
      : `✓ Dakiya is installed in ${shop} (token exchange); it reads the shop's recent orders in the background`,
  );

  // 2. Each Shopify location picks up from its own warehouse (Settings), and the example rules are switched on through
  // the Auto-booking screen (unless the merchant has done either already); then Shopify Flow workflows on Dakiya's
  // triggers (store/flow.ts), which the app fires for the day's parcels.
  view.log(await pickUpFromEachLocation(deps));
  view.log(await switchOnExampleRules(deps));
  view.log(await turnOnDemoWorkflows(deps.simulator, shop));

  // 3. The orders arrive as Shopify sends them: the seed's, and (on a run stopped after a shopper's checkout but before
  // its webhook went) a placed order the app has not heard of. Then a shopper checks out.
  await refresh();
  const unheard = JOURNEY_ORDERS.filter((planned) => {
    const seen = seenOf(planned);
    return orderIn(planned.name) !== null && seen.decision === null && seen.shipment === null && seen.readiness !== READINESS.CANCELLED;
  });
  const delivered = await Promise.all(
    unheard.map(async (planned, index) => {
      // Spread out a little, as orders come in over a day; each carries a webhook id of its own, stable across runs.
      await sleep(index * 60);
      const order = orderIn(planned.name)!;
      const report = await simulator.deliver("orders/create", shop, { orderId: order.id, webhookId: `dakiya-demo-orders-create-${order.legacyResourceId}`, retryDelaysMs: [1_000, 5_000] });
      return report.delivered;
    }),
  );
  const refused = delivered.filter((ok) => !ok).length;
  view.log(
    unheard.length === 0
      ? "✓ The orders' orders/create webhooks were delivered on an earlier run"
      : `${refused === 0 ? "✓" : "✗"} ${unheard.length - refused} of ${unheard.length} orders/create webhooks delivered, signed as Shopify signs them`,
  );
  for (const placed of PLACED_ORDERS) {
    if (orderIn(placed.name)) continue;
    const order = simulator.placeOrder(shop, placed.input);
    // Shopify's fraud analysis is on the order before the app first reads it.
    if ("shopifyAssessment" in placed) assessAsShopify(order, placed.shopifyAssessment.riskLevel, [...placed.shopifyAssessment.facts], new Date());
    view.log(`✓ A shopper placed ${placed.name}: the store sends its orders/create webhook`);
  }

  // 4. The app's workers check each order and the rules book what they may (or hold it, ask its shopper to confirm
  // it, or leave it to be fixed). The shoppers asked answer on their links; the rules then decide those orders again.
  const decidedOrAsked = (planned: PlannedOrder, seen: OrderObservation) => {
    const progress = progressOf(planned.expected, seen);
    return (progress !== "waiting" && progress !== "booking") || (planned.shopperAnswers !== undefined && seen.decision === DECISION.CONFIRMING);
  };
  await until("the rules to decide and the bookings to be fulfilled", decidedOrAsked);
  for (const planned of JOURNEY_ORDERS) {
    const order = orderIn(planned.name);
    const seen = seenOf(planned);
    if (!planned.shopperAnswers || !order || seen.decision !== DECISION.CONFIRMING || seen.readiness === READINESS.CANCELLED) continue;
    view.log(await shopperAnswers(deps, order.id, planned.name, planned.shopperAnswers, stepTimeoutMs));
  }
  const decided = await until("the rules to decide and the bookings to be fulfilled", (planned, seen) => {
    const progress = progressOf(planned.expected, seen);
    return progress !== "waiting" && progress !== "booking";
  });
  if (decided) view.log("✓ The rules decided every order; each booking has its awb and its Shopify fulfillment");

  // 5. The courier's side: each booked shipment moves on, a stage a round, and the app's tracking sync follows.
  for (let round = 0; round < 3; round += 1) {
    const moved: PlannedOrder[] = [];
    for (const planned of JOURNEY_ORDERS) {
      const seen = seenOf(planned);
      if (planned.expected.kind !== "booked" || !seen.shipment?.awb || progressOf(planned.expected, seen) !== "shipped") continue;
      const hop = plannedHops(planned, planned.expected.finalStage)[round]!;
      // Every parcel of the order goes the same way.
      let movedOne = false;
      for (const parcel of seen.parcels) if (parcel.awb && (await moveShipment(deps, parcel.awb, hop, planned.expected.finalStage, planned.attemptFails))) movedOne = true;
      if (movedOne) moved.push(planned);
    }
    if (moved.length === 0) continue;
    view.log(`✓ The courier sandbox moved ${moved.length} shipment${moved.length === 1 ? "" : "s"} on (round ${round + 1} of 3); the app's tracking sync follows`);
    await deps.requestTrackingSweep();
    await until("the app's tracking to catch up", (planned, seen) => {
      if (planned.expected.kind !== "booked" || !moved.includes(planned)) return true;
      const hops = plannedHops(planned, planned.expected.finalStage);
      return seen.parcels.every((parcel) => parcel.stagesSeen.some((code) => hops.indexOf(code as ServiceStatusCode) >= round));
    });
  }
  // 5b. The failed-delivery desk: #1017's shopper adds the landmark the courier lacked on their tracking link and the
  // merchant re-attempts; #1002, refused at the door, goes back. The day's NDR instructions carry both to the courier,
  // and the courier acts on them.
  const ndrInstructions = await playFailedDeliveries(deps, (planned) => orderIn(planned.name)?.id ?? null, stepTimeoutMs);
  await until("every order to reach its end", settled);

  // 6. A shopper sends something back: the return rules book the pickup, the courier brings it to the warehouse.
  await playReturn(deps, orderIn(RETURNED_ORDER), stepTimeoutMs);

  // 7. The day ends at the packing table: the labels not printed yet, then a manifest for each pickup.
  const documents = [...(ndrInstructions ? [ndrInstructions] : []), ...(deps.documentsDir ? await printTheDay(deps, deps.documentsDir) : [])];

  // 8. The courier's freight invoice for the day's parcels, as its panel gives it, imported on Freight & weight: two
  // parcels re-weighed heavier are charged above their quotes. (The cash collected is for the merchant to reconcile
  // on COD remittance, with the sandbox's sample statement.)
  view.log(await importTheInvoice(deps));

  const rows = await refresh();
  view.finish(rows);
  const counts = tally(rows.map((row) => row.progress));
  return { ...counts, unfinished: rows.filter((row) => row.progress !== "done" && row.progress !== "off-course").map((row) => row.order), documents };
}

/**
 * The return of one delivered item, through the product's paths: a return rule booking colour and size swaps with the
 * cheapest courier, saved on the Returns view, the shopper's request and the merchant's approval in Shopify (each sends its returns/* webhook),
 * the pickup the app books and attaches to the return as a reverse delivery, and the courier bringing the parcel to
 * the warehouse while the app's tracking sync follows. Each step looks at what is already done first.
 */
async function playReturn(deps: JourneyDeps, order: StoreOrder | null, stepTimeoutMs: number): Promise<void> {
  const { simulator, shop, view, appUrl, app } = deps;
  if (!order) return;
  const address = `${appUrl}/app/orders/returns?_data=${encodeURIComponent("routes/app.orders.returns")}`;
  const headers = () => ({ Authorization: `Bearer ${signSessionToken(app, shop)}`, "User-Agent": USER_AGENT });
  const current = await fetch(address, { headers: headers() });
  if (!current.ok) throw new JourneyError(`The Returns view answered ${current.status}`);
  const { settings } = (await current.json()) as { settings: { rules: unknown[] } };
  if (settings.rules.length === 0) {
    const rule = { name: "Colour and size swaps", reasons: "color, size", minValueRupees: "", maxValueRupees: "5000", pincodePrefixes: "", tags: "", action: "cheapest", courierId: "" };
    const saved = await fetch(address, {
      method: "POST",
      headers: headers(),
      body: new URLSearchParams({ intent: "settings", returnRule: "hold", returnDisposition: "inspect", returnNotifyCustomer: "on", returnRules: JSON.stringify([rule]) }),
    });
    if (!saved.ok) throw new JourneyError(`Saving the return rules answered ${saved.status}`);
    view.log("✓ Return rule on the Returns view: colour and size swaps up to ₹5,000 book the cheapest courier; any other return waits for you");
  }
  let ret = returnsOf(order).find((candidate) => candidate.status !== "CANCELED" && candidate.status !== "DECLINED");
  if (!ret) {
    const line = fulfillmentLines(order)[0];
    if (!line) return void view.log(`✗ ${order.name} has nothing delivered to return`);
    simulator.returnAction(shop, "returnRequest", { input: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: line.id, quantity: 1, returnReason: "COLOR", customerNote: "The colour is not as pictured" }] } });
    ret = returnsOf(order).at(-1)!;
    view.log(`✓ A shopper asked to return an item of ${order.name}: the store sends returns/request`);
  }
  if (ret.status === "REQUESTED") {
    simulator.returnAction(shop, "returnApproveRequest", { input: { id: ret.id } });
    view.log(`✓ The merchant approved ${ret.name} in Shopify: the store sends returns/approve`);
  }
  const returnGid = ret.id;
  const waitFor = async <T>(what: string, look: () => Promise<T | null>): Promise<T | null> => {
    const deadline = Date.now() + stepTimeoutMs;
    for (;;) {
      const found = await look();
      if (found) return found;
      if (Date.now() > deadline) {
        view.log(`✗ Gave up waiting after ${Math.round(stepTimeoutMs / 1000)} s for ${what}`);
        return null;
      }
      await sleep(400);
    }
  };
  const pickup = await waitFor("the return's pickup", () => prisma.shipment.findFirst({ where: { shop, orderGid: returnGid, status: { in: ["return_in_transit", "cancelled"] }, awb: { not: null } } }));
  if (!pickup?.awb) return;
  const delivery = ret.reverseFulfillmentOrders.flatMap((rfo) => rfo.deliveries).find((candidate) => candidate.tracking?.number === pickup.awb);
  view.log(`${delivery ? "✓" : "✗"} The return rules booked ${ret.name}'s pickup with ${pickup.courierName}: awb ${pickup.awb} on Shopify's reverse delivery`);
  for (const hop of trackingHops(SERVICE_STATUS.DELIVERED)) await moveShipment(deps, pickup.awb, hop, SERVICE_STATUS.DELIVERED);
  await deps.requestTrackingSweep();
  const back = await waitFor("the return to reach the warehouse", () => prisma.returnRecord.findFirst({ where: { shop, returnGid, receivedAt: { not: null } } }));
  if (back) view.log(`✓ ${ret.name} is back at the warehouse: Needs attention says "Return received: inspect it"`);
}

/**
 * The day's failed deliveries on the desk, through the product's paths: the shopper's answer on the parcel's tracking
 * link (the form the page shows, as a phone's browser sends it), the merchant's decision on the failed-delivery desk
 * (its action, as the embedded page calls it), the day's NDR instructions downloaded from the desk (written to the
 * documents folder: they carry the shopper's landmark, the terminal does not), and the courier acting on them in the
 * sandbox. Each step looks at what is already done first. Returns the instructions' file, if one was written.
 */
async function playFailedDeliveries(deps: JourneyDeps, orderGidOf: (planned: PlannedOrder) => string | null, stepTimeoutMs: number): Promise<string | null> {
  const { appUrl, app, shop, view, courier } = deps;
  const planned = JOURNEY_ORDERS.filter((each) => each.afterTheAttempt);
  const parcelOf = (orderGid: string) =>
    prisma.shipment.findFirst({ where: { shop, orderGid, direction: "forward", parcel: 1 }, select: { id: true, awb: true, trackingUrl: true, outcome: true, deliveryAttempts: true, failedDelivery: { select: { state: true, answer: true, attempt: true } } } });
  const headers = () => ({ Authorization: `Bearer ${signSessionToken(app, shop)}`, "User-Agent": USER_AGENT });
  const attempted: { planned: PlannedOrder; awb: string; attempt: number }[] = [];
  for (const each of planned) {
    const orderGid = orderGidOf(each);
    if (!orderGid) continue;
    // The tracking sync writes the parcel's outcome a moment after its entries.
    const deadline = Date.now() + stepTimeoutMs;
    let parcel = await parcelOf(orderGid);
    while (parcel && parcel.outcome !== SHIPMENT_OUTCOME.DELIVERY_ATTEMPTED && parcel.deliveryAttempts === 0 && Date.now() < deadline) {
      await sleep(300);
      parcel = await parcelOf(orderGid);
    }
    if (!parcel?.awb || !parcel.trackingUrl) continue;
    if (parcel.outcome !== SHIPMENT_OUTCOME.DELIVERY_ATTEMPTED) {
      view.log(`✓ ${each.name}'s failed delivery was dealt with on an earlier run`);
      continue;
    }
    const desk = parcel.failedDelivery?.attempt === parcel.deliveryAttempts ? parcel.failedDelivery : null;
    if (each.afterTheAttempt === "saved_by_landmark" && !desk?.answer) {
      const link = new URL(parcel.trackingUrl);
      const [day] = preferredDays(new Date(), await getStorefrontSettings(shop));
      if (!day) throw new JourneyError(`${each.name}: the tracking page offers no day to deliver again`);
      const answered = await fetch(`${appUrl}${link.pathname}${link.search}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "User-Agent": USER_AGENT },
        body: new URLSearchParams({ answer: "deliver_again", preferredDate: day, ...SAVING_ANSWER }),
      });
      await answered.arrayBuffer();
      if (answered.status !== 200) throw new JourneyError(`${each.name}: the shopper's answer on their tracking link answered ${answered.status}`);
      view.log(`✓ ${each.name}'s courier could not find the address; its shopper chose a day and added a landmark on their tracking link`);
    }
    if (desk?.state !== "decided" && desk?.state !== "handed_off") {
      const decision = each.afterTheAttempt === "returned" ? "rto" : "reattempt";
      const decided = await fetch(`${appUrl}/app/failed-deliveries?_data=${encodeURIComponent("routes/app.failed-deliveries")}`, {
        method: "POST",
        headers: headers(),
        body: new URLSearchParams({ intent: "decide", locale: "en", decision, remarks: "", shipmentIds: String(parcel.id) }),
      });
      const answer = (await decided.json()) as { ok: boolean; message: string };
      if (!answer.ok) throw new JourneyError(`${each.name}: the failed-delivery desk refused the decision (${decided.status}): ${answer.message}`);
      view.log(decision === "rto" ? `✓ ${each.name} was refused at the door: the merchant returns it to origin on the failed-delivery desk` : `✓ The merchant re-attempts ${each.name} on the failed-delivery desk, with the shopper's day and landmark`);
    }
    attempted.push({ planned: each, awb: parcel.awb, attempt: parcel.deliveryAttempts });
  }
  if (attempted.length === 0) return null;

  const instructions = await fetch(`${appUrl}/app/failed-deliveries/instructions`, { method: "POST", headers: headers() });
  if (!instructions.ok) throw new JourneyError(`Downloading the day's NDR instructions answered ${instructions.status}`);
  const csv = await instructions.text();
  const handedOff = Number(instructions.headers.get("X-Handed-Off") ?? 0);
  let file: string | null = null;
  if (handedOff > 0 && deps.documentsDir) {
    mkdirSync(deps.documentsDir, { recursive: true });
    file = path.join(deps.documentsDir, `ndr-instructions-${new Date().toISOString().slice(0, 10)}-${Date.now()}.csv`);
    writeFileSync(file, csv);
  }
  view.log(
    handedOff > 0
      ? `✓ The day's NDR instructions, downloaded from the failed-delivery desk: ${handedOff} decision${handedOff === 1 ? "" : "s"} handed to the courier${file ? `: ${file}` : ""}`
      : "✓ The day's NDR instructions reached the courier on an earlier run",
  );
  // The courier acts on the instructions: out again and delivered, or back to origin.
  for (const { planned: each, awb, attempt } of attempted) await courier.reattemptSandboxShipment(awb, attempt, each.afterTheAttempt === "returned" ? "rto" : "delivered");
  view.log(`✓ The courier sandbox acted on the instructions: ${attempted.map(({ planned: each }) => `${each.name} ${each.afterTheAttempt === "returned" ? "returning to origin" : "delivered on the re-attempt"}`).join(", ")}`);
  await deps.requestTrackingSweep();
  return file;
}

// The Shopify library answers 410 to requests that look like bots (a bare "node" user agent does): the journey is
// the merchant's browser, and says so.
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) Dakiya-demo/1.0 (the merchant's day)";

const SAID: Readonly<Record<ShopperAnswer, string>> = {
  confirm: "confirmed the order",
  correct: "corrected the address",
  cancel: "cancelled the order",
  pay_online: "chose to pay online",
};

/**
 * A shopper asked to confirm their cash-on-delivery order answers on the link Dakiya wrote on the order (its metafield,
 * which the order confirmation e-mail and WhatsApp carry), as their phone's browser sends the page's form; one who
 * chose to pay online pays Shopify's invoice. Says what happened, never the shopper's details.
 */
async function shopperAnswers({ appUrl, simulator, shop }: JourneyDeps, orderGid: string, name: string, answer: ShopperAnswer, stepTimeoutMs: number): Promise<string> {
  const order = () => simulator.shop(shop).orders.find((candidate) => candidate.id === orderGid)!;
  const waitFor = async <T>(what: string, read: () => T | null | undefined): Promise<T> => {
    const deadline = Date.now() + stepTimeoutMs;
    for (let value = read(); ; value = read()) {
      if (value) return value;
      if (Date.now() > deadline) throw new JourneyError(`${name}: ${what} did not come within ${Math.round(stepTimeoutMs / 1000)} s`);
      await sleep(200);
    }
  };
  const link = await waitFor("the shopper's link on the order", () => order().metafields.find((metafield) => metafield.key === "cod_confirmation_url")?.value);
  // The page on the app's own address (the same page as on the shop's domain through the app proxy).
  const token = new URL(link).pathname.split("/").pop()!;
  const phone = order().shippingAddress?.phone ?? "";
  const fields = answer === "correct" ? { answer, ...CORRECTED_ADDRESS, phone } : { answer };
  const response = await fetch(`${appUrl}/confirm/${token}`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", "User-Agent": USER_AGENT }, body: new URLSearchParams(fields) });
  await response.arrayBuffer();
  // 409: the link was answered already (a run stopped after the answer, before the app carried it out).
  if (response.status !== 200 && response.status !== 409) throw new JourneyError(`${name}: the shopper's answer on their link answered ${response.status}`);
  const answeredBefore = response.status === 409;
  if (answer !== "pay_online") return answeredBefore ? `✓ ${name}'s shopper answered on an earlier run` : `✓ ${name}'s shopper ${SAID[answer]} on their link`;
  const unpaid = () => order().invoices?.find((candidate) => candidate.paidAt === null);
  if (answeredBefore && !unpaid()) return `✓ ${name}'s shopper answered on an earlier run`;
  const invoice = await waitFor("Shopify's invoice e-mail", unpaid);
  if (!simulator.payInvoice(shop, invoice.token)) throw new JourneyError(`${name}: the store refused to take the invoice's payment`);
  return `✓ ${name}'s shopper ${SAID[answer]} on their link and paid Shopify's invoice: the order ships prepaid`;
}

async function installApp({ appUrl, app, shop }: JourneyDeps): Promise<void> {
  const host = Buffer.from(`${shop}/admin`).toString("base64url");
  const address = `${appUrl}/app?embedded=1&shop=${encodeURIComponent(shop)}&host=${host}&id_token=${signSessionToken(app, shop)}`;
  const response = await fetch(address, { redirect: "manual", headers: { "User-Agent": USER_AGENT } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new JourneyError(`Opening Dakiya from the admin answered ${response.status}: the app was not installed`);
}

interface SettingsPageData {
  settings: {
    usesSandbox: boolean;
    environment: string;
    defaultWarehouseId: number | null;
    locationWarehouses: Record<string, number>;
    packageLength: number;
    packageBreadth: number;
    packageHeight: number;
    defaultWeightKg: number;
    presets: { name: string; length: number; breadth: number; height: number; maxWeightKg: number }[];
    codTag: string;
    prepaidTag: string;
    notifyCustomer: boolean;
  };
  locations: { id: string; name: string }[];
  sandboxWarehouses: { id: number; description: string | null }[];
}

/**
 * Settings as the merchant fills them in for a shop with two warehouses: each Shopify location picks up from the
 * courier warehouse of the same name (the sandbox account has one for each of the seed's locations), the rest of the
 * form as it was. An order with items at both then books a parcel from each.
 */
async function pickUpFromEachLocation({ appUrl, app, shop }: JourneyDeps): Promise<string> {
  const address = `${appUrl}/app/settings?_data=${encodeURIComponent("routes/app.settings")}`;
  const headers = () => ({ Authorization: `Bearer ${signSessionToken(app, shop)}`, "User-Agent": USER_AGENT });
  const current = await fetch(address, { headers: headers() });
  if (!current.ok) throw new JourneyError(`The Settings screen answered ${current.status}`);
  const { settings, locations, sandboxWarehouses } = (await current.json()) as SettingsPageData;
  if (Object.keys(settings.locationWarehouses).length > 0 || !settings.usesSandbox) return "✓ Each location's pickup warehouse was set on an earlier run";
  const mapping = locations.flatMap((location) => {
    const warehouse = sandboxWarehouses.find((candidate) => candidate.description?.startsWith(`${location.name},`));
    return warehouse ? [[location, warehouse.id] as const] : [];
  });
  const form = new URLSearchParams({
    mode: "sandbox",
    environment: settings.environment,
    defaultWarehouseId: settings.defaultWarehouseId === null ? "" : String(settings.defaultWarehouseId),
    packageLength: String(settings.packageLength),
    packageBreadth: String(settings.packageBreadth),
    packageHeight: String(settings.packageHeight),
    defaultWeightKg: String(settings.defaultWeightKg),
    codTag: settings.codTag,
    prepaidTag: settings.prepaidTag,
    ...(settings.notifyCustomer ? { notifyCustomer: "on" } : {}),
    ...Object.fromEntries(settings.presets.flatMap((preset, index) => Object.entries({ Name: preset.name, Length: preset.length, Breadth: preset.breadth, Height: preset.height, MaxWeightKg: preset.maxWeightKg }).map(([field, value]) => [`preset${index}${field}`, String(value)]))),
    ...Object.fromEntries(mapping.map(([location, warehouse]) => [`location:${location.id}`, String(warehouse)])),
  });
  const saved = await fetch(address, { method: "POST", headers: headers(), body: form });
  if (!saved.ok) throw new JourneyError(`Saving Settings answered ${saved.status}`);
  return `✓ Settings: each location picks up from its own warehouse (${mapping.map(([location, warehouse]) => `${location.name} → warehouse ${warehouse}`).join(", ")})`;
}

/** The Auto-booking screen's loader and action, called as the embedded page's fetches call them. */
async function switchOnExampleRules({ appUrl, app, shop }: JourneyDeps): Promise<string> {
  const address = `${appUrl}/app/auto-booking?_data=${encodeURIComponent("routes/app.auto-booking")}`;
  const headers = () => ({ Authorization: `Bearer ${signSessionToken(app, shop)}`, "User-Agent": USER_AGENT });
  const current = await fetch(address, { headers: headers() });
  if (!current.ok) throw new JourneyError(`The Auto-booking screen answered ${current.status}`);
  const { autoBooking, drafts } = (await current.json()) as { autoBooking: boolean; drafts: unknown[] };
  if (autoBooking) return `✓ Auto-booking was already on, with ${drafts.length} rule${drafts.length === 1 ? "" : "s"}`;
  const form = new URLSearchParams({ intent: "save", autoBooking: "on", rules: JSON.stringify(EXAMPLE_RULES.map(draftOf)) });
  const saved = await fetch(address, { method: "POST", headers: headers(), body: form });
  const outcome = (await saved.json()) as { kind: string };
  if (!saved.ok || outcome.kind !== "saved") throw new JourneyError(`Saving the example rules answered ${saved.status} (${outcome.kind})`);
  return `✓ Auto-booking is on with the example rules: ${EXAMPLE_RULES.map((rule) => `${rule.name} → ${rule.action}`).join(" · ")}`;
}

interface ShipmentsPageData {
  shipments: { id: number }[];
  pickups: { warehouseId: number; courierName: string; count: number }[];
}
type DocumentAnswer = DocumentActionAnswer;

/**
 * The Shipments page as the merchant uses it at the end of the day, through its loader and action: "Not printed
 * yet" selected whole and Print labels, then Print manifest for each pickup. Each answer is a signed link, opened
 * as the browser's new tab would and saved as a file. Only counts, couriers and file names are said: the
 * documents carry the shoppers' addresses, the terminal does not.
 */
async function printTheDay({ appUrl, app, shop, view }: JourneyDeps, documentsDir: string): Promise<string[]> {
  const page = `${appUrl}/app/shipments?index&_data=${encodeURIComponent("routes/app.shipments._index")}`;
  const headers = () => ({ Authorization: `Bearer ${signSessionToken(app, shop)}`, "User-Agent": USER_AGENT });
  const read = async (): Promise<ShipmentsPageData> => {
    const response = await fetch(`${page}&printed=no`, { headers: headers() });
    if (!response.ok) throw new JourneyError(`The Shipments page answered ${response.status}`);
    return (await response.json()) as ShipmentsPageData;
  };
  const saveDocument = async (fields: Record<string, string>, fileName: string): Promise<{ file: string; ready: DocumentReady }> => {
    const answered = await fetch(page, { method: "POST", headers: headers(), body: new URLSearchParams(fields) });
    const answer = (await answered.json()) as DocumentAnswer;
    if (!answer.ok) throw new JourneyError(`Printing from the Shipments page was refused (${answered.status}): ${answer.error}`);
    const pdf = await fetch(new URL(answer.url, appUrl), { headers: { "User-Agent": USER_AGENT } });
    if (!pdf.ok || pdf.headers.get("Content-Type") !== "application/pdf") throw new JourneyError(`The printed document answered ${pdf.status}`);
    const file = path.join(documentsDir, fileName);
    writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
    return { file, ready: answer.ready };
  };

  mkdirSync(documentsDir, { recursive: true });
  const day = new Date().toISOString().slice(0, 10);
  const { shipments, pickups } = await read();
  const files: string[] = [];
  if (shipments.length > 0) {
    const { file } = await saveDocument({ intent: "labels", shipmentIds: shipments.map((shipment) => shipment.id).join(",") }, `labels-${day}-${Date.now()}.pdf`);
    files.push(file);
    view.log(`✓ The day's ${shipments.length} shipping label${shipments.length === 1 ? "" : "s"}, printed from the Shipments page: ${file}`);
  } else view.log("✓ Every shipment's label was printed on an earlier run");
  for (const pickup of pickups) {
    const { file, ready } = await saveDocument(
      { intent: "manifest", warehouseId: String(pickup.warehouseId), courierName: pickup.courierName },
      `manifest-${day}-warehouse-${pickup.warehouseId}-${pickup.courierName.replace(/[^A-Za-z0-9]+/g, "-").slice(0, 40) || "courier"}-${Date.now()}.pdf`,
    );
    files.push(file);
    // The page's own words for what was made (the admin in English).
    const made = ready.kind === "manifest" ? plural("en", adminStrings("en").shipments.documents.manifestMade, ready.count, { number: ready.number }) : "";
    view.log(`✓ ${pickup.courierName || "The courier"}'s pickup from warehouse ${pickup.warehouseId}: ${made} ${file}`);
  }
  if (pickups.length === 0) view.log("✓ Every booked shipment was in a pickup manifest on an earlier run");
  return files;
}

/**
 * The sandbox's freight invoice of the shop's parcels, uploaded on the Freight & weight page as the merchant uploads
 * the file: the page's upload address, the file as the body. Counts only: the invoice names awbs and amounts, never a
 * shopper. A later run's invoice repeats the charges imported before, which count once: only the parcels booked
 * since are new.
 */
async function importTheInvoice({ appUrl, app, shop, courier }: JourneyDeps): Promise<string> {
  const invoice = await courier.sandboxFreightInvoice();
  const response = await fetch(`${appUrl}/app/freight/upload?${new URLSearchParams({ name: invoice.file_name })}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${signSessionToken(app, shop)}`, "User-Agent": USER_AGENT, "Content-Type": "text/csv" },
    body: invoice.csv,
  });
  const answer = (await response.json()) as { outcome: string; lineCount?: number; summary?: Record<string, number>; message?: string };
  if (answer.outcome === "already_imported") return "✓ The courier's freight invoice was imported on an earlier run";
  if (answer.outcome !== "imported") throw new JourneyError(`Importing the freight invoice was refused (${response.status}): ${answer.message ?? answer.outcome}`);
  // A later day's invoice repeats the charges imported before (counted once) beside the new ones.
  const before = answer.summary?.already_imported ?? 0;
  const fresh = (answer.lineCount ?? 0) - before;
  if (fresh === 0) return "✓ The courier's freight invoice was imported on an earlier run";
  const over = answer.summary?.overcharged ?? 0;
  const charges = `${fresh} charge${fresh === 1 ? "" : "s"}${before > 0 ? ` (${before} imported on an earlier run)` : ""}`;
  return `✓ The courier's freight invoice, imported on Freight & weight: ${charges}; ${over === 0 ? "none above its quote" : `${over} parcel${over === 1 ? "" : "s"} charged above the quote (re-weighed heavier), each with its dispute pack`}`;
}

/**
 * Moves one shipment on to `hop` in the courier sandbox, unless its history already holds the hop or the final
 * stage, or the graph leads no way from where it is (the courier's own clock may have taken it elsewhere since).
 */
async function moveShipment({ courier }: JourneyDeps, awb: string, hop: ServiceStatusCode, finalStage: ServiceStatusCode, attemptFails?: UndeliveredReason): Promise<boolean> {
  const { tracking_history: history } = await courier.trackOrder(awb);
  const codes = history.map((entry) => entry.service_status).filter(isServiceStatusCode);
  if (codes.includes(hop) || codes.includes(finalStage)) return false;
  const latest = codes.at(-1);
  if (latest === undefined || !pathBetween(latest, hop)) return false;
  await courier.advanceSandboxShipment(awb, hop, hop === SERVICE_STATUS.UNDELIVERED ? attemptFails : undefined);
  return true;
}

export interface JourneyView {
  /** A step done: a line above the table. */
  log(line: string): void;
  /** The table as it stands now. */
  update(rows: Row[]): void;
  /** The final table, drawn once more and left on screen. */
  finish(rows: Row[]): void;
  /** Gives the terminal back (also on Ctrl-C mid-way). */
  close(): void;
}

/**
 * On a terminal: the progress bar and table redrawn in place, with steps (and anything else printed meanwhile,
 * such as the app's warnings) scrolling above them. Elsewhere (a pipe, a CI log): each step and each change of a
 * row as a line of its own, and the whole table once at the end.
 */
export function createJourneyView(stream: NodeJS.WriteStream, startedAt: number, { interactive = Boolean(stream.isTTY) }: { interactive?: boolean } = {}): JourneyView {
  const elapsed = () => performance.now() - startedAt;
  const columns = () => stream.columns || 120;
  const block = (rows: Row[]) => {
    const width = interactive ? columns() - 1 : undefined;
    const barWidth = Math.max(10, Math.min(30, columns() - 60));
    return [progressLine(tally(rows.map((row) => row.progress)), elapsed(), barWidth), "", ...renderTable(rows, width)];
  };
  if (!interactive) {
    const printed = new Map<string, string>();
    let lastCount = -1;
    return {
      log: (line) => void stream.write(`${line}\n`),
      update(rows) {
        for (const row of rows) {
          // An order the app has not read yet has nothing to say.
          if (row.readiness === NOT_CHECKED) continue;
          const line = rowLine(row);
          if (printed.get(row.order) === line) continue;
          printed.set(row.order, line);
          stream.write(`  ${line}\n`);
        }
        const { done } = tally(rows.map((row) => row.progress));
        if (done !== lastCount) {
          lastCount = done;
          stream.write(`${progressLine(tally(rows.map((row) => row.progress)), elapsed())}\n`);
        }
      },
      finish: (rows) => void stream.write(`\n${block(rows).join("\n")}\n`),
      close: () => undefined,
    };
  }

  // Whatever else writes to the terminal while the table is drawn would land inside it: such writes wait and are
  // printed above the table at the next redraw.
  const streams: NodeJS.WriteStream[] = [process.stdout, process.stderr].filter((each) => each.isTTY);
  const originals = new Map<NodeJS.WriteStream, (chunk: string | Uint8Array) => boolean>(streams.map((each) => [each, each.write.bind(each)]));
  const held: { to: NodeJS.WriteStream; chunk: string | Uint8Array }[] = [];
  for (const each of streams) {
    each.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      held.push({ to: each, chunk });
      const callback = rest.find((argument) => typeof argument === "function") as (() => void) | undefined;
      callback?.();
      return true;
    }) as typeof each.write;
  }
  const write = (text: string) => originals.get(stream)!(text);
  let drawnLines = 0;
  let lastRows: Row[] = [];
  const erase = () => {
    // To the first column of the block's first line, then clear everything below.
    if (drawnLines > 0) write(`\x1b[${drawnLines}F\x1b[J`);
    drawnLines = 0;
  };
  const flushHeld = () => {
    for (const { to, chunk } of held.splice(0)) originals.get(to)!(chunk);
  };
  const draw = (rows: Row[]) => {
    lastRows = rows;
    erase();
    flushHeld();
    const lines = block(rows);
    write(`${lines.join("\n")}\n`);
    // A line wider than the terminal takes more than one row of it, and all of them must be erased next time.
    drawnLines = lines.reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / columns())), 0);
  };
  let closed = false;
  return {
    log(line) {
      erase();
      flushHeld();
      write(`${line}\n`);
      if (lastRows.length > 0) draw(lastRows);
    },
    update: draw,
    finish: draw,
    close() {
      if (closed) return;
      closed = true;
      for (const [each, original] of originals) each.write = original as typeof each.write;
      flushHeld();
    },
  };
}
