import type { Shipment, ShopSettings } from "@prisma/client";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { getConfig } from "~/config.server";
import prisma from "~/db.server";
import { enqueue } from "~/jobs/job-queue.server";
import { LOCK_SPACE, LockBusyError, withAdvisoryLock } from "~/locks.server";
import { fromPaise, toPaise } from "~/money";
import { courierClientFor, courierCredentialsOf, getShopSettings } from "~/settings/shop-settings.server";
import { CourierError, type CourierClient } from "~/shipping/client.server";
import { isLogisticId, type CreateOrderInput, type LogisticId } from "~/shipping/contract";
import { rankRates, type RankedRate } from "~/shipping/rate-ranking";
import type { ShopifyOrder } from "~/shopify/queries";
import type { MappedShipment } from "~/shopify/order-mapping";
import { orderProblem } from "~/shopify/readiness-checks";
import { SHIPMENT_STATUS, type Actor } from "~/shipments/lifecycle";
import { outcomeForWords, outcomeMessage, type BookOutcome, type OutcomeCode, type ParcelQuote, type QuoteOutcome } from "./book-outcome";
import { courierChoiceWords, courierSentence, outcomeLabelSentence } from "./stored-sentences";
import { courierOrderId, isOrderIdTaken } from "./courier-order-id";
import {
  type Change,
  type Claim as ClaimedRow,
  type CourierChoice,
  type ParcelClaim,
  SHIPMENT_TRANSACTION,
  chooseCourier,
  claimShipment as claimRow,
  markBooked,
  markBookingRetrying,
  markFailed,
  releaseClaim as releaseRow,
  TransitionRefusedError,
} from "~/shipments/shipment-changes.server";
import type { Sentence, StoredWords } from "~/locales/admin-language";
import type { Prisma } from "@prisma/client";

/**
 * The booking engine: books "something to ship" exactly once — an order's parcel, or a return's pickup — through one
 * narrow interface, and knows nothing else of either. What it books gives it what to send the courier (`Shippable`:
 * the claim's key, the mapped shipment read under the claim), and where the result goes and who is told
 * (`ShipmentDestination`: a fulfillment or a reverse delivery in Shopify, the order's readiness or the return's state,
 * the label's routing, the shopper's tracking link). The orders' side is app/orders/book-order.server.ts, the returns'
 * app/returns/return-pickup.server.ts.
 *
 * Exactly once (docs/ARCHITECTURE.md, "Booking, exactly once"): the row is claimed in state `booking` (with the
 * watchdog job that finishes it) before Shopify or the courier is called, the claimant holds the shipment's lock while
 * it works, and the body is stored before it is sent, so any retry resends it verbatim and the service replays the awb.
 */

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

/** Who carries a booking on when its booker is gone: the watchdog job. */
const WATCHDOG: Actor = { kind: "job", name: "shipment-complete" };

export interface Completion {
  shipment: Shipment;
  /** Something outside Dakiya (the courier, Shopify) failed in a way worth trying again later. */
  retry: boolean;
}

/** What a destination needs to hand a booked shipment to Shopify. */
export interface DeliveryDeps {
  admin: ShopAdmin;
  settings: ShopSettings;
  /** The order as just read in this same booking, so it need not be read again. */
  order?: ShopifyOrder;
  change: () => Change;
}

/** What the courier answered a booking with, as a destination is told it. */
export interface CourierAnswer {
  awb: string;
  courierName: string;
  /** The courier's routing for the label (`additional_info`). */
  routingText: string;
}

type Reader = Pick<Prisma.TransactionClient, "orderRecord" | "returnRecord">;

/**
 * Where a booking's result goes and who is told: one per kind of thing shipped. The engine calls these at each step
 * and nothing else of an order or a return.
 */
export interface ShipmentDestination {
  /**
   * What it ships was cancelled in Shopify (the order cancelled; the return declined or cancelled): nothing is booked,
   * or handed to Shopify, from then on. Read in the claim's transaction too (`db`).
   */
  isCancelled(key: { shop: string; orderGid: string }, db?: Reader): Promise<boolean>;
  /**
   * What keeps it from being booked for now, read in the claim's transaction (an order whose shopper is asked to
   * confirm cash on delivery waits for their answer): the refusal's code, or null to go on.
   */
  waitsFor?(tx: Prisma.TransactionClient, key: { shop: string; orderGid: string }): Promise<OutcomeCode | null>;
  /** Claimed for booking, in the claim's transaction. */
  claimed(tx: Prisma.TransactionClient, shipment: Shipment): Promise<void>;
  /**
   * Nothing was booked (the claim let go, the courier refused, a cancellation): free to book again. `interrupted`:
   * by a worker that died before it reached the courier, so an automatic booking is decided again.
   */
  notBooked(shipment: Shipment, how: { interrupted: boolean }): Promise<void>;
  /** The link the shopper follows to track it (its awb just given), from the courier's own. */
  trackingUrl(shipment: Shipment, booked: { awb: string; courierUrl: string }): Promise<string>;
  /** The courier booked it (an awb), in its booker's name. */
  booked(shipment: Shipment, answer: CourierAnswer, change: Change): Promise<void>;
  /**
   * Hands the booked shipment to Shopify — an order's parcel as a fulfillment with its tracking, a return's pickup as a
   * reverse delivery — and says whether to try again later.
   */
  deliver(shipment: Shipment, deps: DeliveryDeps): Promise<Completion>;
}

/** What the courier gets and whose settings book it: read when the claim is held. */
export interface ToSend {
  mapped: MappedShipment;
  settings: ShopSettings;
  client: CourierClient;
  /** The order as read, when one was (a return's pickup has none). */
  order?: ShopifyOrder | null;
}

/** Something the engine books exactly once: an order's parcel, or a return's pickup. */
export interface Shippable {
  /** Which row stands for it, and which way it goes: an order's parcel (its fulfillment order), a return's one pickup. */
  key: { shop: string; orderGid: string; parcel?: ParcelClaim; direction: "forward" | "return" };
  destination: ShipmentDestination;
  /** What to send the courier, read under the claim (or as read with its order), or why it cannot be booked. */
  read(): Promise<ToSend | { outcome: BookOutcome }>;
  /** Of several parcels, one the chosen courier does not serve goes with its own recommended courier. */
  fallsBackToRecommended: boolean;
  /** An outcome said of this one: a parcel of several names which. */
  said<T extends BookOutcome>(outcome: T): T;
  /** What its row records beyond the courier's choice: a return's pickup, its direction and the order it comes back from. */
  recorded?: (mapped: MappedShipment) => Pick<CourierChoice, "direction" | "returnOfOrderGid">;
}

export interface BookingRequest {
  courierId: LogisticId;
  /**
   * Rates quoted a moment ago (an automatic booking decides on them): used when they are for exactly the shipment
   * read under the claim; otherwise it is quoted again.
   */
  quoted?: Extract<QuoteOutcome, { kind: "quoted" }>;
}

// ─── Quoting ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** One shipment's rates: a parcel of an order, or a return's pickup. */
export async function quoteMapped(client: CourierClient, shipment: MappedShipment): Promise<QuoteOutcome> {
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

/** A quote's chargeable weight ("1.5 KG") in grams, for the freight check; null when the courier wrote it otherwise. */
function gramsOfChargeableWeight(chargeable: string): number | null {
  const kg = Number.parseFloat(chargeable);
  return Number.isFinite(kg) && kg >= 0 ? Math.round(kg * 1000) : null;
}

/** The courier a shipment is booked with: the one chosen, or (of several parcels) its recommended one where the chosen one does not serve its route. */
export function rateFor(rates: readonly RankedRate[], courierId: number, { fallBack }: { fallBack: boolean }): RankedRate | undefined {
  return rates.find((rate) => rate.id === courierId) ?? (fallBack ? rates.find((rate) => rate.isRecommended) : undefined);
}

/**
 * Each courier's offer for every parcel together: its charges summed over the parcels (a parcel it does not serve at
 * its recommended courier's), the latest delivery days of any parcel, and ranked as one order's rates are.
 */
export function combinedRates(parcels: readonly ParcelQuote[]): RankedRate[] {
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

/** The rates quoted for exactly this shipment, if the request carries them. */
function quoteFor(request: BookingRequest, mapped: MappedShipment): { kind: "quoted"; rates: RankedRate[] } | null {
  const same = (quoted: MappedShipment) => JSON.stringify(quoted.fields) === JSON.stringify(mapped.fields);
  if (!request.quoted) return null;
  const quoted = request.quoted.parcels.length === 0 ? (same(request.quoted.shipment) ? request.quoted : null) : request.quoted.parcels.find((each) => same(each.parcel));
  return quoted ? { kind: "quoted", rates: quoted.rates } : null;
}

// ─── Booking ──────────────────────────────────────────────────────────────────────────────────────────────────────

const byId = (shipments: readonly Shipment[]) => [...new Map(shipments.map((shipment) => [shipment.id, shipment])).values()];
export const byParcel = (shipments: readonly Shipment[]) => byId(shipments).sort((a, b) => a.parcel - b.parcel);
export const alreadyBooked = (shipments: readonly Shipment[]): Extract<BookOutcome, { kind: "already_booked" }> => ({ kind: "already_booked", shipment: byParcel(shipments)[0]!, shipments: byParcel(shipments) });

type Claim = ClaimedRow | { kind: "cancelled" } | { kind: "waiting"; code: OutcomeCode };

/**
 * The shipment's row in state `booking` (a return's pickup: its return's), or the row someone else holds. A failed
 * booking may be claimed again. In the same transaction, the watchdog job that finishes (or cleans up) this booking if
 * the claimant dies is enqueued: a claim never exists without the work that completes it.
 */
async function claim({ key, destination }: Shippable, now: Date, actor: Actor): Promise<Claim> {
  return prisma.$transaction(async (tx) => {
    // Seen cancelled (orders/cancelled, returns/decline, returns/cancel are recorded before anything else): never
    // booked from then on.
    if (await destination.isCancelled(key, tx)) return { kind: "cancelled" };
    const waiting = (await destination.waitsFor?.(tx, key)) ?? null;
    if (waiting) return { kind: "waiting", code: waiting };
    const claimed = await claimRow(tx, key, { actor, at: now });
    if (claimed.kind === "taken") return claimed;
    await enqueue("shipment-complete", { shop: key.shop, shipmentId: claimed.shipment.id }, { tx, startAfter: new Date(now.getTime() + staleBookingMs()) });
    await destination.claimed(tx, claimed.shipment);
    return claimed;
  }, SHIPMENT_TRANSACTION);
}

/**
 * Books one thing to ship exactly once: claims its row, reads what to send under the claim, quotes it (or takes the
 * rates just quoted for it), stores the courier and the exact body, sends it, and hands the booking to its destination.
 * Double clicks, concurrent requests and a webhook racing the page all meet the same row, and only one goes on.
 */
export async function bookShipment(context: BookingContext, shippable: Shippable, request: BookingRequest): Promise<BookOutcome> {
  const now = context.now ?? (() => new Date());
  const claimed = await claim(shippable, now(), context.actor ?? MERCHANT_ON_SHIP_PAGE);
  if (claimed.kind === "cancelled") return { kind: "cancelled" };
  if (claimed.kind === "waiting") return { kind: "refused", code: claimed.code, message: outcomeMessage(claimed.code), fieldErrors: [] };
  if (claimed.kind === "taken") return alreadyBooked([claimed.shipment]);
  try {
    return await withAdvisoryLock(LOCK_SPACE.SHIPMENT, claimed.shipment.id, () => bookClaimed(context, claimed, shippable, request));
  } catch (error) {
    if (!(error instanceof LockBusyError)) throw error;
    return alreadyBooked([await prisma.shipment.findUniqueOrThrow({ where: { id: claimed.shipment.id } })]);
  }
}

async function bookClaimed(context: BookingContext, { shipment: claimed, isNew }: { shipment: Shipment; isNew: boolean }, shippable: Shippable, request: BookingRequest): Promise<BookOutcome> {
  const now = context.now ?? (() => new Date());
  const actor = context.actor ?? MERCHANT_ON_SHIP_PAGE;
  const { destination } = shippable;
  const release = async (outcome: BookOutcome, reason: Sentence | null = releaseReason(outcome)): Promise<BookOutcome> => {
    await releaseRow(claimed, { isNew, reason }, { actor, at: now() });
    await destination.notBooked(claimed, { interrupted: false });
    return outcome;
  };

  let toSend: ToSend | { outcome: BookOutcome };
  try {
    toSend = await shippable.read();
  } catch (error) {
    await release({ kind: "not_found" }, { key: "activity.stored.orderUnreadable" });
    throw error;
  }
  if ("outcome" in toSend) return release(toSend.outcome);
  const { mapped, settings, client } = toSend;
  const quote = quoteFor(request, mapped) ?? (await quoteMapped(client, mapped));
  if (quote.kind !== "quoted") return release(shippable.said(quote));
  const rate = rateFor(quote.rates, request.courierId, { fallBack: shippable.fallsBackToRecommended });
  if (!rate || !isLogisticId(rate.id)) return release({ kind: "refused", code: "courier_not_on_route", message: outcomeMessage("courier_not_on_route"), fieldErrors: [] });

  // Cancelled while it was read and quoted: nothing was sent, so nothing is booked.
  if (await destination.isCancelled(claimed)) return release({ kind: "cancelled" });
  // Every shop books on an account of its own (its sandbox account or its own): the order's number names it.
  const payload: CreateOrderInput = { ...mapped.fields, order_id: courierOrderId(mapped.fields.order_id, { parcel: claimed.parcel, attempt: claimed.courierOrderAttempt }), logistic_id: rate.id };
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
      quotedWeightGrams: gramsOfChargeableWeight(rate.chargeable_weight),
      zone: rate.zone,
      edd: rate.edd,
      paymentMode: mapped.fields.payment_mode,
      // What the courier collects, for the COD ledger (a return's pickup is prepaid: it collects nothing).
      cashToCollectPaise: mapped.fields.payment_mode === "cod" ? toPaise(mapped.fields.total_amount) : null,
      packageName: mapped.packageSource,
      warehouseId: mapped.fields.warehouse_id ?? null,
      locationGid: mapped.locationGid,
      locationName: mapped.locationName,
      ...shippable.recorded?.(mapped),
    },
    { actor, at: now() },
    courierChoiceWords(rate.name, rate.total_charges),
  );

  const { shipment } = await completeShipment(ready, { admin: context.admin, settings, client, now, order: toSend.order ?? undefined, actor, destination, firstSend: true });
  if (shipment.status === SHIPMENT_STATUS.FAILED) {
    // The reason stored with the shipment is shown as stored.
    const refused: BookOutcome = shipment.lastError === null ? { kind: "refused", code: "booking_refused", message: outcomeMessage("booking_refused"), fieldErrors: [] } : { kind: "refused", message: shipment.lastError, words: shipment.lastErrorWords, fieldErrors: [] };
    return shippable.said(refused);
  }
  return { kind: "booked", shipment, shipments: [shipment] };
}

/** Why a claim was let go, for the history: what stopped it, in words that quote nothing of the order. */
const releaseReason = (outcome: BookOutcome) => outcomeLabelSentence(outcomeForWords(outcome));

// ─── Carrying a booking on ────────────────────────────────────────────────────────────────────────────────────────

export interface CompletionDeps {
  admin: ShopAdmin;
  now: () => Date;
  /** Where the booking's result goes, and who is told. */
  destination: ShipmentDestination;
  settings?: ShopSettings;
  client?: CourierClient;
  /** The order as just read in this same booking, so the fulfillment need not read it again. */
  order?: ShopifyOrder;
  /** Who carries the booking on: its booker, or the watchdog job. */
  actor?: Actor;
  /** The booker sending the body it has just stored, rather than one stored before and sent again. */
  firstSend?: boolean;
}

/**
 * Takes a claimed booking as far as it will go: sends the stored body to the courier (which replays the same
 * awb for a resend), then hands it to its destination in Shopify. The caller holds the shipment's lock. Failures that
 * may pass (an unreachable courier, Shopify throttling or down) leave the shipment where it got to, with the reason,
 * and ask for a retry; the awb is never lost and never booked twice.
 */
export async function completeShipment(start: Shipment, deps: CompletionDeps): Promise<Completion> {
  const { destination } = deps;
  const settings = deps.settings ?? (await getShopSettings(start.shop));
  const change = () => ({ actor: deps.actor ?? WATCHDOG, at: deps.now() });
  let shipment = start;
  if (shipment.status === SHIPMENT_STATUS.BOOKING && shipment.requestPayload === "") {
    // The claimant holds the lock while it works; holding it now means the claimant is gone.
    if (deps.now().getTime() - shipment.updatedAt.getTime() < staleBookingMs()) return { shipment, retry: true };
    return { shipment: await moveToFailed(shipment, { key: "activity.stored.interrupted" }, change(), destination, { interrupted: true }), retry: false };
  }
  if (shipment.status === SHIPMENT_STATUS.BOOKING) {
    const client = deps.client ?? courierClientFor(courierCredentialsOf(settings));
    try {
      // Sent again (a retry after a lost answer, the watchdog, a cancellation finding out) the body is the service's to
      // judge by its date; sent for the first time it is checked as any new order.
      const created = await client.createOrder(JSON.parse(shipment.requestPayload) as CreateOrderInput, { stored: !deps.firstSend });
      // Tracking starts now: the first sync records the courier's first entry (posted once it is in Shopify).
      const trackingUrl = await destination.trackingUrl(shipment, { awb: created.awb, courierUrl: created.tracking_url });
      shipment = await markBooked(shipment, { awb: created.awb, courierName: created.logistic, trackingUrl }, change());
      await destination.booked(shipment, { awb: created.awb, courierName: created.logistic, routingText: created.additional_info }, change());
    } catch (error) {
      if (!(error instanceof CourierError)) throw error;
      if (isOrderIdTaken(error)) return { shipment: await moveToFailed(shipment, orderIdTakenMessage(shipment), change(), destination, { orderIdTaken: true }), retry: false };
      if (!error.retryable) return { shipment: await moveToFailed(shipment, courierMessageWords(error), change(), destination), retry: false };
      shipment = await markBookingRetrying(shipment, { key: "activity.stored.willRetry", values: { message: courierMessageWords(error) } }, change());
      return { shipment, retry: true };
    }
  }
  if (shipment.status !== SHIPMENT_STATUS.BOOKED_UNFULFILLED) return { shipment, retry: false };
  // Cancelled while it was being booked: not handed to Shopify; the cancellation's job cancels it with the courier.
  if (await destination.isCancelled(shipment)) return { shipment, retry: false };
  return destination.deliver(shipment, { admin: deps.admin, settings, ...(deps.order ? { order: deps.order } : {}), change });
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

/** Nothing was booked: its destination is free to book again. The lock is held, so a refusal is a bug. */
async function moveToFailed(shipment: Shipment, lastError: Sentence, change: Change, destination: ShipmentDestination, { orderIdTaken = false, interrupted = false }: { orderIdTaken?: boolean; interrupted?: boolean } = {}): Promise<Shipment> {
  const failed = await markFailed(shipment, lastError, change, { orderIdTaken });
  if (!failed) throw new TransitionRefusedError(shipment, "failed");
  await destination.notBooked(failed, { interrupted });
  return failed;
}

/** Where each direction's bookings go: an order's parcels (forward) and returns' pickups. */
export type Destinations = Readonly<Record<"forward" | "return", ShipmentDestination>>;

export interface ResumeDeps {
  adminFor: (shop: string) => Promise<ShopAdmin>;
  destinations: Destinations;
  now?: () => Date;
}

/**
 * The `shipment-complete` job: resumes an interrupted booking or a hand-over Shopify did not take. Another process
 * holding the shipment (its claimant, a second worker) makes this attempt retry later.
 */
export async function resumeShipment(shop: string, shipmentId: number, { adminFor, destinations, now = () => new Date() }: ResumeDeps): Promise<Completion | null> {
  const pending = await prisma.shipment.findFirst({ where: { id: shipmentId, shop } });
  if (!pending || (pending.status !== SHIPMENT_STATUS.BOOKING && pending.status !== SHIPMENT_STATUS.BOOKED_UNFULFILLED)) return null;
  return withAdvisoryLock(LOCK_SPACE.SHIPMENT, shipmentId, async () => {
    const shipment = await prisma.shipment.findUniqueOrThrow({ where: { id: shipmentId } });
    return completeShipment(shipment, { admin: await adminFor(shop), now, actor: WATCHDOG, destination: destinations[shipment.direction === "return" ? "return" : "forward"] });
  });
}
