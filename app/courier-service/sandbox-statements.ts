import { createHash } from "node:crypto";

/**
 * The sandbox's statements, as an aggregator's panel gives them to download: a COD remittance statement and a
 * freight invoice, CSV with the headers such panels use. Each carries the differences a merchant meets, so the
 * app's checks have something to find (docs/courier-service.md, "Statements"):
 *
 * - remittance: one bank transfer (one UTR) for the orders' cash — the first remitted in full, the second short by a
 *   tenth (₹1 at least), the rest in full — with, when no awbs are named and there are three or more, the last left
 *   out (missing: still owed), and one line for an awb the account never booked;
 * - invoice: every order charged at its quote's chargeable weight and total charges, but the first two, re-weighed
 *   a kilogram heavier and charged for it.
 *
 * Pure: the service gives it the orders and the clock. Only the sandbox makes them; an aggregator's panel is where a
 * merchant downloads real ones.
 */

export interface StatementOrder {
  awb: string;
  orderId: string;
  totalAmountPaise: number;
  chargeableWeightKg: number;
  totalChargesPaise: number;
  codPaise: number;
}

const rupees = (paise: number) => (paise / 100).toFixed(2);
/** A CSV cell: quoted when it holds a comma, a quote or a line break. */
const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const line = (fields: readonly string[]) => `${fields.map(cell).join(",")}\r\n`;
/** India's calendar day of an instant, as statements date their lines. */
const indiaDay = (instant: Date) => new Date(instant.getTime() + 330 * 60_000).toISOString().slice(0, 10);

/** A bank reference for one remittance, different for every statement made: the account and the moment. */
export function sandboxUtr(account: string, now: Date): string {
  return `SBXN${indiaDay(now).replace(/-/g, "")}${createHash("sha256").update(`${account}|${now.toISOString()}`).digest("hex").slice(0, 8).toUpperCase()}`;
}

/** An awb no account of the sandbox has: its couriers' awbs start with a digit or D. */
export const unknownAwbFor = (account: string, now: Date) => `X${createHash("sha256").update(`unknown|${account}|${now.toISOString()}`).digest("hex").replace(/\D/g, "").padEnd(12, "7").slice(0, 12)}`;

/** The amount a short line remits: a tenth less, and at least ₹1 less (never below nothing). */
export const shortOf = (paise: number) => Math.max(0, paise - Math.max(100, Math.round(paise / 10)));

export function remittanceCsv(orders: readonly StatementOrder[], { account, now, leaveLastOut }: { account: string; now: Date; leaveLastOut: boolean }): { csv: string; lines: number } {
  const utr = sandboxUtr(account, now);
  const day = indiaDay(now);
  const remitted = leaveLastOut && orders.length >= 3 ? orders.slice(0, -1) : orders;
  const rows = remitted.map((order, index) => line([order.awb, order.orderId, rupees(index === 1 ? shortOf(order.totalAmountPaise) : order.totalAmountPaise), utr, day]));
  rows.push(line([unknownAwbFor(account, now), "", rupees(49_900), utr, day]));
  return { csv: line(["AWB No", "Order ID", "COD Amount", "UTR", "Remittance Date"]) + rows.join(""), lines: rows.length };
}

/** What a re-weighed parcel is charged: its freight at the heavier weight (by the courier's card), and its COD charge as quoted. */
export type Reprice = (order: StatementOrder, chargeableKg: number) => number | null;

export function invoiceCsv(orders: readonly StatementOrder[], { now, reprice }: { now: Date; reprice: Reprice }): { csv: string; lines: number } {
  const day = indiaDay(now);
  const rows = orders.map((order, index) => {
    const reweighed = index < 2;
    const weight = reweighed ? order.chargeableWeightKg + 1 : order.chargeableWeightKg;
    const freight = reweighed ? reprice(order, weight) : null;
    const total = freight === null ? order.totalChargesPaise : Math.round(freight * 100) + order.codPaise;
    return line([order.awb, order.orderId, String(Math.round(weight * 1000) / 1000), rupees(total), day]);
  });
  return { csv: line(["AWB Number", "Order ID", "Charged Weight (KG)", "Total Charges", "Invoice Date"]) + rows.join(""), lines: rows.length };
}
