import { Prisma, type Shipment, type ShopSettings } from "@prisma/client";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { getConfig } from "~/config.server";
import prisma from "~/db.server";
import { enqueue } from "~/jobs/job-queue.server";
import { LOCK_SPACE, LockBusyError, withAdvisoryLock } from "~/locks.server";
import { toPaise } from "~/money";
import { courierClientFor, courierCredentialsOf, getShopSettings, toMappingSettings } from "~/settings/shop-settings.server";
import { CourierError, type CourierClient } from "~/shipping/client.server";
import type { CreateOrderInput, LogisticId } from "~/shipping/contract";
import { rankRates } from "~/shipping/rate-ranking";
import { getOrderForBooking } from "~/shopify/admin-orders.server";
import type { ShopifyOrder } from "~/shopify/queries";
import { fulfillWithTracking, markOrderBooked } from "~/shopify/fulfillments.server";
import { toCourierOrder, type MappedShipment, type MappingProblem, type ShipmentOverrides } from "~/shopify/order-mapping";
import { orderProblem } from "~/shopify/readiness-checks";
import { DECISION, READINESS, type Readiness } from "~/orders/readiness";
import { SHIPMENT_STATUS, type Actor } from "~/shipments/lifecycle";
import { outcomeForWords, outcomeMessage, type BookOutcome, type OutcomeCode, type QuoteOutcome } from "./book-outcome";
import { courierChoiceWords, courierSentence, outcomeLabelSentence, shopifyReason } from "./stored-sentences";
import { courierOrderId, isOrderIdTaken } from "./courier-order-id";
import { type Change, type Claim as ClaimedRow, SHIPMENT_TRANSACTION, chooseCourier, claimShipment as claimRow, markBooked, markBookingRetrying, markFailed, markFulfilled, markFulfillmentRetrying, markReturnDispatched, noteFulfillment, releaseClaim as releaseRow, TransitionRefusedError } from "~/shipments/shipment-changes.server";
import { recordRoutingText, returnLabelUrl } from "~/documents/documents.server";
import { shopDomainTrackingUrl } from "~/storefront/storefront-settings.server";
import { attachReverseDelivery, getReturnForPickup, isReturnGid } from "~/shopify/admin-returns.server";
import { toReverseCourierOrder, type MappedReturn } from "~/returns/return-mapping";
import type { ShopifyReturn } from "~/shopify/return-queries";
import type { Sentence, StoredWords } from "~/locales/admin-language";
import { returnSettingsOf } from "~/returns/return-settings";

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

/**
 * An order (or a return's pickup) made ready to quote and book: the shop's settings, the order as Shopify holds it
 * (none for a return), and the order mapped onto the courier's fields with every problem that stops it (the
 * readiness catalogue of shopify/order-mapping and the pickup warehouse). Only one with no problems carries the
 * shipment to quote and the courier client.
 */
export type PreparedOrder =
  | { settings: ShopSettings; order: null; mapped: null; problems: MappingProblem[]; outcome: { kind: "not_found" } }
  | { settings: ShopSettings; order: ShopifyOrder | null; mapped: MappedShipment | null; problems: MappingProblem[]; outcome: { kind: "problems"; shipment: MappedShipment | null; problems: MappingProblem[] } }
  | { settings: ShopSettings; order: ShopifyOrder | null; mapped: MappedShipment; problems: []; shipment: MappedShipment; client: CourierClient; outcome?: undefined };

const prepare = (context: BookingContext, request: QuoteRequest): Promise<PreparedOrder> =>
  request.prepared ? Promise.resolve(request.prepared) : isReturnGid(request.orderGid) ? prepareReturn(context, request) : prepareOrder(context, request);

/**
 * A return's pickup goes through the same claim and courier path as an order: its Shipment is keyed by the
 * Return's id (one pickup per return), and its fields are the reverse mapping's (app/returns/return-mapping.ts).
 */
async function prepareReturn({ shop, admin, now = () => new Date() }: BookingContext, { orderGid: returnGid, returnRead, settings: known }: QuoteRequest): Promise<PreparedOrder> {
  const settings = known ?? (await getShopSettings(shop));
  const ret = returnRead === undefined ? await getReturnForPickup(admin, returnGid) : returnRead;
  if (!ret) return { settings, order: null, mapped: null, problems: [], outcome: { kind: "not_found" } };
  const { shipment, problems } = toReverseCourierOrder(ret, { settings: toMappingSettings(settings), now: now() });
  const mapped = shipment as MappedShipment | null;
  if (!mapped || problems.length > 0) return { settings, order: null, mapped, problems, outcome: { kind: "problems", shipment: mapped, problems } };
  return { settings, order: null, mapped, problems: [], shipment: mapped, client: courierClientFor(courierCredentialsOf(settings)) };
}

export async function prepareOrder({ shop, admin, now = () => new Date() }: BookingContext, { orderGid, overrides = {}, order: prefetched, settings: known }: QuoteRequest): Promise<PreparedOrder> {
  const settings = known ?? (await getShopSettings(shop));
  const order = prefetched === undefined ? await getOrderForBooking(admin, orderGid) : prefetched;
  if (!order) return { settings, order: null, mapped: null, problems: [], outcome: { kind: "not_found" } };
  const { shipment, problems } = toCourierOrder(order, { settings: toMappingSettings(settings), now: now(), overrides });
  if (shipment && shipment.fields.warehouse_id === undefined) {
    problems.push(orderProblem("NO_WAREHOUSE"));
  }
  if (!shipment || problems.length > 0) return { settings, order, mapped: shipment, problems, outcome: { kind: "problems", shipment, problems } };
  return { settings, order, mapped: shipment, problems: [], shipment, client: courierClientFor(courierCredentialsOf(settings)) };
}

/** The rates every courier offers for an order as it would be booked now. */
export async function quoteOrder(context: BookingContext, request: QuoteRequest): Promise<QuoteOutcome> {
  const prepared = await prepare(context, request);
  if (prepared.outcome) return prepared.outcome;
  return quoteMapped(prepared.client, prepared.shipment);
}

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
    return { kind: "quoted", shipment, warehouse, rates: rankRates(rates.logistics) };
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
  return { key: "activity.stored.orderIdTaken", values: { sent, next: courierOrderId(number, shipment.courierOrderAttempt + 1) } };
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

type Claim = ClaimedRow | { kind: "cancelled" };


/**
 * The order's Shipment row in state `booking`, or the row someone else holds. A failed booking may be claimed
 * again. In the same transaction, the watchdog job that finishes (or cleans up) this booking if the claimant
 * dies is enqueued: a claim never exists without the work that completes it.
 */
async function claimShipment(shop: string, orderGid: string, now: Date, actor: Actor): Promise<Claim> {
  return prisma.$transaction(async (tx) => {
    // An order seen cancelled (orders/cancelled records it before anything else) is never booked from then on, nor
    // is a return seen declined or cancelled.
    if ((await tx.orderRecord.findUnique({ where: { shop_orderGid: { shop, orderGid } }, select: { cancelledAt: true } }))?.cancelledAt) return { kind: "cancelled" };
    if (isReturnGid(orderGid) && (await tx.returnRecord.findUnique({ where: { shop_returnGid: { shop, returnGid: orderGid } }, select: { cancelledAt: true } }))?.cancelledAt) return { kind: "cancelled" };
    const claim = await claimRow(tx, { shop, orderGid }, { actor, at: now });
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
 * Books one order with one courier, exactly once. The Shipment row is claimed in state `booking` under the
 * unique (shop, orderGid) before Shopify or the courier is called, so double clicks, concurrent requests and a
 * webhook racing the UI all meet the same row and only one goes on. The claimant holds the shipment's lock
 * while it works; the body sent is stored with the row before it is sent, so any retry resends it verbatim and
 * the service replays the same awb.
 */
export interface BookingRequest extends QuoteRequest {
  courierId: LogisticId;
  /**
   * Rates quoted for this order a moment ago (an automatic booking decides on them): booked on without quoting
   * again when the order still maps to the same shipment. The Book button quotes again, since its rates may be
   * minutes old.
   */
  quoted?: Extract<QuoteOutcome, { kind: "quoted" }>;
}

/** The quote taken for exactly this shipment, if the request carries one. */
function quoteFor(request: BookingRequest, mapped: MappedShipment) {
  return request.quoted && JSON.stringify(request.quoted.shipment.fields) === JSON.stringify(mapped.fields) ? request.quoted : null;
}

export async function bookOrder(context: BookingContext, request: BookingRequest): Promise<BookOutcome> {
  const { shop } = context;
  const now = context.now ?? (() => new Date());
  const claim = await claimShipment(shop, request.orderGid, now(), context.actor ?? MERCHANT_ON_SHIP_PAGE);
  if (claim.kind === "cancelled") return { kind: "cancelled" };
  if (claim.kind === "taken") return { kind: "already_booked", shipment: claim.shipment };
  try {
    return await withAdvisoryLock(LOCK_SPACE.SHIPMENT, claim.shipment.id, () => bookClaimed(context, claim, request));
  } catch (error) {
    if (!(error instanceof LockBusyError)) throw error;
    return { kind: "already_booked", shipment: await prisma.shipment.findUniqueOrThrow({ where: { id: claim.shipment.id } }) };
  }
}

async function bookClaimed(context: BookingContext, { shipment: claimed, isNew }: { shipment: Shipment; isNew: boolean }, request: BookingRequest): Promise<BookOutcome> {
  const { courierId } = request;
  const now = context.now ?? (() => new Date());
  const actor = context.actor ?? MERCHANT_ON_SHIP_PAGE;
  const release = (outcome: BookOutcome): Promise<BookOutcome> => releaseClaim(claimed, isNew, { actor, at: now() }, releaseReason(outcome)).then(() => outcome);

  let prepared;
  try {
    prepared = await prepare(context, request);
  } catch (error) {
    await releaseClaim(claimed, isNew, { actor, at: now() }, { key: "activity.stored.orderUnreadable" });
    throw error;
  }
  if (prepared.outcome) return release(prepared.outcome);
  const { settings, shipment: mapped, client } = prepared;
  const quote = quoteFor(request, mapped) ?? (await quoteMapped(client, mapped));
  if (quote.kind !== "quoted") return release(quote);
  const rate = quote.rates.find((candidate) => candidate.id === courierId);
  if (!rate) return release({ kind: "refused", code: "courier_not_on_route", message: outcomeMessage("courier_not_on_route"), fieldErrors: [] });

  // The order number is the order_id: every shop books on an account of its own (its sandbox account or its own).
  // Cancelled while the order was read and quoted: nothing was sent, so nothing is booked.
  if (await isCancelled(claimed)) return release({ kind: "cancelled" });
  const payload: CreateOrderInput = { ...mapped.fields, order_id: courierOrderId(mapped.fields.order_id, claimed.courierOrderAttempt), logistic_id: courierId };
  const ready = await chooseCourier(
    claimed,
    {
      requestPayload: JSON.stringify(payload),
      courierEnvironment: client.environment,
      orderName: `#${mapped.fields.order_id}`,
      courierId,
      courierName: rate.name,
      freightPaise: toPaise(rate.freight_charges),
      codPaise: toPaise(rate.cod_charges),
      totalChargesPaise: toPaise(rate.total_charges),
      zone: rate.zone,
      edd: rate.edd,
      paymentMode: mapped.fields.payment_mode,
      warehouseId: mapped.fields.warehouse_id ?? null,
      locationGid: mapped.locationGid,
      ...(mapped.fields.order_type === "reverse" ? { direction: "return", returnOfOrderGid: (mapped as MappedReturn).orderGid } : {}),
    },
    { actor, at: now() },
    courierChoiceWords(rate.name, rate.total_charges),
  );

  const { shipment } = await completeShipment(ready, { admin: context.admin, settings, client, now, order: prepared.order ?? undefined, actor });
  if (shipment.status === SHIPMENT_STATUS.FAILED) {
    // The reason stored with the shipment is shown as stored.
    return shipment.lastError === null ? { kind: "refused", code: "booking_refused", message: outcomeMessage("booking_refused"), fieldErrors: [] } : { kind: "refused", message: shipment.lastError, words: shipment.lastErrorWords, fieldErrors: [] };
  }
  return { kind: "booked", shipment };
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
    await markOrderBooked(deps.admin, tracked);
    const fulfilled = await markFulfilled(shipment, outcome.fulfillmentGid, change());
    await setReadiness(prisma, fulfilled, READINESS.FULFILLED);
    return { shipment: fulfilled, retry: false };
  } catch (error) {
    if (error instanceof TransitionRefusedError) throw error;
    shipment = await markFulfillmentRetrying(shipment, { key: "activity.stored.fulfillmentWaiting", values: { awb: tracked.awb, reason: shopifyReason(error) } }, change());
    return { shipment, retry: true };
  }
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
