import { Prisma, type Shipment } from "@prisma/client";
import prisma from "~/db.server";
import { LOCK_SPACE, lockIdOf } from "~/locks.server";
import type { Sentence, StoredWords } from "~/locales/admin-language";
import { englishIn, reasonColumns, reasonOf, reasonWithoutQuotes, reasonWordsJson, REASON_LIMIT, storedSentence, withoutQuotedWords, wordsIn } from "~/stored-sentences.server";
import type { ServiceStatusCode } from "~/shipping/status";
import { announceParcelEvent } from "~/flow/flow-triggers.server";
import type { ParcelEvent, ParcelFacts } from "~/flow/flow-triggers";
import { parcelName } from "./parcels";
import { allows, outcomeOfCode, outcomeTransition, SHIPMENT_OUTCOME, SHIPMENT_STATUS, SHIPMENT_TRANSITIONS, TRACKING_STATE, type Actor, type ShipmentOutcome, type TransitionName, type TransitionRule } from "./lifecycle";

/**
 * The one module that writes the `Shipment` table (and its history, `ShipmentEvent`): every change to a shipment is
 * one of the named transitions of `lifecycle.ts`, refused unless the table allows it from where the row is now, and
 * written in one transaction with the history row that records it (time, transition, from, to, who, why). A test
 * (`app/table-owners.test.ts`) fails when any other file writes either table.
 *
 * Callers say who acts (`Actor`) and when; the reason is in the merchant's words and never carries a shopper's details
 * (names, phones, addresses) of Dakiya's own: the history outlives customers/redact, which takes out only the
 * courier's and Shopify's words a reason quotes (they may name the shopper).
 */

export interface Change {
  actor: Actor;
  at: Date;
}

/** The row, as far as a transition needs to find it: every write is scoped by the shop. */
type ShipmentRef = Pick<Shipment, "id" | "shop">;

type Client = Prisma.TransactionClient;

/** The columns a guard reads, locked for the transaction. */
interface Locked {
  status: string;
  trackingState: string;
  outcome: string;
  attention: string | null;
  courierStatusLabel: string | null;
  deliveryAttempts: number;
  requestPayload: string;
}

/** A shipment's last error, in both columns (null clears both). */
const lastErrorOf = (sentence: Sentence | null) => ({ lastError: sentence === null ? null : englishIn(sentence), lastErrorWords: wordsIn(sentence) });

/** A shipment's tracking error, in both columns (null clears both). */
const trackingErrorOf = (sentence: Sentence | null) => ({ trackingError: sentence === null ? null : englishIn(sentence), trackingErrorWords: wordsIn(sentence) });

interface Step {
  transition: TransitionName;
  from: string | null;
  to: string | null;
  reason?: Sentence | null;
}

async function recordEvents(tx: Client, refs: ShipmentRef | readonly ShipmentRef[], steps: readonly Step[], { actor, at }: Change): Promise<void> {
  const recorded = steps.filter((step) => SHIPMENT_TRANSITIONS[step.transition].recorded);
  const data = [refs].flat().flatMap((ref) =>
    recorded.map((step) => ({ shop: ref.shop, shipmentId: ref.id, transition: step.transition, fromState: step.from, toState: step.to, actorKind: actor.kind, actorName: actor.name.slice(0, 200), ...reasonColumns(step.reason), at })),
  );
  if (data.length > 0) await tx.shipmentEvent.createMany({ data });
}

/** What a transition moves, as its history row says: the booking status, else the tracking state or the courier's outcome, else nothing. */
function movedBy(transition: TransitionName, locked: Pick<Locked, "status" | "trackingState" | "outcome">): { from: string | null; to: string | null } {
  const rule: TransitionRule = SHIPMENT_TRANSITIONS[transition];
  if (rule.to) return { from: locked.status, to: rule.to };
  if (rule.tracking) return { from: locked.trackingState, to: rule.tracking.to };
  if (rule.outcome) return { from: locked.outcome, to: rule.outcome.to };
  return { from: null, to: null };
}

/** The columns a transition sets by the table itself: the status, the tracking state, the outcome it moves to. */
function movedColumns(rule: TransitionRule): Prisma.ShipmentUncheckedUpdateInput {
  return { ...(rule.to ? { status: rule.to } : {}), ...(rule.tracking ? { trackingState: rule.tracking.to } : {}), ...(rule.outcome ? { outcome: rule.outcome.to } : {}) };
}

interface Apply {
  /** The other columns the transition writes. */
  data?: Prisma.ShipmentUncheckedUpdateInput;
  /** Why, in the merchant's words; worked out from the locked row where it counts something (the attempt's number). */
  reason?: Sentence | null | ((locked: Locked) => Sentence);
  /** What the history says moved, where it is not the status or tracking state (the courier's stage, the flag). */
  moved?: (locked: Locked) => { from: string | null; to: string | null };
  /** A further guard on the locked row (the flag is not raised already…). */
  when?: (locked: Locked) => boolean;
  /** Further steps of the same change, each its own history row (the flag a courier update raises). */
  extra?: (locked: Locked) => Step[];
  /** `claim_released` of a first claim: the row goes (with its one history row) rather than moving. */
  removeFirstClaim?: boolean;
  /** What else the change records in its transaction, from the row as it now is (the Flow trigger it fires). */
  alsoRecord?: (tx: Client, moved: Shipment) => Promise<void>;
}

/**
 * Applies a transition to one shipment: locks the row, checks the table, writes the change and its history in one
 * transaction (the caller's, when given). Returns the row as it now is, or null when the transition is refused (the
 * row moved on, or is gone).
 */
async function apply(ref: ShipmentRef, transition: TransitionName, change: Change, options: Apply = {}, tx?: Client): Promise<Shipment | null> {
  const run = async (db: Client) => {
    const [locked] = await db.$queryRaw<Locked[]>`SELECT status, "trackingState", outcome, attention, "courierStatusLabel", "deliveryAttempts", "requestPayload" FROM "Shipment" WHERE id = ${ref.id} AND shop = ${ref.shop} FOR UPDATE`;
    if (!locked || !allows(transition, locked.status, locked.trackingState, locked.outcome) || (options.when && !options.when(locked))) return null;
    const rule: TransitionRule = SHIPMENT_TRANSITIONS[transition];
    if (options.removeFirstClaim && rule.removesFirstClaim && locked.requestPayload === "") {
      await db.shipment.delete({ where: { id: ref.id } });
      return null;
    }
    const moved = await db.shipment.update({ where: { id: ref.id }, data: { ...options.data, ...movedColumns(rule) } });
    const reason = typeof options.reason === "function" ? options.reason(locked) : (options.reason ?? null);
    const step = { transition, reason, ...(options.moved ?? ((row: Locked) => movedBy(transition, row)))(locked) };
    await recordEvents(db, ref, [step, ...(options.extra?.(locked) ?? [])], change);
    await options.alsoRecord?.(db, moved);
    return moved;
  };
  return tx ? run(tx) : prisma.$transaction(run, SHIPMENT_TRANSACTION);
}

/**
 * A transition (and the claim's transaction around one) waits for a connection as long as a statement would: under a
 * burst (twenty clicks on one order on a busy pool) the two-second default of an interactive transaction would fail
 * a change that only had to queue.
 */
export const SHIPMENT_TRANSACTION = { maxWait: 15_000, timeout: 15_000 };

/** Where the table allows a transition, as a filter: its statuses, and its tracking states and outcomes where it names them. */
function allowedWhere(transition: TransitionName): Prisma.ShipmentWhereInput {
  const rule: TransitionRule = SHIPMENT_TRANSITIONS[transition];
  return { status: { in: [...rule.from] }, ...(rule.tracking ? { trackingState: { in: [...rule.tracking.from] } } : {}), ...(rule.outcome ? { outcome: { in: [...rule.outcome.from] } } : {}) };
}

/** A bookkeeping write (not kept in the history): one guarded statement (in the caller's transaction, when given). */
async function note(ref: ShipmentRef, transition: TransitionName, data: Prisma.ShipmentUncheckedUpdateManyInput, db: Client = prisma): Promise<boolean> {
  const { count } = await db.shipment.updateMany({ where: { id: ref.id, shop: ref.shop, ...allowedWhere(transition) }, data: { ...data, ...(movedColumns(SHIPMENT_TRANSITIONS[transition]) as Prisma.ShipmentUncheckedUpdateManyInput) } });
  return count === 1;
}

/**
 * One transition applied to every shipment of a shop the table allows it for (and `where` names), each with its
 * history row, in one statement: a shop-wide pause or resume of tracking touches every tracked parcel at once. The
 * filter and the columns moved are read off the table, as `apply` reads them for one row.
 */
async function applyToShop(shop: string, transition: "tracking_paused" | "tracking_resumed", { set, where, reason }: { set: Prisma.Sql; where: Prisma.Sql; reason: Sentence }, { actor, at }: Change): Promise<number> {
  const rule: TransitionRule = SHIPMENT_TRANSITIONS[transition];
  const tracking = rule.tracking!;
  const why = reasonOf(reason);
  const whyWords = reasonWordsJson(reason);
  return prisma.$executeRaw`
    WITH target AS (
      SELECT id, "trackingState" AS before FROM "Shipment"
      WHERE shop = ${shop} AND status IN (${Prisma.join([...rule.from])}) AND "trackingState" IN (${Prisma.join([...tracking.from])}) AND ${where}
      FOR UPDATE
    ), moved AS (
      UPDATE "Shipment" s SET "trackingState" = ${tracking.to}, ${set}, "updatedAt" = ${at}
      FROM target WHERE s.id = target.id
      RETURNING s.id, s.shop, target.before
    )
    INSERT INTO "ShipmentEvent" (shop, "shipmentId", transition, "fromState", "toState", "actorKind", "actorName", reason, "reasonWords", at)
    SELECT shop, id, ${transition}, before, ${tracking.to}, ${actor.kind}, ${actor.name.slice(0, 200)}, ${why}, ${whyWords}::jsonb, ${at} FROM moved`;
}

export class TransitionRefusedError extends Error {
  override name = "TransitionRefusedError";
  constructor(shipment: Pick<Shipment, "id" | "status">, transition: TransitionName) {
    super(`Shipment ${shipment.id} in ${shipment.status} cannot go through ${transition}`);
  }
}

// ─── Booking ──────────────────────────────────────────────────────────────────────────────────────────────────────

export type Claim = { kind: "claimed"; shipment: Shipment; isNew: boolean } | { kind: "taken"; shipment: Shipment };

/** Which parcel a claim is for: a fulfillment order of the order, or (none) a return's one pickup. */
export interface ParcelClaim {
  fulfillmentOrderGid: string;
  /** Where it ships from: a booking made before each parcel was booked on its own covers its location. */
  locationGid: string | null;
  /** The order's fulfillment orders still open in Shopify: a failed booking of one no longer among them gives its number to the next. */
  openFulfillmentOrderGids: readonly string[];
}

/**
 * The parcel's Shipment row in state `booking`, inside the caller's transaction (which enqueues the booking's watchdog
 * with it); or the row that already stands for it, someone else's. A failed booking may be claimed again.
 *
 * A return's pickup is its return's parcel 1: `INSERT … ON CONFLICT DO NOTHING` on the unique (shop, orderGid, parcel),
 * so concurrent claimants wait on it and only one inserts. An order's parcel is its fulfillment order's: the order's
 * claims take turns (a transaction lock on the order), and the first finds, in order, the row of this fulfillment
 * order; a booking made before parcels that covers its location; a failed booking of a fulfillment order no longer
 * open (moved, merged, split in Shopify since), whose number it takes over; or nothing, and numbers a new parcel after
 * the order's last. The unique fulfillment order backs it.
 */
export async function claimShipment(tx: Client, { shop, orderGid, parcel, direction = parcel ? "forward" : "return" }: { shop: string; orderGid: string; parcel?: ParcelClaim; direction?: "forward" | "return" }, change: Change): Promise<Claim> {
  const claimed = { status: SHIPMENT_STATUS.BOOKING, requestPayload: "", ...lastErrorOf(null) };
  const reclaim = async (row: Shipment, data: Prisma.ShipmentUncheckedUpdateManyInput = {}): Promise<Claim> => {
    // One guarded statement, as most claims of an existing row are refused (a double click, a webhook racing the UI).
    const from: readonly string[] = SHIPMENT_TRANSITIONS.claimed.from;
    const { count } = await tx.shipment.updateMany({ where: { id: row.id, shop, status: { in: [...from] } }, data: { ...claimed, ...data } });
    const current = await tx.shipment.findUniqueOrThrow({ where: { id: row.id } });
    if (count === 0) return { kind: "taken", shipment: current };
    await recordEvents(tx, current, [{ transition: "claimed", from: SHIPMENT_STATUS.FAILED, to: SHIPMENT_STATUS.BOOKING }], change);
    return { kind: "claimed", shipment: current, isNew: false };
  };
  const created = async (number: number, fulfillmentOrderGid: string | null): Promise<Claim | null> => {
    // The direction is known from the claim on: the watchdog carries an interrupted booking to where it goes.
    const [row] = await tx.shipment.createManyAndReturn({ data: [{ shop, orderGid, parcel: number, fulfillmentOrderGid, direction, orderName: "", courierEnvironment: "", paymentMode: "", ...claimed }], skipDuplicates: true });
    if (!row) return null;
    await recordEvents(tx, row, [{ transition: "claimed", from: null, to: SHIPMENT_STATUS.BOOKING }], change);
    return { kind: "claimed", shipment: row, isNew: true };
  };

  if (!parcel) {
    const first = await created(1, null);
    return first ?? reclaim(await tx.shipment.findUniqueOrThrow({ where: { shop_orderGid_parcel: { shop, orderGid, parcel: 1 } } }));
  }
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_SPACE.ORDER_PARCELS}::int, ${lockIdOf(`${shop}|${orderGid}`)}::int)`;
  const rows = await tx.shipment.findMany({ where: { shop, orderGid }, orderBy: { parcel: "asc" } });
  const own = rows.find((row) => row.fulfillmentOrderGid === parcel.fulfillmentOrderGid);
  if (own) return reclaim(own);
  const coveringBefore = rows.find((row) => coversBeforeParcels(row, parcel.locationGid));
  if (coveringBefore) return { kind: "taken", shipment: coveringBefore };
  const vacated = rows.find((row) => row.status === SHIPMENT_STATUS.FAILED && (row.fulfillmentOrderGid === null || !parcel.openFulfillmentOrderGids.includes(row.fulfillmentOrderGid)));
  if (vacated) return reclaim(vacated, { fulfillmentOrderGid: parcel.fulfillmentOrderGid });
  const next = Math.max(0, ...rows.map((row) => row.parcel)) + 1;
  const fresh = await created(next, parcel.fulfillmentOrderGid);
  if (!fresh) throw new Error(`Parcel ${next} of ${orderGid} exists though the order's claims take turns`);
  return fresh;
}

/**
 * A booking made before each parcel was booked on its own (no fulfillment order of its own) fulfills every open
 * fulfillment order at its location: until it is fulfilled, a parcel there is its own, not a new one.
 */
export function coversBeforeParcels(row: Pick<Shipment, "fulfillmentOrderGid" | "status" | "locationGid">, locationGid: string | null): boolean {
  return row.fulfillmentOrderGid === null && (row.status === SHIPMENT_STATUS.BOOKING || row.status === SHIPMENT_STATUS.BOOKED_UNFULFILLED) && (row.locationGid === null || row.locationGid === locationGid);
}

/**
 * Nothing was sent to the courier: the order is free to be booked again. A first claim's row goes (with its one
 * history row: nothing happened); a failed booking claimed again is failed again, with the reason.
 */
export async function releaseClaim(shipment: Shipment, { isNew, reason }: { isNew: boolean; reason?: Sentence | null }, change: Change): Promise<void> {
  await apply(shipment, "claim_released", change, { reason, removeFirstClaim: isNew });
}

export interface CourierChoice {
  /** The exact create-order body, resent verbatim on retry so the service replays it. */
  requestPayload: string;
  courierEnvironment: string;
  orderName: string;
  courierId: number;
  courierName: string;
  freightPaise: number;
  codPaise: number;
  totalChargesPaise: number;
  /** The weight the courier's quote charged for, in grams. */
  quotedWeightGrams: number | null;
  zone: string;
  edd: string;
  paymentMode: string;
  /** Cash on delivery: what the courier collects from the shopper for the parcel; null when prepaid. */
  cashToCollectPaise: number | null;
  /** The box: a package preset's name, "default package" or "edited". */
  packageName: string | null;
  warehouseId: number | null;
  locationGid: string | null;
  locationName: string | null;
  /** A return's pickup: "return", with the order whose items come back. */
  direction?: "return";
  returnOfOrderGid?: string;
}

/** The courier and the exact body to send, stored before it is sent. */
export async function chooseCourier(shipment: Shipment, choice: CourierChoice, change: Change, reason: Sentence): Promise<Shipment> {
  return orThrow(shipment, "courier_chosen", await apply(shipment, "courier_chosen", change, { data: choice, reason }));
}

/** The courier could not be reached: the booking waits with the reason, and its job retries. */
export async function markBookingRetrying(shipment: Shipment, lastError: Sentence, change: Change): Promise<Shipment> {
  return orThrow(shipment, "booking_retrying", await apply(shipment, "booking_retrying", change, { data: lastErrorOf(lastError), reason: lastError }));
}

/**
 * The courier gave an awb. Tracking starts now: the first sync records the courier's first entry. A workflow waiting
 * for "Parcel booked" hears of it through the same transaction.
 */
export async function markBooked(shipment: Shipment, booked: { awb: string; courierName: string; trackingUrl: string }, change: Change): Promise<Shipment> {
  const data = { ...booked, ...lastErrorOf(null), nextSyncAt: change.at };
  const reason: StoredWords = { key: "activity.stored.bookedWith", values: { courier: booked.courierName, awb: booked.awb } };
  // A forward parcel's booking tells Flow ("Parcel booked"); a return's pickup is not a parcel to the shopper.
  return orThrow(shipment, "booked", await apply(shipment, "booked", change, { data, reason, alsoRecord: announcing(() => ({ kind: "booked" })) }));
}

/**
 * Nothing was booked (the courier refused, the booking was interrupted, the order was cancelled first). Null: it had
 * moved on. When the courier refused the order_id itself as taken, the next booking sends the next one.
 */
export async function markFailed(shipment: ShipmentRef, lastError: Sentence, change: Change, { orderIdTaken = false }: { orderIdTaken?: boolean } = {}): Promise<Shipment | null> {
  return apply(shipment, "failed", change, { data: { ...lastErrorOf(lastError), ...(orderIdTaken ? { courierOrderAttempt: { increment: 1 } } : {}) }, reason: lastError });
}

/**
 * The order was cancelled in Shopify (or the return declined or cancelled) while its booking had sent the courier
 * nothing: cancelled, not a failed booking, with the reason. Null: it had moved on.
 */
export async function markCancelledBeforeBooking(shipment: ShipmentRef, reason: Sentence, change: Change): Promise<Shipment | null> {
  return apply(shipment, "cancelled_before_booking", change, { data: { cancelledAt: change.at, ...lastErrorOf(null) }, reason, when: (locked) => locked.requestPayload === "" });
}

/** Shopify refused or did not take the fulfillment: the shipment says why; the job retries when it may pass. */
export async function markFulfillmentRetrying(shipment: Shipment, lastError: Sentence, change: Change): Promise<Shipment> {
  return orThrow(shipment, "fulfillment_retrying", await apply(shipment, "fulfillment_retrying", change, { data: lastErrorOf(lastError), reason: lastError }));
}

/** The fulfillment's id, noted as soon as Shopify answers, before the order is tagged. */
export async function noteFulfillment(shipment: ShipmentRef, fulfillmentGid: string): Promise<void> {
  await note(shipment, "fulfillment_created", { fulfillmentGid });
}

/**
 * A return's pickup is booked and Shopify's reverse delivery carries its tracking (its id is kept where a forward
 * shipment keeps its fulfillment's); due for a sync at once.
 */
export async function markReturnDispatched(shipment: Shipment, reverseDeliveryGid: string, change: Change): Promise<Shipment> {
  return orThrow(shipment, "return_dispatched", await apply(shipment, "return_dispatched", change, { data: { fulfillmentGid: reverseDeliveryGid, ...lastErrorOf(null), nextSyncAt: change.at } }));
}

/** Fulfilled in Shopify; due for a sync at once, so the entries recorded so far become the fulfillment's first events. */
export async function markFulfilled(shipment: Shipment, fulfillmentGid: string, change: Change): Promise<Shipment> {
  return orThrow(shipment, "fulfilled", await apply(shipment, "fulfilled", change, { data: { fulfillmentGid, ...lastErrorOf(null), nextSyncAt: change.at } }));
}

/** Cancelled with the courier; synced once more, so the courier's "cancelled" becomes the fulfillment's last event. */
export async function markCancelled(shipment: ShipmentRef, change: Change, reason: Sentence): Promise<Shipment | null> {
  return apply(shipment, "cancelled", change, { data: { cancelledAt: change.at, ...lastErrorOf(null), attention: null, attentionAt: null, nextSyncAt: change.at }, reason });
}

function orThrow(shipment: Pick<Shipment, "id" | "status">, transition: TransitionName, moved: Shipment | null): Shipment {
  if (!moved) throw new TransitionRefusedError(shipment, transition);
  return moved;
}

// ─── Attention ────────────────────────────────────────────────────────────────────────────────────────────────────

/** Something about a booking the merchant must act on (app/attention/); flagged once, with when it was seen. */
export type ShipmentAttention = "cancelled_after_pickup" | "cancel_refused" | "address_changed" | TrackingAttention;

/**
 * Raised by the tracking sync: the courier reported an exception (undelivered, RTO, misrouted, lost, damaged, pickup
 * failed), or the parcel has had no new scan for longer than its stage allows. Both are raised when they begin, so a
 * dismissal holds until something new happens.
 */
export type TrackingAttention = "tracking_exception" | "tracking_stalled";

/** Flags the shipment, unless it carries this flag already. `lastError` says what went wrong, where there is more to say. */
export async function raiseAttention(shipment: ShipmentRef, attention: ShipmentAttention, change: Change, { lastError }: { lastError?: Sentence } = {}): Promise<boolean> {
  const moved = await apply(shipment, "attention_raised", change, {
    data: { attention, attentionAt: change.at, ...(lastError === undefined ? {} : lastErrorOf(lastError)) },
    reason: lastError ?? null,
    moved: (locked) => ({ from: locked.attention, to: attention }),
    when: (locked) => locked.attention !== attention,
  });
  return moved !== null;
}

/** `raiseAttention` for a shipment known by its id alone. */
export async function flagShipment(shipmentId: number, attention: ShipmentAttention, at: Date, actor: Actor = { kind: "job", name: "order-check" }): Promise<void> {
  const shipment = await prisma.shipment.findUnique({ where: { id: shipmentId }, select: { id: true, shop: true } });
  if (shipment) await raiseAttention(shipment, attention, { actor, at });
}

/** The merchant has dealt with it. */
export async function clearShipmentAttention(shop: string, shipmentId: number, change: Change = { actor: { kind: "merchant", name: "Needs attention page" }, at: new Date() }): Promise<boolean> {
  const moved = await apply({ id: shipmentId, shop }, "attention_cleared", change, {
    data: { attention: null, attentionAt: null },
    moved: (locked) => ({ from: locked.attention, to: null }),
    when: (locked) => locked.attention !== null,
  });
  return moved !== null;
}

// ─── Tracking ─────────────────────────────────────────────────────────────────────────────────────────────────────

/** One entry of the courier's tracking, read as a report of where the parcel is. */
export interface CourierReport {
  code: ServiceStatusCode;
  /** The courier's name for its stage. */
  label: string;
  at: Date;
  /** The courier's own words (its reason for an attempt that failed); they may name the shopper. */
  activity: string;
}

export interface CourierProgress {
  /** The courier's entries since the last one read, oldest first. */
  reports: readonly CourierReport[];
  estimatedDeliveryAt: Date;
  deliveredAt: Date | null;
  /** The attention the courier's news raises or clears; undefined leaves the flag as it is. */
  attention?: { flag: TrackingAttention; at: Date } | { clear: true };
  nextSyncAt: Date | null;
}

/** The courier's latest stage, as a report puts it on the row. */
const reportColumns = (report: CourierReport) => ({ courierStatusCode: report.code, courierStatusLabel: report.label, courierStatusAt: report.at, lastScanAt: report.at });

/** The courier's words are cut for the history, as any quoted reason is. */
const COURIER_WORDS_LIMIT = 160;

/** What of a parcel Shopify Flow's triggers name: a return's pickup names the order it comes back from. */
function flowFactsOf(shipment: Shipment): ParcelFacts | null {
  const orderGid = shipment.direction === "return" ? shipment.returnOfOrderGid : shipment.orderGid;
  if (!orderGid?.startsWith("gid://shopify/Order/")) return null;
  return { orderGid, name: parcelName(shipment), awb: shipment.awb, courierName: shipment.courierName, trackingUrl: shipment.trackingUrl };
}

/** The events a return's pickup has: the rest are a parcel's on its way to the shopper. */
const RETURN_EVENTS: ReadonlySet<ParcelEvent["kind"]> = new Set(["return_picked_up", "return_received"]);

/**
 * The Shopify Flow trigger of an event of the parcel, recorded in the transition's own transaction (app/flow/). A
 * return's pickup announces only a return's events: its booking, a failed attempt at the warehouse or its going back
 * to the shopper are not a delivery to the shopper, and workflows listening for those would act on the wrong parcel.
 */
const announcing = (event: (moved: Shipment) => ParcelEvent) => async (tx: Client, moved: Shipment) => {
  const facts = flowFactsOf(moved);
  const announced = event(moved);
  if (moved.direction === "return" && !RETURN_EVENTS.has(announced.kind)) return;
  if (facts) await announceParcelEvent(tx, { shop: moved.shop, shipmentId: moved.id, facts }, announced);
};

type OutcomeChange = (shipment: ShipmentRef, report: CourierReport, change: Change, tx?: Client) => Promise<Shipment | null>;

/** Moves the courier's outcome by its named transition, with the report that moved it, and what it announces. */
const moveOutcome =
  (transition: TransitionName, { data, announce }: { data?: (report: CourierReport) => Prisma.ShipmentUncheckedUpdateInput; announce?: ParcelEvent["kind"] } = {}): OutcomeChange =>
  (shipment, report, change, tx) =>
    apply(shipment, transition, change, { data: { ...reportColumns(report), ...data?.(report) }, ...(announce ? { alsoRecord: announcing(() => ({ kind: announce }) as ParcelEvent) } : {}) }, tx);

// One function per outcome the courier reports: each is the one place a shipment reaches it, so what follows an
// outcome hooks here — the merchant's Shopify Flow workflows are told (a trigger per event) in the transition's own
// transaction. Null: the table refused the move.

/** Picked up from the warehouse and on its way to the shopper. */
export const markInTransit = moveOutcome("in_transit");
/** Out with the courier's delivery agent (Flow: "Parcel out for delivery", once a parcel). */
export const markOutForDelivery = moveOutcome("out_for_delivery", { announce: "out_for_delivery" });

/**
 * The courier could not deliver: the attempt counted, with the courier's reason (its words, cut; customers/redact
 * takes them out). Flow: "Delivery attempt failed", with the attempt's number and the courier's words.
 */
export async function markDeliveryAttempted(shipment: ShipmentRef, report: CourierReport, change: Change, tx?: Client): Promise<Shipment | null> {
  return apply(
    shipment,
    "delivery_attempted",
    change,
    {
      data: { ...reportColumns(report), deliveryAttempts: { increment: 1 } },
      reason: (locked) => ({ key: "activity.stored.courier.attempt", values: { attempt: locked.deliveryAttempts + 1, reason: report.activity.slice(0, COURIER_WORDS_LIMIT) } }),
      alsoRecord: announcing((moved) => ({ kind: "delivery_failed", attempt: moved.deliveryAttempts, reason: report.activity })),
    },
    tx,
  );
}

/** Delivered to the shopper (Flow: "Parcel delivered"). */
export const markDelivered = moveOutcome("delivered", { data: (report) => ({ deliveredAt: report.at }), announce: "delivered" });
/** On its way back to the seller, return to origin (Flow: "Parcel returning to seller"). */
export const markRtoInitiated = moveOutcome("rto_initiated", { announce: "rto_started" });
/** Back at the seller's warehouse (Flow: "RTO parcel back at warehouse"). */
export const markRtoDelivered = moveOutcome("rto_delivered", { announce: "rto_delivered" });
export const markLost = moveOutcome("lost");
export const markDamaged = moveOutcome("damaged");
/** Cancelled at the courier (Dakiya's cancellation reaching it, or the courier's own). */
export const markCancelledByCourier = moveOutcome("courier_cancelled");
/** A return's pickup collected from the shopper (Flow: "Return picked up"). */
export const markPickedUp = moveOutcome("picked_up", { announce: "return_picked_up" });
/** A return's pickup delivered at the warehouse (Flow: "Return received"). */
export const markReceived = moveOutcome("received", { data: (report) => ({ deliveredAt: report.at }), announce: "return_received" });

const OUTCOME_CHANGES: Readonly<Record<string, OutcomeChange>> = {
  in_transit: markInTransit,
  out_for_delivery: markOutForDelivery,
  delivery_attempted: markDeliveryAttempted,
  delivered: markDelivered,
  rto_initiated: markRtoInitiated,
  rto_delivered: markRtoDelivered,
  lost: markLost,
  damaged: markDamaged,
  courier_cancelled: markCancelledByCourier,
  picked_up: markPickedUp,
  received: markReceived,
} satisfies Partial<Record<TransitionName, unknown>>;

/**
 * A report the courier's stage order does not lead to from where the parcel is (In Transit after Delivered, a
 * cancellation after pickup): kept in the history with what it said, and the outcome stays. Its entry is not posted to
 * the fulfillment either: Shopify shows a parcel's latest event as where it is, and the shopper would read "In transit"
 * or "Returning to seller" after "Delivered".
 */
export async function recordOutOfOrderReport(shipment: ShipmentRef, report: CourierReport, reported: ShipmentOutcome, change: Change, tx?: Client): Promise<Shipment | null> {
  return apply(
    shipment,
    "courier_out_of_order",
    change,
    {
      data: { lastScanAt: report.at },
      reason: { key: "activity.stored.courier.outOfOrder", values: { stage: report.label.slice(0, COURIER_WORDS_LIMIT) } },
      moved: (locked) => ({ from: locked.outcome, to: reported }),
      alsoRecord: async (db, moved) => {
        await db.trackingEvent.updateMany({ where: { shop: moved.shop, shipmentId: moved.id, code: report.code, happenedAt: report.at, postedAt: null, postAttemptedAt: null }, data: { postedAt: change.at } });
      },
    },
    tx,
  );
}

/**
 * One report of the courier's, applied to the shipment as it is under its row's lock: a report read already (by a
 * second sync of the same answer, a retry racing the next pass) is no news; else it moves the outcome by its named
 * transition, or is a new stage within the outcome (`courier_progress`), or is out of the courier's order.
 */
async function applyCourierReport(shipment: ShipmentRef, report: CourierReport, change: Change): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ outcome: string; courierStatusCode: number | null; lastScanAt: Date | null; direction: string }[]>`
      SELECT outcome, "courierStatusCode", "lastScanAt", direction FROM "Shipment" WHERE id = ${shipment.id} AND shop = ${shipment.shop} FOR UPDATE`;
    // Read already: an earlier report, or one of the same moment at the stage the parcel is at. One of the same moment
    // but another stage is news (the sync passes only the entries no earlier read brought).
    const readAlready = row?.lastScanAt != null && (report.at.getTime() < row.lastScanAt.getTime() || (report.at.getTime() === row.lastScanAt.getTime() && report.code === row.courierStatusCode));
    if (!row || readAlready) return;
    const reported = outcomeOfCode(report.code, row.direction);
    if (reported === row.outcome && reported !== SHIPMENT_OUTCOME.DELIVERY_ATTEMPTED) {
      if (report.code === row.courierStatusCode) await note(shipment, "tracking_checked", reportColumns(report), tx);
      else await apply(shipment, "courier_progress", change, { data: reportColumns(report), moved: (locked) => ({ from: locked.courierStatusLabel, to: report.label }) }, tx);
      return;
    }
    const transition = outcomeTransition(row.outcome, reported);
    if (transition && (await OUTCOME_CHANGES[transition]!(shipment, report, change, tx))) return;
    await recordOutOfOrderReport(shipment, report, reported, change, tx);
  }, SHIPMENT_TRANSACTION);
}

/**
 * What a tracking read found. Each report since the last one read moves the courier's outcome by its named
 * transition, in the courier's stage order (a report out of that order is kept as such and moves nothing); a new stage
 * within the outcome is a `courier_progress`. Then the read's bookkeeping (the estimate, the next read; the back-off of
 * earlier failures is over) and the attention the news raises or clears. Returns the row as it now is.
 */
export async function recordCourierProgress(shipment: Shipment, progress: CourierProgress, change: Change): Promise<Shipment> {
  for (const report of progress.reports) await applyCourierReport(shipment, report, change);
  const flag = progress.attention === undefined ? undefined : "clear" in progress.attention ? null : progress.attention.flag;
  const data = {
    ...(flag === undefined ? {} : { attention: flag, attentionAt: flag === null ? null : (progress.attention as { at: Date }).at }),
    estimatedDeliveryAt: progress.estimatedDeliveryAt,
    // An answer without a delivery date leaves the one a Delivered report set: a courier that omits it, or answers from
    // a read taken before its delivery committed, would otherwise leave a delivered parcel dateless for good, since a
    // delivered parcel is not read again.
    ...(progress.deliveredAt === null ? {} : { deliveredAt: progress.deliveredAt }),
    syncedAt: change.at,
    nextSyncAt: progress.nextSyncAt,
    trackingFailures: 0,
    awbUnknownCount: 0,
    ...trackingErrorOf(null),
  };
  if (flag !== undefined && flag !== shipment.attention) {
    await apply(shipment, flag === null ? "attention_cleared" : "attention_raised", change, { data, moved: (locked) => ({ from: locked.attention, to: flag }) });
  } else {
    await note(shipment, "tracking_checked", data);
  }
  return prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
}

/** When the shipment is read next, once its news is posted to Shopify (bookkeeping). */
export async function scheduleNextSync(shipment: ShipmentRef, nextSyncAt: Date | null): Promise<void> {
  await note(shipment, "tracking_checked", { nextSyncAt });
}

/** A shipment a tracking pass claimed: the row as claimed (its next read the lease's end), when it fell due, and its row version then. */
export interface TrackingClaim {
  shipment: Shipment;
  dueAt: Date;
  /** PostgreSQL's row version (xmin) after the claim: a write since then changes it. */
  version: string;
}

/** A shop's shipments due for a read at `now`: booked, still travelling, and tracked (or paused, for its probe). */
function dueForTracking(shop: string, now: Date): Prisma.Sql {
  const rule: TransitionRule = SHIPMENT_TRANSITIONS.tracking_checked;
  return Prisma.sql`shop = ${shop} AND "nextSyncAt" <= ${now} AND awb IS NOT NULL AND status IN (${Prisma.join([...rule.from])})
    AND "trackingState" IN (${TRACKING_STATE.ACTIVE}, ${TRACKING_STATE.PAUSED})`;
}

/**
 * Claims up to `limit` of a shop's shipments due for a tracking read (active, or paused and due for a probe), oldest
 * due first, in one statement: each is leased (its next read moved to `leaseUntil`), so another pass, in this process
 * or another, takes others, and a pass that dies leaves its claims due again when the lease ends. Rows another
 * statement holds are passed over rather than waited for (bookkeeping: no history row).
 */
export async function claimDueTracking(shop: string, { now, limit, leaseUntil }: { now: Date; limit: number; leaseUntil: Date }): Promise<TrackingClaim[]> {
  const rows = await prisma.$queryRaw<(Shipment & { dueAt: Date; version: string })[]>`
    UPDATE "Shipment" s SET "nextSyncAt" = ${leaseUntil}
    FROM (
      SELECT id, "nextSyncAt" AS due FROM "Shipment"
      WHERE ${dueForTracking(shop, now)}
      ORDER BY "nextSyncAt", id LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ) claimed
    WHERE s.id = claimed.id
    RETURNING s.*, claimed.due AS "dueAt", s.xmin::text AS version`;
  return rows
    .map(({ dueAt, version, ...shipment }) => ({ shipment: shipment as Shipment, dueAt, version }))
    .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || a.shipment.id - b.shipment.id);
}

/** Whether any of the shop's shipments is due for a read at `now` and not claimed: a full pass asks before another. */
export async function trackingStillDue(shop: string, now: Date): Promise<boolean> {
  const rows = await prisma.$queryRaw<unknown[]>`SELECT 1 FROM "Shipment" WHERE ${dueForTracking(shop, now)} LIMIT 1`;
  return rows.length > 0;
}

/**
 * Claims a pass did not finish (it stopped on a pause or a failure, or another holds the shipment's lock) are due again
 * as they were, unless their next read was set since (by a sync, a pause): the lease is still there only if not.
 */
export async function releaseTrackingClaims(shop: string, claims: readonly TrackingClaim[]): Promise<void> {
  if (claims.length === 0) return;
  await prisma.$executeRaw`
    UPDATE "Shipment" s SET "nextSyncAt" = u.due::timestamp(3)
    FROM unnest(${claims.map((claim) => claim.shipment.id)}::int[], ${claims.map((claim) => claim.shipment.nextSyncAt!.toISOString())}::text[], ${claims.map((claim) => claim.dueAt.toISOString())}::text[]) AS u(id, lease, due)
    WHERE s.id = u.id AND s.shop = ${shop} AND s."nextSyncAt" = u.lease::timestamp(3)`;
}

/** What a read that brought nothing new still updates: the estimate, the delivery date and when to read next. */
export interface UnchangedRead {
  claim: TrackingClaim;
  estimatedDeliveryAt: Date | null;
  deliveredAt: Date | null;
  nextSyncAt: Date;
}

/**
 * The reads of a pass that brought nothing new, in one statement (bookkeeping, as `recordCourierProgress` writes it
 * for a read without news: the read time, the next read, the back-off of earlier failures over). A row written since
 * its claim (a "Sync now", a cancellation) is left alone: its version no longer matches. Returns the ids written.
 */
export async function recordUnchangedReads(shop: string, reads: readonly UnchangedRead[], at: Date): Promise<Set<number>> {
  if (reads.length === 0) return new Set();
  const rule: TransitionRule = SHIPMENT_TRANSITIONS.tracking_checked;
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  const written = await prisma.$queryRaw<{ id: number }[]>`
    UPDATE "Shipment" s SET "syncedAt" = ${at}, "nextSyncAt" = u.next::timestamp(3), "estimatedDeliveryAt" = u.eta::timestamp(3), "deliveredAt" = COALESCE(u.delivered::timestamp(3), s."deliveredAt"),
      "trackingFailures" = 0, "awbUnknownCount" = 0, "trackingError" = NULL, "trackingErrorWords" = NULL, "updatedAt" = ${at}
    FROM unnest(${reads.map((read) => read.claim.shipment.id)}::int[], ${reads.map((read) => read.claim.version)}::text[], ${reads.map((read) => iso(read.nextSyncAt))}::text[],
      ${reads.map((read) => iso(read.estimatedDeliveryAt))}::text[], ${reads.map((read) => iso(read.deliveredAt))}::text[]) AS u(id, version, next, eta, delivered)
    WHERE s.id = u.id AND s.shop = ${shop} AND s.xmin::text = u.version AND s.status IN (${Prisma.join([...rule.from])}) AND s."trackingState" = ${TRACKING_STATE.ACTIVE}
    RETURNING s.id`;
  return new Set(written.map((row) => row.id));
}

/**
 * One shipment's tracking read failed for a reason of its own (the courier did not answer for it, or does not know
 * its awb yet): it backs off alone, and the rest of the shop's tracking goes on.
 */
export async function markTrackingRetrying(shipment: Shipment, { error, nextSyncAt, awbUnknown }: { error: Sentence; nextSyncAt: Date; awbUnknown: boolean }, change: Change): Promise<Shipment | null> {
  return apply(shipment, "tracking_retrying", change, {
    data: { trackingFailures: { increment: 1 }, awbUnknownCount: awbUnknown ? { increment: 1 } : 0, ...trackingErrorOf(error), nextSyncAt },
    reason: error,
  });
}

/** The courier said again and again it does not know the awb: no longer read. */
export async function stopTracking(shipment: ShipmentRef, error: Sentence, change: Change): Promise<Shipment | null> {
  return apply(shipment, "tracking_stopped", change, { data: { nextSyncAt: null, ...trackingErrorOf(error) }, reason: error });
}

/** Tracking of a stopped or paused shipment starts again ("Sync now", or a probe that succeeded). */
export async function resumeTracking(shipment: ShipmentRef, change: Change, reason?: Sentence): Promise<Shipment | null> {
  return apply(shipment, "tracking_resumed", change, { data: { trackingFailures: 0, awbUnknownCount: 0, ...trackingErrorOf(null), nextSyncAt: change.at }, reason: reason ?? null });
}

/**
 * The courier refused the shop's account for every shipment (its keys, a maintenance page): every shipment the shop
 * tracks is paused in one statement, each with its history row, until `nextProbeAt`. Returns how many were paused.
 */
export async function pauseShopTracking(shop: string, { reason, nextProbeAt }: { reason: Sentence; nextProbeAt: Date }, change: Change): Promise<number> {
  const why = reasonOf(reason);
  return applyToShop(
    shop,
    "tracking_paused",
    {
      set: Prisma.sql`"trackingError" = ${why}, "trackingErrorWords" = ${reasonWordsJson(reason)}::jsonb, "nextSyncAt" = ${nextProbeAt}, "trackingFailures" = 1`,
      where: Prisma.sql`awb IS NOT NULL AND "nextSyncAt" IS NOT NULL`,
      reason,
    },
    change,
  );
}

/** A probe of a paused shop failed again: its paused shipments wait for the next probe (bookkeeping). */
export async function deferPausedTracking(shop: string, { reason, nextProbeAt }: { reason: Sentence; nextProbeAt: Date }): Promise<void> {
  await prisma.shipment.updateMany({
    where: { shop, ...allowedWhere("tracking_deferred") },
    data: { nextSyncAt: nextProbeAt, trackingError: reasonOf(reason), trackingErrorWords: wordsIn(reason, REASON_LIMIT), trackingFailures: { increment: 1 } },
  });
}

/** A probe succeeded: every paused shipment of the shop is due again at once, each with its history row. */
export async function resumeShopTracking(shop: string, change: Change): Promise<number> {
  return applyToShop(
    shop,
    "tracking_resumed",
    {
      set: Prisma.sql`"trackingError" = NULL, "trackingErrorWords" = NULL, "nextSyncAt" = ${change.at}, "trackingFailures" = 0`,
      // Only the shop's pause resumes here: a shipment the courier said it does not know stays stopped.
      where: Prisma.sql`"trackingState" = ${TRACKING_STATE.PAUSED}`,
      reason: { key: "activity.stored.tracking.courierAnswers" },
    },
    change,
  );
}

// ─── Labels and the pickup manifest ───────────────────────────────────────────────────────────────────────────────

/**
 * A step the shipments of one document take together, kept in their history only: the label printed for the first
 * time, or the hand-over to the courier's agent on a pickup's manifest. The booking status stays (`lifecycle.ts`);
 * shipments the table does not allow it for (cancelled since) are passed over. In the caller's transaction, beside
 * what the document records.
 */
export async function recordDocumentStep(tx: Client, shop: string, shipmentIds: readonly number[], transition: "label_printed" | "handed_over", change: Change, reason?: Sentence): Promise<void> {
  if (shipmentIds.length === 0) return;
  const rule: TransitionRule = SHIPMENT_TRANSITIONS[transition];
  const allowed = await tx.shipment.findMany({ where: { shop, id: { in: [...shipmentIds] }, status: { in: [...rule.from] } }, select: { id: true, shop: true } });
  await recordEvents(tx, allowed, [{ transition, from: null, to: null, reason }], change);
}

// ─── Privacy ──────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * customers/redact: the stored booking body without the shopper's details, the last error without its words
 * (the courier's and Shopify's errors may quote the address or phone they refused), the tracking error and the
 * history's reasons without the words they quote, in the caller's transaction. What happened and when stays.
 */
export async function redactBookingBody(tx: Client, shipment: ShipmentRef, redacted: { requestPayload: string; lastError: string | null }, change: Change): Promise<void> {
  const current = await tx.shipment.findFirst({ where: { id: shipment.id, shop: shipment.shop }, select: { trackingError: true, trackingErrorWords: true } });
  const trackingError = current?.trackingError ? withoutQuotedWords(storedSentence(current.trackingError, current.trackingErrorWords)) : null;
  // The words go with the text: their values may quote what the courier or Shopify refused.
  await apply(shipment, "redacted", change, { data: { ...redacted, lastErrorWords: Prisma.DbNull, ...trackingErrorOf(trackingError) } }, tx);
  const reasons = await tx.shipmentEvent.findMany({ where: { shop: shipment.shop, shipmentId: shipment.id, reason: { not: null } }, select: { id: true, reason: true, reasonWords: true } });
  for (const event of reasons) {
    const without = reasonWithoutQuotes(event);
    if (without) await tx.shipmentEvent.update({ where: { id: event.id }, data: without });
  }
}

/**
 * shop/redact: the shop's shipments and their history (tracking entries and events go with them by cascade; the
 * events are named too, so none is left should a row have lost its shipment), in the caller's transaction.
 */
export async function eraseShopShipments(tx: Client, shop: string): Promise<void> {
  await tx.shipmentEvent.deleteMany({ where: { shop } });
  await tx.shipment.deleteMany({ where: { shop } });
}
