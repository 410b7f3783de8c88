import prisma from "~/db.server";
import type { ShipmentStatus } from "~/shipments/lifecycle";

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
      direction: true,
      returnOfOrderGid: true,
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
