import type { Shipment, ShopSettings } from "@prisma/client";
import prisma from "~/db.server";
import { LOCK_SPACE, lockIdOf, withAdvisoryLock } from "~/locks.server";
import { courierClientFor, courierCredentialsOf, getShopSettings, toMappingSettings } from "~/settings/shop-settings.server";
import type { CourierClient } from "~/shipping/client.server";
import type { LogisticId } from "~/shipping/contract";
import { getOrderForBooking } from "~/shopify/admin-orders.server";
import type { ShopifyOrder } from "~/shopify/queries";
import { BOOKED_TAG, fulfillWithTracking, markOrderBooked, type BookedParcel } from "~/shopify/fulfillments.server";
import { isOpenFulfillmentOrder, toCourierOrder, type MappedParcel, type MappedShipment, type MappingProblem, type ShipmentOverrides } from "~/shopify/order-mapping";
import { withParcel } from "~/shopify/readiness-checks";
import { splitFulfillmentOrders } from "~/shopify/fulfillment-orders.server";
import { holdsBooking, isShipmentStatus, SHIPMENT_OUTCOME, SHIPMENT_STATUS } from "~/shipments/lifecycle";
import { listShipmentsForOrder } from "~/shipments/shipments.server";
import { coversBeforeParcels, markFulfilled, markFulfillmentRetrying, noteFulfillment, TransitionRefusedError } from "~/shipments/shipment-changes.server";
import { OUTCOME_WORDS, outcomeMessage, type BookOutcome, type NotBooked, type QuoteOutcome } from "~/booking/book-outcome";
import { shopifyReason } from "~/booking/stored-sentences";
import { alreadyBooked, bookShipment, byParcel, combinedRates, quoteMapped, type BookingContext, type Completion, type DeliveryDeps, type Shippable, type ShipmentDestination } from "~/booking/book-shipment.server";
import { recordRoutingText } from "~/documents/document-changes.server";
import { shopperTrackingUrl } from "~/storefront/storefront-settings.server";
import { adminStrings, fill, storedOr } from "~/locales/admin-language";
import { isOrderCancelled, orderBooked, orderBookingInterrupted, orderFreeAgain, orderStillToShip, parcelsAllFulfilled } from "./order-records.server";
import { confirmationHoldsBooking } from "~/cod/booking-guard.server";

/**
 * Booking an order: its parcels (one per open Shopify fulfillment order, the items one location ships in one box),
 * each given to the booking engine (app/booking/book-shipment.server.ts) as one thing to ship, one after another.
 * What the engine needs of an order's parcel — what to send the courier, where the result goes (the parcel's own
 * fulfillment in Shopify with its tracking, the order's tag and metafields) and who is told (the order's stored
 * readiness, the label's routing) — is here.
 */

export type { BookOutcome, QuoteOutcome, BookingContext };

export interface QuoteRequest {
  orderGid: string;
  /** The merchant's edits to the mapped shipment. */
  overrides?: ShipmentOverrides;
  /** The order as just read from Shopify, to save reading it again. */
  order?: ShopifyOrder | null;
  /** The shop's settings as just read, to save reading them again. */
  settings?: ShopSettings;
  /**
   * The order as an earlier stage of the same check or booking prepared it (prepareOrder), so an order is read,
   * its shop's settings read and the order mapped once however many stages follow. Made with this request's overrides.
   */
  prepared?: PreparedOrder;
}

/** One parcel of the order, as mapped, with the booking that stands for it already (none while it is still to book). */
export interface OrderParcel {
  parcel: MappedParcel;
  booking: Shipment | null;
}

/**
 * An order made ready to quote and book: the shop's settings, the order as Shopify holds it, the order mapped onto the
 * courier's fields with every problem that stops it (the readiness catalogue of shopify/order-mapping, each parcel's
 * pickup warehouse), and the order's parcels with their bookings. Only one with no problems carries the shipment to
 * quote and the courier client.
 */
export type PreparedOrder =
  | { settings: ShopSettings; order: null; mapped: null; parcels: []; problems: MappingProblem[]; outcome: { kind: "not_found" } }
  | { settings: ShopSettings; order: ShopifyOrder | null; mapped: MappedShipment | null; parcels: OrderParcel[]; problems: MappingProblem[]; outcome: { kind: "problems"; shipment: MappedShipment | null; problems: MappingProblem[] } }
  | { settings: ShopSettings; order: ShopifyOrder | null; mapped: MappedShipment | null; parcels: OrderParcel[]; problems: MappingProblem[]; outcome: Extract<QuoteOutcome, { kind: "already_booked" }> }
  | { settings: ShopSettings; order: ShopifyOrder | null; mapped: MappedShipment; parcels: OrderParcel[]; problems: []; shipment: MappedShipment; client: CourierClient; outcome?: undefined };

/**
 * The booking that already stands for a parcel: the shipment of its fulfillment order, or a booking made before
 * parcels that covers its location (until it is fulfilled).
 */
function bookingOf(parcel: MappedParcel, shipments: readonly Shipment[]): Shipment | null {
  const held = shipments.filter((shipment) => isShipmentStatus(shipment.status) && holdsBooking(shipment.status));
  return held.find((shipment) => shipment.fulfillmentOrderGid === parcel.fulfillmentOrderId) ?? held.find((shipment) => coversBeforeParcels(shipment, parcel.locationGid)) ?? null;
}

/** Outcomes of a parcel whose cash was never collected: it carries none of the order's. */
const COLLECTED_NOTHING: readonly string[] = [SHIPMENT_OUTCOME.RTO_INITIATED, SHIPMENT_OUTCOME.RTO_DELIVERED, SHIPMENT_OUTCOME.LOST, SHIPMENT_OUTCOME.DAMAGED, SHIPMENT_OUTCOME.CANCELLED];

/**
 * The cash on delivery the order's parcels shipped before with Dakiya carry (fulfilled, so their fulfillment orders are
 * closed and not among the parcels to book), less what Dakiya recorded in Shopify as paid for them: Shopify's
 * outstanding amount still counts the rest.
 */
async function codCarriedElsewhere(shop: string, order: ShopifyOrder, shipments: readonly Shipment[]): Promise<number> {
  const open = new Set(order.fulfillmentOrders.nodes.filter(isOpenFulfillmentOrder).map((fo) => fo.id));
  const shipped = shipments.filter((shipment) => shipment.status === SHIPMENT_STATUS.FULFILLED && shipment.direction === "forward" && (shipment.cashToCollectPaise ?? 0) > 0 && !COLLECTED_NOTHING.includes(shipment.outcome) && !(shipment.fulfillmentOrderGid && open.has(shipment.fulfillmentOrderGid)));
  if (shipped.length === 0) return 0;
  const { _sum } = await prisma.shopifyCodPayment.aggregate({ where: { shop, shipmentId: { in: shipped.map((shipment) => shipment.id) }, state: "recorded" }, _sum: { amountPaise: true } });
  return Math.max(0, shipped.reduce((sum, shipment) => sum + shipment.cashToCollectPaise!, 0) - (_sum.amountPaise ?? 0));
}

export async function prepareOrder({ shop, admin, now = () => new Date() }: BookingContext, { orderGid, overrides = {}, order: prefetched, settings: known }: QuoteRequest): Promise<PreparedOrder> {
  const [settings, shipments] = await Promise.all([known ?? getShopSettings(shop), listShipmentsForOrder(shop, orderGid)]);
  const order = prefetched === undefined ? await getOrderForBooking(admin, orderGid) : prefetched;
  if (!order) return { settings, order: null, mapped: null, parcels: [], problems: [], outcome: { kind: "not_found" } };
  const codCarriedElsewherePaise = await codCarriedElsewhere(shop, order, shipments);
  const { shipment, parcels: mappedParcels, problems: found } = toCourierOrder(order, { settings: toMappingSettings(settings), now: now(), overrides, codCarriedElsewherePaise });
  const parcels = mappedParcels.map((parcel) => ({ parcel, booking: bookingOf(parcel, shipments) }));
  // Nothing left to book (every parcel booked, the order fulfilled by its bookings): the bookings are the answer.
  const standing = shipments.filter((shipment) => isShipmentStatus(shipment.status) && holdsBooking(shipment.status));
  if (standing.length > 0 && parcels.every(({ booking }) => booking)) return { settings, order, mapped: shipment, parcels, problems: found, outcome: alreadyBooked(standing) };
  // A parcel booked already stops nothing: only what the parcels still to book need counts.
  const booked = new Set(parcels.filter(({ booking }) => booking).map(({ parcel }) => parcel));
  const problems = found.filter((problem) => !problem.params?.parcel || !parcels.some(({ parcel }) => booked.has(parcel) && parcel.problems.includes(problem)));
  if (!shipment || problems.length > 0) return { settings, order, mapped: shipment, parcels, problems, outcome: { kind: "problems", shipment, problems } };
  return { settings, order, mapped: shipment, parcels, problems: [], shipment, client: courierClientFor(courierCredentialsOf(settings)) };
}

/**
 * The rates every courier offers for an order as it would be booked now: for each parcel still to book, and for the
 * order as a whole (each courier's charges over every parcel, where a courier that does not serve a parcel's route
 * counts that parcel's recommended courier, as booking would book it). An order with one parcel is quoted as that parcel.
 */
export async function quoteOrder(context: BookingContext, request: QuoteRequest): Promise<QuoteOutcome> {
  const prepared = request.prepared ?? (await prepareOrder(context, request));
  if (prepared.outcome) return prepared.outcome;
  const pending = prepared.parcels.filter(({ booking }) => !booking);
  const quotes = await Promise.all(pending.map(({ parcel }) => quoteMapped(prepared.client, parcel)));
  const problems = quotes.flatMap((quote, index) => (quote.kind === "problems" ? quote.problems.map((problem) => inParcelOf(pending[index]!.parcel, problem)) : []));
  if (problems.length > 0) return { kind: "problems", shipment: prepared.shipment, problems };
  const down = quotes.find((quote) => quote.kind === "unavailable");
  if (down) return { ...down, shipment: prepared.shipment };
  const parcels = quotes.map((quote, index) => ({ parcel: pending[index]!.parcel, warehouse: (quote as QuotedShipment).warehouse, rates: (quote as QuotedShipment).rates }));
  return { kind: "quoted", shipment: prepared.shipment, warehouse: parcels[0]!.warehouse, rates: parcels.length === 1 ? parcels[0]!.rates : combinedRates(parcels), parcels };
}

type QuotedShipment = Extract<QuoteOutcome, { kind: "quoted" }>;

/** A problem a parcel's quote found, said of that parcel when the order has several. */
const inParcelOf = (parcel: MappedParcel, problem: MappingProblem) =>
  parcel.count > 1 ? withParcel(problem, { number: parcel.position, of: parcel.count, location: parcel.locationName }) : problem;

/** An outcome of one parcel of several, its words saying which parcel. */
function inParcelOutcome<T extends BookOutcome>(parcel: MappedParcel, outcome: T): T {
  if (parcel.count <= 1) return outcome;
  if (outcome.kind === "problems") return { ...outcome, problems: outcome.problems.map((problem) => inParcelOf(parcel, problem)) };
  if (outcome.kind !== "refused" && outcome.kind !== "unavailable") return outcome;
  const which = { number: parcel.position, of: parcel.count, location: parcel.locationName ?? adminStrings("en").problems.unknownLocation };
  const said = outcome.code ? outcomeMessage(outcome.code) : outcome.message;
  return { ...outcome, code: undefined, message: fill(adminStrings("en").problems.inParcel, { ...which, message: said }), words: { key: "problems.inParcel", values: { ...which, message: outcome.code ? { key: `outcomes.booking.${OUTCOME_WORDS[outcome.code]}` } : storedOr(outcome.kind === "refused" ? outcome.words : undefined, said) } } };
}

// ─── Where an order's parcel goes ─────────────────────────────────────────────────────────────────────────────────

/**
 * An order's parcel, to the booking engine: the order's readiness follows its bookings, the label keeps the courier's
 * routing, the shopper's link is the tracking page (on the shop's own domain when the merchant chose it), and once
 * booked the parcel's own fulfillment order is fulfilled with the courier, awb and link, the order tagged and every
 * parcel's awb in its metafields.
 */
export const ORDER_PARCELS: ShipmentDestination = {
  isCancelled: (key, db) => isOrderCancelled(key, db),
  async waitsFor(tx, { shop, orderGid }) {
    // The ask takes the order's claim lock too (app/cod/confirmation.server.ts): an ask and a claim never cross.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_SPACE.ORDER_PARCELS}::int, ${lockIdOf(`${shop}|${orderGid}`)}::int)`;
    return (await confirmationHoldsBooking(tx, shop, orderGid)) ? "awaiting_shopper" : null;
  },
  claimed: (tx, shipment) => orderBooked(tx, shipment),
  async notBooked(shipment, { interrupted }) {
    await orderFreeAgain(shipment);
    // An automatic booking interrupted before it reached the courier (its worker died) is not left for the merchant to
    // notice: the order is checked again, and the rules book it through a fresh claim.
    if (interrupted) await orderBookingInterrupted(shipment);
  },
  trackingUrl: (shipment, { awb, courierUrl }) => shopperTrackingUrl(shipment.shop, awb, courierUrl),
  booked: (shipment, { routingText }) => recordRoutingText(shipment.shop, shipment.id, routingText),
  deliver: fulfillParcel,
};

/** Fulfills the parcel's own fulfillment order with the courier, awb and tracking link, then tags the order. */
async function fulfillParcel(start: Shipment, { admin, settings, order, change }: DeliveryDeps): Promise<Completion> {
  let shipment = start;
  const tracked = {
    orderGid: shipment.orderGid,
    awb: shipment.awb!,
    courierName: shipment.courierName!,
    trackingUrl: shipment.trackingUrl!,
    fulfillmentOrderGid: shipment.fulfillmentOrderGid,
    locationGid: shipment.locationGid,
    notifyCustomer: settings.notifyCustomer,
  };
  try {
    const outcome = await fulfillWithTracking(admin, tracked, order);
    if (outcome.kind === "refused") {
      shipment = await markFulfillmentRetrying(shipment, { key: "activity.stored.fulfillmentRefused", values: { awb: tracked.awb, reason: outcome.message } }, change());
      return { shipment, retry: false };
    }
    await noteFulfillment(shipment, outcome.fulfillmentGid);
    const { parcels, tagged } = await bookedParcelsOf(shipment);
    await markOrderBooked(admin, shipment.orderGid, parcels, { tagged: tagged || Boolean(order?.tags.includes(BOOKED_TAG)) });
    const fulfilled = await markFulfilled(shipment, outcome.fulfillmentGid, change());
    await parcelFulfilled(fulfilled);
    return { shipment: fulfilled, retry: false };
  } catch (error) {
    if (error instanceof TransitionRefusedError) throw error;
    shipment = await markFulfillmentRetrying(shipment, { key: "activity.stored.fulfillmentWaiting", values: { awb: tracked.awb, reason: shopifyReason(error) } }, change());
    return { shipment, retry: true };
  }
}

/**
 * The order's parcels with an awb, parcel 1 first, as its metafields list them; and whether the order is tagged
 * already: another of its parcels is fulfilled, which it is only once its own marking went through.
 */
async function bookedParcelsOf(shipment: Pick<Shipment, "id" | "shop" | "orderGid">): Promise<{ parcels: BookedParcel[]; tagged: boolean }> {
  const parcels = await listShipmentsForOrder(shipment.shop, shipment.orderGid);
  return {
    parcels: parcels.flatMap((parcel) => (parcel.awb && parcel.courierName && parcel.trackingUrl && parcel.status !== SHIPMENT_STATUS.CANCELLED ? [{ awb: parcel.awb, courierName: parcel.courierName, trackingUrl: parcel.trackingUrl }] : [])),
    tagged: parcels.some((parcel) => parcel.id !== shipment.id && parcel.status === SHIPMENT_STATUS.FULFILLED),
  };
}

/**
 * A fulfilled parcel: the order is fulfilled once every parcel Dakiya holds of it is. (A parcel not claimed yet, were
 * its booking interrupted before, is found by the next check of the order, which this fulfillment's change brings.)
 */
async function parcelFulfilled(shipment: Pick<Shipment, "shop" | "orderGid">): Promise<void> {
  const parcels = await listShipmentsForOrder(shipment.shop, shipment.orderGid);
  if (parcels.every((parcel) => parcel.status === SHIPMENT_STATUS.FULFILLED || parcel.status === SHIPMENT_STATUS.CANCELLED)) await parcelsAllFulfilled(shipment);
}

// ─── Booking an order ─────────────────────────────────────────────────────────────────────────────────────────────

export interface BookingRequest extends QuoteRequest {
  courierId: LogisticId;
  /**
   * Rates quoted for this order a moment ago (an automatic booking decides on them): each parcel is booked on them
   * without quoting again when it still maps to the same shipment. The Book button quotes again, since its rates may
   * be minutes old.
   */
  quoted?: Extract<QuoteOutcome, { kind: "quoted" }>;
  /** Book only this parcel (its fulfillment order); otherwise every parcel of the order not booked yet. */
  fulfillmentOrderId?: string;
}

/** One parcel of a prepared order, as the engine books it. */
function parcelToShip({ shop, orderGid }: { shop: string; orderGid: string }, prepared: Extract<PreparedOrder, { outcome?: undefined }>, parcel: MappedParcel): Shippable {
  return {
    key: { shop, orderGid, direction: "forward", parcel: { fulfillmentOrderGid: parcel.fulfillmentOrderId, locationGid: parcel.locationGid, openFulfillmentOrderGids: prepared.parcels.map((each) => each.parcel.fulfillmentOrderId) } },
    destination: ORDER_PARCELS,
    // Read with its order, before the claim: the order's parcels are claimed one after another on one reading.
    read: async () => ({ mapped: parcel, settings: prepared.settings, client: prepared.client, order: prepared.order }),
    fallsBackToRecommended: parcel.count > 1,
    said: (outcome) => inParcelOutcome(parcel, outcome),
  };
}

/**
 * Books an order's parcels, each exactly once: every parcel not booked yet (or the one asked for), one after another,
 * each with the chosen courier (of several parcels: each where the chosen courier does not serve its route, with its
 * recommended one). A fulfillment order of more than 10 products is first split in Shopify into parcels of at most 10.
 *
 * The outcome is the order's: booked (every parcel now stands booked), or why a parcel was not, with the parcels
 * booked before it (`booked`). The parcels that could be booked stay booked.
 */
export async function bookOrder(context: BookingContext, request: BookingRequest): Promise<BookOutcome> {
  let prepared = request.prepared ?? (await prepareOrder(context, request));
  if (prepared.outcome) return prepared.outcome;
  if (prepared.parcels.some(({ parcel, booking }) => parcel.splitOff && !booking)) {
    const split = await splitOversizedParcels(context, request.orderGid);
    if (!split.ok) return { kind: "refused", message: split.message, fieldErrors: [] };
    prepared = await prepareOrder(context, { ...request, order: split.order, prepared: undefined });
    if (prepared.outcome) return prepared.outcome;
  }
  const ready = prepared;
  const pending = ready.parcels.filter(({ parcel, booking }) => !booking && (request.fulfillmentOrderId === undefined || parcel.fulfillmentOrderId === request.fulfillmentOrderId));
  if (pending.length === 0) {
    // The parcel asked for: booked meanwhile, or no longer in the order as Shopify holds it.
    const asked = ready.parcels.find(({ parcel }) => parcel.fulfillmentOrderId === request.fulfillmentOrderId)?.booking;
    return asked ? alreadyBooked([asked]) : { kind: "refused", code: "parcel_gone", message: outcomeMessage("parcel_gone"), fieldErrors: [] };
  }
  const booked = ready.parcels.flatMap(({ booking }) => (booking ? [booking] : []));
  let bookedHere = false;
  let stopped: NotBooked | null = null;
  for (const { parcel } of pending) {
    const outcome = await bookShipment(context, parcelToShip({ shop: context.shop, orderGid: request.orderGid }, ready, parcel), request);
    if (outcome.kind === "booked" || outcome.kind === "already_booked") booked.push(...outcome.shipments);
    // A cancelled order books nothing more; a courier that refuses one parcel may still take the next.
    else if (outcome.kind === "cancelled") return booked.length > 0 ? { ...outcome, booked } : outcome;
    else stopped ??= outcome;
    bookedHere ||= outcome.kind === "booked";
  }
  // A parcel left to book (the merchant booked one of several, or one was refused): the order stays to ship.
  if (ready.parcels.some(({ parcel, booking }) => !booking && !booked.some((shipment) => shipment.fulfillmentOrderGid === parcel.fulfillmentOrderId))) {
    await orderStillToShip({ shop: context.shop, orderGid: request.orderGid });
  }
  if (stopped) return booked.length > 0 ? { ...stopped, booked: byParcel(booked) } : stopped;
  // Every parcel was someone else's to book (a double click, a webhook racing the page): already booked.
  return bookedHere ? { kind: "booked", shipment: byParcel(booked)[0]!, shipments: byParcel(booked) } : alreadyBooked(booked);
}

/**
 * The order's fulfillment orders of more than 10 products split in Shopify into parts of at most 10 (the mapping's
 * parcels), and the order read again. One booking of the order at a time does it (another waits, then finds it done).
 */
async function splitOversizedParcels(context: BookingContext, orderGid: string): Promise<{ ok: true; order: ShopifyOrder | null } | { ok: false; message: string }> {
  return withAdvisoryLock(
    LOCK_SPACE.ORDER,
    lockIdOf(`${context.shop}|${orderGid}`),
    async () => {
      const fresh = await prepareOrder(context, { orderGid });
      const splits = fresh.parcels.filter(({ parcel, booking }) => parcel.splitOff && !booking).map(({ parcel }) => ({ fulfillmentOrderId: parcel.fulfillmentOrderId, lines: parcel.lines }));
      if (splits.length === 0) return { ok: true as const, order: fresh.order };
      const done = await splitFulfillmentOrders(context.admin, splits);
      if (!done.ok) return { ok: false as const, message: fill(adminStrings("en").outcomes.booking.splitRefused, { reason: done.message }) };
      return { ok: true as const, order: await getOrderForBooking(context.admin, orderGid) };
    },
    { wait: true },
  );
}
