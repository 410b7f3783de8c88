import { Prisma, type Shipment } from "@prisma/client";
import prisma from "~/db.server";
import { LOCK_SPACE, lockIdOf } from "~/locks.server";
import { englishOf, isStoredWords, type Sentence, type StoredWords } from "~/locales/admin-language";
import { announceParcelBooked } from "~/flow/flow-triggers.server";
import { allows, SHIPMENT_STATUS, SHIPMENT_TRANSITIONS, TRACKED_STATUSES, TRACKING_STATE, type Actor, type TransitionName, type TransitionRule } from "./lifecycle";

/**
 * The one module that writes the `Shipment` table (and its history, `ShipmentEvent`): every change to a shipment is
 * one of the named transitions of `lifecycle.ts`, refused unless the table allows it from where the row is now, and
 * written in one transaction with the history row that records it (time, transition, from, to, who, why). A test
 * (`shipment-writers.test.ts`) fails when any other file writes either table.
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
  attention: string | null;
  courierStatusLabel: string | null;
}

// A shipment's sentences (its last error, its tracking error, a history row's reason) are stored as their English
// beside their words (`…Words`, said again in the admin's language); text wholly someone else's has no words beside it.

/** The English column of a sentence. */
const englishIn = (sentence: Sentence): string => (typeof sentence === "string" ? sentence : englishOf(sentence));

/** The words column of a sentence: null (the database's) for text kept as said, or none. */
function wordsIn(sentence: Sentence | null | undefined, limit?: number): Prisma.InputJsonValue | typeof Prisma.DbNull {
  if (!sentence || typeof sentence === "string") return Prisma.DbNull;
  return (limit === undefined ? sentence : limitedWords(sentence, limit)) as unknown as Prisma.InputJsonValue;
}

/** The words with each value of someone else's (a plain text) cut to the limit, as the English is. */
function limitedWords(words: StoredWords, limit: number): StoredWords {
  if (!words.values) return words;
  const values = Object.fromEntries(Object.entries(words.values).map(([name, value]) => [name, typeof value === "string" ? value.slice(0, limit) : typeof value === "number" ? value : limitedWords(value, limit)]));
  return { key: words.key, values };
}

/** A shipment's last error, in both columns (null clears both). */
const lastErrorOf = (sentence: Sentence | null) => ({ lastError: sentence === null ? null : englishIn(sentence), lastErrorWords: wordsIn(sentence) });

/** A shipment's tracking error, in both columns (null clears both). */
const trackingErrorOf = (sentence: Sentence | null) => ({ trackingError: sentence === null ? null : englishIn(sentence), trackingErrorWords: wordsIn(sentence) });

/** Reasons are short, for a list; the courier's or Shopify's own words are cut. */
const REASON_LIMIT = 300;
const reasonOf = (reason: Sentence | null | undefined) => (reason ? englishIn(reason).slice(0, REASON_LIMIT) : null);
/** A reason's words, for a raw statement: JSON text, or null. */
const reasonWordsJson = (reason: Sentence | null | undefined): string | null => (reason && typeof reason !== "string" ? JSON.stringify(limitedWords(reason, REASON_LIMIT)) : null);

interface Step {
  transition: TransitionName;
  from: string | null;
  to: string | null;
  reason?: Sentence | null;
}

async function recordEvents(tx: Client, refs: ShipmentRef | readonly ShipmentRef[], steps: readonly Step[], { actor, at }: Change): Promise<void> {
  const recorded = steps.filter((step) => SHIPMENT_TRANSITIONS[step.transition].recorded);
  const data = [refs].flat().flatMap((ref) =>
    recorded.map((step) => ({ shop: ref.shop, shipmentId: ref.id, transition: step.transition, fromState: step.from, toState: step.to, actorKind: actor.kind, actorName: actor.name.slice(0, 200), reason: reasonOf(step.reason), reasonWords: wordsIn(step.reason, REASON_LIMIT), at })),
  );
  if (data.length > 0) await tx.shipmentEvent.createMany({ data });
}

/** What a transition moves, as its history row says: the booking status, else the tracking state, else nothing. */
function movedBy(transition: TransitionName, locked: Locked): { from: string | null; to: string | null } {
  const rule: TransitionRule = SHIPMENT_TRANSITIONS[transition];
  if (rule.to) return { from: locked.status, to: rule.to };
  if (rule.tracking) return { from: locked.trackingState, to: rule.tracking.to };
  return { from: null, to: null };
}

interface Apply {
  /** The other columns the transition writes. */
  data?: Prisma.ShipmentUncheckedUpdateInput;
  reason?: Sentence | null;
  /** What the history says moved, where it is not the status or tracking state (the courier's stage, the flag). */
  moved?: (locked: Locked) => { from: string | null; to: string | null };
  /** A further guard on the locked row (the flag is not raised already…). */
  when?: (locked: Locked) => boolean;
  /** Further steps of the same change, each its own history row (the flag a courier update raises). */
  extra?: (locked: Locked) => Step[];
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
    const [locked] = await db.$queryRaw<Locked[]>`SELECT status, "trackingState", attention, "courierStatusLabel" FROM "Shipment" WHERE id = ${ref.id} AND shop = ${ref.shop} FOR UPDATE`;
    if (!locked || !allows(transition, locked.status, locked.trackingState) || (options.when && !options.when(locked))) return null;
    const rule: TransitionRule = SHIPMENT_TRANSITIONS[transition];
    const moved = await db.shipment.update({
      where: { id: ref.id },
      data: { ...options.data, ...(rule.to ? { status: rule.to } : {}), ...(rule.tracking ? { trackingState: rule.tracking.to } : {}) },
    });
    const step = { transition, reason: options.reason ?? null, ...(options.moved ?? ((row: Locked) => movedBy(transition, row)))(locked) };
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

/** A bookkeeping write (not kept in the history): one guarded statement. */
async function note(ref: ShipmentRef, transition: TransitionName, data: Prisma.ShipmentUncheckedUpdateManyInput): Promise<boolean> {
  const rule: { from: readonly string[]; tracking?: { from: readonly string[] } } = SHIPMENT_TRANSITIONS[transition];
  const { count } = await prisma.shipment.updateMany({
    where: { id: ref.id, shop: ref.shop, status: { in: [...rule.from] }, ...(rule.tracking ? { trackingState: { in: [...rule.tracking.from] } } : {}) },
    data,
  });
  return count === 1;
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
export async function claimShipment(tx: Client, { shop, orderGid, parcel }: { shop: string; orderGid: string; parcel?: ParcelClaim }, change: Change): Promise<Claim> {
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
    const [row] = await tx.shipment.createManyAndReturn({ data: [{ shop, orderGid, parcel: number, fulfillmentOrderGid, orderName: "", courierEnvironment: "", paymentMode: "", ...claimed }], skipDuplicates: true });
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
  if (isNew) await prisma.shipment.deleteMany({ where: { id: shipment.id, shop: shipment.shop, status: SHIPMENT_STATUS.BOOKING, requestPayload: "" } });
  else await apply(shipment, "claim_released", change, { reason });
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
  return orThrow(shipment, "booked", await apply(shipment, "booked", change, { data, reason, alsoRecord: announceParcelBooked }));
}

/**
 * Nothing was booked (the courier refused, the booking was interrupted, the order was cancelled first). Null: it had
 * moved on. When the courier refused the order_id itself as taken, the next booking sends the next one.
 */
export async function markFailed(shipment: ShipmentRef, lastError: Sentence, change: Change, { orderIdTaken = false }: { orderIdTaken?: boolean } = {}): Promise<Shipment | null> {
  return apply(shipment, "failed", change, { data: { ...lastErrorOf(lastError), ...(orderIdTaken ? { courierOrderAttempt: { increment: 1 } } : {}) }, reason: lastError });
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

export interface CourierProgress {
  /** The latest entry's stage, when the courier reported any. */
  stage: { code: number; label: string; at: Date } | null;
  estimatedDeliveryAt: Date;
  deliveredAt: Date | null;
  /** The attention the courier's news raises or clears; undefined leaves the flag as it is. */
  attention?: { flag: TrackingAttention; at: Date } | { clear: true };
  nextSyncAt: Date | null;
}

/**
 * What a tracking read found. A new stage is a `courier_progress` event (and a flag it raises or clears its own);
 * a read that found nothing new is bookkeeping. Either way the back-off of earlier failures is over.
 */
export async function recordCourierProgress(shipment: Shipment, progress: CourierProgress, change: Change): Promise<void> {
  const { stage } = progress;
  const flag = progress.attention === undefined ? undefined : "clear" in progress.attention ? null : progress.attention.flag;
  const data = {
    ...(stage ? { courierStatusCode: stage.code, courierStatusLabel: stage.label, courierStatusAt: stage.at, lastScanAt: stage.at } : {}),
    ...(flag === undefined ? {} : { attention: flag, attentionAt: flag === null ? null : (progress.attention as { at: Date }).at }),
    estimatedDeliveryAt: progress.estimatedDeliveryAt,
    deliveredAt: progress.deliveredAt,
    syncedAt: change.at,
    nextSyncAt: progress.nextSyncAt,
    trackingFailures: 0,
    awbUnknownCount: 0,
    ...trackingErrorOf(null),
  };
  const newStage = stage !== null && stage.code !== shipment.courierStatusCode;
  const flagMoves = flag !== undefined && flag !== shipment.attention;
  if (!newStage && !flagMoves) {
    await note(shipment, "tracking_checked", data);
    return;
  }
  const flagStep = (locked: Locked): Step => ({ transition: flag === null ? "attention_cleared" : "attention_raised", from: locked.attention, to: flag ?? null });
  if (!newStage) {
    await apply(shipment, flagStep({ attention: shipment.attention } as Locked).transition, change, { data, moved: (locked) => flagStep(locked) });
    return;
  }
  await apply(shipment, "courier_progress", change, {
    data,
    // The courier's own words stay out of the history: they may name the shopper ("Delivered to Asha Rao").
    moved: (locked) => ({ from: locked.courierStatusLabel, to: stage.label }),
    extra: (locked) => (flagMoves ? [flagStep(locked)] : []),
  });
}

/** When the shipment is read next, once its news is posted to Shopify (bookkeeping). */
export async function scheduleNextSync(shipment: ShipmentRef, nextSyncAt: Date | null): Promise<void> {
  await note(shipment, "tracking_checked", { nextSyncAt });
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

const TRACKED = Prisma.join([...TRACKED_STATUSES]);

/**
 * The courier refused the shop's account for every shipment (its keys, a maintenance page): every shipment the shop
 * tracks is paused in one statement, each with its history row, until `nextProbeAt`. Returns how many were paused.
 */
export async function pauseShopTracking(shop: string, { reason, nextProbeAt }: { reason: Sentence; nextProbeAt: Date }, { actor, at }: Change): Promise<number> {
  const why = reasonOf(reason);
  const whyWords = reasonWordsJson(reason);
  return prisma.$executeRaw`
    WITH paused AS (
      UPDATE "Shipment" SET "trackingState" = ${TRACKING_STATE.PAUSED}, "trackingError" = ${why}, "trackingErrorWords" = ${whyWords}::jsonb, "nextSyncAt" = ${nextProbeAt}, "trackingFailures" = 1, "updatedAt" = ${at}
      WHERE shop = ${shop} AND "trackingState" = ${TRACKING_STATE.ACTIVE} AND awb IS NOT NULL AND "nextSyncAt" IS NOT NULL AND status IN (${TRACKED})
      RETURNING id, shop
    )
    INSERT INTO "ShipmentEvent" (shop, "shipmentId", transition, "fromState", "toState", "actorKind", "actorName", reason, "reasonWords", at)
    SELECT shop, id, ${"tracking_paused" satisfies TransitionName}, ${TRACKING_STATE.ACTIVE}, ${TRACKING_STATE.PAUSED}, ${actor.kind}, ${actor.name}, ${why}, ${whyWords}::jsonb, ${at} FROM paused`;
}

/** A probe of a paused shop failed again: its paused shipments wait for the next probe (bookkeeping). */
export async function deferPausedTracking(shop: string, { reason, nextProbeAt }: { reason: Sentence; nextProbeAt: Date }): Promise<void> {
  await prisma.shipment.updateMany({
    where: { shop, trackingState: TRACKING_STATE.PAUSED, status: { in: [...TRACKED_STATUSES] } },
    data: { nextSyncAt: nextProbeAt, trackingError: reasonOf(reason), trackingErrorWords: wordsIn(reason, REASON_LIMIT), trackingFailures: { increment: 1 } },
  });
}

/** A probe succeeded: every paused shipment of the shop is due again at once, each with its history row. */
export async function resumeShopTracking(shop: string, { actor, at }: Change): Promise<number> {
  const why: StoredWords = { key: "activity.stored.tracking.courierAnswers" };
  return prisma.$executeRaw`
    WITH resumed AS (
      UPDATE "Shipment" SET "trackingState" = ${TRACKING_STATE.ACTIVE}, "trackingError" = NULL, "trackingErrorWords" = NULL, "nextSyncAt" = ${at}, "trackingFailures" = 0, "updatedAt" = ${at}
      WHERE shop = ${shop} AND "trackingState" = ${TRACKING_STATE.PAUSED} AND status IN (${TRACKED})
      RETURNING id, shop
    )
    INSERT INTO "ShipmentEvent" (shop, "shipmentId", transition, "fromState", "toState", "actorKind", "actorName", reason, "reasonWords", at)
    SELECT shop, id, ${"tracking_resumed" satisfies TransitionName}, ${TRACKING_STATE.PAUSED}, ${TRACKING_STATE.ACTIVE}, ${actor.kind}, ${actor.name}, ${reasonOf(why)}, ${reasonWordsJson(why)}::jsonb, ${at} FROM resumed`;
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

const REDACTED = "[redacted]";
/** The values of Dakiya's sentences that quote someone else's words: what the courier or Shopify said when refusing. */
const QUOTED_VALUES = new Set(["message", "reason"]);

/**
 * A sentence without the words it quotes: text wholly the courier's or Shopify's goes whole, and in Dakiya's own
 * sentences each quoted value (`message`, `reason`) goes, while the rest (the awb, the courier's name) stays, so
 * the history still says what happened.
 */
function withoutQuotedWords(sentence: Sentence): Sentence {
  if (typeof sentence === "string") return REDACTED;
  if (!sentence.values) return sentence;
  const values = Object.fromEntries(
    Object.entries(sentence.values).map(([name, value]) => [name, typeof value === "object" ? withoutQuotedWords(value) : QUOTED_VALUES.has(name) && typeof value === "string" ? REDACTED : value]),
  );
  return { key: sentence.key, values } as StoredWords;
}

/** A stored sentence (its English and its words) as the sentence it was, for redaction. */
const storedSentence = (english: string, stored: Prisma.JsonValue | null): Sentence => (isStoredWords(stored) ? stored : english);

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
    const reason = withoutQuotedWords(storedSentence(event.reason!, event.reasonWords));
    const english = reasonOf(reason);
    if (english !== event.reason) await tx.shipmentEvent.update({ where: { id: event.id }, data: { reason: english, reasonWords: wordsIn(reason, REASON_LIMIT) } });
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
