import { describe, expect, it } from "vitest";
import { SERVICE_STATUS_CODES } from "~/shipping/status";
import { DELIVERY_STAGE_ORDER, DELIVERY_STAGES, deliveryStageOf, matchesStage } from "./delivery-stage";
import { SHIPMENT_OUTCOMES, SHIPMENT_STATUSES } from "./lifecycle";

describe("delivery stages", () => {
  it("put every booking status, courier outcome and latest code in exactly one stage", () => {
    for (const status of SHIPMENT_STATUSES) {
      for (const outcome of SHIPMENT_OUTCOMES) {
        for (const courierStatusCode of [null, ...SERVICE_STATUS_CODES]) {
          const shipment = { status, outcome, courierStatusCode };
          const owners = DELIVERY_STAGE_ORDER.filter((stage) => DELIVERY_STAGES[stage].matches.some((match) => matchesStage(match, shipment)));
          expect(owners, `${status}, ${outcome}, ${courierStatusCode}`).toHaveLength(1);
          expect(deliveryStageOf(shipment)).toBe(owners[0]);
        }
      }
    }
  });

  it("reads the merchant's stage off the courier's outcome", () => {
    const fulfilled = (outcome: string, courierStatusCode: number | null = null) => deliveryStageOf({ status: "fulfilled", outcome, courierStatusCode });
    expect(fulfilled("awaiting_pickup")).toBe("awaiting_pickup");
    expect(fulfilled("out_for_delivery", 7)).toBe("out_for_delivery");
    expect(fulfilled("delivery_attempted", 9)).toBe("delivery_problem");
    expect(fulfilled("rto_initiated", 11)).toBe("returning");
    expect(fulfilled("rto_delivered", 12)).toBe("returned");
    expect(fulfilled("delivered", 8)).toBe("delivered");
    // A pickup that failed, a misrouted parcel: still awaiting pickup and in transit, and a problem to the merchant.
    expect(fulfilled("awaiting_pickup", 4)).toBe("delivery_problem");
    expect(fulfilled("in_transit", 13)).toBe("delivery_problem");
    expect(deliveryStageOf({ status: "failed", outcome: "awaiting_pickup", courierStatusCode: null })).toBe("not_booked");
  });

  it("follows a customer's return to the warehouse: returning until it is received there", () => {
    const pickup = (outcome: string) => deliveryStageOf({ status: "return_in_transit", outcome, courierStatusCode: null });
    expect(pickup("awaiting_pickup")).toBe("returning");
    expect(pickup("picked_up")).toBe("returning");
    expect(pickup("received")).toBe("returned");
    expect(pickup("delivery_attempted")).toBe("delivery_problem");
    expect(pickup("cancelled")).toBe("cancelled");
  });
});
