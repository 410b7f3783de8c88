import type { OrderFacts } from "~/automation/rules";
import { fromPaise, toPaise } from "~/money";
import type { CreateOrderInput } from "~/shipping/contract";

/**
 * The facts of a booking, built in one place: what the order's record stores of the courier fields (the lists and
 * the rules read it), and the facts the auto-booking rules decide on. Pure.
 */

/** What the order's record keeps of a mapped or booked shipment's fields. A body stored without its amount keeps none. */
export function storedFactsOf(fields: Pick<CreateOrderInput, "payment_mode" | "package_weight"> & { total_amount?: number }): { paymentMode: string; weightGrams: number; totalPaise?: number } {
  // The courier books an order sent without a payment mode as cash on delivery (spec: payment_mode defaults to cod).
  return { paymentMode: fields.payment_mode ?? "cod", weightGrams: Math.round(fields.package_weight * 1000), ...(fields.total_amount === undefined ? {} : { totalPaise: toPaise(fields.total_amount) }) };
}

export interface StoredFacts {
  paymentMode: string | null;
  weightGrams: number | null;
  totalPaise?: number | null;
  pincode: string | null;
  zone: string | null;
  tags: string[];
}

/** What the rules decide on; null while the payment mode or the amount is unknown. */
export function ruleFactsOf(stored: StoredFacts): OrderFacts | null {
  if (!stored.paymentMode || stored.totalPaise === null || stored.totalPaise === undefined) return null;
  return {
    paymentMode: stored.paymentMode === "prepaid" ? "prepaid" : "cod",
    weightKg: (stored.weightGrams ?? 0) / 1000,
    valueRupees: fromPaise(stored.totalPaise),
    pincode: stored.pincode ?? "",
    zone: stored.zone,
    tags: stored.tags,
  };
}
