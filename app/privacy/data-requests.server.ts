import prisma from "~/db.server";
import { problemsOf } from "~/orders/order-records.server";

/**
 * customers/data_request: a customer asked the shop what it holds about them. Dakiya records the request (ids only)
 * and shows it on Needs attention; the merchant downloads what Dakiya holds for the orders it names — compiled at
 * that moment, so it is what Dakiya holds then, redactions included — and sends it to the customer.
 */

export interface DataRequestSummary {
  id: number;
  customerId: string;
  orders: number;
  requestedAt: string;
}

export async function recordDataRequest(request: { shop: string; requestId: string; customerId: string; orderIds: readonly number[]; requestedAt: Date }): Promise<void> {
  const orderGids = request.orderIds.map((id) => `gid://shopify/Order/${id}`);
  await prisma.dataRequest.upsert({
    where: { webhookId: request.requestId },
    create: { shop: request.shop, webhookId: request.requestId, customerId: request.customerId, orderGids, requestedAt: request.requestedAt },
    update: {},
  });
}

/** The shop's requests the merchant has not marked answered, newest first. */
export async function listOpenDataRequests(shop: string): Promise<DataRequestSummary[]> {
  const requests = await prisma.dataRequest.findMany({ where: { shop, answeredAt: null }, orderBy: { requestedAt: "desc" }, take: 50 });
  return requests.map((request) => ({ id: request.id, customerId: request.customerId, orders: request.orderGids.length, requestedAt: request.requestedAt.toISOString() }));
}

/** Marks one of the shop's requests answered; false when it is not the shop's or already answered. */
export async function markDataRequestAnswered(shop: string, id: number, at = new Date()): Promise<boolean> {
  return (await prisma.dataRequest.updateMany({ where: { id, shop, answeredAt: null }, data: { answeredAt: at } })).count === 1;
}

/**
 * Everything Dakiya holds for the orders one of the shop's requests names: the order as checked, the booking as sent
 * to the courier, and its tracking. Null when the request is not the shop's.
 */
export async function compileDataRequest(shop: string, id: number) {
  const request = await prisma.dataRequest.findFirst({ where: { id, shop } });
  if (!request) return null;
  const [records, shipments] = await Promise.all([
    prisma.orderRecord.findMany({ where: { shop, orderGid: { in: request.orderGids } } }),
    prisma.shipment.findMany({ where: { shop, orderGid: { in: request.orderGids } }, include: { trackingEvents: { orderBy: { happenedAt: "asc" } } } }),
  ]);
  return {
    shop,
    customerId: request.customerId,
    requestedAt: request.requestedAt.toISOString(),
    compiledAt: new Date().toISOString(),
    orders: request.orderGids.map((orderGid) => {
      const record = records.find((candidate) => candidate.orderGid === orderGid);
      const shipment = shipments.find((candidate) => candidate.orderGid === orderGid);
      return {
        orderId: orderGid.split("/").pop(),
        order: record
          ? {
              name: record.orderName,
              placedAt: record.placedAt?.toISOString() ?? null,
              destination: record.destination,
              pincode: record.pincode,
              tags: record.tags,
              problems: problemsOf(record).map(({ code, message }) => ({ code, message })),
              decision: record.decision,
              decisionReason: record.decisionReason,
              cancelledAt: record.cancelledAt?.toISOString() ?? null,
            }
          : null,
        shipment: shipment
          ? {
              awb: shipment.awb,
              status: shipment.status,
              courier: shipment.courierName,
              trackingUrl: shipment.trackingUrl,
              bookedAt: shipment.createdAt.toISOString(),
              // The booking exactly as sent to the courier: the name, phone and address it carried.
              sentToCourier: shipment.requestPayload ? (JSON.parse(shipment.requestPayload) as unknown) : null,
              lastError: shipment.lastError,
              tracking: shipment.trackingEvents.map((event) => ({ at: event.happenedAt.toISOString(), stage: event.label, activity: event.activity, location: event.location })),
            }
          : null,
      };
    }),
  };
}
