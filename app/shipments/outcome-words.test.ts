import { describe, expect, it } from "vitest";
import { SHIPMENT_OUTCOMES } from "./lifecycle";
import { outcomeInWords } from "./outcome-words";

describe("a parcel's outcome in words", () => {
  it("names every outcome in English and Hindi, and counts the attempts to deliver", () => {
    for (const outcome of SHIPMENT_OUTCOMES) {
      expect(outcomeInWords({ outcome, deliveryAttempts: 0 }, "en")).not.toBe(outcome);
      expect(outcomeInWords({ outcome, deliveryAttempts: 0 }, "hi")).not.toMatch(/[a-z]{3}/);
    }
    expect(outcomeInWords({ outcome: "delivery_attempted", deliveryAttempts: 1 })).toBe("Delivery attempted (1 attempt)");
    expect(outcomeInWords({ outcome: "delivery_attempted", deliveryAttempts: 2 })).toBe("Delivery attempted (2 attempts)");
    expect(outcomeInWords({ outcome: "delivery_attempted", deliveryAttempts: 2 }, "hi")).toBe("डिलीवरी की कोशिश हुई (2 कोशिशें)");
    expect(outcomeInWords({ outcome: "received", deliveryAttempts: 0 })).toBe("Received at the warehouse");
  });
});
