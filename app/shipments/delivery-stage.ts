import { SERVICE_STATUS_CODES, type ServiceStatusCode } from "~/shipping/status";
import type { BadgeTone, ShipmentStatus } from "./lifecycle";

/**
 * Where a shipment is, in the merchant's words: the stage read off its booking status and the courier's latest
 * status code (`app/shipping/status.ts`). Home's counts, the Shipments tabs and the CSV export all read this table,
 * so a count and the list it links to always agree. Pure: screens import it, and the server turns each stage's
 * match into a database filter (`stageWhere` in `app/booking/shipments.server.ts`).
 *
 * The stages partition every (status, code) pair: each pair belongs to exactly one stage (a test checks it).
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

/** Booking statuses of a parcel the courier has or will pick up; which stage it is in is the courier's code. */
const MOVING: readonly ShipmentStatus[] = ["booked_unfulfilled", "fulfilled"];

export interface StageMatch {
  statuses: readonly ShipmentStatus[];
  /** The courier's latest codes, null for "no update yet"; absent: any code. */
  codes?: readonly (ServiceStatusCode | null)[];
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
  awaiting_pickup: { label: "Awaiting pickup", tone: "info", matches: [{ statuses: MOVING, codes: [null, 2, 3] }] },
  in_transit: { label: "In transit", tone: "info", matches: [{ statuses: MOVING, codes: [5, 6] }] },
  out_for_delivery: { label: "Out for delivery", tone: "info", matches: [{ statuses: MOVING, codes: [7] }] },
  delivery_problem: { label: "Delivery problem", tone: "critical", matches: [{ statuses: MOVING, codes: [4, 9, 13, 14, 15] }] },
  // A parcel coming back: the courier's return to origin, or a customer's return on its way (issue 20).
  returning: { label: "Returning to you", tone: "warning", matches: [{ statuses: MOVING, codes: [11] }, { statuses: ["return_in_transit"] }] },
  returned: { label: "Returned to you", tone: "warning", matches: [{ statuses: MOVING, codes: [12] }] },
  delivered: { label: "Delivered", tone: "success", matches: [{ statuses: MOVING, codes: [8] }] },
  cancelled: { label: "Cancelled", tone: undefined, matches: [{ statuses: ["cancelled"] }, { statuses: MOVING, codes: [10] }] },
  not_booked: { label: "Not booked", tone: "critical", matches: [{ statuses: ["failed"] }] },
};

/** The order tabs and counts list the stages in: the way a parcel goes. */
export const DELIVERY_STAGE_ORDER: readonly DeliveryStage[] = ["booking", "awaiting_pickup", "in_transit", "out_for_delivery", "delivery_problem", "returning", "returned", "delivered", "cancelled", "not_booked"];

export function isDeliveryStage(value: string): value is DeliveryStage {
  return Object.hasOwn(DELIVERY_STAGES, value);
}

const matches = (match: StageMatch, status: string, code: number | null) =>
  (match.statuses as readonly string[]).includes(status) && (!match.codes || (match.codes as readonly (number | null)[]).includes(code));

/** The stage of one shipment; an unknown status or code (never written, but read defensively) is "in transit". */
export function deliveryStageOf(shipment: { status: string; courierStatusCode: number | null }): DeliveryStage {
  const code = shipment.courierStatusCode !== null && !(SERVICE_STATUS_CODES as readonly number[]).includes(shipment.courierStatusCode) ? null : shipment.courierStatusCode;
  return DELIVERY_STAGE_ORDER.find((stage) => DELIVERY_STAGES[stage].matches.some((match) => matches(match, shipment.status, code))) ?? "in_transit";
}

export const deliveryStageLabel = (stage: DeliveryStage) => DELIVERY_STAGES[stage];

/** Stages where the courier has the parcel and its COD amount is still to come. */
export const COD_OUT_STAGES: readonly DeliveryStage[] = ["in_transit", "out_for_delivery", "delivery_problem"];
