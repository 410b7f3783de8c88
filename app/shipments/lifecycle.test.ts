import { describe, expect, it } from "vitest";
import { pathBetween, SERVICE_STATUS_CODES, TRANSITIONS, type ServiceStatusCode } from "~/shipping/status";
import {
  allows,
  canMove,
  OUTCOME_TRANSITIONS,
  outcomeOfCode,
  outcomeTransition,
  SHIPMENT_OUTCOMES,
  SHIPMENT_STATUS_MOVES,
  SHIPMENT_STATUSES,
  SHIPMENT_TRANSITIONS,
  TRACKING_STATE,
  TRANSITION_NAMES,
  type ShipmentOutcome,
  type TransitionName,
  type TransitionRule,
} from "./lifecycle";

const TRACKED = ["booked_unfulfilled", "fulfilled", "return_in_transit", "cancelled"];

/** Every transition, and the statuses it may start from; everything else is refused. */
const ALLOWED_FROM: Record<TransitionName, string[]> = {
  claimed: ["failed"],
  courier_chosen: ["booking"],
  booking_retrying: ["booking"],
  booked: ["booking"],
  failed: ["booking"],
  claim_released: ["booking"],
  cancelled_before_booking: ["booking"],
  fulfillment_retrying: ["booked_unfulfilled"],
  fulfillment_created: ["booked_unfulfilled"],
  fulfilled: ["booked_unfulfilled"],
  label_printed: ["booked_unfulfilled", "fulfilled"],
  handed_over: ["booked_unfulfilled", "fulfilled"],
  return_dispatched: ["booked_unfulfilled"],
  cancelled: ["booked_unfulfilled", "fulfilled", "return_in_transit"],
  courier_progress: TRACKED,
  in_transit: TRACKED,
  out_for_delivery: TRACKED,
  delivery_attempted: TRACKED,
  delivered: TRACKED,
  rto_initiated: TRACKED,
  rto_delivered: TRACKED,
  lost: TRACKED,
  damaged: TRACKED,
  courier_cancelled: TRACKED,
  picked_up: TRACKED,
  received: TRACKED,
  courier_out_of_order: TRACKED,
  tracking_checked: ["booked_unfulfilled", "fulfilled", "return_in_transit", "cancelled"],
  tracking_retrying: ["booked_unfulfilled", "fulfilled", "return_in_transit", "cancelled"],
  tracking_paused: ["booked_unfulfilled", "fulfilled", "return_in_transit", "cancelled"],
  tracking_deferred: TRACKED,
  tracking_resumed: ["booked_unfulfilled", "fulfilled", "return_in_transit", "cancelled"],
  tracking_stopped: ["booked_unfulfilled", "fulfilled", "return_in_transit", "cancelled"],
  attention_raised: ["booking", "booked_unfulfilled", "fulfilled", "return_in_transit", "cancelled"],
  attention_cleared: [...SHIPMENT_STATUSES],
  redacted: [...SHIPMENT_STATUSES],
  erased: [...SHIPMENT_STATUSES],
};

describe("the shipment lifecycle", () => {
  it("allows each transition from exactly its statuses and refuses it from every other", () => {
    for (const name of TRANSITION_NAMES) {
      const rule: TransitionRule = SHIPMENT_TRANSITIONS[name];
      const tracking = rule.tracking?.from[0];
      const outcome = rule.outcome?.from[0];
      for (const status of SHIPMENT_STATUSES) {
        expect(allows(name, status, tracking, outcome), `${name} from ${status}`).toBe(ALLOWED_FROM[name].includes(status));
      }
    }
    expect(Object.keys(ALLOWED_FROM).sort()).toEqual([...TRANSITION_NAMES].sort());
  });

  it("moves the booking status along one graph", () => {
    expect(SHIPMENT_STATUS_MOVES).toEqual({
      booking: ["booked_unfulfilled", "failed", "cancelled"],
      booked_unfulfilled: ["fulfilled", "return_in_transit", "cancelled"],
      fulfilled: ["cancelled"],
      return_in_transit: ["cancelled"],
      failed: ["booking"],
      cancelled: [],
    });
    expect(canMove("booking", "fulfilled")).toBe(false);
    expect(canMove("cancelled", "booking")).toBe(false);
    expect(canMove("failed", "booking")).toBe(true);
  });

  it("guards tracking by its state: paused only when running, resumed only when paused or stopped", () => {
    const { ACTIVE, PAUSED, STOPPED } = TRACKING_STATE;
    expect(allows("tracking_paused", "fulfilled", ACTIVE)).toBe(true);
    expect(allows("tracking_paused", "fulfilled", PAUSED)).toBe(false);
    expect(allows("tracking_paused", "fulfilled", STOPPED)).toBe(false);
    expect(allows("tracking_resumed", "fulfilled", PAUSED)).toBe(true);
    expect(allows("tracking_resumed", "fulfilled", STOPPED)).toBe(true);
    expect(allows("tracking_resumed", "fulfilled", ACTIVE)).toBe(false);
    expect(allows("tracking_stopped", "fulfilled", PAUSED)).toBe(true);
    expect(allows("tracking_stopped", "fulfilled", STOPPED)).toBe(false);
    expect(allows("tracking_retrying", "fulfilled", PAUSED)).toBe(false);
    // Not tracked at all before the awb exists.
    expect(allows("tracking_paused", "booking", ACTIVE)).toBe(false);
  });

  it("keeps in the history everything but bookkeeping", () => {
    const unrecorded = TRANSITION_NAMES.filter((name) => !SHIPMENT_TRANSITIONS[name].recorded);
    expect(unrecorded.sort()).toEqual(["erased", "fulfillment_created", "tracking_checked", "tracking_deferred"]);
  });
});

describe("the courier's outcomes", () => {
  const DIRECTIONS = ["forward", "return"] as const;
  const codesOf = (outcome: ShipmentOutcome, direction: string) => SERVICE_STATUS_CODES.filter((code) => outcomeOfCode(code, direction) === outcome);
  /** Whether the courier may go from one code to another (to itself: round a loop, as an attempt after an attempt). */
  const reaches = (a: ServiceStatusCode, b: ServiceStatusCode) => (a !== b ? pathBetween(a, b) !== null : (TRANSITIONS[a] ?? []).some((next) => next === a || pathBetween(next, a) !== null));

  it("move only where the courier's stage order leads: a move is allowed exactly when some stage of one reaches some stage of the other", () => {
    for (const direction of DIRECTIONS) {
      const reached = SHIPMENT_OUTCOMES.filter((outcome) => codesOf(outcome, direction).length > 0);
      for (const from of reached) {
        for (const to of reached) {
          if (to === "awaiting_pickup" || (from === to && to !== "delivery_attempted")) continue;
          const leads = codesOf(from, direction).some((a) => codesOf(to, direction).some((b) => reaches(a, b)));
          expect(outcomeTransition(from, to) !== null, `${direction}: ${from} → ${to}`).toBe(leads);
        }
      }
    }
  });

  it("name one transition per outcome, the way a parcel or a return's pickup goes", () => {
    expect(outcomeTransition("out_for_delivery", "delivered")).toBe("delivered");
    expect(outcomeTransition("delivery_attempted", "delivery_attempted")).toBe("delivery_attempted");
    expect(outcomeTransition("delivery_attempted", "out_for_delivery")).toBe("out_for_delivery");
    expect(outcomeTransition("awaiting_pickup", "picked_up")).toBe("picked_up");
    expect(outcomeTransition("picked_up", "received")).toBe("received");
    expect(outcomeTransition("awaiting_pickup", "cancelled")).toBe("courier_cancelled");
    // Out of order, or impossible: a delivered parcel goes nowhere, a parcel on its way is not cancelled, nothing goes back.
    expect(outcomeTransition("delivered", "in_transit")).toBeNull();
    expect(outcomeTransition("delivered", "rto_initiated")).toBeNull();
    expect(outcomeTransition("in_transit", "cancelled")).toBeNull();
    expect(outcomeTransition("out_for_delivery", "in_transit")).toBeNull();
    expect(outcomeTransition("rto_initiated", "delivered")).toBeNull();
    expect(outcomeTransition("in_transit", "awaiting_pickup")).toBeNull();
    for (const [outcome, name] of Object.entries(OUTCOME_TRANSITIONS)) expect((SHIPMENT_TRANSITIONS[name] as TransitionRule).outcome?.to).toBe(outcome);
  });

  it("read a return's pickup as picked up and received, a parcel to the shopper as in transit and delivered", () => {
    expect(outcomeOfCode(5, "forward")).toBe("in_transit");
    expect(outcomeOfCode(5, "return")).toBe("picked_up");
    expect(outcomeOfCode(8, "forward")).toBe("delivered");
    expect(outcomeOfCode(8, "return")).toBe("received");
    expect(outcomeOfCode(4, "forward")).toBe("awaiting_pickup");
    expect(outcomeOfCode(13, "forward")).toBe("in_transit");
  });
});
