import { describe, expect, it } from "vitest";
import { SERVICE_STATUS } from "~/shipping/status";
import { NOT_SEEN, type OrderObservation, type PlannedOrder } from "./journey-plan";
import { formatElapsed, progressLine, renderTable, rowLine, rowOf } from "./journey-table";

const rto: PlannedOrder = { name: "#1002", expected: { kind: "booked", finalStage: SERVICE_STATUS.RTO } };
const parcel = (latestStage: number, stagesSeen: number[]) => ({ status: "fulfilled", awb: "143337905549130", courierName: "XpressBees", trackingUrl: "http://localhost:3000/track/143337905549130", latestStage, stagesSeen });
const bookedSeen = (latestStage: number, stagesSeen: number[]): OrderObservation => ({
  readiness: "fulfilled",
  problems: [],
  decision: "booked",
  decisionReason: "Rule 2 'COD under ₹2,000' → cheapest: XpressBees ₹158",
  shipment: parcel(latestStage, stagesSeen),
  parcels: [parcel(latestStage, stagesSeen)],
});

describe("the journey's rows", () => {
  it("a booked order on its way: the rule and courier, the awb, the courier's latest stage and the end to come", () => {
    expect(rowOf(rto, bookedSeen(5, [2, 3, 5]))).toEqual({
      order: "#1002",
      readiness: "Booked, fulfilled",
      rule: "Rule 2 'COD under ₹2,000' → cheapest: XpressBees ₹158",
      ruleShort: "XpressBees ₹158 · rule 2, cheapest",
      awb: "143337905549130",
      status: "In Transit (→ RTO)",
      progress: "shipped",
    });
    expect(rowOf(rto, bookedSeen(11, [2, 3, 5, 6, 11])).status).toBe("RTO");
  });

  it("orders not booked say why in the merchant's words: a problem's label, the hold, the cancellation", () => {
    const problem = rowOf({ name: "#1007", expected: { kind: "problems", problem: "PINCODE_INVALID" } }, { ...NOT_SEEN, readiness: "problems", problems: ["PINCODE_INVALID"], decision: "problems" });
    expect([problem.readiness, problem.rule, problem.status, problem.progress]).toEqual(["PIN code not 6 digits", "not booked: fix the order first", "Needs fixing in Shopify", "done"]);
    const held = rowOf({ name: "#1015", expected: { kind: "held" } }, { ...NOT_SEEN, readiness: "ready", decision: "held", decisionReason: "Rule 1 'Expensive orders' → hold for review" });
    expect([held.readiness, held.rule, held.status, held.progress]).toEqual(["Ready", "Rule 1 'Expensive orders' → hold for review", "Held: ship it by hand", "done"]);
    const unseen = rowOf({ name: "#1013", expected: { kind: "cancelled" } }, NOT_SEEN);
    expect([unseen.readiness, unseen.status, unseen.progress]).toEqual(["not checked yet", "", "waiting"]);
  });

  it("a failed booking sends the merchant to Needs attention without quoting the refusal, which may name the shopper's phone", () => {
    const reason = `Rule 2 'COD under ₹2,000' → cheapest: XpressBees ₹158, but the booking failed: "98450 1234" is not a 10-digit Indian mobile number.`;
    const failed = rowOf(rto, { ...bookedSeen(2, []), decision: "failed", decisionReason: reason, shipment: { ...bookedSeen(2, []).shipment!, status: "failed", awb: null, latestStage: null } });
    expect([failed.rule, failed.ruleShort, failed.status, failed.progress]).toEqual(["auto-booking failed: see Needs attention", "auto-booking failed: see Needs attention", "Booking failed: see Needs attention", "off-course"]);
    expect(rowLine(failed)).not.toContain("98450");
  });

  it("a hold keeps its rule's number in the short form", () => {
    const held = rowOf({ name: "#1015", expected: { kind: "held" } }, { ...NOT_SEEN, readiness: "ready", decision: "held", decisionReason: "Rule 1 'Expensive orders' → hold for review" });
    expect(held.ruleShort).toBe("hold for review · rule 1");
  });
});

describe("the journey's table", () => {
  const rows = [
    rowOf(rto, bookedSeen(11, [2, 11])),
    rowOf({ name: "#1009", expected: { kind: "problems", problem: "PHONE_MISSING" } }, { ...NOT_SEEN, readiness: "problems", problems: ["PHONE_MISSING"] }),
    rowOf({ name: "#1015", expected: { kind: "held" } }, NOT_SEEN),
  ];

  it("draws a heading and a row per order, each marked ✓ at its end", () => {
    const lines = renderTable(rows);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^ {2}Order {2}Readiness \/ problem {2}Rule → courier {2,}AWB {2,}Latest status$/);
    expect(lines[1]).toMatch(/^✓ #1002 {2}Booked, fulfilled {2,}Rule 2 'COD under ₹2,000' → cheapest: XpressBees ₹158 {2}143337905549130 {2}RTO$/);
    expect(lines[2]).toMatch(/^✓ #1009 {2}No phone /);
    expect(lines[3]).toMatch(/^ {2}#1015 {2}not checked yet/);
  });

  it("fits a narrow terminal: the rules' names go first, then the ends of the widest cells", () => {
    const full = renderTable(rows);
    const widest = Math.max(...full.map((line) => line.length));
    const narrower = renderTable(rows, widest - 10);
    expect(Math.max(...narrower.map((line) => line.length))).toBeLessThanOrEqual(widest - 10);
    expect(narrower[1]).toContain("XpressBees ₹158 · rule 2, cheapest");
    expect(narrower[1]).toContain("143337905549130");
    for (const line of renderTable(rows, 70)) expect(line.length).toBeLessThanOrEqual(70);
    expect(renderTable(rows, 70)[1]).toContain("…");
  });

  it("a row as one line for output that is not a terminal, empty cells left out", () => {
    expect(rowLine(rows[0]!)).toBe("✓ #1002  Booked, fulfilled · Rule 2 'COD under ₹2,000' → cheapest: XpressBees ₹158 · awb 143337905549130 · RTO");
    expect(rowLine(rows[2]!)).toBe("  #1015  not checked yet");
  });

  it("the progress bar fills with the orders at their end and says the ones off course", () => {
    expect(progressLine({ done: 6, offCourse: 0, total: 15 }, 42_000, 10)).toBe("[████░░░░░░] 6/15 orders at their end · 0:42");
    expect(progressLine({ done: 15, offCourse: 0, total: 15 }, 125_000, 10)).toBe("[██████████] 15/15 orders at their end · 2:05");
    expect(progressLine({ done: 13, offCourse: 2, total: 15 }, 0, 10)).toBe("[█████████░] 13/15 orders at their end · 2 off course · 0:00");
    expect(formatElapsed(3_599_999)).toBe("59:59");
  });
});
