import prisma from "~/db.server";
import type { ShipmentStatus } from "./shipment-lifecycle";

/** A shop's bookings, newest first, optionally in one state; what the Shipments page lists. */
export async function listShipments(shop: string, status: ShipmentStatus | null, take = 100) {
  return prisma.shipment.findMany({
    where: { shop, ...(status ? { status } : {}) },
    orderBy: { createdAt: "desc" },
    take,
    select: {
      id: true,
      orderGid: true,
      orderName: true,
      status: true,
      awb: true,
      courierName: true,
      totalChargesPaise: true,
      trackingUrl: true,
      lastError: true,
      createdAt: true,
      courierStatusCode: true,
      courierStatusLabel: true,
      courierStatusAt: true,
      estimatedDeliveryAt: true,
      attention: true,
    },
  });
}

/** How many of a shop's bookings are in each state. */
export async function countShipmentsByStatus(shop: string): Promise<{ status: string; count: number }[]> {
  const rows = await prisma.shipment.groupBy({ by: ["status"], where: { shop }, _count: { _all: true } });
  return rows.map((row) => ({ status: row.status, count: row._count._all }));
}

/** One order's booking, if it has one. */
export async function getShipmentForOrder(shop: string, orderGid: string) {
  return prisma.shipment.findUnique({ where: { shop_orderGid: { shop, orderGid } } });
}

/** Something about a booking the merchant must act on (app/attention/); flagged once, with when it was seen. */
export type ShipmentAttention = "cancelled_after_pickup" | "cancel_refused" | "address_changed" | TrackingAttention;

/**
 * Raised by the tracking sync: the courier reported an exception (undelivered, RTO, misrouted, lost, damaged, pickup
 * failed), or the parcel has had no new scan for longer than its stage allows. Both are raised when they begin, so a
 * dismissal holds until something new happens.
 */
export type TrackingAttention = "tracking_exception" | "tracking_stalled";
export const TRACKING_ATTENTION: readonly string[] = ["tracking_exception", "tracking_stalled"] satisfies TrackingAttention[];

export async function flagShipment(shipmentId: number, attention: ShipmentAttention, at: Date): Promise<void> {
  await prisma.shipment.updateMany({ where: { id: shipmentId, OR: [{ attention: null }, { attention: { not: attention } }] }, data: { attention, attentionAt: at } });
}

/** The merchant has dealt with it. */
export async function clearShipmentAttention(shop: string, shipmentId: number): Promise<boolean> {
  const { count } = await prisma.shipment.updateMany({ where: { id: shipmentId, shop, attention: { not: null } }, data: { attention: null, attentionAt: null } });
  return count === 1;
}
