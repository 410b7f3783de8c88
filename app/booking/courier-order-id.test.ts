import { describe, expect, it } from "vitest";
import { MAX_TEXT_LENGTH } from "~/shipping/contract";
import { courierOrderId, isOrderIdTaken } from "./courier-order-id";

describe("the order_id sent to the courier", () => {
  it("is the order's number on the first attempt, and the number with the attempt after the courier refused it as taken", () => {
    expect(courierOrderId("1003", 1)).toBe("1003");
    expect(courierOrderId("1003", 2)).toBe("1003-2");
    expect(courierOrderId("1003", 3)).toBe("1003-3");
  });

  it("keeps its suffix within the courier's limit for a number as long as the limit", () => {
    const long = "9".repeat(MAX_TEXT_LENGTH.order_id);
    expect(courierOrderId(long, 1)).toBe(long);
    const next = courierOrderId(long, 12);
    expect(next).toHaveLength(MAX_TEXT_LENGTH.order_id);
    expect(next.endsWith("-12")).toBe(true);
  });

  it("is taken only when the courier refuses the order_id field with a conflict", () => {
    expect(isOrderIdTaken({ status: 409, fieldErrors: [{ field: "order_id" }] })).toBe(true);
    expect(isOrderIdTaken({ status: 422, fieldErrors: [{ field: "order_id" }] })).toBe(false);
    expect(isOrderIdTaken({ status: 409, fieldErrors: [{ field: "to" }] })).toBe(false);
    expect(isOrderIdTaken({ status: undefined, fieldErrors: [] })).toBe(false);
  });
});
