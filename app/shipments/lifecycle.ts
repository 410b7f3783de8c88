import type { ServiceStatusCode } from "~/shipping/status";

/**
 * A Shipment's life — Dakiya's record of shipping one parcel (a Shopify order's fulfillment order, or a return's pickup) with the courier — as one transition table,
 * used by the server (every write to a shipment is one of these named transitions, applied by
 * `app/shipments/shipment-changes.server.ts`, the one module that writes the table) and by the screens (labels,
 * tones, the history). Pure: screens import it.
 *
 * Three things move on a shipment, each guarded here:
 * - its booking status (`SHIPMENT_STATUS`):
 *
 *     booking ──► booked_unfulfilled ──► fulfilled
 *        │               └──► return_in_transit
 *        ▼
 *      failed ──► booking (booked again)
 *
 *     cancelled ◄── booked_unfulfilled, fulfilled, return_in_transit
 *
 * - its tracking (`TRACKING_STATE`): active ⇄ paused (an account-wide courier error pauses a shop's tracking, a later
 *   probe resumes it), active|paused → stopped (the courier says again and again it does not know the awb);
 * - its courier outcome (`SHIPMENT_OUTCOME`): where the courier has the parcel, moved by one named transition per
 *   outcome (`in_transit`, `delivery_attempted`, `delivered`, `rto_initiated`…) only in the courier's stage order
 *   (`app/shipping/status.ts`); a report out of that order is kept in the history (`courier_out_of_order`) and moves
 *   nothing. The courier's own stage within an outcome (Manifested → Out for Pickup) is a `courier_progress`;
 *
 *     awaiting_pickup ──► in_transit ──► out_for_delivery ──► delivered
 *        │   (a return:      │  ▲              │   ▲
 *        │    picked_up ──►  │  └─ delivery_attempted (each attempt counted) ─┐
 *        │    received)      ▼                                               ▼
 *        ├──► cancelled      rto_initiated ──► rto_delivered        lost, damaged (from any stage still moving)
 *
 * - the merchant's attention flag, moved by `attention_raised`/`attention_cleared`.
 *
 * A label printed for the first time and a hand-over to the courier's agent on a manifest are steps of the history
 * (`label_printed`, `handed_over`) that leave the booking status as it is: tracking, the lists and Shopify's
 * fulfillment go by `fulfilled`, and a parcel is no less fulfilled for having its label on.
 */
export const SHIPMENT_STATUS = {
  /** Claimed: the order is being booked; nothing or the exact body has been sent to the courier. */
  BOOKING: "booking",
  /** The courier gave an awb; Shopify's fulfillment with the tracking is not done yet. */
  BOOKED_UNFULFILLED: "booked_unfulfilled",
  /** Booked and fulfilled in Shopify with the courier, awb and tracking link. */
  FULFILLED: "fulfilled",
  /** A return's pickup is booked and on its way back to the warehouse. */
  RETURN_IN_TRANSIT: "return_in_transit",
  /** Nothing was booked (the courier refused, or the booking was interrupted before reaching it): book again. */
  FAILED: "failed",
  /** The order was cancelled in Shopify and the courier cancelled the shipment. */
  CANCELLED: "cancelled",
} as const;

export type ShipmentStatus = (typeof SHIPMENT_STATUS)[keyof typeof SHIPMENT_STATUS];
export const SHIPMENT_STATUSES = Object.values(SHIPMENT_STATUS) as ShipmentStatus[];

/**
 * Where the courier has the parcel (`Shipment.outcome`), apart from Dakiya's booking status: awaiting pickup until the
 * courier reports otherwise. A return's pickup is picked up from the shopper and received at the warehouse where a
 * parcel to the shopper is in transit and delivered.
 */
export const SHIPMENT_OUTCOME = {
  AWAITING_PICKUP: "awaiting_pickup",
  IN_TRANSIT: "in_transit",
  OUT_FOR_DELIVERY: "out_for_delivery",
  /** The courier could not deliver; `Shipment.deliveryAttempts` counts the attempts. */
  DELIVERY_ATTEMPTED: "delivery_attempted",
  DELIVERED: "delivered",
  /** Returning to the seller (return to origin). */
  RTO_INITIATED: "rto_initiated",
  RTO_DELIVERED: "rto_delivered",
  LOST: "lost",
  DAMAGED: "damaged",
  /** Cancelled at the courier: by Dakiya's cancellation, or by the courier itself. */
  CANCELLED: "cancelled",
  /** A return's pickup collected from the shopper and on its way to the warehouse. */
  PICKED_UP: "picked_up",
  /** A return's pickup delivered at the warehouse. */
  RECEIVED: "received",
} as const;
export type ShipmentOutcome = (typeof SHIPMENT_OUTCOME)[keyof typeof SHIPMENT_OUTCOME];
export const SHIPMENT_OUTCOMES = Object.values(SHIPMENT_OUTCOME) as ShipmentOutcome[];

export function isShipmentOutcome(value: string): value is ShipmentOutcome {
  return (SHIPMENT_OUTCOMES as string[]).includes(value);
}

/** Outcomes no courier report follows: not polled again (app/tracking/courier-progress.ts). */
export const FINAL_OUTCOMES: readonly ShipmentOutcome[] = ["delivered", "received", "rto_delivered", "lost", "damaged", "cancelled"];

/**
 * The outcome each of the courier's status codes stands for, by the shipment's direction: a pickup exception is
 * still awaiting pickup and a misroute still in transit (both raise the merchant's attention, not a state).
 */
const FORWARD_OUTCOME_OF: Readonly<Record<ServiceStatusCode, ShipmentOutcome>> = {
  2: "awaiting_pickup",
  3: "awaiting_pickup",
  4: "awaiting_pickup",
  5: "in_transit",
  6: "in_transit",
  7: "out_for_delivery",
  8: "delivered",
  9: "delivery_attempted",
  10: "cancelled",
  11: "rto_initiated",
  12: "rto_delivered",
  13: "in_transit",
  14: "lost",
  15: "damaged",
};
/** A return's pickup is out for delivery to the warehouse once it has left the shopper: picked up all the way. */
const RETURN_OUTCOME_OF: Readonly<Record<ServiceStatusCode, ShipmentOutcome>> = { ...FORWARD_OUTCOME_OF, 5: "picked_up", 6: "picked_up", 7: "picked_up", 8: "received", 13: "picked_up" };

/** The outcome a courier's status code reports for a shipment of this direction. */
export function outcomeOfCode(code: ServiceStatusCode, direction: string): ShipmentOutcome {
  return (direction === "return" ? RETURN_OUTCOME_OF : FORWARD_OUTCOME_OF)[code];
}

/** Statuses the courier tracks: an awb exists and the parcel may still move (a cancelled one, for its last event). */
export const TRACKED_STATUSES: readonly ShipmentStatus[] = ["booked_unfulfilled", "fulfilled", "return_in_transit", "cancelled"];
/** Statuses that stand for a booking, before or after the awb: everything but failed. */
const BOOKED_OR_BOOKING: readonly ShipmentStatus[] = SHIPMENT_STATUSES.filter((status) => status !== "failed");

/** Outcomes from which the parcel may still move: every one that is not final. */
const MOVING_OUTCOMES: readonly ShipmentOutcome[] = SHIPMENT_OUTCOMES.filter((outcome) => !FINAL_OUTCOMES.includes(outcome));

export const TRACKING_STATE = {
  /** Polled when due. */
  ACTIVE: "active",
  /** The shop's courier account refused every call (keys, an HTML page): probed again with back-off, resumed by itself. */
  PAUSED: "paused",
  /** The courier said again and again it does not know the awb: no longer polled; "Sync now" starts it again. */
  STOPPED: "stopped",
} as const;
export type TrackingState = (typeof TRACKING_STATE)[keyof typeof TRACKING_STATE];

/** Who moved a shipment: the rule that booked it, the merchant on a screen, a webhook, a background job, the courier. */
export type ActorKind = "rule" | "merchant" | "webhook" | "job" | "courier";
export interface Actor {
  kind: ActorKind;
  /** The rule's name, the screen, the webhook topic, the job's queue, the courier's name. */
  name: string;
}

export interface TransitionRule {
  /** The booking statuses a shipment may be in for this transition; anything else is refused. */
  from: readonly ShipmentStatus[];
  /** The booking status it moves to; absent: the status stays. */
  to?: ShipmentStatus;
  /** For the tracking transitions: the tracking states it may be in, and the one it moves to. */
  tracking?: { from: readonly TrackingState[]; to: TrackingState };
  /** For the courier's outcomes: the outcomes it may be in, and the one it moves to (checked besides `from`). */
  outcome?: { from: readonly ShipmentOutcome[]; to: ShipmentOutcome };
  /** A first claim released is removed, not failed: nothing happened (its one history row goes with it). */
  removesFirstClaim?: boolean;
  /** Creates the row (a first claim), besides moving an existing one `from`. */
  creates?: boolean;
  /**
   * Kept in the shipment's history. Bookkeeping — a tracking check that found nothing new, the fulfillment's id noted
   * before the order is tagged, the shop's erasure — changes nothing the merchant would read there.
   */
  recorded: boolean;
  /** The history's words for it. */
  label: string;
}

/**
 * Every change a shipment can go through, by name. The owner (`shipment-changes.server.ts`) applies each under this
 * guard, in one transaction with its history row.
 */
export const SHIPMENT_TRANSITIONS = {
  claimed: { from: ["failed"], to: "booking", creates: true, recorded: true, label: "Booking started" },
  courier_chosen: { from: ["booking"], recorded: true, label: "Courier chosen" },
  booking_retrying: { from: ["booking"], recorded: true, label: "Courier did not answer; retrying" },
  booked: { from: ["booking"], to: "booked_unfulfilled", recorded: true, label: "Booked with the courier" },
  failed: { from: ["booking"], to: "failed", recorded: true, label: "Booking failed" },
  /** Nothing was sent: a first claim's row is removed, a claim of a failed booking goes back to failed. */
  claim_released: { from: ["booking"], to: "failed", removesFirstClaim: true, recorded: true, label: "Not booked; nothing sent to the courier" },
  /** The order was cancelled (or the return declined) while nothing had reached the courier: cancelled, not failed. */
  cancelled_before_booking: { from: ["booking"], to: "cancelled", recorded: true, label: "Cancelled before it was booked" },
  fulfillment_retrying: { from: ["booked_unfulfilled"], recorded: true, label: "Shopify did not take the fulfillment yet" },
  fulfillment_created: { from: ["booked_unfulfilled"], recorded: false, label: "Shopify took the fulfillment" },
  fulfilled: { from: ["booked_unfulfilled"], to: "fulfilled", recorded: true, label: "Fulfilled in Shopify with the tracking" },
  /** The label printed for the first time; a forward parcel's, booked (its fulfillment may still be on its way). */
  label_printed: { from: ["booked_unfulfilled", "fulfilled"], recorded: true, label: "Label printed" },
  /** On a pickup's manifest, handed to the courier's agent. */
  handed_over: { from: ["booked_unfulfilled", "fulfilled"], recorded: true, label: "Handed over on a manifest" },
  // A return's pickup booked and Shopify's reverse delivery carrying its tracking.
  return_dispatched: { from: ["booked_unfulfilled"], to: "return_in_transit", recorded: true, label: "Return on its way back" },
  cancelled: { from: ["booked_unfulfilled", "fulfilled", "return_in_transit"], to: "cancelled", recorded: true, label: "Cancelled with the courier" },
  /** The courier's stage moved within one outcome (Manifested → Out for Pickup, In Transit → Reached at Destination). */
  courier_progress: { from: TRACKED_STATUSES, recorded: true, label: "Courier update" },
  // The courier's outcomes, each its own transition (the place to hook what follows one: a notification, a trigger),
  // each allowed only from the outcomes the courier's stage order leads on from (lifecycle.test.ts checks them
  // against app/shipping/status.ts).
  in_transit: { from: TRACKED_STATUSES, outcome: { from: ["awaiting_pickup"], to: "in_transit" }, recorded: true, label: "In transit" },
  out_for_delivery: { from: TRACKED_STATUSES, outcome: { from: ["awaiting_pickup", "in_transit", "delivery_attempted"], to: "out_for_delivery" }, recorded: true, label: "Out for delivery" },
  /** Each attempt counted (`deliveryAttempts`), with the courier's reason; an attempt may follow another. */
  delivery_attempted: { from: TRACKED_STATUSES, outcome: { from: ["awaiting_pickup", "in_transit", "out_for_delivery", "delivery_attempted", "picked_up"], to: "delivery_attempted" }, recorded: true, label: "Delivery attempted" },
  delivered: { from: TRACKED_STATUSES, outcome: { from: ["awaiting_pickup", "in_transit", "out_for_delivery", "delivery_attempted"], to: "delivered" }, recorded: true, label: "Delivered" },
  rto_initiated: { from: TRACKED_STATUSES, outcome: { from: ["awaiting_pickup", "in_transit", "out_for_delivery", "delivery_attempted", "picked_up"], to: "rto_initiated" }, recorded: true, label: "Returning to origin (RTO)" },
  rto_delivered: { from: TRACKED_STATUSES, outcome: { from: MOVING_OUTCOMES, to: "rto_delivered" }, recorded: true, label: "Returned to origin (RTO delivered)" },
  lost: { from: TRACKED_STATUSES, outcome: { from: MOVING_OUTCOMES, to: "lost" }, recorded: true, label: "Lost in transit" },
  damaged: { from: TRACKED_STATUSES, outcome: { from: MOVING_OUTCOMES, to: "damaged" }, recorded: true, label: "Damaged in transit" },
  /** Cancelled at the courier: only before pickup, as the courier allows it. */
  courier_cancelled: { from: TRACKED_STATUSES, outcome: { from: ["awaiting_pickup"], to: "cancelled" }, recorded: true, label: "Cancelled at the courier" },
  picked_up: { from: TRACKED_STATUSES, outcome: { from: ["awaiting_pickup", "delivery_attempted"], to: "picked_up" }, recorded: true, label: "Picked up from the shopper" },
  received: { from: TRACKED_STATUSES, outcome: { from: ["awaiting_pickup", "picked_up", "delivery_attempted"], to: "received" }, recorded: true, label: "Received at the warehouse" },
  /** A report the courier's stage order does not lead to from where the parcel is: kept, and nothing moves. */
  courier_out_of_order: { from: TRACKED_STATUSES, recorded: true, label: "Courier report out of order" },
  tracking_checked: { from: TRACKED_STATUSES, recorded: false, label: "Tracking checked" },
  tracking_retrying: { from: TRACKED_STATUSES, tracking: { from: ["active"], to: "active" }, recorded: true, label: "Tracking failed for this shipment; retrying" },
  tracking_paused: { from: TRACKED_STATUSES, tracking: { from: ["active"], to: "paused" }, recorded: true, label: "Tracking paused" },
  /** A probe of a paused shop failed again: its paused shipments wait longer (bookkeeping). */
  tracking_deferred: { from: TRACKED_STATUSES, tracking: { from: ["paused"], to: "paused" }, recorded: false, label: "Tracking probe deferred" },
  tracking_resumed: { from: TRACKED_STATUSES, tracking: { from: ["paused", "stopped"], to: "active" }, recorded: true, label: "Tracking resumed" },
  tracking_stopped: { from: TRACKED_STATUSES, tracking: { from: ["active", "paused"], to: "stopped" }, recorded: true, label: "Tracking stopped" },
  attention_raised: { from: BOOKED_OR_BOOKING, recorded: true, label: "Needs attention" },
  attention_cleared: { from: SHIPMENT_STATUSES, recorded: true, label: "Dealt with" },
  redacted: { from: SHIPMENT_STATUSES, recorded: true, label: "Customer's details removed" },
  /** The shop's erasure: the row goes, and its history with it. */
  erased: { from: SHIPMENT_STATUSES, recorded: false, label: "Erased" },
} as const satisfies Record<string, TransitionRule>;

export type TransitionName = keyof typeof SHIPMENT_TRANSITIONS;
export const TRANSITION_NAMES = Object.keys(SHIPMENT_TRANSITIONS) as TransitionName[];

const ruleOf = (name: TransitionName): TransitionRule => SHIPMENT_TRANSITIONS[name];

/** Whether a shipment in this status (and tracking state, and courier outcome) may go through the transition. */
export function allows(name: TransitionName, status: string, trackingState: string = TRACKING_STATE.ACTIVE, outcome: string = SHIPMENT_OUTCOME.AWAITING_PICKUP): boolean {
  const rule = ruleOf(name);
  if (!(rule.from as readonly string[]).includes(status)) return false;
  if (rule.outcome && !(rule.outcome.from as readonly string[]).includes(outcome)) return false;
  return !rule.tracking || (rule.tracking.from as readonly string[]).includes(trackingState);
}

/** The named transition that moves a shipment to each outcome it can reach. */
export const OUTCOME_TRANSITIONS: Readonly<Record<Exclude<ShipmentOutcome, "awaiting_pickup">, TransitionName>> = {
  in_transit: "in_transit",
  out_for_delivery: "out_for_delivery",
  delivery_attempted: "delivery_attempted",
  delivered: "delivered",
  rto_initiated: "rto_initiated",
  rto_delivered: "rto_delivered",
  lost: "lost",
  damaged: "damaged",
  cancelled: "courier_cancelled",
  picked_up: "picked_up",
  received: "received",
};

/**
 * What the courier's report of an outcome does to a shipment in another: the named transition that moves it, or null
 * when the courier's stage order does not lead there (an out-of-order or impossible report). A report of the outcome
 * it is in already moves nothing, except a new delivery attempt.
 */
export function outcomeTransition(from: string, to: ShipmentOutcome): TransitionName | null {
  if (to === SHIPMENT_OUTCOME.AWAITING_PICKUP) return null;
  const name = OUTCOME_TRANSITIONS[to];
  return (ruleOf(name).outcome!.from as readonly string[]).includes(from) ? name : null;
}

/** Where each booking status may move, read off the named transitions. */
export const SHIPMENT_STATUS_MOVES: Readonly<Record<ShipmentStatus, readonly ShipmentStatus[]>> = Object.fromEntries(
  SHIPMENT_STATUSES.map((from) => [from, [...new Set(TRANSITION_NAMES.flatMap((name) => { const rule = ruleOf(name); return rule.to && rule.to !== from && rule.from.includes(from) ? [rule.to] : []; }))]]),
) as Record<ShipmentStatus, ShipmentStatus[]>;

/** The transitions a shipment's history keeps, in the table's order: what the Shipments list's "Last event" offers. */
export const RECORDED_TRANSITIONS = TRANSITION_NAMES.filter((name) => ruleOf(name).recorded);

export function isRecordedTransition(value: string): value is TransitionName {
  return (RECORDED_TRANSITIONS as string[]).includes(value);
}

export function transitionLabel(name: string): string {
  return (TRANSITION_NAMES as string[]).includes(name) ? ruleOf(name as TransitionName).label : name;
}

export function isShipmentStatus(value: string): value is ShipmentStatus {
  return (SHIPMENT_STATUSES as string[]).includes(value);
}

export function canMove(from: ShipmentStatus, to: ShipmentStatus): boolean {
  return SHIPMENT_STATUS_MOVES[from].includes(to);
}

/** A booking that holds an awb (or may, while `booking` with a body sent): the order must not be booked again. */
export const holdsBooking = (status: ShipmentStatus) => status !== SHIPMENT_STATUS.FAILED;

export type BadgeTone = "success" | "info" | "attention" | "warning" | "critical";

/** Each outcome's one tone, wherever it is shown (the lists, the extensions). */
export const SHIPMENT_OUTCOME_TONES: Readonly<Record<ShipmentOutcome, BadgeTone | undefined>> = {
  awaiting_pickup: "info",
  in_transit: "info",
  out_for_delivery: "info",
  delivery_attempted: "critical",
  delivered: "success",
  rto_initiated: "warning",
  rto_delivered: "warning",
  lost: "critical",
  damaged: "critical",
  cancelled: undefined,
  picked_up: "info",
  received: "success",
};

export const SHIPMENT_STATUS_LABELS: Readonly<Record<ShipmentStatus, { label: string; tone: BadgeTone }>> = {
  booking: { label: "Booking", tone: "attention" },
  booked_unfulfilled: { label: "Booked, fulfillment pending", tone: "attention" },
  fulfilled: { label: "Fulfilled", tone: "success" },
  return_in_transit: { label: "Return in transit", tone: "info" },
  failed: { label: "Booking failed", tone: "critical" },
  cancelled: { label: "Cancelled", tone: "info" },
};

export function shipmentStatusLabel(status: string): { label: string; tone: BadgeTone | undefined } {
  return isShipmentStatus(status) ? SHIPMENT_STATUS_LABELS[status] : { label: status, tone: undefined };
}
