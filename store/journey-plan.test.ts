import { describe, expect, it } from "vitest";
import { pathBetween, SERVICE_STATUS, type ServiceStatusCode } from "~/shipping/status";
import { EXAMPLE_RULES } from "~/automation/rules";
import { NO_OUTCOMES, scoreCodRisk, type RiskInputs } from "~/cod/risk-score";
import { CORRECTED_ADDRESS, JOURNEY_ORDERS, NOT_SEEN, parcelsAsOne, PLACED_ORDERS, plannedHops, progressOf, tally, trackingHops, type ExpectedEnd, type OrderObservation, type ShipmentObservation } from "./journey-plan";
import { seedShop } from "./seed";

const shipment = (overrides: Partial<ShipmentObservation> = {}): ShipmentObservation => ({
  status: "fulfilled",
  awb: "14123456789012",
  courierName: "Delhivery",
  trackingUrl: "http://localhost:3000/track/14123456789012",
  latestStage: 2,
  stagesSeen: [2],
  ...overrides,
});
const seen = (overrides: Partial<OrderObservation>): OrderObservation => ({ ...NOT_SEEN, ...overrides });
const delivered: ExpectedEnd = { kind: "booked", finalStage: SERVICE_STATUS.DELIVERED };

describe("the journey's plan", () => {
  it("names every order of the seed and every order a shopper places, once each", () => {
    const names = [...seedShop().orders.map((order) => order.name), ...PLACED_ORDERS.map((placed) => placed.name)];
    expect(JOURNEY_ORDERS.map((planned) => planned.name).sort()).toEqual([...new Set(names)].sort());
    expect(names).toHaveLength(JOURNEY_ORDERS.length);
  });

  it("ends one booked order in an RTO, one undelivered, the rest delivered, and holds one", () => {
    const ends = JOURNEY_ORDERS.map((planned) => planned.expected);
    const finals = ends.flatMap((end) => (end.kind === "booked" ? [end.finalStage] : []));
    expect(finals.filter((code) => code === SERVICE_STATUS.RTO)).toHaveLength(1);
    expect(finals.filter((code) => code === SERVICE_STATUS.UNDELIVERED)).toHaveLength(1);
    expect(finals.filter((code) => code === SERVICE_STATUS.DELIVERED).length).toBeGreaterThan(1);
    expect(ends.filter((end) => end.kind === "held")).toHaveLength(1);
  });

  it("moves each parcel along hops the courier's status graph allows, from a fresh booking to its end", () => {
    for (const finalStage of [SERVICE_STATUS.DELIVERED, SERVICE_STATUS.UNDELIVERED, SERVICE_STATUS.RTO] as const) {
      const hops = trackingHops(finalStage);
      expect(hops.at(-1)).toBe(finalStage);
      let from: ServiceStatusCode = SERVICE_STATUS.MANIFESTED;
      for (const hop of hops) {
        expect(pathBetween(from, hop), `${from} → ${hop}`).not.toBeNull();
        from = hop;
      }
    }
  });

  it("has one parcel the shopper saves after a failed attempt and one that goes back from it, each stopped at the failed attempt for the desk", () => {
    const failing = JOURNEY_ORDERS.filter((planned) => planned.afterTheAttempt);
    expect(failing.map((planned) => [planned.afterTheAttempt, planned.expected.kind === "booked" ? planned.expected.finalStage : null])).toEqual(
      expect.arrayContaining([
        ["saved_by_landmark", SERVICE_STATUS.DELIVERED],
        ["returned", SERVICE_STATUS.RTO],
      ]),
    );
    for (const planned of failing) {
      expect(planned.attemptFails).toBeDefined();
      expect(plannedHops(planned, SERVICE_STATUS.DELIVERED).at(-1)).toBe(SERVICE_STATUS.UNDELIVERED);
    }
    // A parcel with no desk step travels as before.
    expect(plannedHops({ name: "#1", expected: { kind: "booked", finalStage: SERVICE_STATUS.RTO } }, SERVICE_STATUS.RTO).at(-1)).toBe(SERVICE_STATUS.RTO);
  });
});

describe("the shoppers asked to confirm cash on delivery", () => {
  const risky = PLACED_ORDERS.filter((placed) => "shopifyAssessment" in placed);
  /** A new shop's first look at the order: no history anywhere, a shopper never seen. */
  const firstLook = (address: { address1: string; address2?: string; city: string; zip: string }, phone: string, amount: string): RiskInputs => ({
    pincode: address.zip,
    city: address.city,
    state: "Odisha",
    addressLines: [address.address1, address.address2 ?? ""],
    phone,
    valuePaise: Math.round(Number(amount) * 100),
    areas: { pincode: NO_OUTCOMES, district: NO_OUTCOMES, state: NO_OUTCOMES, shop: NO_OUTCOMES },
    shopper: { orders: 0, outcomes: NO_OUTCOMES, cancelled: 0 },
    usualValuePaise: null,
    pincodeCity: null,
    shopifyLevel: "MEDIUM",
  });

  it("answer one each: confirm, correct, cancel and pay online", () => {
    expect(JOURNEY_ORDERS.flatMap((planned) => (planned.shopperAnswers ? [planned.shopperAnswers] : [])).sort()).toEqual(["cancel", "confirm", "correct", "pay_online"]);
    expect(risky.map((placed) => placed.name).sort()).toEqual(JOURNEY_ORDERS.filter((planned) => planned.shopperAnswers).map((planned) => planned.name).sort());
  });

  it("are scored at medium RTO risk on a new shop, which the example rules ask the shopper to confirm; the corrected address scores low", () => {
    expect(EXAMPLE_RULES.find((rule) => rule.riskLevels?.includes("medium"))?.action).toBe("confirm");
    for (const placed of risky) {
      const { shippingAddress, lineItems } = placed.input;
      expect(scoreCodRisk(firstLook(shippingAddress, shippingAddress.phone, lineItems[0]!.priceSet.shopMoney.amount)).level, placed.name).toBe("medium");
    }
    const corrected = risky.find((placed) => placed.name === "#1018")!;
    expect(scoreCodRisk(firstLook({ ...CORRECTED_ADDRESS, zip: CORRECTED_ADDRESS.pincode }, corrected.input.shippingAddress.phone, "1499.00")).level).toBe("low");
  });

  it("are the shopper's turn while asked, whatever the order ends as", () => {
    expect(progressOf(delivered, seen({ readiness: "ready", decision: "confirming" }))).toBe("waiting");
    expect(progressOf({ kind: "cancelled" }, seen({ readiness: "ready", decision: "confirming" }))).toBe("waiting");
    expect(progressOf({ kind: "cancelled" }, seen({ readiness: "cancelled", decision: "confirming" }))).toBe("done");
  });
});

describe("where an order is on its way", () => {
  it("a booked order: waiting, booking, shipped, then done once the app has seen its final stage", () => {
    expect(progressOf(delivered, NOT_SEEN)).toBe("waiting");
    expect(progressOf(delivered, seen({ readiness: "ready" }))).toBe("waiting");
    expect(progressOf(delivered, seen({ readiness: "shipment", shipment: shipment({ status: "booking", awb: null }) }))).toBe("booking");
    expect(progressOf(delivered, seen({ decision: "booked", shipment: shipment({ status: "booked_unfulfilled" }) }))).toBe("booking");
    expect(progressOf(delivered, seen({ decision: "booked", shipment: shipment({ latestStage: 7, stagesSeen: [2, 3, 5, 6, 7] }) }))).toBe("shipped");
    expect(progressOf(delivered, seen({ decision: "booked", shipment: shipment({ latestStage: 8, stagesSeen: [2, 3, 5, 6, 7, 8] }) }))).toBe("done");
  });

  it("an end reached stays reached when the courier's clock moves the parcel on afterwards", () => {
    const undelivered: ExpectedEnd = { kind: "booked", finalStage: SERVICE_STATUS.UNDELIVERED };
    expect(progressOf(undelivered, seen({ decision: "booked", shipment: shipment({ latestStage: 7, stagesSeen: [2, 3, 5, 6, 7, 9, 7] }) }))).toBe("done");
  });

  it("a booked order the rules held, or whose booking failed, is off course", () => {
    expect(progressOf(delivered, seen({ readiness: "ready", decision: "held" }))).toBe("off-course");
    expect(progressOf(delivered, seen({ decision: "failed" }))).toBe("off-course");
    expect(progressOf(delivered, seen({ decision: "booked", shipment: shipment({ status: "failed", awb: null }) }))).toBe("off-course");
  });

  it("an order with a problem is done when the app names that problem, off course when it names none or another", () => {
    const pinCode: ExpectedEnd = { kind: "problems", problem: "PINCODE_INVALID" };
    expect(progressOf(pinCode, seen({ readiness: "unchecked" }))).toBe("waiting");
    expect(progressOf(pinCode, seen({ readiness: "problems", problems: ["PHONE_MISSING", "PINCODE_INVALID"] }))).toBe("done");
    expect(progressOf(pinCode, seen({ readiness: "problems", problems: ["PHONE_MISSING"] }))).toBe("off-course");
    expect(progressOf(pinCode, seen({ readiness: "ready" }))).toBe("off-course");
  });

  it("a held order stays done after the merchant ships it by hand", () => {
    const held: ExpectedEnd = { kind: "held" };
    expect(progressOf(held, seen({ readiness: "ready" }))).toBe("waiting");
    expect(progressOf(held, seen({ readiness: "ready", decision: "held" }))).toBe("done");
    expect(progressOf(held, seen({ readiness: "fulfilled", decision: "held", shipment: shipment({ latestStage: 8, stagesSeen: [2, 8] }) }))).toBe("done");
    expect(progressOf(held, seen({ decision: "booked", shipment: shipment() }))).toBe("off-course");
  });

  it("a cancelled order is done once the app knows it is cancelled, off course once the rules decide anything else", () => {
    expect(progressOf({ kind: "cancelled" }, NOT_SEEN)).toBe("waiting");
    expect(progressOf({ kind: "cancelled" }, seen({ readiness: "cancelled" }))).toBe("done");
    expect(progressOf({ kind: "cancelled" }, seen({ readiness: "ready", decision: "booked" }))).toBe("off-course");
    expect(progressOf({ kind: "cancelled" }, seen({ readiness: "ready", decision: "held" }))).toBe("off-course");
    expect(progressOf({ kind: "cancelled" }, seen({ readiness: "shipment", shipment: shipment({ status: "booking", awb: null }) }))).toBe("off-course");
    expect(progressOf({ kind: "cancelled" }, seen({ readiness: "problems", problems: ["PHONE_MISSING"] }))).toBe("off-course");
  });

  it("an order its shopper will cancel is still waiting while saved ready and not yet decided (a check stores readiness before the rules ask)", () => {
    expect(progressOf({ kind: "cancelled" }, seen({ readiness: "ready" }))).toBe("waiting");
  });

  it("counts the orders at their end and those off course", () => {
    expect(tally(["done", "waiting", "off-course", "done", "shipped"])).toEqual({ done: 2, offCourse: 1, total: 5 });
  });
});

describe("an order that ships as parcels", () => {
  const parcel = (awb: string, overrides: Partial<ShipmentObservation> = {}) => shipment({ awb, ...overrides });

  it("is one booking to the plan: every awb, fulfilled once every parcel is, done once every parcel saw its end", () => {
    const both = (first: Partial<ShipmentObservation>, second: Partial<ShipmentObservation>) => {
      const parcels = [parcel("AWB1", first), parcel("AWB2", second)];
      return seen({ decision: "booked", parcels, shipment: parcelsAsOne(parcels) });
    };
    expect(both({}, {}).shipment).toMatchObject({ awb: "AWB1, AWB2", courierName: "Delhivery", status: "fulfilled" });
    expect(progressOf(delivered, both({}, { status: "booked_unfulfilled" }))).toBe("booking");
    expect(progressOf(delivered, both({ latestStage: 8, stagesSeen: [2, 5, 7, 8] }, { latestStage: 7, stagesSeen: [2, 5, 7] }))).toBe("shipped");
    expect(both({ latestStage: 8, stagesSeen: [2, 5, 7, 8] }, { latestStage: 7, stagesSeen: [2, 5, 7] }).shipment!.latestStage).toBe(7);
    expect(progressOf(delivered, both({ latestStage: 8, stagesSeen: [2, 5, 7, 8] }, { latestStage: 8, stagesSeen: [2, 5, 7, 8] }))).toBe("done");
    expect(progressOf(delivered, both({}, { status: "failed", awb: null }))).toBe("off-course");
    expect(parcelsAsOne([parcel("AWB1")])).toEqual(parcel("AWB1"));
  });
});
