import { bookOutcomeInWords } from "~/booking/book-outcome";
import prisma from "~/db.server";
import type { OrderRecord, Shipment } from "@prisma/client";
import type { AdminApiContext } from "@shopify/shopify-app-remix/server";
// The wire types the admin extensions were built and tested against (extensions/shared/api.ts): answering them
// here, rather than a copy, makes any drift between the two a type error.
import type {
  BookAnswer,
  BookOutcome as WireBookOutcome,
  BulkAnswer,
  CodView,
  OrderShipping,
  ParcelView,
  ReturnPickupView,
  Problem,
  RateView,
  ShipmentStatus as WireShipmentStatus,
  ShipmentView,
  SyncAnswer,
} from "../../extensions/shared/api";
import { shipmentAttentionItem } from "~/attention/needs-attention.server";
import { bookOrder, quoteOrder, type BookingContext, type BookOutcome } from "~/orders/book-order.server";
import { courierMessage } from "~/booking/book-shipment.server";
import { getConfig } from "~/config.server";
import { labelLink } from "~/documents/documents.server";
import { shipOrders, type ShipResult } from "~/orders/ship-orders.server";
import { isShipmentStatus, SHIPMENT_STATUS_LABELS, type ShipmentStatus } from "~/shipments/lifecycle";
import { listShipmentsForOrder } from "~/shipments/shipments.server";
import { parcelItems, parcelName } from "~/shipments/parcels";
import { outcomeInWords } from "~/shipments/outcome-words";
import { readOrderShipping } from "~/orders/order-shipping.server";
import type { ParcelQuote } from "~/booking/book-outcome";
import { fromPaise, toPaise } from "~/money";
import { getOrderRecord, problemsOf } from "~/orders/order-records.server";
import { READINESS } from "~/orders/readiness";
import { CourierError } from "~/shipping/client.server";
import { isLogisticId } from "~/shipping/contract";
import type { RankedRate } from "~/shipping/rate-ranking";
import { isServiceStatusCode } from "~/shipping/status";
import { isSafeTrackingUrl } from "~/shipping/tracking-url";
import { shopAdmin, ShopifyUnavailableError } from "~/shopify/admin-graphql.server";
import { getOrderForBooking } from "~/shopify/admin-orders.server";
import { shopifyBusyResponse, type ShopifyBusy } from "~/shopify/busy.server";
import type { MappingProblem } from "~/shopify/order-mapping";
import { exceptionAdvice, stageLabel } from "~/tracking/courier-progress";
import { listTrackingEvents, syncShipmentNow } from "~/tracking/sync.server";
import { listShipmentHistory } from "~/shipments/history.server";
import { adminStrings } from "~/locales/admin-language";
import { listReturnHistories } from "~/returns/return-history.server";
import { isReturnState, shopifyStatusOf } from "~/returns/return-lifecycle";
import { returnStateName } from "~/returns/return-words";
import { getOrderRisk } from "~/cod/cod-risk.server";
import { getConfirmation } from "~/cod/confirmation.server";
import { isOpen, type ConfirmationState } from "~/cod/confirmation-lifecycle";
import { factorInWords } from "~/cod/risk-words";

/**
 * The order-page extensions' view of one order (`extensions/shared/api.ts`), built from what Dakiya holds and
 * the app's own modules: quoting and booking (app/booking), tracking (app/tracking), what needs the merchant
 * (app/attention). Nothing here maps, rates or books by itself.
 *
 * Every read and write is by the authenticated shop: an order of another shop has no record or shipment under
 * this shop, and the shop's own Admin API does not return it, so it is "not found" whoever asks.
 *
 * Business outcomes are values (the routes answer them 200: a 401 would open the admin's re-authorize dialog):
 * Shopify busy past Dakiya's waits and a courier service that does not answer are the contract's `unavailable`.
 */

export interface ExtensionContext extends BookingContext {
  now: () => Date;
}

export function extensionContext(shop: string, admin: Pick<AdminApiContext, "graphql">, now: () => Date = () => new Date()): ExtensionContext {
  return { shop, admin: shopAdmin(shop, admin), now };
}

type Base = Pick<OrderShipping, "orderId" | "orderName" | "decision">;

const answer = (base: Base, state: OrderShipping["state"], parts: Partial<Pick<OrderShipping, "problems" | "rates" | "message" | "shipment" | "parcels">> = {}): OrderShipping => ({
  ...base,
  state,
  problems: parts.problems ?? [],
  rates: parts.rates ?? [],
  message: parts.message ?? null,
  shipment: parts.shipment ?? null,
  ...(parts.parcels && parts.parcels.length > 1 ? { parcels: parts.parcels } : {}),
});

/** The pages' own "Shopify is busy" words (app/shopify/busy.server.ts), as the extensions' unavailable message. */
async function busyMessage(error: ShopifyUnavailableError): Promise<string> {
  return ((await shopifyBusyResponse(error).json()) as ShopifyBusy).shopifyBusy;
}

const toProblem = ({ code, message, fix }: MappingProblem): Problem => ({ code, message, fix });

/** Problems, or "cancelled" when the problem is that the order is cancelled (Shopify knew before Dakiya did). */
function fromProblems(base: Base, problems: readonly MappingProblem[]): OrderShipping {
  if (problems.some((problem) => problem.code === "CANCELLED")) return answer(base, "cancelled");
  return answer(base, "problems", { problems: problems.map(toProblem) });
}

export function toRateView(rate: RankedRate): RateView {
  return {
    courierId: rate.id,
    name: rate.name,
    mode: rate.type,
    // Rupees on the courier's wire and in the contract; rounded to the paisa as Dakiya stores money.
    totalCharges: fromPaise(toPaise(rate.total_charges)),
    edd: rate.edd,
    eddMaxDays: rate.eddMaxDays,
    zone: rate.zone,
    isCheapest: rate.isCheapest,
    isFastest: rate.isFastest,
    isRecommended: rate.isRecommended,
  };
}

const WIRE_STATUS: Record<ShipmentStatus, WireShipmentStatus> = {
  booking: "booking",
  booked_unfulfilled: "booked",
  fulfilled: "fulfilled",
  // A return's pickup, fulfilled in Shopify as its reverse delivery.
  return_in_transit: "fulfilled",
  failed: "failed",
  cancelled: "cancelled",
};

/**
 * What the merchant must do about a booking, in words: a flag on the shipment (as the Needs attention page words
 * it), a tracking exception (the stage table's advice), or a booking or fulfillment Dakiya is still retrying.
 */
function attentionOf(shipment: Shipment): string | null {
  const notes: string[] = [];
  const item = shipmentAttentionItem(shipment);
  // A tracking exception is said by the stage's own advice below; other flags as Needs attention words them.
  if (item && item.kind !== "tracking_exception") notes.push(`${item.message} What to do: ${item.action.replace(/\.?$/, ".")}`);
  else if (!item && shipment.lastError && shipment.status === "booking") notes.push(shipment.lastError);
  // Dismissed or not, an exception is the shipment's state: its advice stays on the order.
  const code = shipment.courierStatusCode;
  const exception = code !== null && isServiceStatusCode(code) ? exceptionAdvice(code, shipment.direction) : null;
  if (exception) notes.push(exception);
  return notes.length > 0 ? notes.join(" ") : null;
}

export async function toShipmentView(shipment: Shipment): Promise<ShipmentView> {
  const status = isShipmentStatus(shipment.status) ? shipment.status : "booking";
  const [events, history] = await Promise.all([shipment.awb ? listTrackingEvents(shipment.shop, shipment.id) : [], listShipmentHistory(shipment.shop, shipment.id)]);
  const last = events.at(-1);
  const code = shipment.courierStatusCode;
  return {
    name: parcelName(shipment),
    status: WIRE_STATUS[status],
    statusLabel: SHIPMENT_STATUS_LABELS[status].label,
    awb: shipment.awb,
    courierName: shipment.courierName,
    // Only a web address is a link (app/shipping/tracking-url.ts): anything else is left out, never passed on.
    trackingUrl: shipment.trackingUrl && isSafeTrackingUrl(shipment.trackingUrl) ? shipment.trackingUrl : null,
    totalCharges: shipment.totalChargesPaise === null ? null : fromPaise(shipment.totalChargesPaise),
    edd: shipment.edd,
    courierStatus: code !== null && shipment.courierStatusAt ? { code, label: shipment.courierStatusLabel ?? stageLabel(code), at: shipment.courierStatusAt.toISOString() } : null,
    // Where the courier has it, once the courier has said anything.
    outcome: code === null ? null : { state: shipment.outcome, label: outcomeInWords(shipment), deliveryAttempts: shipment.deliveryAttempts },
    // Once delivered, the courier's status says when; an estimate no longer means anything.
    estimatedDelivery: shipment.estimatedDeliveryAt && !shipment.deliveredAt ? shipment.estimatedDeliveryAt.toISOString() : null,
    lastEvent: last ? { label: last.label, activity: last.activity, location: last.location, at: last.happenedAt.toISOString() } : null,
    attention: attentionOf(shipment),
    labelUrl: labelLinkOf(shipment),
    history: history.map(({ at, what, by, reason }) => ({ at, what, by, reason })),
  };
}

/** A booked shipment's label, as a signed link the order block opens in a new tab (outside the admin's session). */
function labelLinkOf(shipment: Shipment): string | null {
  const link = labelLink(shipment);
  return link && `${getConfig().SHOPIFY_APP_URL}${link}`;
}

function baseOf(orderGid: string, record: OrderRecord | null, shipment: Shipment | null): Base {
  return {
    orderId: orderGid,
    orderName: record?.orderName || shipment?.orderName || `Order ${orderGid.split("/").pop()}`,
    decision: record?.decision && record.decisionReason && record.decidedAt ? { reason: record.decisionReason, at: record.decidedAt.toISOString() } : null,
  };
}

/**
 * One order as the block and the action show it. A booking (anything but a failed one) is shown from what
 * Dakiya stored, tracking included: no Shopify or courier call. A cancelled order, and one fulfilled outside
 * Dakiya, are what the order check stored. Any other order is read and quoted live through `quoteOrder`, so the
 * rates offered are the ones a booking gets now, and "Check again" after a fix in Shopify sees the fix.
 */
export async function getOrderShipping(context: ExtensionContext, orderGid: string): Promise<OrderShipping> {
  const [order, returns, cod] = await Promise.all([getForwardShipping(context, orderGid), listReturnPickups(context.shop, orderGid), codViewOf(context.shop, orderGid)]);
  return { ...order, ...(returns.length > 0 ? { returns } : {}), ...(cod ? { cod } : {}) };
}

/** The order's COD risk and its shopper's confirmation as the block shows them, in English; null when it has neither. */
async function codViewOf(shop: string, orderGid: string): Promise<CodView | null> {
  const [risk, confirmation] = await Promise.all([getOrderRisk(shop, orderGid), getConfirmation(shop, orderGid)]);
  if (!risk && !confirmation) return null;
  const english = adminStrings("en").cod.page.states;
  return {
    riskLevel: risk?.level ?? null,
    riskScore: risk?.score ?? null,
    reasons: risk ? risk.factors.map((factor) => factorInWords(factor, "en")) : [],
    confirmation: confirmation
      ? { state: confirmation.state, label: english[confirmation.state as ConfirmationState] ?? confirmation.state, deadlineAt: confirmation.deadlineAt.toISOString(), open: isOpen(confirmation.state) }
      : null,
  };
}

/** The order's returns as the order-page card shows them, beside (never mixed with) its forward shipment. */
async function listReturnPickups(shop: string, orderGid: string): Promise<ReturnPickupView[]> {
  const records = await prisma.returnRecord.findMany({ where: { shop, orderGid }, orderBy: { id: "asc" }, take: 20 });
  if (records.length === 0) return [];
  const [pickups, histories] = await Promise.all([prisma.shipment.findMany({ where: { shop, orderGid: { in: records.map((record) => record.returnGid) } } }), listReturnHistories(shop, records.map((record) => record.returnGid))]);
  return records.map((record) => {
    const pickup = pickups.find((candidate) => candidate.orderGid === record.returnGid && candidate.status !== "failed");
    const problems = problemsOf(record);
    const state = isReturnState(record.state) ? record.state : "requested";
    return {
      returnName: record.returnName,
      status: shopifyStatusOf(state),
      state,
      stateLabel: returnStateName(adminStrings("en"), state) ?? state,
      pickupLabel: pickup && isShipmentStatus(pickup.status) ? (pickup.courierStatusCode !== null ? outcomeInWords(pickup) : SHIPMENT_STATUS_LABELS[pickup.status].label) : null,
      courierName: pickup?.courierName ?? null,
      awb: pickup?.awb ?? null,
      trackingUrl: pickup?.trackingUrl && isSafeTrackingUrl(pickup.trackingUrl) ? pickup.trackingUrl : null,
      // A booked pickup's note is what the merchant must do about it (a failed pickup, a return lost on its way back).
      note: pickup ? attentionOf(pickup) : problems.length > 0 ? problems.map((problem) => `${problem.message} ${problem.fix}`).join(" ") : record.decisionReason,
      receivedAt: record.receivedAt?.toISOString() ?? null,
      history: (histories.get(record.returnGid) ?? []).map(({ at, what, by, reason }) => ({ at, what, by, reason })),
    };
  });
}

/**
 * The order's parcels as the extensions list them: those booked (as Dakiya stored them) first, then those still to
 * book (as just quoted), numbered in that order.
 */
async function parcelViews(booked: readonly Shipment[], toBook: readonly ParcelQuote[]): Promise<ParcelView[]> {
  const of = booked.length + toBook.length;
  const bookedViews = await Promise.all(booked.map(async (shipment, index) => ({ number: index + 1, of, location: shipment.locationName, items: parcelItems(shipment), shipment: await toShipmentView(shipment) })));
  const toBookViews = toBook.map(({ parcel }, index) => ({ number: booked.length + index + 1, of, location: parcel.locationName, items: parcel.fields.products.map((product) => `${product.quantity} × ${product.product_name}`), shipment: null }));
  return [...bookedViews, ...toBookViews];
}

async function getForwardShipping(context: ExtensionContext, orderGid: string): Promise<OrderShipping> {
  const { record, standing: booked, everyParcelBooked, cancelled } = await readOrderShipping(context.shop, orderGid);
  const base = baseOf(orderGid, record, booked[0] ?? null);
  // Every parcel booked, as the order's record last said (no parcel failed since): shown from what Dakiya stored.
  if (everyParcelBooked) return answer(base, "shipment", { shipment: await toShipmentView(booked[0]!), parcels: await parcelViews(booked, []) });
  if (cancelled) return answer(base, "cancelled");
  if (record?.readiness === READINESS.FULFILLED && problemsOf(record).length > 0) return fromProblems(base, problemsOf(record));
  return quoteLive(context, orderGid, base, booked);
}

async function quoteLive(context: ExtensionContext, orderGid: string, base: Base, booked: readonly Shipment[]): Promise<OrderShipping> {
  try {
    const order = await getOrderForBooking(context.admin, orderGid);
    if (!order) return answer(base, "not_found");
    const named = { ...base, orderName: order.name };
    const quote = await quoteOrder(context, { orderGid, order });
    switch (quote.kind) {
      case "quoted":
        return answer(named, "ready", { rates: quote.rates.map(toRateView), parcels: await parcelViews(booked, quote.parcels) });
      case "already_booked":
        return answer(named, "shipment", { shipment: await toShipmentView(quote.shipment), parcels: await parcelViews(quote.shipments, []) });
      case "problems":
        return { ...fromProblems(named, quote.problems), ...(booked.length > 0 ? { parcels: await parcelViews(booked, []) } : {}) };
      case "unavailable":
        return answer(named, "unavailable", { message: quote.message });
      case "not_found":
        return answer(named, "not_found");
    }
  } catch (error) {
    if (error instanceof ShopifyUnavailableError) return answer(base, "unavailable", { message: await busyMessage(error) });
    throw error;
  }
}

/**
 * Books the merchant's chosen courier through the exactly-once booking (`bookOrder`), and answers the order as
 * it now is. A second booking of a booked order — a retry, a timed-out request sent again, another tab — is
 * "already booked" with the one shipment.
 */
export async function bookOrderShipping(context: ExtensionContext, orderGid: string, courierId: number): Promise<BookAnswer> {
  if (!isLogisticId(courierId)) {
    return { outcome: "refused", message: "That courier is not one Dakiya books with; choose one of the rates offered.", order: await getOrderShipping(context, orderGid) };
  }
  let outcome: BookOutcome;
  try {
    outcome = await bookOrder({ ...context, actor: { kind: "merchant", name: "Shopify order page" } }, { orderGid, courierId });
  } catch (error) {
    if (!(error instanceof ShopifyUnavailableError)) throw error;
    const message = await busyMessage(error);
    return { outcome: "unavailable", message, order: answer(baseOf(orderGid, await getOrderRecord(context.shop, orderGid), null), "unavailable", { message }) };
  }
  const reply = async (wire: WireBookOutcome, message: string | null, order?: OrderShipping): Promise<BookAnswer> => ({ outcome: wire, message, order: order ?? (await getOrderShipping(context, orderGid)) });
  const base = async () => baseOf(orderGid, await getOrderRecord(context.shop, orderGid), null);
  switch (outcome.kind) {
    case "booked":
      // Booked, or claimed and waiting for a courier that did not answer: Dakiya retries it, and the shipment says so.
      return reply("booked", outcome.shipments.find((shipment) => shipment.lastError)?.lastError ?? null);
    case "already_booked":
      return reply("already_booked", null);
    case "problems":
      return reply("problems", null, fromProblems(await base(), outcome.problems));
    case "refused":
      // The fresh order offers the rates again, to choose another courier.
      return reply("refused", bookOutcomeInWords(outcome));
    case "unavailable":
      return reply("unavailable", bookOutcomeInWords(outcome), answer(await base(), "unavailable", { message: outcome.message }));
    case "not_found":
      return reply("not_found", bookOutcomeInWords(outcome), answer(await base(), "not_found"));
    case "cancelled":
      // The contract has no "cancelled" outcome: a booking refused because the order is cancelled.
      return reply("refused", bookOutcomeInWords(outcome), answer(await base(), "cancelled"));
    case "quoted":
      // bookOrder never ends on a bare quote; were it to, nothing was booked.
      return reply("refused", bookOutcomeInWords(outcome));
  }
}

/**
 * "Sync now": every parcel's tracking read from the courier at once (`syncShipmentNow`, under its lock) and the
 * order answered as it now is. An order with nothing booked, or nothing to track yet, is answered as it is.
 */
export async function syncOrderShipping(context: ExtensionContext, orderGid: string): Promise<SyncAnswer> {
  const parcels = (await listShipmentsForOrder(context.shop, orderGid)).filter((shipment) => shipment.awb);
  for (const shipment of parcels) {
    try {
      await syncShipmentNow(context.shop, shipment.id, { admin: context.admin, now: context.now, actor: { kind: "merchant", name: "Shopify order page" } });
    } catch (error) {
      const message = error instanceof ShopifyUnavailableError ? await busyMessage(error) : error instanceof CourierError ? courierMessage(error) : null;
      if (message === null) throw error;
      return { order: answer(baseOf(orderGid, await getOrderRecord(context.shop, orderGid), shipment), "unavailable", { message }) };
    }
  }
  return { order: await getOrderShipping(context, orderGid) };
}

const toBulkResult = (result: ShipResult): BulkAnswer["results"][number] => ({
  orderId: result.orderGid,
  orderName: result.orderName,
  outcome: result.outcome,
  awb: result.awb,
  courierName: result.courierName,
  reason: result.reason,
});

/** Ships the selected orders by the shop's policy (its rules, else the recommended courier), one result per order sent. */
export async function shipOrdersInBulk(context: ExtensionContext, orderGids: readonly string[]): Promise<BulkAnswer> {
  const results = await shipOrders(context.shop, context.admin, [...new Set(orderGids)], { policy: "rules" });
  return { results: results.map(toBulkResult) };
}
