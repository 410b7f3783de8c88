import type { FailedDelivery, Prisma, Shipment, ShipmentEvent, TrackingEvent } from "@prisma/client";
import prisma from "~/db.server";
import { flowHeldFor } from "~/flow/flow-privacy.server";
import { codHeldFor } from "~/cod/cod-privacy.server";
import { ordersOfKeys } from "~/cod/shopper-keys.server";
import { reconciliationHeldFor } from "~/reconciliation/reconciliation-privacy.server";
import { jobOutputsOf } from "~/jobs/job-queue.server";
import { problemsOf } from "~/orders/order-records.server";
import { returnGidsOf } from "./personal-data.server";

/**
 * customers/data_request: a customer asked the shop what it holds about them. Dakiya records the request (ids only)
 * and shows it on Needs attention; the merchant downloads what Dakiya holds for the orders it names — their bookings,
 * returns and return pickups, compiled at that moment, so it is what Dakiya holds then, redactions included — and
 * sends it to the customer. Every column that can hold the shopper's details is in it (test/routes/privacy.test.ts).
 */

export interface DataRequestSummary {
  id: number;
  customerId: string;
  orders: number;
  requestedAt: string;
}

export async function recordDataRequest(request: { shop: string; requestId: string; customerId: string; orderIds: readonly number[]; requestedAt: Date; shopperKeys?: readonly string[] }): Promise<void> {
  const orderGids = request.orderIds.map((id) => `gid://shopify/Order/${id}`);
  // The keys are used here and dropped: the request keeps the orders they found.
  const found = await ordersOfKeys(request.shop, request.shopperKeys ?? []);
  const ordersByPhoneOrEmail = found.filter((orderGid) => !orderGids.includes(orderGid));
  await prisma.dataRequest.upsert({
    where: { webhookId: request.requestId },
    create: { shop: request.shop, webhookId: request.requestId, customerId: request.customerId, orderGids, ordersByPhoneOrEmail, requestedAt: request.requestedAt },
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

type ShipmentHeld = Shipment & { trackingEvents: TrackingEvent[]; events: ShipmentEvent[]; failedDelivery: FailedDelivery | null };
type ReconciliationHeld = Awaited<ReturnType<typeof reconciliationHeldFor>>;

/** A booking as Dakiya holds it: the body sent to the courier (the name, phone and address it carried), the courier's
 * and Shopify's words about it (errors, tracking, the history's reasons), and what the courier remitted and charged for it. */
const shipmentHeld = (reconciliation: ReconciliationHeld) => (shipment: ShipmentHeld) => {
  return {
    awb: shipment.awb,
    status: shipment.status,
    courier: shipment.courierName,
    trackingUrl: shipment.trackingUrl,
    bookedAt: shipment.createdAt.toISOString(),
    // The booking exactly as sent to the courier: for a return's pickup, the shopper is the pickup contact.
    sentToCourier: shipment.requestPayload ? (JSON.parse(shipment.requestPayload) as unknown) : null,
    lastError: shipment.lastError,
    lastErrorWords: shipment.lastErrorWords,
    trackingError: shipment.trackingError,
    trackingErrorWords: shipment.trackingErrorWords,
    tracking: shipment.trackingEvents.map((event) => ({ at: event.happenedAt.toISOString(), stage: event.label, activity: event.activity, location: event.location })),
    history: shipment.events.filter((event) => event.reason !== null).map((event) => ({ at: event.at.toISOString(), step: event.transition, reason: event.reason, reasonWords: event.reasonWords })),
    // The shopper's answer to a failed delivery (their corrected contact) and the merchant's remarks to the courier.
    failedDelivery: shipment.failedDelivery
      ? (({ answer, answeredAt, preferredDate, preferredSlot, phone, alternatePhone, addressLine, landmark, decision, remarks }) => ({ answer, answeredAt: answeredAt?.toISOString() ?? null, preferredDate, preferredSlot, phone, alternatePhone, addressLine, landmark, decision, remarks }))(shipment.failedDelivery)
      : null,
    // The courier's remittances and charges for the parcel, and the merchant's packing photo of it.
    ...reconciliation(shipment.id),
  };
};

/**
 * Everything Dakiya holds for the orders one of the shop's requests names: the order as checked, each booking as sent
 * to the courier with its tracking and history, and the order's returns with their pickups. Null when the request
 * is not the shop's.
 */
export async function compileDataRequest(shop: string, id: number) {
  const request = await prisma.dataRequest.findFirst({ where: { id, shop } });
  if (!request) return null;
  const held = { trackingEvents: { orderBy: { happenedAt: "asc" } }, events: { orderBy: { at: "asc" } }, failedDelivery: true } satisfies Prisma.ShipmentInclude;
  const [records, returns, shipments] = await Promise.all([
    prisma.orderRecord.findMany({ where: { shop, orderGid: { in: request.orderGids } } }),
    prisma.returnRecord.findMany({ where: { shop, orderGid: { in: request.orderGids } }, orderBy: { createdAt: "asc" }, include: { events: { orderBy: { at: "asc" } } } }),
    prisma.shipment.findMany({ where: { shop, OR: [{ orderGid: { in: request.orderGids } }, { returnOfOrderGid: { in: request.orderGids } }] }, include: held, orderBy: { createdAt: "asc" } }),
  ]);
  const flowOf = await flowHeldFor(shop, request.orderGids);
  const asHeld = shipmentHeld(await reconciliationHeldFor(shop, shipments.map((shipment) => shipment.id)));
  const cod = await codHeldFor(shop, [...request.orderGids, ...request.ordersByPhoneOrEmail]);
  const backgroundWork = await jobOutputsOf(shop, { orderGids: request.orderGids, returnGids: returnGidsOf(returns, shipments), shipmentIds: shipments.map((shipment) => shipment.id) });
  return {
    shop,
    customerId: request.customerId,
    requestedAt: request.requestedAt.toISOString(),
    compiledAt: new Date().toISOString(),
    orders: request.orderGids.map((orderGid) => {
      const record = records.find((candidate) => candidate.orderGid === orderGid);
      return {
        orderId: orderGid.split("/").pop(),
        order: record
          ? {
              name: record.orderName,
              placedAt: record.placedAt?.toISOString() ?? null,
              shopperName: record.shopperName,
              destination: record.destination,
              pincode: record.pincode,
              tags: record.tags,
              problems: problemsOf(record),
              decision: record.decision,
              decisionReason: record.decisionReason,
              decisionWords: record.decisionWords,
              // A digest of the shipping address as last read (to notice an edit after booking): no address can be read back from it.
              addressDigest: record.addressDigest,
              cancelledAt: record.cancelledAt?.toISOString() ?? null,
            }
          : null,
        shipments: shipments.filter((shipment) => shipment.orderGid === orderGid).map(asHeld),
        // What Shopify Flow's triggers were to carry, and what Flow's actions were answered, about the order.
        flow: flowOf(orderGid),
        // Its cash-on-delivery risk, the shopper's history keys and their answers to a confirmation.
        cashOnDelivery: cod.heldFor(orderGid),
        returns: returnGidsOf(returns, shipments, orderGid).map((returnGid) => {
          const returned = returns.find((candidate) => candidate.returnGid === returnGid);
          return {
            returnId: returnGid.split("/").pop(),
            return: returned
              ? {
                  name: returned.returnName,
                  state: returned.state,
                  requestedAt: returned.requestedAt?.toISOString() ?? null,
                  // The shopper's reasons and notes for sending the items back.
                  reasons: returned.reasons,
                  pincode: returned.pincode,
                  problems: problemsOf(returned),
                  decision: returned.decision,
                  decisionReason: returned.decisionReason,
                  decisionWords: returned.decisionWords,
                  receivedAt: returned.receivedAt?.toISOString() ?? null,
                  // The history's reasons may quote what the courier said, or the shopper's note.
                  history: returned.events.filter((event) => event.reason !== null).map((event) => ({ at: event.at.toISOString(), step: event.transition, reason: event.reason, reasonWords: event.reasonWords })),
                }
              : null,
            pickups: shipments.filter((shipment) => shipment.orderGid === returnGid).map(asHeld),
          };
        }),
      };
    }),
    // Other orders their phone or e-mail placed, found by its keyed hash: what cash on delivery holds of them.
    otherOrdersByPhoneOrEmail: request.ordersByPhoneOrEmail.map((orderGid) => ({ orderId: orderGid.split("/").pop(), cashOnDelivery: cod.heldFor(orderGid) })),
    // What the background work on these orders, returns and shipments kept of a failed try: the courier's or Shopify's error.
    backgroundWork: backgroundWork.map((job) => ({ work: job.queue, state: job.state, error: job.output })),
  };
}
