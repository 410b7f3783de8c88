import { describe, expect, it } from "vitest";
import { invoiceCsv, remittanceCsv, shortOf, type StatementOrder } from "./sandbox-statements";

const order = (index: number, overrides: Partial<StatementOrder> = {}): StatementOrder => ({ awb: `15616928599${index}`, orderId: `${1000 + index}`, totalAmountPaise: 129_900, chargeableWeightKg: 0.5, totalChargesPaise: 9_800, codPaise: 3_500, ...overrides });
/** The statement's lines and cells: none of these holds a comma or a quote (the app reads them as CSV in its own tests). */
const rows = (csv: string) => {
  expect(csv.endsWith("\r\n")).toBe(true);
  return csv
    .slice(0, -2)
    .split("\r\n")
    .map((line) => line.split(","));
};
const NOW = new Date("2026-11-20T06:00:00Z");

describe("the sandbox's statements", () => {
  it("remits the first order in full, the second short by a tenth, leaves the last out, and adds an awb nobody booked, under one UTR", () => {
    const { csv, lines } = remittanceCsv([order(1), order(2), order(3), order(4)], { account: "key", now: NOW, leaveLastOut: true });
    const [header, ...body] = rows(csv);
    expect(header).toEqual(["AWB No", "Order ID", "COD Amount", "UTR", "Remittance Date"]);
    expect(lines).toBe(4);
    expect(body.map((row) => row.slice(0, 3))).toEqual([
      ["156169285991", "1001", "1299.00"],
      ["156169285992", "1002", (shortOf(129_900) / 100).toFixed(2)],
      ["156169285993", "1003", "1299.00"],
      [expect.stringMatching(/^X\d{12}$/), "", "499.00"],
    ]);
    expect(new Set(body.map((row) => row[3])).size).toBe(1);
    expect(body[0]![4]).toBe("2026-11-20");
    expect(shortOf(129_900)).toBe(116_910);
    expect(shortOf(500)).toBe(400);
  });

  it("gives each statement its own UTR, so a later one is a new remittance", () => {
    const first = rows(remittanceCsv([order(1)], { account: "key", now: NOW, leaveLastOut: false }).csv)[1]![3];
    const later = rows(remittanceCsv([order(1)], { account: "key", now: new Date(NOW.getTime() + 1000), leaveLastOut: false }).csv)[1]![3];
    expect(first).not.toBe(later);
  });

  it("charges every order as quoted but the first two, re-weighed a kilogram heavier at the card's freight", () => {
    const { csv } = invoiceCsv([order(1), order(2, { chargeableWeightKg: 1.5 }), order(3)], { now: NOW, reprice: (_order, kg) => 40 + kg * 20 });
    expect(rows(csv)).toEqual([
      ["AWB Number", "Order ID", "Charged Weight (KG)", "Total Charges", "Invoice Date"],
      ["156169285991", "1001", "1.5", "105.00", "2026-11-20"],
      ["156169285992", "1002", "2.5", "125.00", "2026-11-20"],
      ["156169285993", "1003", "0.5", "98.00", "2026-11-20"],
    ]);
  });
});
