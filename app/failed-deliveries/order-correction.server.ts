import prisma from "~/db.server";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { noteWithLine } from "~/shopify/order-note";
import { readOrderNote, setOrderNote } from "~/shopify/order-note.server";
import { parcelName } from "~/shipments/parcels";
import { REDACTED } from "~/stored-sentences.server";
import { noteOrderUpdated } from "./failed-delivery-changes.server";

/**
 * The shopper's corrected contact for a failed delivery — a phone, an alternate phone, the address line, a landmark —
 * written onto the Shopify order for the record (the `failed-delivery-order-note` job, one per answer that corrects
 * something), as a line of the order's note, through `orderUpdate`.
 *
 * Why the note and not the shipping address: orders-reconcile re-checks every order changed since its last pass, and
 * an order whose shipping address or phone no longer matches what was booked raises "Address changed after booking"
 * for the merchant (app/orders/check-order.server.ts). The shopper's correction is not that: the courier has it in
 * the day's NDR instructions, within the booked PIN code, and the parcel stays booked as it was. A note line leaves
 * the address the order was booked with as it is (reconciliation has nothing to flag), keeps the correction beside
 * the merchant's own notes where they read them, and carries a landmark the address has no field for. Shopify's
 * `orderUpdate` replaces the note whole, so the line is added to the note as read, and only once: a retry (after a
 * crash between Shopify's answer and ours) finds the line there and records it without writing it again. The
 * history records that it was written, never what (the shopper's details stay out of it).
 */

export interface CorrectionLine {
  parcel: string;
  awb: string | null;
  attempt: number;
  answeredAt: Date;
  phone: string | null;
  alternatePhone: string | null;
  addressLine: string | null;
  landmark: string | null;
}

/** The note's line for one answer, in English (the note is the merchant's shared text). Pure. */
export function correctionNoteLine(correction: CorrectionLine): string {
  const when = correction.answeredAt.toLocaleString("en-IN", { day: "numeric", month: "short", year: "numeric", hour: "numeric", minute: "2-digit", timeZone: "Asia/Kolkata" });
  const parts = [
    correction.phone ? `phone ${correction.phone}` : null,
    correction.alternatePhone ? `alternate phone ${correction.alternatePhone}` : null,
    correction.addressLine ? `address line: ${correction.addressLine}` : null,
    correction.landmark ? `landmark: ${correction.landmark}` : null,
  ].filter(Boolean);
  return `Failed delivery of ${correction.parcel}${correction.awb ? ` (AWB ${correction.awb})` : ""}, attempt ${correction.attempt}: the shopper corrected on ${when} IST — ${parts.join("; ")}. (Dakiya)`;
}

export type OrderNoteOutcome =
  /** Written now, or found written by an earlier try: recorded in the parcel's history. */
  | { kind: "written" | "already_written" }
  /** Nothing to write: no correction, written already, redacted, or the answer was replaced (its own job writes that one). */
  | { kind: "nothing" }
  /** The order is gone from Shopify, or the line would not fit its note. */
  | { kind: "gone" | "too_long" }
  | { kind: "refused"; message: string };

/**
 * The `failed-delivery-order-note` job: the parcel's current answer, if it corrects the contact and is not on the
 * order yet, added to the order's note and recorded once (`order_updated`). Shopify's throttling or an outage throws,
 * and the job is retried.
 */
export async function writeCorrectionOntoOrder(ref: { shop: string; shipmentId: number }, admin: ShopAdmin, now: Date): Promise<OrderNoteOutcome> {
  const row = await prisma.failedDelivery.findFirst({
    where: { shop: ref.shop, shipmentId: ref.shipmentId },
    include: { shipment: { select: { orderGid: true, orderName: true, parcel: true, awb: true } } },
  });
  if (!row?.answeredAt || row.answer !== "deliver_again") return { kind: "nothing" };
  if (row.orderUpdatedAt && row.orderUpdatedAt.getTime() >= row.answeredAt.getTime()) return { kind: "nothing" };
  const contact = { phone: row.phone, alternatePhone: row.alternatePhone, addressLine: row.addressLine, landmark: row.landmark };
  if (!Object.values(contact).some(Boolean) || Object.values(contact).includes(REDACTED)) return { kind: "nothing" };
  const line = correctionNoteLine({ parcel: parcelName(row.shipment), awb: row.shipment.awb, attempt: row.attempt, answeredAt: row.answeredAt, ...contact });

  const current = await readOrderNote(admin, row.shipment.orderGid);
  if (current === null) return { kind: "gone" };
  const note = noteWithLine(current, line);
  if (note === null) return { kind: "too_long" };
  if (note !== "unchanged") {
    const written = await setOrderNote(admin, row.shipment.orderGid, note);
    if (written.kind === "refused") return written;
  }
  const change = { actor: { kind: "job" as const, name: "failed-delivery-order-note" }, at: now };
  // A newer answer since this one was read is its own job's to write: nothing is recorded for this one then.
  await noteOrderUpdated({ shop: ref.shop, id: row.id }, row.answeredAt, change);
  return { kind: note === "unchanged" ? "already_written" : "written" };
}
