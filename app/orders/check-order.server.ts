import prisma from "~/db.server";
import type { OrderRecord, Shipment } from "@prisma/client";
import { decide } from "~/automation/rules";
import { bookOrder, prepareOrder, quoteOrder, type BookOutcome } from "~/orders/book-order.server";
import { outcomeForWords } from "~/booking/book-outcome";
import { bookOutcomeWords } from "~/automation/decision-words";
import { problemLabelWords } from "~/booking/stored-sentences";
import { listWords, storedOr, words, type StoredWords } from "~/locales/admin-language";
import { storedFactsOf } from "~/automation/booking-facts";
import { holdsBooking, isShipmentStatus, SHIPMENT_STATUS } from "~/shipments/lifecycle";
import { listShipmentsForOrder } from "~/shipments/shipments.server";
import { coversBeforeParcels, raiseAttention } from "~/shipments/shipment-changes.server";
import { enqueue } from "~/jobs/job-queue.server";
import { bookingRulesOf } from "~/automation/booking-rules.server";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { getBookedOrderChanges, getOrderForBooking } from "~/shopify/admin-orders.server";
import { deliveryContactOf, destinationOf, type MappedShipment } from "~/shopify/order-mapping";
import type { ShopifyOrder } from "~/shopify/queries";
import type { CreateOrderInput } from "~/shipping/contract";
import { fromPaise, toPaise } from "~/money";
import { addressDigestOf, factsOf, getOrderRecord, recordCancellation, recordDecision, saveReadiness, withdrawDecision } from "./order-records.server";
import { DECISION, READINESS } from "./readiness";
import { summarizeQuote } from "~/booking/quote-summary";
import { assessInShopify, scoreOrderRisk } from "~/cod/cod-risk.server";
import { askToConfirm, getConfirmation, noteOrderPaid } from "~/cod/confirmation.server";

export interface CheckDeps {
  adminFor: (shop: string) => Promise<ShopAdmin>;
  now: () => Date;
}

export type CheckResult =
  | { kind: "not_found" }
  | { kind: "cancelled" }
  | { kind: "shipment" }
  | { kind: "checked"; readiness: string; decision: string | null }
  /** The courier could not be reached for the quote: readiness stored, the job retries for the rest. */
  | { kind: "courier_unavailable"; message: string };

function factsFrom(mapped: MappedShipment | null) {
  if (!mapped) return {};
  const { fields } = mapped;
  return {
    ...storedFactsOf(fields),
    destination: mapped.destination,
    shopperName: fields.name,
    pincode: fields.pincode,
    addressDigest: addressDigestOf(fields),
  };
}

/**
 * The `order-check` job: reads an order fresh from Shopify (a webhook may be late, out of order or repeated),
 * stores its readiness — ready with its quote, or its named problems — and, when the shop has auto-booking on,
 * books it by the shop's rules through the same exactly-once path as the Book button, recording the decision and
 * its reason. An order seen cancelled is never booked, a booked one whose address changed is flagged, and an
 * order Shopify no longer returns ends the job cleanly.
 */
export async function checkOrder(shop: string, orderGid: string, deps: CheckDeps): Promise<CheckResult> {
  const admin = await deps.adminFor(shop);
  const booked = (await listShipmentsForOrder(shop, orderGid)).filter(holdingBooking);
  if (booked.length > 0) {
    const checked = await checkBookedOrder(shop, orderGid, admin, deps);
    if (checked) return checked;
    // A parcel is still to book (its booking failed, or was never made), or the booking did not go through while
    // Shopify was read (the courier refused it): the order is checked whole.
  }

  const order = await getOrderForBooking(admin, orderGid);
  const checkedAt = deps.now();
  if (!order) return orderGone(shop, orderGid, checkedAt);
  const seen = seenOf(order, checkedAt);
  if (await cancelledNow(shop, order, seen)) return { kind: "cancelled" };
  // A parcel already booked, beside one still to book: the courier has the address it was booked to.
  await flagAddressChanges(order, booked, checkedAt);

  // Read and mapped once for the check, the quote, the rules and the booking that follow.
  const context = { shop, admin, now: deps.now };
  const prepared = await prepareOrder(context, { orderGid, order });
  const { settings, mapped, problems } = prepared;
  // Every parcel booked since the look above (the Book button, another check): the bookings' own records stand.
  if (prepared.outcome?.kind === "already_booked") {
    await saveReadiness(shop, orderGid, { ...seen, ...factsFrom(mapped), readiness: prepared.outcome.shipments.every((parcel) => parcel.status === SHIPMENT_STATUS.FULFILLED) ? READINESS.FULFILLED : READINESS.SHIPMENT });
    return { kind: "shipment" };
  }
  // A parcel of this order whose booking failed: its refusal is the order's (a parcel booked beside it stands).
  const failedParcel = (await listShipmentsForOrder(shop, orderGid)).find((parcel) => parcel.status === SHIPMENT_STATUS.FAILED) ?? null;

  const quote = prepared.outcome ? null : await quoteOrder(context, { orderGid, prepared });
  if (quote?.kind === "already_booked") return { kind: "shipment" };
  if (quote?.kind === "unavailable") {
    await saveReadiness(shop, orderGid, { ...seen, ...factsFrom(mapped), readiness: READINESS.READY, problems: [] });
    return { kind: "courier_unavailable", message: quote.message };
  }
  const allProblems = quote?.kind === "problems" ? quote.problems : problems;
  const fulfilled = allProblems.some((problem) => problem.code === "ALREADY_FULFILLED" || problem.code === "NOTHING_TO_SHIP");
  const rates = quote?.kind === "quoted" ? quote.rates : [];
  const summary = summarizeQuote(rates);
  const record: OrderRecord = await saveReadiness(shop, orderGid, {
    ...seen,
    ...factsFrom(mapped),
    readiness: fulfilled ? READINESS.FULFILLED : allProblems.length > 0 ? READINESS.PROBLEMS : READINESS.READY,
    problems: allProblems,
    quote: summary,
    zone: summary?.zone ?? null,
  });

  // Every cash-on-delivery order is scored, whatever the rules: the merchant's lists and Shopify's order page show it.
  const risk = fulfilled ? null : await scoreOrderRisk(context, { order, record });
  // Asked to confirm and paid since (the shopper paid Shopify's invoice, or the merchant marked it paid): it ships prepaid.
  if (record.paymentMode === "prepaid" && (await noteOrderPaid(shop, orderGid, checkedAt))) return { kind: "checked", readiness: record.readiness, decision: record.decision };
  const confirmation = await getConfirmation(shop, orderGid);
  // Shopify hears Dakiya's assessment before any booking fulfills the order (a fulfilled order takes none); asking
  // the shopper makes it PENDING until they answer.
  if (!fulfilled) await assessInShopify(context, orderGid);

  if (!settings.autoBooking || fulfilled) return { kind: "checked", readiness: record.readiness, decision: record.decision };
  // Set aside by the merchant (Needs attention → Dismiss): the rules leave it alone until Undo, even once it could
  // ship; the merchant can still ship it by hand.
  if (record.dismissedAt) return { kind: "checked", readiness: record.readiness, decision: record.decision };
  if (record.decision === DECISION.BOOKED && failedParcel) {
    // Refused by the courier when another worker resumed it: as any failed booking, it waits for the merchant.
    const stored = words("decisions.bookingFailed", {
      decision: record.decisionReason === null ? words("decisions.bookedAutomatically") : storedOr(record.decisionWords, record.decisionReason),
      why: failedParcel.lastError === null ? words("decisions.courierRefused") : storedOr(failedParcel.lastErrorWords, failedParcel.lastError),
    });
    await recordDecision(shop, orderGid, { kind: DECISION.FAILED, words: stored }, checkedAt);
    return { kind: "checked", readiness: record.readiness, decision: DECISION.FAILED };
  }
  // A decision stands, except "not booked because of problems", taken again once the order is fixed, and "booked"
  // with no booking behind it (looked for above): a booking that stopped before its claim, taken again.
  if (record.decision && record.decision !== DECISION.PROBLEMS && record.decision !== DECISION.BOOKED) {
    return { kind: "checked", readiness: record.readiness, decision: record.decision };
  }
  if (allProblems.length > 0) {
    const stored = words("decisions.notBooked", { problems: listWords(allProblems.map((problem) => problemLabelWords(problem.code))) });
    await recordDecision(shop, orderGid, { kind: DECISION.PROBLEMS, words: stored }, checkedAt);
    return { kind: "checked", readiness: record.readiness, decision: DECISION.PROBLEMS };
  }

  // A prepaid order (paid online since it was scored, say) carries no cash-on-delivery risk.
  const facts = { ...factsOf(record)!, riskLevel: record.paymentMode === "cod" ? (risk?.level ?? null) : null, shopperAsked: confirmation !== null };
  const decision = decide(bookingRulesOf(settings), facts, rates);
  if (decision.kind === "confirm") return askShopper(context, { orderGid, decision, checkedAt, readiness: record.readiness });
  if (decision.kind === "hold") {
    await recordDecision(shop, orderGid, { kind: DECISION.HELD, words: decision.words }, checkedAt);
    return { kind: "checked", readiness: record.readiness, decision: DECISION.HELD };
  }
  // Recorded before booking: when this worker dies mid-booking, another completes the booking and the decision is
  // already with it. A booking that does not happen replaces it below.
  await recordDecision(shop, orderGid, { kind: DECISION.BOOKED, words: decision.words }, checkedAt);
  let outcome: BookOutcome;
  try {
    outcome = await bookOrder({ shop, admin, now: deps.now, actor: { kind: "rule", name: decision.rule } }, { orderGid, courierId: decision.courierId, prepared, ...(quote?.kind === "quoted" ? { quoted: quote } : {}) });
  } catch (error) {
    // Nothing booked, as far as this worker can tell: no decision is shown until the job's retry takes it again.
    if (!(await listShipmentsForOrder(shop, orderGid)).some(holdingBooking)) await withdrawDecision(shop, orderGid, DECISION.BOOKED);
    throw error;
  }
  if (outcome.kind === "booked" || outcome.kind === "already_booked") return { kind: "checked", readiness: READINESS.SHIPMENT, decision: DECISION.BOOKED };
  const failed = words("decisions.bookingFailed", { decision: decision.words, why: bookOutcomeWords(outcomeForWords(outcome)) });
  await recordDecision(shop, orderGid, { kind: DECISION.FAILED, words: failed }, checkedAt);
  return { kind: "checked", readiness: record.readiness, decision: DECISION.FAILED };
}

/**
 * The rules ask the shopper to confirm: the decision is recorded first (the order waits in "Waiting for the shopper"),
 * then the shopper is asked. An order that cannot be asked (too close to the courier's 7-day window, booked or
 * cancelled meanwhile) is held for the merchant with why.
 */
async function askShopper(context: { shop: string; admin: ShopAdmin; now: () => Date }, { orderGid, decision, checkedAt, readiness }: { orderGid: string; decision: { words: StoredWords; rule: string }; checkedAt: Date; readiness: string }): Promise<CheckResult> {
  const { shop } = context;
  await recordDecision(shop, orderGid, { kind: DECISION.CONFIRMING, words: decision.words }, checkedAt);
  const asked = await askToConfirm(context, orderGid, { kind: "rule", name: decision.rule });
  if (asked.kind === "asked" || asked.kind === "already_asked") return { kind: "checked", readiness, decision: DECISION.CONFIRMING };
  if (asked.kind === "booked") return { kind: "shipment" };
  if (asked.kind === "cancelled") return { kind: "cancelled" };
  const held = words("decisions.couldNotAsk", { decision: decision.words, why: words(`cod.askOutcomes.${asked.kind}`) });
  await recordDecision(shop, orderGid, { kind: DECISION.HELD, words: held }, checkedAt);
  return { kind: "checked", readiness, decision: DECISION.HELD };
}

/**
 * A booked order that changed in Shopify (most often by the booking's own fulfillment, tag and metafields): what
 * Dakiya must still act on is a cancellation, handed to the cancellation job, and a delivery address or phone
 * other than the one booked, flagged on each parcel booked for it. Read with BOOKED_ORDER_CHANGES, not the whole
 * order; null when a fulfillment order still open in Shopify is not one of its bookings (a parcel to book: the
 * order is checked whole).
 */
async function checkBookedOrder(shop: string, orderGid: string, admin: ShopAdmin, { now }: CheckDeps): Promise<CheckResult | null> {
  const order = await getBookedOrderChanges(admin, orderGid);
  const checkedAt = now();
  if (!order) return orderGone(shop, orderGid, checkedAt);
  const seen = seenOf(order, checkedAt);
  if (await cancelledNow(shop, order, seen)) return { kind: "cancelled" };
  // Looked at again after Shopify's answer, which may have waited for the shop's budget: the booking moves on meanwhile.
  const parcels = (await listShipmentsForOrder(shop, orderGid)).filter(holdingBooking);
  const open = order.fulfillmentOrders.nodes.filter((fo) => fo.status === "OPEN" || fo.status === "IN_PROGRESS");
  // A booking made before parcels covers its location until it is fulfilled: any open fulfillment order meanwhile.
  const covered = (fo: (typeof open)[number]) => parcels.some((parcel) => parcel.fulfillmentOrderGid === fo.id || coversBeforeParcels({ ...parcel, locationGid: null }, null));
  if (parcels.length === 0 || order.fulfillmentOrders.pageInfo.hasNextPage || !open.every(covered)) return null;
  const booked = parcels.flatMap((parcel) => (parcel.requestPayload ? [{ parcel, body: JSON.parse(parcel.requestPayload) as CreateOrderInput }] : []));
  const { contact } = deliveryContactOf(order);
  const addressDigest = addressDigestOf(contact);
  await saveReadiness(shop, orderGid, {
    ...seen,
    // What was booked: an order booked from the order page before its first check gets its facts here.
    ...(booked.length > 0 ? bookedFacts(booked.map(({ body }) => body)) : {}),
    destination: destinationOf(order),
    shopperName: contact.name,
    pincode: contact.pincode,
    addressDigest,
    readiness: parcels.every((parcel) => parcel.status === SHIPMENT_STATUS.FULFILLED) ? READINESS.FULFILLED : READINESS.SHIPMENT,
  });
  await flagAddressChanges(order, parcels, checkedAt);
  return { kind: "shipment" };
}

/**
 * Each parcel booked to a delivery address or phone other than the order's now is flagged for the merchant: the
 * courier has the old one. Also when the order has a parcel still to book, which then books to the new address.
 */
async function flagAddressChanges(order: Parameters<typeof deliveryContactOf>[0] & Pick<ShopifyOrder, "shippingAddress">, parcels: readonly Shipment[], checkedAt: Date): Promise<void> {
  if (!order.shippingAddress) return;
  const addressDigest = addressDigestOf(deliveryContactOf(order).contact);
  for (const parcel of parcels) {
    if (!parcel.requestPayload || parcel.attention === "address_changed") continue;
    const body = JSON.parse(parcel.requestPayload) as CreateOrderInput;
    if (addressDigestOf({ ...body, pincode: String(body.pincode) }) !== addressDigest) await raiseAttention(parcel, "address_changed", { actor: { kind: "job", name: "order-check" }, at: checkedAt });
  }
}

/** The facts the rules and lists read, as the order was booked: its parcels' weights and amounts together. */
const bookedFacts = (bodies: readonly CreateOrderInput[]) =>
  storedFactsOf({
    payment_mode: bodies[0]!.payment_mode,
    package_weight: bodies.reduce((sum, body) => sum + body.package_weight, 0),
    ...(bodies.every((body) => typeof body.total_amount === "number") ? { total_amount: fromPaise(bodies.reduce((sum, body) => sum + toPaise(body.total_amount), 0)) } : {}),
  });

/** A shipment that stands for the order's booking: any but a failed one. */
function holdingBooking(shipment: Shipment | null): boolean {
  return Boolean(shipment && isShipmentStatus(shipment.status) && holdsBooking(shipment.status));
}

function seenOf(order: Pick<ShopifyOrder, "name" | "createdAt" | "updatedAt" | "tags">, checkedAt: Date) {
  return { orderName: order.name, placedAt: new Date(order.createdAt), shopifyUpdatedAt: new Date(order.updatedAt), tags: order.tags, checkedAt };
}

async function orderGone(shop: string, orderGid: string, checkedAt: Date): Promise<CheckResult> {
  await saveReadiness(shop, orderGid, { readiness: READINESS.NOT_FOUND, checkedAt });
  return { kind: "not_found" };
}

/**
 * Whether the order is cancelled, in Shopify now or as Dakiya recorded it before (orders/cancelled may come first):
 * a cancellation seen for the first time goes to the cancellation job, which cancels any booking with the courier.
 */
async function cancelledNow(shop: string, order: Pick<ShopifyOrder, "id" | "cancelledAt">, seen: ReturnType<typeof seenOf>): Promise<boolean> {
  if (!order.cancelledAt && !(await getOrderRecord(shop, order.id))?.cancelledAt) return false;
  if (order.cancelledAt) {
    const cancelledAt = new Date(order.cancelledAt);
    // Recorded with its job in one transaction: recorded alone, the cancellation would be news no more, and a crash
    // before the job was queued would leave the booking with the courier, to be picked up.
    await prisma.$transaction(async (tx) => {
      if (await recordCancellation(shop, order.id, cancelledAt, tx)) await enqueue("order-cancelled", { shop, orderGid: order.id }, { tx });
    });
  }
  await saveReadiness(shop, order.id, { ...seen, readiness: READINESS.CANCELLED });
  return true;
}
