import { Prisma, type Shipment, type ShopSettings } from "@prisma/client";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { getConfig } from "~/config.server";
import prisma from "~/db.server";
import { enqueue } from "~/jobs/job-queue.server";
import { LOCK_SPACE, LockBusyError, lockIdOf, withAdvisoryLock } from "~/locks.server";
import { fromPaise, toPaise } from "~/money";
import { courierClientFor, courierCredentialsOf, getShopSettings, toMappingSettings } from "~/settings/shop-settings.server";
import { CourierError, type CourierClient } from "~/shipping/client.server";
import { isLogisticId, type CreateOrderInput, type LogisticId } from "~/shipping/contract";
import { rankRates, type RankedRate } from "~/shipping/rate-ranking";
import { getOrderForBooking } from "~/shopify/admin-orders.server";
import type { ShopifyOrder } from "~/shopify/queries";
import { fulfillWithTracking, markOrderBooked, type BookedParcel } from "~/shopify/fulfillments.server";
import { toCourierOrder, type MappedParcel, type MappedShipment, type MappingProblem, type ShipmentOverrides } from "~/shopify/order-mapping";
import { orderProblem, withParcel } from "~/shopify/readiness-checks";
import { splitFulfillmentOrders } from "~/shopify/fulfillment-orders.server";
import { DECISION, READINESS, type Readiness } from "~/orders/readiness";
import { holdsBooking, isShipmentStatus, SHIPMENT_STATUS, type Actor } from "~/shipments/lifecycle";
import { OUTCOME_WORDS, outcomeForWords, outcomeMessage, type BookOutcome, type NotBooked, type OutcomeCode, type ParcelQuote, type QuoteOutcome } from "./book-outcome";
import { listShipmentsForOrder } from "./shipments.server";
import { courierChoiceWords, courierSentence, outcomeLabelSentence, shopifyReason } from "./stored-sentences";
import { courierOrderId, isOrderIdTaken } from "./courier-order-id";
import { type Change, type Claim as ClaimedRow, type ParcelClaim, SHIPMENT_TRANSACTION, chooseCourier, claimShipment as claimRow, coversBeforeParcels, markBooked, markBookingRetrying, markFailed, markFulfilled, markFulfillmentRetrying, markReturnDispatched, noteFulfillment, releaseClaim as releaseRow, TransitionRefusedError } from "~/shipments/shipment-changes.server";
import { recordRoutingText, returnLabelUrl } from "~/documents/documents.server";
import { shopDomainTrackingUrl } from "~/storefront/storefront-settings.server";
import { attachReverseDelivery, getReturnForPickup, isReturnGid } from "~/shopify/admin-returns.server";
import { toReverseCourierOrder, type MappedReturn } from "~/returns/return-mapping";
import type { ShopifyReturn } from "~/shopify/return-queries";
import { adminStrings, fill, storedOr, type Sentence, type StoredWords } from "~/locales/admin-language";
import { returnSettingsOf } from "~/returns/return-settings";
import { confirmationHoldsBooking } from "~/cod/booking-guard.server";

/**
 * A booking left in `booking` this long without a body sent was interrupted before it reached the courier; the
 * watchdog job that every claim enqueues runs this long after the claim (BOOKING_RESUME_SECONDS, 2 minutes).
 */
const staleBookingMs = () => getConfig().BOOKING_RESUME_SECONDS * 1000;

export type { BookOutcome, QuoteOutcome };

export interface BookingContext {
  shop: string;
  admin: ShopAdmin;
  now?: () => Date;
  /** Who books: the rule that decided, or the merchant on a screen (the shipment's history names them). */
  actor?: Actor;
}

/** A booking with no actor named is the merchant's, from Dakiya's ship page. */
export const MERCHANT_ON_SHIP_PAGE: Actor = { kind: "merchant", name: "Ship order page" };

export interface QuoteRequest {
  orderGid: string;
  /** The merchant's edits to the mapped shipment. */
  overrides?: ShipmentOverrides;
  /** The order as just read from Shopify, to save reading it again. */
  order?: ShopifyOrder | null;
  /** The shop's settings as just read, to save reading them again. */
  settings?: ShopSettings;
  /** For a return's pickup: the return as just read from Shopify, likewise. */
  returnRead?: ShopifyReturn | null;
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
 * An order (or a return's pickup) made ready to quote and book: the shop's settings, the order as Shopify holds it
 * (none for a return), the order mapped onto the courier's fields with every problem that stops it (the readiness
 * catalogue of shopify/order-mapping, each parcel's pickup warehouse), and the order's parcels with their bookings.
 * Only one with no problems carries the shipment to quote and the courier client.
 */
export type PreparedOrder =
  | { settings: ShopSettings; order: null; mapped: null; parcels: []; problems: MappingProblem[]; outcome: { kind: "not_found" } }
  | { settings: ShopSettings; order: ShopifyOrder | null; mapped: MappedShipment | null; parcels: OrderParcel[]; problems: MappingProblem[]; outcome: { kind: "problems"; shipment: MappedShipment | null; problems: MappingProblem[] } }
  | { settings: ShopSettings; order: ShopifyOrder | null; mapped: MappedShipment | null; parcels: OrderParcel[]; problems: MappingProblem[]; outcome: Extract<QuoteOutcome, { kind: "already_booked" }> }
  | { settings: ShopSettings; order: ShopifyOrder | null; mapped: MappedShipment; parcels: OrderParcel[]; problems: []; shipment: MappedShipment; client: CourierClient; outcome?: undefined };

const prepare = (context: BookingContext, request: QuoteRequest): Promise<PreparedOrder> =>
  request.prepared ? Promise.resolve(request.prepared) : isReturnGid(request.orderGid) ? prepareReturn(context, request) : prepareOrder(context, request);

/**
 * A return's pickup goes through the same claim and courier path as an order: its Shipment is keyed by the
 * Return's id (one pickup per return, its parcel 1), and its fields are the reverse mapping's (app/returns/return-mapping.ts).
 */
async function prepareReturn({ shop, admin, now = () => new Date() }: BookingContext, { orderGid: returnGid, returnRead, settings: known }: QuoteRequest): Promise<PreparedOrder> {
  const settings = known ?? (await getShopSettings(shop));
  const ret = returnRead === undefined ? await getReturnForPickup(admin, returnGid) : returnRead;
  if (!ret) return { settings, order: null, mapped: null, parcels: [], problems: [], outcome: { kind: "not_found" } };
  const { shipment, problems } = toReverseCourierOrder(ret, { settings: toMappingSettings(settings), now: now() });
  const mapped = shipment as MappedShipment | null;
  if (!mapped || problems.length > 0) return { settings, order: null, mapped, parcels: [], problems, outcome: { kind: "problems", shipment: mapped, problems } };
  return { settings, order: null, mapped, parcels: [], problems: [], shipment: mapped, client: courierClientFor(courierCredentialsOf(settings)) };
}

/**
 * The booking that already stands for a parcel: the shipment of its fulfillment order, or a booking made before
 * parcels that covers its location (until it is fulfilled).
 */
function bookingOf(parcel: MappedParcel, shipments: readonly Shipment[]): Shipment | null {
  const held = shipments.filter((shipment) => isShipmentStatus(shipment.status) && holdsBooking(shipment.status));
  return held.find((shipment) => shipment.fulfillmentOrderGid === parcel.fulfillmentOrderId) ?? held.find((shipment) => coversBeforeParcels(shipment, parcel.locationGid)) ?? null;
}

export async function prepareOrder({ shop, admin, now = () => new Date() }: BookingContext, { orderGid, overrides = {}, order: prefetched, settings: known }: QuoteRequest): Promise<PreparedOrder> {
  const [settings, shipments] = await Promise.all([known ?? getShopSettings(shop), listShipmentsForOrder(shop, orderGid)]);
  const order = prefetched === undefined ? await getOrderForBooking(admin, orderGid) : prefetched;
  if (!order) return { settings, order: null, mapped: null, parcels: [], problems: [], outcome: { kind: "not_found" } };
  const { shipment, parcels: mappedParcels, problems: found } = toCourierOrder(order, { settings: toMappingSettings(settings), now: now(), overrides });
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
  const prepared = await prepare(context, request);
  if (prepared.outcome) return prepared.outcome;
  if (isReturnGid(request.orderGid)) return quoteMapped(prepared.client, prepared.shipment);
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

/** The courier a parcel is booked with: the one chosen, or (of several parcels) its recommended one where the chosen one does not serve its route. */
function rateFor(rates: readonly RankedRate[], courierId: number, { fallBack }: { fallBack: boolean }): RankedRate | undefined {
  return rates.find((rate) => rate.id === courierId) ?? (fallBack ? rates.find((rate) => rate.isRecommended) : undefined);
}

/**
 * Each courier's offer for every parcel together: its charges summed over the parcels (a parcel it does not serve at
 * its recommended courier's), the latest delivery days of any parcel, and ranked as one order's rates are.
 */
function combinedRates(parcels: readonly ParcelQuote[]): RankedRate[] {
  const couriers = [...new Map(parcels.flatMap(({ rates }) => rates.map((rate) => [rate.id, rate] as const))).values()];
  const sum = (values: number[]) => fromPaise(values.reduce((total, value) => total + toPaise(value), 0));
  return rankRates(
    couriers.map((courier) => {
      const each = parcels.map(({ rates }) => rateFor(rates, courier.id, { fallBack: true })!);
      const [minDays, maxDays] = [Math.max(...each.map((rate) => Number(rate.edd.split("-")[0]!.trim()))), Math.max(...each.map((rate) => Number(rate.edd.split("-").pop()!.trim())))];
      const zones = [...new Set(each.map((rate) => rate.zone))];
      return {
        id: courier.id,
        type: courier.type,
        name: courier.name,
        chargeable_weight: `${Math.round(each.reduce((total, rate) => total + (Number.parseFloat(rate.chargeable_weight) || 0), 0) * 1000) / 1000} KG`,
        freight_charges: sum(each.map((rate) => rate.freight_charges)),
        cod_charges: sum(each.map((rate) => rate.cod_charges)),
        total_charges: sum(each.map((rate) => rate.total_charges)),
        zone: zones.length === 1 ? zones[0]! : zones.join(" / "),
        edd: `${minDays} - ${maxDays}`,
      };
    }),
  );
}

/** One shipment's rates: a parcel of an order, or a return's pickup. */
async function quoteMapped(client: CourierClient, shipment: MappedShipment): Promise<QuoteOutcome> {
  try {
    const warehouse = await client.getWarehouse(shipment.fields.warehouse_id!);
    // A return is quoted as a reverse shipment between the same two PIN codes (the spec's pickup is the warehouse's).
    const rates = await client.calculateRate({
      shipment_type: shipment.fields.order_type,
      payment_mode: shipment.fields.payment_mode,
      pickup: warehouse.pincode,
      delivery: shipment.fields.pincode,
      length: shipment.fields.package_length,
      breadth: shipment.fields.package_breadth,
      height: shipment.fields.package_height,
      actual_weight: shipment.fields.package_weight,
      amount: shipment.fields.total_amount,
    });
    if (rates.logistics.length === 0) {
      return { kind: "problems", shipment, problems: [orderProblem("NO_COURIER", { city: warehouse.city, from: warehouse.pincode, to: shipment.fields.pincode })] };
    }
    return { kind: "quoted", shipment, warehouse, rates: rankRates(rates.logistics), parcels: [] };
  } catch (error) {
    if (!(error instanceof CourierError)) throw error;
    if (error.kind === "not_found") {
      return { kind: "problems", shipment, problems: [orderProblem("NO_WAREHOUSE", shipment.fields.warehouse_id)] };
    }
    return { kind: "unavailable", shipment, ...courierTrouble(error) };
  }
}

/**
 * The courier already holds the order_id this booking sent, for another order: booked on the courier's own panel, or
 * cancelled there. Nothing was booked; the merchant's next booking sends a new order_id.
 */
function orderIdTakenMessage(shipment: Shipment): StoredWords {
  const sent = (JSON.parse(shipment.requestPayload) as Pick<CreateOrderInput, "order_id">).order_id;
  const number = shipment.orderName.replace(/^#/, "") || sent;
  return { key: "activity.stored.orderIdTaken", values: { sent, next: courierOrderId(number, { parcel: shipment.parcel, attempt: shipment.courierOrderAttempt + 1 }) } };
}

/** What the courier service's failure means to the merchant: Dakiya's words by code, or the service's own. */
function courierTrouble(error: CourierError): { message: string; code?: OutcomeCode } {
  const coded = (code: OutcomeCode) => ({ message: outcomeMessage(code), code });
  if (error.kind === "unauthorized") return coded("keys_refused");
  if (error.kind === "unavailable") return coded("no_answer");
  if (error.fieldErrors.length > 0) return { message: error.fieldErrors.map((fieldError) => fieldError.message).join("; ") };
  return { message: error.message };
}

export const courierMessage = (error: CourierError): string => courierTrouble(error).message;

/** The same, to store: Dakiya's words by code, or the service's own message as it said it. */
export const courierMessageWords = (error: CourierError): Sentence => courierSentence(courierTrouble(error));

type Claim = ClaimedRow | { kind: "cancelled" } | { kind: "awaiting_shopper" };

/**
 * The parcel's Shipment row in state `booking` (a return's pickup: its return's), or the row someone else holds. A
 * failed booking may be claimed again. In the same transaction, the watchdog job that finishes (or cleans up) this
 * booking if the claimant dies is enqueued: a claim never exists without the work that completes it.
 */
async function claimShipment(shop: string, orderGid: string, parcel: ParcelClaim | undefined, now: Date, actor: Actor): Promise<Claim> {
  return prisma.$transaction(async (tx) => {
    // An order seen cancelled (orders/cancelled records it before anything else) is never booked from then on, nor
    // is a return seen declined or cancelled.
    if ((await tx.orderRecord.findUnique({ where: { shop_orderGid: { shop, orderGid } }, select: { cancelledAt: true } }))?.cancelledAt) return { kind: "cancelled" };
    if (!isReturnGid(orderGid)) {
      // An order whose shopper is asked to confirm cash on delivery waits for them (and for Dakiya's hold to go). The
      // ask takes the order's claim lock too, so an ask and a claim of one order never cross.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_SPACE.ORDER_PARCELS}::int, ${lockIdOf(`${shop}|${orderGid}`)}::int)`;
      if (await confirmationHoldsBooking(tx, shop, orderGid)) return { kind: "awaiting_shopper" };
    }
    if (isReturnGid(orderGid) && (await tx.returnRecord.findUnique({ where: { shop_returnGid: { shop, returnGid: orderGid } }, select: { cancelledAt: true } }))?.cancelledAt) return { kind: "cancelled" };
    const claim = await claimRow(tx, { shop, orderGid, parcel }, { actor, at: now });
    if (claim.kind === "taken") return claim;
    await enqueue("shipment-complete", { shop, shipmentId: claim.shipment.id }, { tx, startAfter: new Date(now.getTime() + staleBookingMs()) });
    await setReadiness(tx, claim.shipment, READINESS.SHIPMENT);
    return claim;
  }, SHIPMENT_TRANSACTION);
}

/** Nothing was sent to the courier: the order is free to be booked again. */
async function releaseClaim(shipment: Shipment, isNew: boolean, change: Change, reason: Sentence | null): Promise<void> {
  await releaseRow(shipment, { isNew, reason }, change);
  await orderFreeAgain(shipment);
}

/** Keeps the order's stored readiness in step with its booking, for the lists that read it. */
async function setReadiness(db: Pick<typeof prisma, "orderRecord" | "returnRecord">, shipment: Pick<Shipment, "shop" | "orderGid">, readiness: Readiness): Promise<void> {
  if (isReturnGid(shipment.orderGid)) {
    await db.returnRecord.updateMany({ where: { shop: shipment.shop, returnGid: shipment.orderGid, cancelledAt: null }, data: { readiness } });
    return;
  }
  await db.orderRecord.updateMany({ where: { shop: shipment.shop, orderGid: shipment.orderGid, readiness: { not: READINESS.CANCELLED } }, data: { readiness } });
}

/**
 * A fulfilled parcel: the order is fulfilled once every parcel Dakiya holds of it is. (A parcel not claimed yet, were
 * its booking interrupted before, is found by the next check of the order, which this fulfillment's change brings.)
 */
async function parcelFulfilled(shipment: Pick<Shipment, "shop" | "orderGid">): Promise<void> {
  const parcels = await listShipmentsForOrder(shipment.shop, shipment.orderGid);
  if (!parcels.every((parcel) => parcel.status === SHIPMENT_STATUS.FULFILLED || parcel.status === SHIPMENT_STATUS.CANCELLED)) return;
  // Only a booking under way becomes fulfilled: an order with a parcel still to book (ready) stays listed.
  await prisma.orderRecord.updateMany({ where: { shop: shipment.shop, orderGid: shipment.orderGid, readiness: READINESS.SHIPMENT }, data: { readiness: READINESS.FULFILLED } });
}

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

/** The rates quoted for exactly this shipment, if the request carries them. */
function quoteFor(request: BookingRequest, mapped: MappedShipment): { kind: "quoted"; rates: RankedRate[] } | null {
  const same = (quoted: MappedShipment) => JSON.stringify(quoted.fields) === JSON.stringify(mapped.fields);
  if (!request.quoted) return null;
  const quoted = request.quoted.parcels.length === 0 ? (same(request.quoted.shipment) ? request.quoted : null) : request.quoted.parcels.find((each) => same(each.parcel));
  return quoted ? { kind: "quoted", rates: quoted.rates } : null;
}

/** What one parcel is booked with: the order as prepared, and the parcel. */
interface ParcelBooking {
  prepared: Extract<PreparedOrder, { outcome?: undefined }>;
  parcel: MappedParcel;
}

/**
 * Books an order's parcels, each exactly once: every parcel not booked yet (or the one asked for), one after another,
 * each with the chosen courier (of several parcels: each where the chosen courier does not serve its route, with its
 * recommended one). A fulfillment order of more than 10 products is first split in Shopify into parcels of at most 10.
 * A return's pickup is booked as one parcel. Each parcel's Shipment row is claimed in state `booking` before Shopify or
 * the courier is called, so double clicks, concurrent requests and a webhook racing the UI all meet the same row and
 * only one goes on. The claimant holds the shipment's lock while it works; the body sent is stored with the row
 * before it is sent, so any retry resends it verbatim and the service replays the same awb.
 *
 * The outcome is the order's: booked (every parcel now stands booked), or why a parcel was not, with the parcels
 * booked before it (`booked`). The parcels that could be booked stay booked.
 */
export async function bookOrder(context: BookingContext, request: BookingRequest): Promise<BookOutcome> {
  if (isReturnGid(request.orderGid)) return bookParcel(context, request, null);
  let prepared = await prepare(context, request);
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
    const outcome = await bookParcel(context, request, { prepared: ready, parcel });
    if (outcome.kind === "booked" || outcome.kind === "already_booked") booked.push(...outcome.shipments);
    // A cancelled order books nothing more; a courier that refuses one parcel may still take the next.
    else if (outcome.kind === "cancelled") return booked.length > 0 ? { ...outcome, booked } : outcome;
    else stopped ??= outcome;
    bookedHere ||= outcome.kind === "booked";
  }
  // A parcel left to book (the merchant booked one of several, or one was refused): the order stays to ship.
  if (ready.parcels.some(({ parcel, booking }) => !booking && !booked.some((shipment) => shipment.fulfillmentOrderGid === parcel.fulfillmentOrderId))) {
    await prisma.orderRecord.updateMany({ where: { shop: context.shop, orderGid: request.orderGid, readiness: { in: [READINESS.SHIPMENT, READINESS.FULFILLED] } }, data: { readiness: READINESS.READY } });
  }
  if (stopped) return booked.length > 0 ? { ...stopped, booked: byParcel(booked) } : stopped;
  // Every parcel was someone else's to book (a double click, a webhook racing the page): already booked.
  return bookedHere ? { kind: "booked", shipment: byParcel(booked)[0]!, shipments: byParcel(booked) } : alreadyBooked(booked);
}

const byParcel = (shipments: readonly Shipment[]) => [...new Map(shipments.map((shipment) => [shipment.id, shipment])).values()].sort((a, b) => a.parcel - b.parcel);
const alreadyBooked = (shipments: readonly Shipment[]): Extract<BookOutcome, { kind: "already_booked" }> => ({ kind: "already_booked", shipment: byParcel(shipments)[0]!, shipments: byParcel(shipments) });

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

/** The claim of one parcel: its fulfillment order, where it ships from, and the order's fulfillment orders still open. */
function parcelClaimOf({ prepared, parcel }: ParcelBooking): ParcelClaim {
  return { fulfillmentOrderGid: parcel.fulfillmentOrderId, locationGid: parcel.locationGid, openFulfillmentOrderGids: prepared.parcels.map((each) => each.parcel.fulfillmentOrderId) };
}

/** Books one parcel (`target`), or a return's pickup (none), exactly once. */
async function bookParcel(context: BookingContext, request: BookingRequest, target: ParcelBooking | null): Promise<BookOutcome> {
  const { shop } = context;
  const now = context.now ?? (() => new Date());
  const claim = await claimShipment(shop, request.orderGid, target ? parcelClaimOf(target) : undefined, now(), context.actor ?? MERCHANT_ON_SHIP_PAGE);
  if (claim.kind === "cancelled") return { kind: "cancelled" };
  if (claim.kind === "awaiting_shopper") return { kind: "refused", code: "awaiting_shopper", message: outcomeMessage("awaiting_shopper"), fieldErrors: [] };
  if (claim.kind === "taken") return alreadyBooked([claim.shipment]);
  try {
    return await withAdvisoryLock(LOCK_SPACE.SHIPMENT, claim.shipment.id, () => bookClaimed(context, claim, request, target));
  } catch (error) {
    if (!(error instanceof LockBusyError)) throw error;
    return alreadyBooked([await prisma.shipment.findUniqueOrThrow({ where: { id: claim.shipment.id } })]);
  }
}

async function bookClaimed(context: BookingContext, { shipment: claimed, isNew }: { shipment: Shipment; isNew: boolean }, request: BookingRequest, target: ParcelBooking | null): Promise<BookOutcome> {
  const { courierId } = request;
  const now = context.now ?? (() => new Date());
  const actor = context.actor ?? MERCHANT_ON_SHIP_PAGE;
  const release = (outcome: BookOutcome): Promise<BookOutcome> => releaseClaim(claimed, isNew, { actor, at: now() }, releaseReason(outcome)).then(() => outcome);

  let prepared: PreparedOrder;
  try {
    // An order's parcel was prepared with the order; a return's pickup is read now, under its claim.
    prepared = target ? target.prepared : await prepare(context, request);
  } catch (error) {
    await releaseClaim(claimed, isNew, { actor, at: now() }, { key: "activity.stored.orderUnreadable" });
    throw error;
  }
  if (prepared.outcome) return release(prepared.outcome);
  const { settings, client } = prepared;
  const mapped: MappedShipment = target ? target.parcel : prepared.shipment;
  const quote = quoteFor(request, mapped) ?? (await quoteMapped(client, mapped));
  if (quote.kind !== "quoted") return release(target ? inParcelOutcome(target.parcel, quote) : quote);
  const rate = rateFor(quote.rates, courierId, { fallBack: (target?.parcel.count ?? 1) > 1 });
  if (!rate || !isLogisticId(rate.id)) return release({ kind: "refused", code: "courier_not_on_route", message: outcomeMessage("courier_not_on_route"), fieldErrors: [] });
  const logisticId = rate.id;

  // Every shop books on an account of its own (its sandbox account or its own): the order number names the order.
  // Cancelled while the order was read and quoted: nothing was sent, so nothing is booked.
  if (await isCancelled(claimed)) return release({ kind: "cancelled" });
  const payload: CreateOrderInput = { ...mapped.fields, order_id: courierOrderId(mapped.fields.order_id, { parcel: claimed.parcel, attempt: claimed.courierOrderAttempt }), logistic_id: logisticId };
  const ready = await chooseCourier(
    claimed,
    {
      requestPayload: JSON.stringify(payload),
      courierEnvironment: client.environment,
      orderName: `#${mapped.fields.order_id}`,
      courierId: rate.id,
      courierName: rate.name,
      freightPaise: toPaise(rate.freight_charges),
      codPaise: toPaise(rate.cod_charges),
      totalChargesPaise: toPaise(rate.total_charges),
      zone: rate.zone,
      edd: rate.edd,
      paymentMode: mapped.fields.payment_mode,
      warehouseId: mapped.fields.warehouse_id ?? null,
      locationGid: mapped.locationGid,
      locationName: mapped.locationName,
      ...(mapped.fields.order_type === "reverse" ? { direction: "return", returnOfOrderGid: (mapped as MappedReturn).orderGid } : {}),
    },
    { actor, at: now() },
    courierChoiceWords(rate.name, rate.total_charges),
  );

  const { shipment } = await completeShipment(ready, { admin: context.admin, settings, client, now, order: prepared.order ?? undefined, actor });
  if (shipment.status === SHIPMENT_STATUS.FAILED) {
    // The reason stored with the shipment is shown as stored.
    const refused: BookOutcome = shipment.lastError === null ? { kind: "refused", code: "booking_refused", message: outcomeMessage("booking_refused"), fieldErrors: [] } : { kind: "refused", message: shipment.lastError, words: shipment.lastErrorWords, fieldErrors: [] };
    return target ? inParcelOutcome(target.parcel, refused) : refused;
  }
  return { kind: "booked", shipment, shipments: [shipment] };
}

/** An outcome of one parcel of several, its words saying which parcel. */
function inParcelOutcome<T extends BookOutcome>(parcel: MappedParcel, outcome: T): T {
  if (parcel.count <= 1) return outcome;
  if (outcome.kind === "problems") return { ...outcome, problems: outcome.problems.map((problem) => inParcelOf(parcel, problem)) };
  if (outcome.kind !== "refused" && outcome.kind !== "unavailable") return outcome;
  const which = { number: parcel.position, of: parcel.count, location: parcel.locationName ?? adminStrings("en").problems.unknownLocation };
  const said = outcome.code ? outcomeMessage(outcome.code) : outcome.message;
  return { ...outcome, code: undefined, message: fill(adminStrings("en").problems.inParcel, { ...which, message: said }), words: { key: "problems.inParcel", values: { ...which, message: outcome.code ? { key: `outcomes.booking.${OUTCOME_WORDS[outcome.code]}` } : storedOr(outcome.kind === "refused" ? outcome.words : undefined, said) } } };
}

export interface CompletionDeps {
  admin: ShopAdmin;
  now: () => Date;
  settings?: ShopSettings;
  client?: CourierClient;
  /** The order as just read in this same booking, so the fulfillment need not read it again. */
  order?: ShopifyOrder;
  /** Who carries the booking on: its booker, or the watchdog job. */
  actor?: Actor;
}

const WATCHDOG: Actor = { kind: "job", name: "shipment-complete" };

export interface Completion {
  shipment: Shipment;
  /** Something outside Dakiya (the courier, Shopify) failed in a way worth trying again later. */
  retry: boolean;
}

/**
 * Takes a claimed booking as far as it will go: sends the stored body to the courier (which replays the same
 * awb for a resend), then fulfills the Shopify order with the tracking. The caller holds the shipment's lock.
 * Failures that may pass (an unreachable courier, Shopify throttling or down) leave the shipment where it got to,
 * with the reason, and ask for a retry; the awb is never lost and never booked twice.
 */
export async function completeShipment(start: Shipment, deps: CompletionDeps): Promise<Completion> {
  const settings = deps.settings ?? (await getShopSettings(start.shop));
  const change = () => ({ actor: deps.actor ?? WATCHDOG, at: deps.now() });
  let shipment = start;
  if (shipment.status === SHIPMENT_STATUS.BOOKING && shipment.requestPayload === "") {
    // The claimant holds the lock while it works; holding it now means the claimant is gone.
    if (deps.now().getTime() - shipment.updatedAt.getTime() < staleBookingMs()) return { shipment, retry: true };
    shipment = await moveToFailed(shipment, { key: "activity.stored.interrupted" }, change());
    await decideAgainIfAutomatic(shipment);
    return { shipment, retry: false };
  }
  if (shipment.status === SHIPMENT_STATUS.BOOKING) {
    const client = deps.client ?? courierClientFor(courierCredentialsOf(settings));
    try {
      const created = await client.createOrder(JSON.parse(shipment.requestPayload) as CreateOrderInput);
      await recordRoutingText(shipment.shop, shipment.id, created.additional_info);
      // Tracking starts now: the first sync records the courier's first entry (posted once the order is fulfilled).
      // The merchant may have chosen the tracking page on the shop's own domain (Storefront settings).
      const trackingUrl = (await shopDomainTrackingUrl(shipment.shop, created.awb, created.tracking_url)) ?? created.tracking_url;
      shipment = await markBooked(shipment, { awb: created.awb, courierName: created.logistic, trackingUrl }, change());
    } catch (error) {
      if (!(error instanceof CourierError)) throw error;
      if (isOrderIdTaken(error)) return { shipment: await moveToFailed(shipment, orderIdTakenMessage(shipment), change(), { orderIdTaken: true }), retry: false };
      if (!error.retryable) return { shipment: await moveToFailed(shipment, courierMessageWords(error), change()), retry: false };
      shipment = await markBookingRetrying(shipment, { key: "activity.stored.willRetry", values: { message: courierMessageWords(error) } }, change());
      return { shipment, retry: true };
    }
  }
  if (shipment.status !== SHIPMENT_STATUS.BOOKED_UNFULFILLED) return { shipment, retry: false };
  // Cancelled while it was being booked: not fulfilled; the cancellation's job cancels it with the courier.
  if (await isCancelled(shipment)) return { shipment, retry: false };
  if (shipment.direction === "return") return attachPickup(shipment, deps.admin, settings, change);

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
    const outcome = await fulfillWithTracking(deps.admin, tracked, deps.order);
    if (outcome.kind === "refused") {
      shipment = await markFulfillmentRetrying(shipment, { key: "activity.stored.fulfillmentRefused", values: { awb: tracked.awb, reason: outcome.message } }, change());
      return { shipment, retry: false };
    }
    await noteFulfillment(shipment, outcome.fulfillmentGid);
    await markOrderBooked(deps.admin, shipment.orderGid, await bookedParcelsOf(shipment));
    const fulfilled = await markFulfilled(shipment, outcome.fulfillmentGid, change());
    await parcelFulfilled(fulfilled);
    return { shipment: fulfilled, retry: false };
  } catch (error) {
    if (error instanceof TransitionRefusedError) throw error;
    shipment = await markFulfillmentRetrying(shipment, { key: "activity.stored.fulfillmentWaiting", values: { awb: tracked.awb, reason: shopifyReason(error) } }, change());
    return { shipment, retry: true };
  }
}

/** The order's parcels with an awb, parcel 1 first, as its metafields list them. */
async function bookedParcelsOf(shipment: Pick<Shipment, "shop" | "orderGid">): Promise<BookedParcel[]> {
  const parcels = await listShipmentsForOrder(shipment.shop, shipment.orderGid);
  return parcels.flatMap((parcel) => (parcel.awb && parcel.courierName && parcel.trackingUrl && parcel.status !== SHIPMENT_STATUS.CANCELLED ? [{ awb: parcel.awb, courierName: parcel.courierName, trackingUrl: parcel.trackingUrl }] : []));
}

/**
 * A booked return pickup reaches the shopper as a reverse delivery on the return, with the awb and Dakiya's tracking
 * link: the counterpart of a forward shipment's fulfillment, through the same statuses.
 */
async function attachPickup(shipment: Shipment, admin: ShopAdmin, settings: ShopSettings, change: () => Change): Promise<Completion> {
  try {
    const outcome = await attachReverseDelivery(admin, {
      returnGid: shipment.orderGid,
      awb: shipment.awb!,
      trackingUrl: shipment.trackingUrl!,
      labelUrl: returnLabelUrl(shipment),
      notifyCustomer: returnSettingsOf(settings).notifyCustomer,
    });
    if (outcome.kind === "refused") {
      return { shipment: await markFulfillmentRetrying(shipment, { key: "activity.stored.reverseDeliveryRefused", values: { awb: shipment.awb!, reason: outcome.message } }, change()), retry: false };
    }
    await noteFulfillment(shipment, outcome.reverseDeliveryGid);
    const attached = await markReturnDispatched(shipment, outcome.reverseDeliveryGid, change());
    await setReadiness(prisma, attached, READINESS.FULFILLED);
    return { shipment: attached, retry: false };
  } catch (error) {
    if (error instanceof TransitionRefusedError) throw error;
    const waiting = await markFulfillmentRetrying(shipment, { key: "activity.stored.reverseDeliveryWaiting", values: { awb: shipment.awb!, reason: shopifyReason(error) } }, change());
    return { shipment: waiting, retry: true };
  }
}

async function isCancelled(shipment: Shipment): Promise<boolean> {
  if (isReturnGid(shipment.orderGid)) {
    const ret = await prisma.returnRecord.findUnique({ where: { shop_returnGid: { shop: shipment.shop, returnGid: shipment.orderGid } }, select: { cancelledAt: true } });
    return Boolean(ret?.cancelledAt);
  }
  const record = await prisma.orderRecord.findUnique({ where: { shop_orderGid: { shop: shipment.shop, orderGid: shipment.orderGid } }, select: { cancelledAt: true } });
  return Boolean(record?.cancelledAt);
}

/** Nothing was booked: the order is ready to ship again. The lock is held, so a refusal is a bug. */
async function moveToFailed(shipment: Shipment, lastError: Sentence, change: Change, options?: { orderIdTaken?: boolean }): Promise<Shipment> {
  const failed = await markFailed(shipment, lastError, change, options);
  if (!failed) throw new TransitionRefusedError(shipment, "failed");
  await orderFreeAgain(shipment);
  return failed;
}

/** Why a claim was let go, for the history: what stopped it, in words that quote nothing of the order. */
const releaseReason = (outcome: BookOutcome) => outcomeLabelSentence(outcomeForWords(outcome));

/**
 * An automatic booking interrupted before it reached the courier (its worker died) is not left for the merchant to
 * notice: the order is checked again, and the rules book it through a fresh claim.
 */
async function decideAgainIfAutomatic(shipment: Pick<Shipment, "shop" | "orderGid">): Promise<void> {
  if (isReturnGid(shipment.orderGid)) {
    await prisma.$transaction(async (tx) => {
      const { count } = await tx.returnRecord.updateMany({
        where: { shop: shipment.shop, returnGid: shipment.orderGid, decision: DECISION.BOOKED, cancelledAt: null },
        data: { decision: null, decisionReason: null, decisionWords: Prisma.DbNull, decidedAt: null },
      });
      if (count === 1) await enqueue("return-check", { shop: shipment.shop, returnGid: shipment.orderGid }, { tx });
    });
    return;
  }
  await prisma.$transaction(async (tx) => {
    const { count } = await tx.orderRecord.updateMany({
      where: { shop: shipment.shop, orderGid: shipment.orderGid, decision: DECISION.BOOKED, cancelledAt: null },
      data: { decision: null, decisionReason: null, decisionWords: Prisma.DbNull, decidedAt: null },
    });
    if (count === 1) await enqueue("order-check", { shop: shipment.shop, orderGid: shipment.orderGid }, { tx });
  });
}

/** A booking that did not happen: the order is ready to ship again, in the lists that read its stored readiness. */
async function orderFreeAgain(shipment: Pick<Shipment, "shop" | "orderGid">): Promise<void> {
  if (isReturnGid(shipment.orderGid)) {
    await prisma.returnRecord.updateMany({ where: { shop: shipment.shop, returnGid: shipment.orderGid, readiness: READINESS.SHIPMENT }, data: { readiness: READINESS.READY } });
    return;
  }
  await prisma.orderRecord.updateMany({ where: { shop: shipment.shop, orderGid: shipment.orderGid, readiness: READINESS.SHIPMENT }, data: { readiness: READINESS.READY } });
}

/**
 * The `shipment-complete` job: resumes an interrupted booking or a fulfillment Shopify did not take. Another
 * process holding the shipment (its claimant, a second worker) makes this attempt retry later.
 */
export interface ResumeDeps {
  adminFor: (shop: string) => Promise<ShopAdmin>;
  now?: () => Date;
}

export async function resumeShipment(shop: string, shipmentId: number, { adminFor, now = () => new Date() }: ResumeDeps): Promise<Completion | null> {
  const pending = await prisma.shipment.findFirst({ where: { id: shipmentId, shop } });
  if (!pending || (pending.status !== SHIPMENT_STATUS.BOOKING && pending.status !== SHIPMENT_STATUS.BOOKED_UNFULFILLED)) return null;
  return withAdvisoryLock(LOCK_SPACE.SHIPMENT, shipmentId, async () => {
    const shipment = await prisma.shipment.findUniqueOrThrow({ where: { id: shipmentId } });
    return completeShipment(shipment, { admin: await adminFor(shop), now, actor: WATCHDOG });
  });
}
