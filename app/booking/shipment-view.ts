import type { Shipment } from "@prisma/client";

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

/** A parcel's name as its label and the courier have it: the order's name ("#1042"), with "-N" for parcel N after the first. */
export function parcelName(shipment: Pick<Shipment, "orderName" | "parcel">): string {
  return shipment.parcel > 1 ? `${shipment.orderName}-${shipment.parcel}` : shipment.orderName;
}

/** What a booked parcel holds, one line an item ("2 × Pashmina stole"), from the body sent to the courier. */
export function parcelItems(shipment: Pick<Shipment, "requestPayload">): string[] {
  try {
    const body = JSON.parse(shipment.requestPayload) as { products?: { product_name?: unknown; quantity?: unknown }[] };
    return (body.products ?? []).map((product) => `${String(product.quantity ?? 1)} × ${String(product.product_name ?? "")}`);
  } catch {
    return [];
  }
}
