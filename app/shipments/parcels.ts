import type { Shipment } from "@prisma/client";

// How a parcel is named and what it holds, for every screen and document that shows one: the lists, the label, the
// manifest, the order page. Pure.

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
