import { READINESS } from "~/orders/readiness";
import { holdsBooking, isShipmentStatus } from "~/shipments/lifecycle";

/**
 * Whether Dakiya's records say every parcel of an order is booked, without asking Shopify: some parcel holds a booking,
 * none failed, and the order's record says nothing is left to book. The screens show such an order from what Dakiya
 * stored; any other (an order booked before its first check has no record) is read and quoted afresh. Pure.
 */
export function isEveryParcelBooked(readiness: string | null, shipments: readonly { status: string }[]): boolean {
  const booked = shipments.filter((shipment) => isShipmentStatus(shipment.status) && holdsBooking(shipment.status));
  if (booked.length === 0 || booked.length < shipments.length) return false;
  return readiness === READINESS.SHIPMENT || readiness === READINESS.FULFILLED || readiness === READINESS.CANCELLED;
}
