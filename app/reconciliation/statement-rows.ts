import type { CsvRecord } from "~/csv";
import { STATEMENT_FIELDS, type ColumnMapping, type StatementField, type StatementKind } from "./statement-columns";
import { STATEMENT_MAX_BYTES } from "./upload-limits";

/**
 * A statement's rows read into Dakiya's terms: a remittance line (which parcel, how much, under which bank reference,
 * when) or a freight charge (which parcel, at what weight and price, when). Every value is untrusted text: amounts
 * become integer paise and weights integer grams from their digits (never through a float), each within its bound,
 * and a row that cannot be read is a named problem at its row. Pure.
 */

/** The most a statement file may hold, beside the HTTP server's byte limit: what the import and the page promise. */
export const STATEMENT_LIMITS = {
  /** Data rows in one file (100,000 parcels, and room to spare). */
  maxRows: 200_000,
  /** Columns in one row. */
  maxFields: 60,
  /** Characters in one cell. */
  maxFieldLength: 500,
  /** Bytes in one file (upload-limits.ts). */
  maxBytes: STATEMENT_MAX_BYTES,
  /** Problems named in one refusal; the rest are counted. */
  maxProblemsNamed: 20,
} as const;

/** ₹1 crore, the largest amount the courier service takes, in paise; a remittance may be negative (a reversal). */
export const MAX_AMOUNT_PAISE = 1_000_000_000;
/** 1,000 kg, the courier service's limit for a parcel. */
export const MAX_WEIGHT_GRAMS = 1_000_000;
const MAX_ID_LENGTH = 64;

export type RowProblemCode =
  | "wider_than_header"
  | "no_awb_or_order"
  | "no_awb"
  | "awb_shortened"
  | "awb_invalid"
  | "order_invalid"
  | "amount_invalid"
  | "amount_out_of_range"
  /** The lines for one parcel add up to more than a line may hold (₹1 crore): a file garbled, or written to overflow. */
  | "parcel_total_out_of_range"
  | "no_reference"
  | "reference_invalid"
  | "date_invalid"
  | "weight_invalid"
  | "weight_out_of_range";

/** A row that cannot be read: which, which column (the file's header), what is wrong, and the values to say it with. */
export interface RowProblem {
  row: number;
  column?: string;
  code: RowProblemCode;
  values?: Record<string, string | number>;
}

export interface RemittanceRow {
  row: number;
  awb: string;
  orderRef: string;
  amountPaise: number;
  reference: string;
  remittedOn: Date | null;
}

export interface FreightRow {
  row: number;
  awb: string;
  orderRef: string;
  chargedWeightGrams: number;
  chargedPaise: number;
  chargedOn: Date | null;
}

type Read<T> = { ok: true; value: T } | { ok: false; code: RowProblemCode; values?: Record<string, string | number> };
const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const bad = <T>(code: RowProblemCode, values?: Record<string, string | number>): Read<T> => ({ ok: false, code, ...(values ? { values } : {}) });

/**
 * An amount in rupees as statements write it — "1299", "1,299.50", "₹ 1,29,900", "Rs. 99", "INR 10", "-50" or
 * "(50.00)" for a reversal — in paise, exactly.
 */
export function paiseOf(text: string): Read<number> {
  let value = text.trim().replace(/^(?:₹|rs\.?|inr)\s*/i, "");
  let negative = false;
  if (/^\(.*\)$/.test(value)) [negative, value] = [true, value.slice(1, -1).trim()];
  if (value.startsWith("-")) [negative, value] = [!negative, value.slice(1).trim()];
  value = value.replace(/^(?:₹|rs\.?|inr)\s*/i, "");
  // Thousands may be grouped the Indian way (1,29,900) or the Western (129,900); a comma is never a decimal point here.
  // A comma not grouping thousands (12,00: a decimal comma?) is refused rather than guessed at.
  if (!/^(?:\d+|\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})*,\d{3})(?:\.\d{1,2})?$/.test(value)) return bad("amount_invalid", { value: text.slice(0, 40) });
  const [whole, fraction = ""] = value.replace(/,/g, "").split(".");
  if (whole!.length > 10) return bad("amount_out_of_range", { value: text.slice(0, 40) });
  const paise = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  if (paise > MAX_AMOUNT_PAISE) return bad("amount_out_of_range", { value: text.slice(0, 40) });
  return ok(negative ? -paise : paise);
}

/** A weight as statements write it — "1.5", "1.5 kg", "0.500 KG", "1500 g", "1500 gm" — in grams, exactly. */
export function gramsOf(text: string): Read<number> {
  const match = /^(\d{1,7})(?:\.(\d{1,3}))?\s*(kg|kgs|g|gm|gms|gram|grams)?$/i.exec(text.trim());
  if (!match) return bad("weight_invalid", { value: text.slice(0, 40) });
  const [, whole, fraction = "", unit = "kg"] = match;
  const grams = /^k/i.test(unit) ? Number(whole) * 1000 + Number(fraction.padEnd(3, "0")) : fraction ? Number.NaN : Number(whole);
  if (!Number.isInteger(grams)) return bad("weight_invalid", { value: text.slice(0, 40) });
  if (grams <= 0 || grams > MAX_WEIGHT_GRAMS) return bad("weight_out_of_range", { value: text.slice(0, 40) });
  return ok(grams);
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/**
 * A date as statements write it — "2026-11-20" (with or without a time), "20/11/2026", "20-11-2026", "20.11.2026",
 * "20-Nov-2026", "20 Nov 2026" — day before month, as India writes it; midnight UTC of that day. Empty: none.
 */
export function dateOf(text: string): Read<Date | null> {
  const value = text.trim();
  if (value === "") return ok(null);
  let parts: [number, number, number] | null = null;
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value);
  if (match) parts = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!parts && (match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]m)?)?$/i.exec(value))) parts = [Number(match[3]), Number(match[2]), Number(match[1])];
  if (!parts && (match = /^(\d{1,2})[ -]([a-z]{3})[a-z]*[ ,-]+(\d{4})$/i.exec(value))) {
    const month = MONTHS.indexOf(match[2]!.toLowerCase()) + 1;
    if (month > 0) parts = [Number(match[3]), month, Number(match[1])];
  }
  if (!parts) return bad("date_invalid", { value: value.slice(0, 40) });
  const [year, month, day] = parts;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 2000 || year > 2100 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return bad("date_invalid", { value: value.slice(0, 40) });
  return ok(date);
}

/**
 * An awb as the statement has it. A spreadsheet that shows a long awb as a number ("1.56169E+13") has lost its
 * digits: refused, so nothing is matched on a wrong number. An apostrophe in front (a spreadsheet's text marker, as
 * Dakiya's own exports put it) is not part of it.
 */
export function awbOf(text: string): Read<string> {
  const value = text.trim().replace(/^'/, "");
  if (/^\d(?:\.\d+)?e\+?\d+$/i.test(value)) return bad("awb_shortened", { value: value.slice(0, 40) });
  if (value.length > MAX_ID_LENGTH || !/^[A-Za-z0-9][A-Za-z0-9/_-]*$|^$/.test(value)) return bad("awb_invalid", { value: value.slice(0, 40) });
  return ok(value);
}

/** The courier's order id as the statement has it ("1042", "#1042-2"), without the # a merchant may have typed. */
export function orderRefOf(text: string): Read<string> {
  const value = text.trim().replace(/^'/, "").replace(/^#/, "");
  if (value.length > MAX_ID_LENGTH || !/^[\p{L}\p{N}][\p{L}\p{N} ./_-]*$|^$/u.test(value)) return bad("order_invalid", { value: value.slice(0, 40) });
  return ok(value);
}

/** A bank's reference (UTR) or remittance id: letters, digits and a few separators, at most 64. */
export function referenceOf(text: string): Read<string> {
  const value = text.trim().replace(/^'/, "");
  if (value === "") return bad("no_reference");
  if (value.length > MAX_ID_LENGTH || !/^[A-Za-z0-9][A-Za-z0-9 ./_-]*$/.test(value)) return bad("reference_invalid", { value: value.slice(0, 40) });
  return ok(value);
}

/** The cell of each mapped field, by the header's position. */
export interface RowReader {
  kind: StatementKind;
  headers: readonly string[];
  positions: Partial<Record<StatementField, number>>;
}

export function rowReaderOf(kind: StatementKind, headers: readonly string[], mapping: ColumnMapping): RowReader {
  const positions: Partial<Record<StatementField, number>> = {};
  for (const field of STATEMENT_FIELDS[kind]) {
    const header = mapping[field];
    if (header !== undefined) positions[field] = headers.indexOf(header);
  }
  return { kind, headers, positions };
}

/** Reads the mapped cells of a record, or the first problem of the row (each problem names its column). */
function readCells<T>(reader: RowReader, record: CsvRecord, read: (cell: (field: StatementField) => string, check: <V>(field: StatementField | null, result: Read<V>) => V) => T): T | RowProblem {
  if (record.fields.length > reader.headers.length) {
    // A row wider than the header has a comma where it should not: an amount written 1,299 without quotes reads as two cells.
    return { row: record.row, code: "wider_than_header", values: { fields: record.fields.length, headers: reader.headers.length } };
  }
  const cell = (field: StatementField) => {
    const position = reader.positions[field];
    return position === undefined || position < 0 ? "" : (record.fields[position] ?? "");
  };
  class Stop {
    constructor(readonly problem: RowProblem) {}
  }
  const check = <V>(field: StatementField | null, result: Read<V>): V => {
    if (result.ok) return result.value;
    const header = field ? reader.headers[reader.positions[field] ?? -1] : undefined;
    throw new Stop({ row: record.row, ...(header !== undefined ? { column: header } : {}), code: result.code, ...(result.values ? { values: result.values } : {}) });
  };
  try {
    return read(cell, check);
  } catch (thrown) {
    if (thrown instanceof Stop) return thrown.problem;
    throw thrown;
  }
}

export const isRowProblem = (value: object): value is RowProblem => "code" in value;

/** A remittance statement's row: its parcel by awb or order id, the amount, the bank reference, the date if any. */
export function readRemittanceRow(reader: RowReader, record: CsvRecord): RemittanceRow | RowProblem {
  return readCells(reader, record, (cell, check) => {
    const awb = check("awb", awbOf(cell("awb")));
    const orderRef = check("orderId", orderRefOf(cell("orderId")));
    if (awb === "" && orderRef === "") check(null, bad("no_awb_or_order"));
    return {
      row: record.row,
      awb,
      orderRef,
      amountPaise: check("amount", paiseOf(cell("amount"))),
      reference: check("reference", referenceOf(cell("reference"))),
      remittedOn: check("remittedOn", dateOf(cell("remittedOn"))),
    };
  });
}

/** A freight invoice's row: the awb, the weight and amount charged, the date if any. */
export function readFreightRow(reader: RowReader, record: CsvRecord): FreightRow | RowProblem {
  return readCells(reader, record, (cell, check) => {
    const awb = check("awb", awbOf(cell("awb")));
    if (awb === "") check("awb", bad("no_awb"));
    const chargedPaise = check("chargedAmount", paiseOf(cell("chargedAmount")));
    if (chargedPaise < 0) check("chargedAmount", bad("amount_out_of_range", { value: cell("chargedAmount").slice(0, 40) }));
    return {
      row: record.row,
      awb,
      orderRef: check("orderId", orderRefOf(cell("orderId"))),
      chargedWeightGrams: check("chargedWeight", gramsOf(cell("chargedWeight"))),
      chargedPaise,
      chargedOn: check("chargedOn", dateOf(cell("chargedOn"))),
    };
  });
}
