import { describe, expect, it } from "vitest";
import { SERVICE_STATUS_CODES } from "~/shipping/status";
import { DELIVERY_STAGE_ORDER, DELIVERY_STAGES, deliveryStageOf } from "./delivery-stage";
import { SHIPMENT_STATUSES } from "./lifecycle";

describe("delivery stages", () => {
  it("put every booking status and courier code in exactly one stage", () => {
    for (const status of SHIPMENT_STATUSES) {
      for (const code of [null, ...SERVICE_STATUS_CODES]) {
        const owners = DELIVERY_STAGE_ORDER.filter((stage) =>
          DELIVERY_STAGES[stage].matches.some((match) => (match.statuses as readonly string[]).includes(status) && (!match.codes || (match.codes as readonly (number | null)[]).includes(code))),
        );
        expect(owners, `${status} with ${code}`).toHaveLength(1);
        expect(deliveryStageOf({ status, courierStatusCode: code })).toBe(owners[0]);
      }
    }
  });

  it("reads the merchant's stage off the courier's latest code", () => {
    expect(deliveryStageOf({ status: "fulfilled", courierStatusCode: null })).toBe("awaiting_pickup");
    expect(deliveryStageOf({ status: "fulfilled", courierStatusCode: 7 })).toBe("out_for_delivery");
    expect(deliveryStageOf({ status: "fulfilled", courierStatusCode: 9 })).toBe("delivery_problem");
    expect(deliveryStageOf({ status: "fulfilled", courierStatusCode: 11 })).toBe("returning");
    expect(deliveryStageOf({ status: "fulfilled", courierStatusCode: 8 })).toBe("delivered");
    expect(deliveryStageOf({ status: "failed", courierStatusCode: null })).toBe("not_booked");
  });
});
