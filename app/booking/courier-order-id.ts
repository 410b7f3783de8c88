import { MAX_TEXT_LENGTH } from "~/shipping/contract";

/**
 * The order_id a booking sends the courier: the order's own number on the first attempt; "<number>-<attempt>" once
 * the courier has refused the number as taken (an order booked on its panel with that number, or one cancelled
 * there, which the courier never lets be used again). Cut from the front of the number so the suffix, which makes
 * it new, always fits the courier's limit. Pure.
 */
export function courierOrderId(orderNumber: string, attempt: number): string {
  if (attempt <= 1) return orderNumber;
  const suffix = `-${attempt}`;
  return orderNumber.slice(0, MAX_TEXT_LENGTH.order_id - suffix.length) + suffix;
}

/** The courier refused the order_id itself (taken by another order, or by a cancelled one), not the order. */
export function isOrderIdTaken(error: { status?: number; fieldErrors: readonly { field: string }[] }): boolean {
  return error.status === 409 && error.fieldErrors.some((fieldError) => fieldError.field === "order_id");
}
