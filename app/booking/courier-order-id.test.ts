import { describe, expect, it } from "vitest";
import { MAX_TEXT_LENGTH } from "~/shipping/contract";
import { courierOrderId, isOrderIdTaken } from "./courier-order-id";

describe("the order_id sent to the courier", () => {
  it("is the order's number for its first parcel, with the parcel's number for the others, and with the attempt after the courier refused one as taken", () => {
    expect(courierOrderId("1003")).toBe("1003");
    expect(courierOrderId("1003", { parcel: 2 })).toBe("1003-2");
    expect(courierOrderId("1003", { attempt: 2 })).toBe("1003-A2");
    expect(courierOrderId("1003", { parcel: 2, attempt: 3 })).toBe("1003-2-A3");
    // No two parcels and attempts of one order share an id.
    const ids = [1, 2, 3, 11].flatMap((parcel) => [1, 2, 3, 12].map((attempt) => courierOrderId("1003", { parcel, attempt })));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("keeps its suffix within the courier's limit for a number as long as the limit", () => {
    const long = "9".repeat(MAX_TEXT_LENGTH.order_id);
    expect(courierOrderId(long)).toBe(long);
    const next = courierOrderId(long, { parcel: 3, attempt: 12 });
    expect(next).toHaveLength(MAX_TEXT_LENGTH.order_id);
    expect(next.endsWith("-3-A12")).toBe(true);
  });

  it("is taken only when the courier refuses the order_id field with a conflict", () => {
    expect(isOrderIdTaken({ status: 409, fieldErrors: [{ field: "order_id" }] })).toBe(true);
    expect(isOrderIdTaken({ status: 422, fieldErrors: [{ field: "order_id" }] })).toBe(false);
    expect(isOrderIdTaken({ status: 409, fieldErrors: [{ field: "to" }] })).toBe(false);
    expect(isOrderIdTaken({ status: undefined, fieldErrors: [] })).toBe(false);
  });
});
