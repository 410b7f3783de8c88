import type { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { SHIPMENT_OUTCOME } from "~/shipments/lifecycle";
import { parcelName } from "~/shipments/parcels";
import { csvField } from "~/csv";
import { markHandedOff, type DeskChange } from "./failed-delivery-changes.server";
import { COURIER_DECISIONS, SLOT_HOURS, type DeliverySlot } from "./failed-delivery-lifecycle";

/**
 * The day's NDR instructions: every decision for the courier (re-attempt, return to origin) not yet handed off, for a
 * courier with no NDR API — a CSV its NDR desk reads (awb, order, action, the shopper's day and window, phone, address
 * line, landmark, remarks). Taking them marks each row handed off in the same transaction, so two downloads at once
 * never hand one decision off twice, and a decision changed since waits for the next. A parcel the courier has moved
 * on since the decision (out again, delivered, returning) is left out: the courier acted already. In English, for
 * the courier's people and their spreadsheets, whatever the admin's language.
 */

const COLUMNS = ["AWB", "Order", "Courier", "Action", "Preferred date", "Window", "Phone", "Alternate phone", "Address line", "Landmark", "Remarks"] as const;
const ACTIONS = { reattempt: "RE-ATTEMPT", rto: "RTO" } as const;
const slotHours = (slot: string | null) => (slot && Object.hasOwn(SLOT_HOURS, slot) ? SLOT_HOURS[slot as DeliverySlot] : "");

export interface NdrInstructions {
  csv: string;
  /** Rows handed off now. */
  count: number;
}

export async function takeNdrInstructions(shop: string, via: "csv" | "email", change: DeskChange): Promise<NdrInstructions> {
  return prisma.$transaction((tx) => takeNdrInstructionsIn(tx, shop, via, change));
}

/**
 * The same within the caller's transaction: the e-mail hand-off takes them, sends them and commits only once the mail
 * is accepted, so a failed send hands nothing off.
 */
export async function takeNdrInstructionsIn(tx: Prisma.TransactionClient, shop: string, via: "csv" | "email", change: DeskChange): Promise<NdrInstructions> {
  const rows = await tx.failedDelivery.findMany({
    where: { shop, state: "decided", decision: { in: [...COURIER_DECISIONS] }, shipment: { outcome: SHIPMENT_OUTCOME.DELIVERY_ATTEMPTED } },
    include: { shipment: { select: { awb: true, orderName: true, parcel: true, courierName: true, deliveryAttempts: true } } },
    orderBy: [{ decidedAt: "asc" }, { id: "asc" }],
    take: 1_000,
  });
  // A decision for an attempt before the latest is stale: the desk asks again for the new one.
  const current = rows.filter((row) => row.attempt === row.shipment.deliveryAttempts);
  const handed = await markHandedOff(tx, shop, current.map((row) => row.id), via, change);
  // Two downloads at once: the second waited for the first's locks and lists only what is still its to hand off.
  const mine = current.filter((row) => handed.has(row.id));
  const reattempt = (row: (typeof mine)[number]) => row.decision === "reattempt" && row.answer === "deliver_again";
  const lines = mine.map((row) =>
    [
      row.shipment.awb ?? "",
      parcelName(row.shipment),
      row.shipment.courierName ?? "",
      ACTIONS[row.decision as keyof typeof ACTIONS] ?? row.decision ?? "",
      reattempt(row) ? (row.preferredDate ?? "") : "",
      reattempt(row) ? slotHours(row.preferredSlot) : "",
      reattempt(row) ? (row.phone ?? "") : "",
      reattempt(row) ? (row.alternatePhone ?? "") : "",
      reattempt(row) ? (row.addressLine ?? "") : "",
      reattempt(row) ? (row.landmark ?? "") : "",
      row.remarks ?? "",
    ]
      .map(csvField)
      .join(","),
  );
  // The byte-order mark tells spreadsheets the file is UTF-8 (a landmark in Devanagari).
  return { csv: `\uFEFF${[COLUMNS.join(","), ...lines].join("\r\n")}\r\n`, count: handed.size };
}
