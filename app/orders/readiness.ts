export { DECISION, type DecisionKind } from "~/automation/decisions";

/**
 * An order's readiness as Dakiya last checked it (OrderRecord.readiness), and the automatic decision on it.
 * The Orders to ship page, the rules' preview and the order-page extensions read these without a Shopify call.
 */
export const READINESS = {
  UNCHECKED: "unchecked",
  READY: "ready",
  PROBLEMS: "problems",
  /** Booked (or being booked): the Shipment tells the rest. */
  SHIPMENT: "shipment",
  CANCELLED: "cancelled",
  /** Fulfilled outside Dakiya, or nothing left to ship. */
  FULFILLED: "fulfilled",
  /** Shopify no longer returns it (deleted). */
  NOT_FOUND: "not_found",
} as const;
export type Readiness = (typeof READINESS)[keyof typeof READINESS];
