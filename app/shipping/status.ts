/**
 * Service status codes (spec: "States and transitions") and the transition graph Dakiya's
 * embedded service follows. The spec lists the codes but not the transitions; the graph is
 * documented in docs/courier-service.md.
 */
export const SERVICE_STATUS = {
  MANIFESTED: 2,
  OUT_FOR_PICKUP: 3,
  PICKUP_EXCEPTION: 4,
  IN_TRANSIT: 5,
  REACHED_AT_DESTINATION: 6,
  OUT_FOR_DELIVERY: 7,
  DELIVERED: 8,
  UNDELIVERED: 9,
  CANCELLED: 10,
  RTO: 11,
  RTO_DELIVERED: 12,
  MISROUTE: 13,
  LOST: 14,
  DAMAGED: 15,
} as const;

export type ServiceStatusCode = (typeof SERVICE_STATUS)[keyof typeof SERVICE_STATUS];

export const SERVICE_STATUS_CODES: readonly ServiceStatusCode[] = Object.values(SERVICE_STATUS);

export const SERVICE_STATUS_LABELS: Record<ServiceStatusCode, string> = {
  2: "Manifested",
  3: "Out for Pickup",
  4: "Pickup Exception",
  5: "In Transit",
  6: "Reached at Destination",
  7: "Out for Delivery",
  8: "Delivered",
  9: "Undelivered",
  10: "Cancelled",
  11: "RTO",
  12: "RTO Delivered",
  13: "Misroute",
  14: "Lost",
  15: "Damaged",
};

/**
 * Why a delivery attempt failed (code 9, Undelivered), as Indian couriers' NDR reasons say it: the sandbox's own
 * attempts draw one of these, and `sandbox/advance` and `sandbox/reattempt` take one by its code.
 */
export const UNDELIVERED_REASONS = {
  consignee_unavailable: "consignee not available",
  address_incomplete: "address incomplete; landmark needed",
  refused: "consignee refused the delivery",
  cod_not_ready: "COD amount not ready",
  premises_closed: "premises closed",
  reschedule_requested: "consignee asked for delivery another day",
} as const;
export type UndeliveredReason = keyof typeof UNDELIVERED_REASONS;
export const UNDELIVERED_REASON_CODES = Object.keys(UNDELIVERED_REASONS) as UndeliveredReason[];

/** The tracking entry's activity for a failed attempt with this reason. */
export const undeliveredActivity = (reason: UndeliveredReason) => `Delivery attempted: ${UNDELIVERED_REASONS[reason]}`;

/** What the courier does when it re-attempts a failed delivery: out again and delivered, out again and failed again, or back (RTO). */
export const REATTEMPT_RESULTS = ["delivered", "failed", "rto"] as const;
export type ReattemptResult = (typeof REATTEMPT_RESULTS)[number];

/** `order_status` is the label as one upper-case word, as the spec's sample `INTRANSIT` shows. */
export function orderStatusWord(code: ServiceStatusCode): string {
  return SERVICE_STATUS_LABELS[code].replace(/[^A-Za-z]/g, "").toUpperCase();
}

export function isServiceStatusCode(value: number): value is ServiceStatusCode {
  return Object.hasOwn(SERVICE_STATUS_LABELS, value);
}

/** Every move a shipment may make. Codes with no entry are terminal. */
export const TRANSITIONS: Readonly<Partial<Record<ServiceStatusCode, readonly ServiceStatusCode[]>>> = {
  2: [3, 10],
  3: [5, 4, 10],
  4: [3, 10],
  5: [6, 13, 11, 14, 15],
  6: [7, 11, 14, 15],
  7: [8, 9],
  9: [7, 11],
  11: [12, 14, 15],
  13: [5],
};

export function isTerminal(code: ServiceStatusCode): boolean {
  return !TRANSITIONS[code]?.length;
}

/** Cancellation is accepted until the courier has the parcel. */
export function isCancellable(code: ServiceStatusCode): boolean {
  return TRANSITIONS[code]?.includes(SERVICE_STATUS.CANCELLED) ?? false;
}

/** The shortest walk along the graph from one code to another (both ends included), or null. */
export function pathBetween(from: ServiceStatusCode, to: ServiceStatusCode): ServiceStatusCode[] | null {
  const previous = new Map<ServiceStatusCode, ServiceStatusCode | null>([[from, null]]);
  const queue: ServiceStatusCode[] = [from];
  while (queue.length > 0) {
    const code = queue.shift()!;
    if (code === to && code !== from) break;
    for (const next of TRANSITIONS[code] ?? []) {
      if (!previous.has(next)) {
        previous.set(next, code);
        queue.push(next);
      }
    }
  }
  if (from === to || !previous.has(to)) return null;
  const path: ServiceStatusCode[] = [];
  for (let code: ServiceStatusCode | null = to; code !== null; code = previous.get(code) ?? null) path.unshift(code);
  return path;
}

/**
 * The entry's second numeric `status` (meaning not shown in the spec): Dakiya's service uses it
 * for the phase of the shipment, so clients can group stages without a table of codes.
 */
export const TRACKING_PHASE = { BOOKED: 1, IN_NETWORK: 2, DELIVERED: 3, RETURNING: 4, CLOSED_EXCEPTION: 5 } as const;

export function trackingPhase(code: ServiceStatusCode): number {
  if (code <= 4) return TRACKING_PHASE.BOOKED;
  if (code === 8) return TRACKING_PHASE.DELIVERED;
  if (code === 11 || code === 12) return TRACKING_PHASE.RETURNING;
  if (code === 10 || code === 14 || code === 15) return TRACKING_PHASE.CLOSED_EXCEPTION;
  return TRACKING_PHASE.IN_NETWORK;
}
