import type { BadgeTone, ShipmentOutcome, ShipmentStatus } from "./lifecycle";

/**
 * Where a shipment is, in the merchant's words: the stage read off its booking status and the courier's outcome
 * (`SHIPMENT_OUTCOME`, app/shipments/lifecycle.ts). Home's counts, the Shipments tabs and the CSV export all read this table,
 * so a count and the list it links to always agree. Pure: screens import it, and the server turns each stage's
 * match into a database filter (`stageWhere` in `app/booking/shipments.server.ts`).
 *
 * The stages partition every (status, outcome, code): each belongs to exactly one stage (a test checks it).
 * A new stage (a customer's return, say) is one more entry here and in `DELIVERY_STAGE_ORDER`.
 */
export type DeliveryStage =
  | "booking"
  | "awaiting_pickup"
  | "in_transit"
  | "out_for_delivery"
  | "delivery_problem"
  | "returning"
  | "returned"
  | "delivered"
  | "cancelled"
  | "not_booked";

/** Booking statuses of a parcel the courier has or will pick up; which stage it is in is the courier's outcome. */
const MOVING: readonly ShipmentStatus[] = ["booked_unfulfilled", "fulfilled"];
/** A customer's return on its way back, fulfilled in Shopify as its reverse delivery. */
const RETURN: readonly ShipmentStatus[] = ["return_in_transit"];
const EVERY_MOVING: readonly ShipmentStatus[] = [...MOVING, ...RETURN];
/** A pickup that failed and a misrouted parcel are delivery problems, whatever the outcome still says. */
const PROBLEM_CODES = [4, 13] as const;

export interface StageMatch {
  statuses: readonly ShipmentStatus[];
  /** The courier's outcomes (`Shipment.outcome`); absent: any. */
  outcomes?: readonly ShipmentOutcome[];
  /** Only with one of the courier's latest codes, or with none of them; absent: any code. */
  codes?: readonly number[];
  exceptCodes?: readonly number[];
}

export interface StageDefinition {
  label: string;
  /** The one tone this meaning has everywhere (badges in the app and the extensions). */
  tone: BadgeTone | undefined;
  /** Any of these matches. */
  matches: readonly StageMatch[];
}

export const DELIVERY_STAGES: Readonly<Record<DeliveryStage, StageDefinition>> = {
  booking: { label: "Booking", tone: "attention", matches: [{ statuses: ["booking"] }] },
  awaiting_pickup: { label: "Awaiting pickup", tone: "info", matches: [{ statuses: MOVING, outcomes: ["awaiting_pickup"], exceptCodes: PROBLEM_CODES }] },
  in_transit: { label: "In transit", tone: "info", matches: [{ statuses: MOVING, outcomes: ["in_transit"], exceptCodes: PROBLEM_CODES }] },
  out_for_delivery: { label: "Out for delivery", tone: "info", matches: [{ statuses: MOVING, outcomes: ["out_for_delivery"] }] },
  delivery_problem: {
    label: "Delivery problem",
    tone: "critical",
    matches: [
      { statuses: EVERY_MOVING, outcomes: ["delivery_attempted", "lost", "damaged"] },
      { statuses: MOVING, outcomes: ["awaiting_pickup", "in_transit"], codes: PROBLEM_CODES },
      // A customer's return going back to the shopper never reaches the merchant.
      { statuses: RETURN, outcomes: ["rto_initiated", "rto_delivered"] },
    ],
  },
  // A parcel coming back: the courier's return to origin, or a customer's return on its way.
  returning: {
    label: "Returning to you",
    tone: "warning",
    matches: [
      { statuses: MOVING, outcomes: ["rto_initiated", "picked_up"] },
      { statuses: RETURN, outcomes: ["awaiting_pickup", "in_transit", "out_for_delivery", "picked_up"] },
    ],
  },
  returned: {
    label: "Returned to you",
    tone: "warning",
    matches: [
      { statuses: MOVING, outcomes: ["rto_delivered", "received"] },
      { statuses: RETURN, outcomes: ["received", "delivered"] },
    ],
  },
  delivered: { label: "Delivered", tone: "success", matches: [{ statuses: MOVING, outcomes: ["delivered"] }] },
  cancelled: { label: "Cancelled", tone: undefined, matches: [{ statuses: ["cancelled"] }, { statuses: EVERY_MOVING, outcomes: ["cancelled"] }] },
  not_booked: { label: "Not booked", tone: "critical", matches: [{ statuses: ["failed"] }] },
};

/** The order tabs and counts list the stages in: the way a parcel goes. */
export const DELIVERY_STAGE_ORDER: readonly DeliveryStage[] = ["booking", "awaiting_pickup", "in_transit", "out_for_delivery", "delivery_problem", "returning", "returned", "delivered", "cancelled", "not_booked"];

export function isDeliveryStage(value: string): value is DeliveryStage {
  return Object.hasOwn(DELIVERY_STAGES, value);
}

/** What the stage of a shipment is read off: its booking status, the courier's outcome and its latest code. */
export interface StagedShipment {
  status: string;
  outcome: string;
  courierStatusCode: number | null;
}

export function matchesStage(match: StageMatch, { status, outcome, courierStatusCode: code }: StagedShipment): boolean {
  if (!(match.statuses as readonly string[]).includes(status)) return false;
  if (match.outcomes && !(match.outcomes as readonly string[]).includes(outcome)) return false;
  if (match.codes && (code === null || !match.codes.includes(code))) return false;
  return !match.exceptCodes || code === null || !match.exceptCodes.includes(code);
}

/** The stage of one shipment; an unknown status or outcome (never written, but read defensively) is "in transit". */
export function deliveryStageOf(shipment: StagedShipment): DeliveryStage {
  return DELIVERY_STAGE_ORDER.find((stage) => DELIVERY_STAGES[stage].matches.some((match) => matchesStage(match, shipment))) ?? "in_transit";
}

export const deliveryStageLabel = (stage: DeliveryStage) => DELIVERY_STAGES[stage];

/** Stages where the courier has the parcel and its COD amount is still to come. */
export const COD_OUT_STAGES: readonly DeliveryStage[] = ["in_transit", "out_for_delivery", "delivery_problem"];
