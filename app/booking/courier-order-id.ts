import { MAX_TEXT_LENGTH } from "~/shipping/contract";

/**
 * The order_id a booking sends the courier, derived from the order's number so it reads back to the order: parcel 1
 * sends the number itself, parcel N "<number>-N"; once the courier has refused an order_id as taken (an order booked
 * on its panel with that id, or one cancelled there, which the courier never lets be used again), the next attempt
 * adds "-A<attempt>". Cut from the front of the number so the suffixes, which make it new, always fit the courier's
 * limit. Pure.
 */
export function courierOrderId(orderNumber: string, { parcel = 1, attempt = 1 }: { parcel?: number; attempt?: number } = {}): string {
  const suffix = `${parcel > 1 ? `-${parcel}` : ""}${attempt > 1 ? `-A${attempt}` : ""}`;
  return orderNumber.slice(0, MAX_TEXT_LENGTH.order_id - suffix.length) + suffix;
}

/** The courier refused the order_id itself (taken by another order, or by a cancelled one), not the order. */
export function isOrderIdTaken(error: { status?: number; fieldErrors: readonly { field: string }[] }): boolean {
  return error.status === 409 && error.fieldErrors.some((fieldError) => fieldError.field === "order_id");
}
