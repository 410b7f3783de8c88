import type { Shipment } from "@prisma/client";
import { parcelItems, parcelName } from "~/shipments/parcels";

/**
 * What the screens show of a booking. The stored row also holds the exact request sent to the courier (the
 * shopper's address and phone) and internal bookkeeping; none of that goes to the browser.
 */
export function shipmentForScreen(shipment: Shipment) {
  return {
    id: shipment.id,
    orderName: shipment.orderName,
    parcel: shipment.parcel,
    name: parcelName(shipment),
    locationName: shipment.locationName,
    items: parcelItems(shipment),
    status: shipment.status,
    awb: shipment.awb,
    courierName: shipment.courierName,
    zone: shipment.zone,
    totalChargesPaise: shipment.totalChargesPaise,
    edd: shipment.edd,
    paymentMode: shipment.paymentMode,
    trackingUrl: shipment.trackingUrl,
    lastError: shipment.lastError,
    /** The same, as words to say in the admin's language (null: say the English as stored). */
    lastErrorWords: shipment.lastErrorWords,
    /** Where the courier has the parcel (app/shipments/lifecycle.ts), and its attempts to deliver. */
    outcome: shipment.outcome,
    deliveryAttempts: shipment.deliveryAttempts,
    courierStatusCode: shipment.courierStatusCode,
    courierStatusLabel: shipment.courierStatusLabel,
    estimatedDeliveryAt: shipment.estimatedDeliveryAt?.toISOString() ?? null,
    deliveredAt: shipment.deliveredAt?.toISOString() ?? null,
    syncedAt: shipment.syncedAt?.toISOString() ?? null,
    nextSyncAt: shipment.nextSyncAt?.toISOString() ?? null,
    /** Why tracking backs off, is paused or stopped, and the same as words to say in the admin's language. */
    trackingError: shipment.trackingError,
    trackingErrorWords: shipment.trackingErrorWords,
  };
}

export type ShipmentOnScreen = ReturnType<typeof shipmentForScreen>;

