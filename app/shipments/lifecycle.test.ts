import { describe, expect, it } from "vitest";
import { allows, canMove, SHIPMENT_STATUS_MOVES, SHIPMENT_STATUSES, SHIPMENT_TRANSITIONS, TRACKING_STATE, TRANSITION_NAMES, type TransitionName, type TransitionRule } from "./lifecycle";

/** Every transition, and the statuses it may start from; everything else is refused. */
const ALLOWED_FROM: Record<TransitionName, string[]> = {
  claimed: ["failed"],
  courier_chosen: ["booking"],
  booking_retrying: ["booking"],
  booked: ["booking"],
  failed: ["booking"],
  claim_released: ["booking"],
  fulfillment_retrying: ["booked_unfulfilled"],
  fulfillment_created: ["booked_unfulfilled"],
  fulfilled: ["booked_unfulfilled"],
  label_printed: ["booked_unfulfilled", "fulfilled"],
  handed_over: ["booked_unfulfilled", "fulfilled"],
  return_dispatched: ["booked_unfulfilled"],
  cancelled: ["booked_unfulfilled", "fulfilled", "return_in_transit"],
  courier_progress: ["booked_unfulfilled", "fulfilled", "return_in_transit", "cancelled"],
  tracking_checked: ["booked_unfulfilled", "fulfilled", "return_in_transit", "cancelled"],
  tracking_retrying: ["booked_unfulfilled", "fulfilled", "return_in_transit", "cancelled"],
  tracking_paused: ["booked_unfulfilled", "fulfilled", "return_in_transit", "cancelled"],
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
      for (const status of SHIPMENT_STATUSES) {
        expect(allows(name, status, tracking), `${name} from ${status}`).toBe(ALLOWED_FROM[name].includes(status));
      }
    }
    expect(Object.keys(ALLOWED_FROM).sort()).toEqual([...TRANSITION_NAMES].sort());
  });

  it("moves the booking status along one graph", () => {
    expect(SHIPMENT_STATUS_MOVES).toEqual({
      booking: ["booked_unfulfilled", "failed"],
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
    expect(unrecorded.sort()).toEqual(["erased", "fulfillment_created", "tracking_checked"]);
  });
});
