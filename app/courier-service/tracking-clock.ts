import { pathBetween, SERVICE_STATUS, SERVICE_STATUS_LABELS, UNDELIVERED_REASON_CODES, undeliveredActivity, type ReattemptResult, type ServiceStatusCode, type UndeliveredReason } from "~/shipping/status";

/**
 * The embedded sandbox moves each shipment along the status graph on its own clock. Which way a
 * shipment goes at each fork, and how long each leg takes, is drawn from a hash of its awb and the
 * step number, so a given awb always tells the same story (docs/courier-service.md).
 */

export interface TrackingStep {
  step: number;
  code: ServiceStatusCode;
  happenedAt: Date;
  location: string | null;
  activity: string;
}

export interface ShipmentRoute {
  awb: string;
  originCity: string;
  destinationCity: string;
  /** Hours from pick-up to reaching the destination city, from the courier's delivery days. */
  transitHours: number;
}

interface Leg {
  to: ServiceStatusCode;
  weight: number;
  hours: (route: ShipmentRoute) => number;
}

/** The clock's own moves. Cancellation and some exceptions happen only when asked (advance, cancel). */
const AUTO_LEGS: Partial<Record<ServiceStatusCode, Leg[]>> = {
  2: [{ to: 3, weight: 1, hours: () => 4 }],
  3: [
    { to: 5, weight: 90, hours: () => 8 },
    { to: 4, weight: 10, hours: () => 6 },
  ],
  4: [{ to: 3, weight: 1, hours: () => 24 }],
  5: [
    { to: 6, weight: 94, hours: (route) => route.transitHours },
    { to: 13, weight: 3, hours: () => 24 },
    { to: 15, weight: 2, hours: () => 48 },
    { to: 14, weight: 1, hours: () => 96 },
  ],
  6: [{ to: 7, weight: 1, hours: () => 12 }],
  7: [
    { to: 8, weight: 85, hours: () => 6 },
    { to: 9, weight: 15, hours: () => 8 },
  ],
  9: [
    { to: 7, weight: 60, hours: () => 24 },
    { to: 11, weight: 40, hours: () => 48 },
  ],
  11: [{ to: 12, weight: 1, hours: () => 96 }],
  13: [{ to: 5, weight: 1, hours: () => 24 }],
};

/** FNV-1a over the text, scaled to [0, 1). */
function draw(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) / 2 ** 32;
}

export function autoLeg(route: ShipmentRoute, from: ServiceStatusCode, step: number): { to: ServiceStatusCode; hours: number } | null {
  const legs = AUTO_LEGS[from];
  if (!legs) return null;
  const total = legs.reduce((sum, leg) => sum + leg.weight, 0);
  let pick = draw(`${route.awb}:${step}`) * total;
  for (const leg of legs) {
    pick -= leg.weight;
    if (pick < 0) return { to: leg.to, hours: leg.hours(route) };
  }
  const last = legs[legs.length - 1]!;
  return { to: last.to, hours: last.hours(route) };
}

/** The reason the clock gives a failed attempt at this step: drawn from the awb, so the same story is told again. */
export function drawnUndeliveredReason(route: ShipmentRoute, step: number): UndeliveredReason {
  return UNDELIVERED_REASON_CODES[Math.floor(draw(`${route.awb}:reason:${step}`) * UNDELIVERED_REASON_CODES.length)]!;
}

export function describeStage(route: ShipmentRoute, code: ServiceStatusCode, step: number, reason?: UndeliveredReason): { location: string | null; activity: string } {
  const origin = route.originCity;
  const destination = route.destinationCity;
  switch (code) {
    case 2:
      return { location: origin, activity: "Shipment manifested; awaiting pick-up" };
    case 3:
      return { location: origin, activity: "Courier executive out to pick up the shipment" };
    case 4:
      return { location: origin, activity: "Pick-up not done: shipment not ready at the warehouse" };
    case 5:
      return { location: `${origin} hub`, activity: `Shipment picked up and in transit to ${destination}` };
    case 6:
      return { location: destination, activity: `Shipment reached the ${destination} delivery centre` };
    case 7:
      return { location: destination, activity: "Out for delivery" };
    case 8:
      return { location: destination, activity: "Delivered to the consignee" };
    case 9:
      return { location: destination, activity: undeliveredActivity(reason ?? drawnUndeliveredReason(route, step)) };
    case 10:
      return { location: null, activity: "Shipment cancelled at the shipper's request" };
    case 11:
      return { location: destination, activity: `Returning to origin (${origin})` };
    case 12:
      return { location: origin, activity: "Returned to the shipper's warehouse" };
    case 13:
      return { location: `${destination} hub`, activity: "Shipment misrouted; being rerouted" };
    case 14:
      return { location: null, activity: "Shipment lost in transit" };
    case 15:
      return { location: null, activity: "Shipment damaged in transit" };
  }
}

function stepAt(route: ShipmentRoute, { step, code, happenedAt }: Pick<TrackingStep, "step" | "code" | "happenedAt">, reason?: UndeliveredReason): TrackingStep {
  return { step, code, happenedAt, ...describeStage(route, code, step, reason) };
}

export function firstStep(route: ShipmentRoute, createdAt: Date): TrackingStep {
  return stepAt(route, { step: 0, code: 2, happenedAt: createdAt });
}

/** The steps the clock has reached by `now` after the last recorded one. */
export function stepsDue(route: ShipmentRoute, last: TrackingStep, now: Date): TrackingStep[] {
  const due: TrackingStep[] = [];
  let current = last;
  for (;;) {
    const leg = autoLeg(route, current.code, current.step + 1);
    if (!leg) return due;
    const happenedAt = new Date(current.happenedAt.getTime() + leg.hours * 3_600_000);
    if (happenedAt > now) return due;
    current = stepAt(route, { step: current.step + 1, code: leg.to, happenedAt });
    due.push(current);
  }
}

export class IllegalMoveError extends Error {
  override name = "IllegalMoveError";
}

/** Steps through `codes` after `last`, stamped `now` (a millisecond apart, to keep history chronological). */
function stepsThrough(route: ShipmentRoute, { last, now, codes, reason }: { last: TrackingStep; now: Date; codes: readonly ServiceStatusCode[]; reason?: UndeliveredReason }): TrackingStep[] {
  const start = Math.max(now.getTime(), last.happenedAt.getTime() + 1);
  return codes.map((code, index) => stepAt(route, { step: last.step + 1 + index, code, happenedAt: new Date(start + index) }, reason));
}

/**
 * Moves a shipment on at once: one leg (the clock's own choice), or along the graph to `to`. A failed attempt on the
 * way gives `reason`, or the clock's own.
 */
export function advanceSteps(route: ShipmentRoute, { last, now, to, reason }: { last: TrackingStep; now: Date; to?: ServiceStatusCode; reason?: UndeliveredReason }): TrackingStep[] {
  let codes: ServiceStatusCode[];
  if (to === undefined) {
    const leg = autoLeg(route, last.code, last.step + 1);
    if (!leg) throw new IllegalMoveError(`The shipment is ${SERVICE_STATUS_LABELS[last.code]}, a final stage; it cannot move on`);
    codes = [leg.to];
  } else {
    const path = pathBetween(last.code, to);
    if (!path) {
      throw new IllegalMoveError(
        `The shipment cannot move from ${SERVICE_STATUS_LABELS[last.code]} (${last.code}) to ${SERVICE_STATUS_LABELS[to]} (${to})`,
      );
    }
    codes = path.slice(1);
  }
  return stepsThrough(route, { last, now, codes, reason });
}

export const REATTEMPT_CODES: Readonly<Record<ReattemptResult, readonly ServiceStatusCode[]>> = {
  delivered: [SERVICE_STATUS.OUT_FOR_DELIVERY, SERVICE_STATUS.DELIVERED],
  failed: [SERVICE_STATUS.OUT_FOR_DELIVERY, SERVICE_STATUS.UNDELIVERED],
  rto: [SERVICE_STATUS.RTO],
};

/**
 * The courier's answer to failed attempt number `attempt` (1: the first), judged against the history so that a
 * retried request does nothing twice: the steps still to record (none: it happened already, a retry or the clock
 * went the same way), or an IllegalMoveError when the history went another way since that attempt.
 */
export function reattemptSteps(
  route: ShipmentRoute,
  history: readonly TrackingStep[],
  { attempt, result, now, reason }: { attempt: number; result: ReattemptResult; now: Date; reason?: UndeliveredReason },
): TrackingStep[] {
  const failed = history.flatMap((step, index) => (step.code === SERVICE_STATUS.UNDELIVERED ? [index] : []));
  const at = failed[attempt - 1];
  if (at === undefined) {
    throw new IllegalMoveError(`The shipment has had ${failed.length} failed delivery attempt${failed.length === 1 ? "" : "s"}; attempt ${attempt} cannot be re-attempted`);
  }
  const since = history.slice(at + 1).map((step) => step.code);
  const wanted = REATTEMPT_CODES[result];
  const sameStart = since.slice(0, wanted.length).every((code, index) => code === wanted[index]);
  if (!sameStart) {
    throw new IllegalMoveError(
      `Failed attempt ${attempt} was followed by ${SERVICE_STATUS_LABELS[since[0]!]} (${since[0]}) already; it cannot be re-attempted as ${result}`,
    );
  }
  return stepsThrough(route, { last: history.at(-1)!, now, codes: wanted.slice(since.length), reason });
}
