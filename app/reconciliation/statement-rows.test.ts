import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chooseMapping, mappingProblems, recogniseColumns } from "./statement-columns";
import { awbOf, dateOf, gramsOf, paiseOf, readFreightRow, readRemittanceRow, rowReaderOf } from "./statement-rows";

const value = <T>(read: { ok: true; value: T } | { ok: false }) => (read.ok ? read.value : read);

describe("a statement's columns", () => {
  it("recognises the headers aggregators' panels use, each field to its own column", () => {
    expect(recogniseColumns("remittance", ["Sr No", "AWB No.", "Order ID", "COD Amount (₹)", "UTR", "Remittance Date", "Customer Name"])).toEqual({
      awb: "AWB No.",
      orderId: "Order ID",
      amount: "COD Amount (₹)",
      reference: "UTR",
      remittedOn: "Remittance Date",
    });
    expect(recogniseColumns("invoice", ["awb_code", "Charged Weight (KG)", "Total Charges", "Invoice Date"])).toEqual({ awb: "awb_code", chargedWeight: "Charged Weight (KG)", chargedAmount: "Total Charges", chargedOn: "Invoice Date" });
    // Beside what the courier collected, the money remitted is the amount: a deduction between the two shows as short.
    expect(recogniseColumns("remittance", ["AWB", "COD Amount", "Deductions", "Remitted Amount", "UTR"])).toMatchObject({ amount: "Remitted Amount" });
    expect(recogniseColumns("remittance", ["AWB", "Collected Amount", "Net Amount", "UTR"])).toMatchObject({ amount: "Net Amount" });
    // A bare "amount" and a bare "date" go to the field that must have them.
    expect(recogniseColumns("remittance", ["awb", "amount", "crf id", "date"])).toEqual({ awb: "awb", amount: "amount", reference: "crf id", remittedOn: "date" });
  });

  it("names what a mapping lacks, and prefers the merchant's choice, then the one remembered when the file has its headers", () => {
    expect(mappingProblems("remittance", ["Paid", "Ref"], {})).toEqual([{ code: "missing_field", field: "amount" }, { code: "missing_field", field: "reference" }, { code: "missing_awb_or_order" }]);
    expect(mappingProblems("remittance", ["A", "B"], { awb: "A", amount: "B", reference: "B" })).toEqual([{ code: "header_twice", header: "B" }]);
    expect(mappingProblems("invoice", ["A"], { awb: "Z", chargedWeight: "A", chargedAmount: "A" })).toContainEqual({ code: "unknown_header", field: "awb", header: "Z" });
    const remembered = { awb: "Tracking", amount: "Paid", reference: "Ref" };
    expect(chooseMapping("remittance", ["Tracking", "Paid", "Ref"], { remembered })).toEqual(remembered);
    // A file without the remembered headers is read by its own.
    expect(chooseMapping("remittance", ["AWB", "Amount", "UTR"], { remembered })).toEqual({ awb: "AWB", amount: "Amount", reference: "UTR" });
    expect(chooseMapping("remittance", ["Tracking", "Paid", "Ref"], { chosen: { awb: "Ref", amount: "Paid", reference: "Tracking", bogus: "x" } as never, remembered })).toEqual({ awb: "Ref", amount: "Paid", reference: "Tracking" });
  });
});

describe("a statement's values", () => {
  it("reads amounts in rupees as integer paise, exactly, grouped the Indian or the Western way, reversals negative", () => {
    expect(["1299", "1,299.50", "₹ 1,29,900", "Rs. 99.5", "INR 10", "-50", "(50.00)", "0.07"].map((text) => value(paiseOf(text)))).toEqual([129_900, 129_950, 12_990_000, 9_950, 1_000, -5_000, -5_000, 7]);
    for (const bad of ["", "12.345", "1,2,3", "abc", "1.2.3", "1e3", "12,00"]) expect(paiseOf(bad)).toMatchObject({ ok: false, code: "amount_invalid" });
    expect(paiseOf("1,00,00,001")).toMatchObject({ ok: false, code: "amount_out_of_range" });
  });

  it("reads any amount written with two decimals back to the same paise, never through a float's error", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), (paise) => {
        expect(value(paiseOf(`${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, "0")}`))).toBe(paise);
      }),
    );
  });

  it("reads weights in kg or grams as integer grams, within 1,000 kg", () => {
    expect(["1.5", "1.5 kg", "0.500 KG", "1500 g", "1500gm", "2"].map((text) => value(gramsOf(text)))).toEqual([1500, 1500, 500, 1500, 1500, 2000]);
    for (const [bad, code] of [["0", "weight_out_of_range"], ["1001", "weight_out_of_range"], ["1.5 g", "weight_invalid"], ["heavy", "weight_invalid"], ["1.2345", "weight_invalid"]] as const) expect(gramsOf(bad)).toMatchObject({ ok: false, code });
  });

  it("reads dates day-first as India writes them, and refuses a day that does not exist", () => {
    const day = (text: string) => (value(dateOf(text)) as Date | null)?.toISOString().slice(0, 10) ?? null;
    expect(["2026-11-20", "2026-11-20 14:05:00", "20/11/2026", "20-11-2026", "20.11.2026", "20-Nov-2026", "20 November 2026", ""].map(day)).toEqual([
      "2026-11-20",
      "2026-11-20",
      "2026-11-20",
      "2026-11-20",
      "2026-11-20",
      "2026-11-20",
      "2026-11-20",
      null,
    ]);
    for (const bad of ["31/02/2026", "11/20/2026", "yesterday", "1999-01-01"]) expect(dateOf(bad)).toMatchObject({ ok: false, code: "date_invalid" });
  });

  it("refuses an awb a spreadsheet shortened to a number, and takes one behind a spreadsheet's apostrophe", () => {
    expect(awbOf("1.56169E+13")).toMatchObject({ ok: false, code: "awb_shortened" });
    expect(value(awbOf("'15616928599560"))).toBe("15616928599560");
    expect(awbOf("AWB 12; DROP")).toMatchObject({ ok: false, code: "awb_invalid" });
  });
});

describe("a statement's rows", () => {
  const headers = ["AWB", "Order", "Amount", "UTR", "Date"];
  const reader = rowReaderOf("remittance", headers, { awb: "AWB", orderId: "Order", amount: "Amount", reference: "UTR", remittedOn: "Date" });

  it("reads a remittance line, its parcel by awb or by order id", () => {
    expect(readRemittanceRow(reader, { row: 2, fields: ["15616928599560", "#1042-2", "1,299.00", "UTR123", "20/11/2026"] })).toEqual({
      row: 2,
      awb: "15616928599560",
      orderRef: "1042-2",
      amountPaise: 129_900,
      reference: "UTR123",
      remittedOn: new Date("2026-11-20T00:00:00Z"),
    });
    expect(readRemittanceRow(reader, { row: 3, fields: ["", "1042", "10", "UTR1"] })).toMatchObject({ awb: "", orderRef: "1042", remittedOn: null });
  });

  it("names each refused row with its column and what is wrong, never guessing", () => {
    expect(readRemittanceRow(reader, { row: 4, fields: ["", "", "10", "UTR1", ""] })).toEqual({ row: 4, code: "no_awb_or_order" });
    expect(readRemittanceRow(reader, { row: 5, fields: ["1", "2", "ten", "UTR1", ""] })).toEqual({ row: 5, column: "Amount", code: "amount_invalid", values: { value: "ten" } });
    expect(readRemittanceRow(reader, { row: 6, fields: ["1", "2", "10", "", ""] })).toEqual({ row: 6, column: "UTR", code: "no_reference" });
    // An amount written 1,299 without quotes splits the row: refused rather than read as ₹1.
    expect(readRemittanceRow(reader, { row: 7, fields: ["1", "2", "1", "299", "UTR1", ""] })).toEqual({ row: 7, code: "wider_than_header", values: { fields: 6, headers: 5 } });
  });

  it("reads a freight charge, and refuses one without an awb or with a negative charge", () => {
    const invoice = rowReaderOf("invoice", ["AWB", "Weight", "Charge"], { awb: "AWB", chargedWeight: "Weight", chargedAmount: "Charge" });
    expect(readFreightRow(invoice, { row: 2, fields: ["D123", "1.5", "98.00"] })).toEqual({ row: 2, awb: "D123", orderRef: "", chargedWeightGrams: 1500, chargedPaise: 9800, chargedOn: null });
    expect(readFreightRow(invoice, { row: 3, fields: ["", "1.5", "98"] })).toMatchObject({ code: "no_awb", column: "AWB" });
    expect(readFreightRow(invoice, { row: 4, fields: ["D1", "1.5", "-98"] })).toMatchObject({ code: "amount_out_of_range", column: "Charge" });
  });
});
