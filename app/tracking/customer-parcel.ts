import type { Shipment, TrackingEvent } from "@prisma/client";
import type { CustomerParcel, ParcelStage } from "../../extensions/shared/customer-parcel";
import { parcelName } from "~/shipments/parcels";
import { SERVICE_STATUS } from "~/shipping/status";

/**
 * One parcel as its shopper sees it on the order status page (extensions/shared/customer-parcel.ts has the contract):
 * where it is, when it comes, who carries it, and the courier's updates. Pure.
 */

/** The shopper's stage for a parcel: the courier's latest code read against the booking. */
export function parcelStageOf(shipment: Pick<Shipment, "status" | "courierStatusCode">): ParcelStage {
  if (shipment.status === "cancelled") return "cancelled";
  switch (shipment.courierStatusCode) {
    case SERVICE_STATUS.IN_TRANSIT:
    case SERVICE_STATUS.REACHED_AT_DESTINATION:
    case SERVICE_STATUS.MISROUTE:
      return "in_transit";
    case SERVICE_STATUS.OUT_FOR_DELIVERY:
      return "out_for_delivery";
    case SERVICE_STATUS.UNDELIVERED:
      return "delivery_failed";
    case SERVICE_STATUS.DELIVERED:
      return "delivered";
    case SERVICE_STATUS.RTO:
      return "returning";
    case SERVICE_STATUS.RTO_DELIVERED:
      return "returned";
    case SERVICE_STATUS.LOST:
    case SERVICE_STATUS.DAMAGED:
      return "problem";
    case SERVICE_STATUS.CANCELLED:
      return "cancelled";
    default:
      // Booked, manifested, waiting for or missing its pickup: still at the seller's.
      return "preparing";
  }
}

type Entry = Pick<TrackingEvent, "code" | "activity" | "location" | "happenedAt">;

export function toCustomerParcel(shipment: Pick<Shipment, "orderName" | "parcel" | "status" | "courierStatusCode" | "courierName" | "awb" | "trackingUrl" | "estimatedDeliveryAt" | "deliveredAt">, entries: readonly Entry[]): CustomerParcel {
  const stage = parcelStageOf(shipment);
  const oldestFirst = [...entries].sort((a, b) => a.happenedAt.getTime() - b.happenedAt.getTime());
  const failedAttempts = oldestFirst.filter((entry) => entry.code === SERVICE_STATUS.UNDELIVERED);
  const lastFailed = failedAttempts.at(-1);
  return {
    name: parcelName(shipment),
    stage,
    courierName: shipment.courierName,
    awb: shipment.awb,
    trackingUrl: shipment.trackingUrl,
    estimatedDelivery: stage === "delivered" || stage === "cancelled" || stage === "returned" ? null : (shipment.estimatedDeliveryAt?.toISOString() ?? null),
    deliveredAt: shipment.deliveredAt?.toISOString() ?? null,
    timeline: oldestFirst.reverse().map((entry) => ({ code: entry.code, at: entry.happenedAt.toISOString(), activity: entry.activity, location: entry.location })),
    // No answer form yet: `answerForm` is filled once Dakiya takes the shopper's answer to a failed delivery.
    failedAttempt: stage === "delivery_failed" && lastFailed ? { attempt: failedAttempts.length, reason: lastFailed.activity, at: lastFailed.happenedAt.toISOString(), answerForm: null } : null,
  };
}
