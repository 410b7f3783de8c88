/**
 * The automatic decision on an order (its auto-booking rules) or a return (its return rules), stored with it beside
 * its reason. Pure: the orders' and the returns' checks, the lists and Needs attention read it.
 */
export const DECISION = {
  BOOKED: "booked",
  /** Held for review: by a rule, or because no rule matched. */
  HELD: "held",
  /** Not booked automatically because it has problems to fix first; decided again once it is ready. */
  PROBLEMS: "problems",
  /** A rule chose a courier but the booking failed; the reason says why. */
  FAILED: "failed",
  /** Waiting for the shopper to confirm cash on delivery (app/cod/); the rules decide again once they answer. */
  CONFIRMING: "confirming",
} as const;
export type DecisionKind = (typeof DECISION)[keyof typeof DECISION];
