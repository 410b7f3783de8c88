import type { OrderRecord, Shipment } from "@prisma/client";
import { holdsBooking, isShipmentStatus } from "~/shipments/lifecycle";
import { listShipmentsForOrder } from "~/shipments/shipments.server";
import { isEveryParcelBooked } from "./booked-parcels";
import { getOrderRecord } from "./order-records.server";
import { READINESS } from "./readiness";

/**
 * One order's shipping as Dakiya holds it, for the two places that show it — the Ship order page and the order-page
 * extensions (`/api/orders/{id}`): its record, its parcels' bookings, and whether every parcel stands booked (shown
 * from what Dakiya stored, no Shopify or courier call) or it is to be read and quoted afresh.
 */
export interface OrderShipping {
  record: OrderRecord | null;
  /** Every booking of the order, those standing first (a failed one after, to be booked again), parcel 1 first. */
  shipments: Shipment[];
  /** The bookings that stand: anything but a failed one. */
  standing: Shipment[];
  /** Seen cancelled: in Shopify, or by the order's check. */
  cancelled: boolean;
  /** Every parcel booked, as the order's record last said (no parcel failed since). */
  everyParcelBooked: boolean;
  /** What the rules decided about it, and why (its words say it in the admin's language). */
  decision: { kind: string; reason: string; words: unknown; at: Date | null } | null;
}

const stands = (shipment: Shipment) => isShipmentStatus(shipment.status) && holdsBooking(shipment.status);

export async function readOrderShipping(shop: string, orderGid: string): Promise<OrderShipping> {
  const [stored, record] = await Promise.all([listShipmentsForOrder(shop, orderGid), getOrderRecord(shop, orderGid)]);
  const standing = stored.filter(stands);
  const cancelled = Boolean(record?.cancelledAt) || record?.readiness === READINESS.CANCELLED;
  return {
    record,
    shipments: [...standing, ...stored.filter((shipment) => !stands(shipment))],
    standing,
    cancelled,
    everyParcelBooked: isEveryParcelBooked(record?.cancelledAt ? READINESS.CANCELLED : (record?.readiness ?? null), stored),
    decision: record?.decision && record.decisionReason ? { kind: record.decision, reason: record.decisionReason, words: record.decisionWords, at: record.decidedAt } : null,
  };
}
