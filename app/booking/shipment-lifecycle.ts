/**
 * A Shipment's booking lifecycle — Dakiya's record of booking one Shopify order with the courier — as one
 * transition table, used by the server (every status change is guarded by it) and by the screens (labels and
 * tones). Pure: screens import it. The courier's own progress (in transit, delivered…) is a separate status
 * on the shipment (`app/shipping/status.ts`).
 *
 *   booking ──► booked_unfulfilled ──► fulfilled
 *      │               │                   │
 *      ▼               └─────► cancelled ◄─┘
 *    failed ──► booking (booked again)
 */
export const SHIPMENT_STATUS = {
  /** Claimed: the order is being booked; nothing or the exact body has been sent to the courier. */
  BOOKING: "booking",
  /** The courier gave an awb; Shopify's fulfillment with the tracking is not done yet. */
  BOOKED_UNFULFILLED: "booked_unfulfilled",
  /** Booked and fulfilled in Shopify with the courier, awb and tracking link. */
  FULFILLED: "fulfilled",
  /** Nothing was booked (the courier refused, or the booking was interrupted before reaching it): book again. */
  FAILED: "failed",
  /** The order was cancelled in Shopify and the courier cancelled the shipment. */
  CANCELLED: "cancelled",
} as const;

export type ShipmentStatus = (typeof SHIPMENT_STATUS)[keyof typeof SHIPMENT_STATUS];
export const SHIPMENT_STATUSES = Object.values(SHIPMENT_STATUS) as ShipmentStatus[];

export const SHIPMENT_TRANSITIONS: Readonly<Record<ShipmentStatus, readonly ShipmentStatus[]>> = {
  booking: ["booked_unfulfilled", "failed"],
  booked_unfulfilled: ["fulfilled", "cancelled"],
  fulfilled: ["cancelled"],
  failed: ["booking"],
  cancelled: [],
};

export function isShipmentStatus(value: string): value is ShipmentStatus {
  return (SHIPMENT_STATUSES as string[]).includes(value);
}

export function canMove(from: ShipmentStatus, to: ShipmentStatus): boolean {
  return SHIPMENT_TRANSITIONS[from].includes(to);
}

/** The statuses a shipment may be in to move to `to`: the guard of every status update. */
export function statusesBefore(to: ShipmentStatus): ShipmentStatus[] {
  return SHIPMENT_STATUSES.filter((from) => canMove(from, to));
}

/** A booking that holds an awb (or may, while `booking` with a body sent): the order must not be booked again. */
export const holdsBooking = (status: ShipmentStatus) => status !== SHIPMENT_STATUS.FAILED;

export type BadgeTone = "success" | "info" | "attention" | "warning" | "critical";

export const SHIPMENT_STATUS_LABELS: Readonly<Record<ShipmentStatus, { label: string; tone: BadgeTone }>> = {
  booking: { label: "Booking", tone: "attention" },
  booked_unfulfilled: { label: "Booked, fulfillment pending", tone: "attention" },
  fulfilled: { label: "Fulfilled", tone: "success" },
  failed: { label: "Booking failed", tone: "critical" },
  cancelled: { label: "Cancelled", tone: "info" },
};

export function shipmentStatusLabel(status: string): { label: string; tone: BadgeTone | undefined } {
  return isShipmentStatus(status) ? SHIPMENT_STATUS_LABELS[status] : { label: status, tone: undefined };
}
