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
 * - the courier's stage (`app/shipping/status.ts`, what `app/tracking/courier-progress.ts` makes of each) and the
 *   merchant's attention flag, moved by `courier_progress` and `attention_raised`/`attention_cleared`.
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
  /** A return's pickup is booked and on its way back to the warehouse (issue 20). */
  RETURN_IN_TRANSIT: "return_in_transit",
  /** Nothing was booked (the courier refused, or the booking was interrupted before reaching it): book again. */
  FAILED: "failed",
  /** The order was cancelled in Shopify and the courier cancelled the shipment. */
  CANCELLED: "cancelled",
} as const;

export type ShipmentStatus = (typeof SHIPMENT_STATUS)[keyof typeof SHIPMENT_STATUS];
export const SHIPMENT_STATUSES = Object.values(SHIPMENT_STATUS) as ShipmentStatus[];

/** Statuses the courier tracks: an awb exists and the parcel may still move (a cancelled one, for its last event). */
export const TRACKED_STATUSES: readonly ShipmentStatus[] = ["booked_unfulfilled", "fulfilled", "return_in_transit", "cancelled"];
/** Statuses that stand for a booking, before or after the awb: everything but failed. */
const BOOKED_OR_BOOKING: readonly ShipmentStatus[] = SHIPMENT_STATUSES.filter((status) => status !== "failed");

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
  claim_released: { from: ["booking"], to: "failed", recorded: true, label: "Not booked; nothing sent to the courier" },
  fulfillment_retrying: { from: ["booked_unfulfilled"], recorded: true, label: "Shopify did not take the fulfillment yet" },
  fulfillment_created: { from: ["booked_unfulfilled"], recorded: false, label: "Shopify took the fulfillment" },
  fulfilled: { from: ["booked_unfulfilled"], to: "fulfilled", recorded: true, label: "Fulfilled in Shopify with the tracking" },
  /** The label printed for the first time; a forward parcel's, booked (its fulfillment may still be on its way). */
  label_printed: { from: ["booked_unfulfilled", "fulfilled"], recorded: true, label: "Label printed" },
  /** On a pickup's manifest, handed to the courier's agent. */
  handed_over: { from: ["booked_unfulfilled", "fulfilled"], recorded: true, label: "Handed over on a manifest" },
  // Issue 20: a return's pickup booked and Shopify's reverse delivery carrying its tracking.
  return_dispatched: { from: ["booked_unfulfilled"], to: "return_in_transit", recorded: true, label: "Return on its way back" },
  cancelled: { from: ["booked_unfulfilled", "fulfilled", "return_in_transit"], to: "cancelled", recorded: true, label: "Cancelled with the courier" },
  courier_progress: { from: TRACKED_STATUSES, recorded: true, label: "Courier update" },
  tracking_checked: { from: TRACKED_STATUSES, recorded: false, label: "Tracking checked" },
  tracking_retrying: { from: TRACKED_STATUSES, tracking: { from: ["active"], to: "active" }, recorded: true, label: "Tracking failed for this shipment; retrying" },
  tracking_paused: { from: TRACKED_STATUSES, tracking: { from: ["active"], to: "paused" }, recorded: true, label: "Tracking paused" },
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

/** Whether a shipment in this status (and tracking state) may go through the transition. */
export function allows(name: TransitionName, status: string, trackingState: string = TRACKING_STATE.ACTIVE): boolean {
  const rule = ruleOf(name);
  if (!(rule.from as readonly string[]).includes(status)) return false;
  return !rule.tracking || (rule.tracking.from as readonly string[]).includes(trackingState);
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
