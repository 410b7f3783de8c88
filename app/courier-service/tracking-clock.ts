import { pathBetween, SERVICE_STATUS_LABELS, type ServiceStatusCode } from "~/shipping/status";

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

export function describeStage(route: ShipmentRoute, code: ServiceStatusCode): { location: string | null; activity: string } {
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
      return { location: destination, activity: "Delivery attempted: consignee not available" };
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

function stepAt(route: ShipmentRoute, { step, code, happenedAt }: Pick<TrackingStep, "step" | "code" | "happenedAt">): TrackingStep {
  return { step, code, happenedAt, ...describeStage(route, code) };
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

/**
 * Moves a shipment on at once: one leg (the clock's own choice), or along the graph to `to`.
 * Steps are stamped `now` (a millisecond apart, to keep history chronological).
 */
export function advanceSteps(route: ShipmentRoute, { last, now, to }: { last: TrackingStep; now: Date; to?: ServiceStatusCode }): TrackingStep[] {
  const start = Math.max(now.getTime(), last.happenedAt.getTime() + 1);
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
  return codes.map((code, index) => stepAt(route, { step: last.step + 1 + index, code, happenedAt: new Date(start + index) }));
}
