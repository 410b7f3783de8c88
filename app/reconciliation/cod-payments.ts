import { formatPaise } from "~/money";
import { noteWithLine } from "~/shopify/order-note";

/**
 * Recording a parcel's remitted cash on delivery as paid in Shopify: which way, once. Pure: the job reads the order
 * as Shopify holds it now and does what this decides.
 *
 * The whole balance is `orderMarkAsPaid`; a parcel that covers only part of what the order still owes (one parcel of
 * several) is a manual payment of its own amount, under a payment method named after the parcel and the bank's
 * reference — which is how a payment Shopify took without Dakiya hearing back is recognised on the next read, and
 * never recorded twice. The order's note then names the remittance.
 */

/** What of the order the decision reads. */
export interface OrderPaymentState {
  cancelled: boolean;
  outstandingPaise: number;
  payments: readonly { gateway: string; amountPaise: number }[];
}

export interface ParcelRemittance {
  parcelName: string;
  amountPaise: number;
  reference: string;
}

/** Shopify's limit for a payment method's name is not published; statements' references are short, and this stays under 100. */
export const paymentMethodNameOf = ({ parcelName, reference }: Pick<ParcelRemittance, "parcelName" | "reference">): string => `COD remittance ${parcelName} UTR ${reference}`.slice(0, 100);

export type PaymentStep =
  | { kind: "mark_as_paid" }
  | { kind: "manual_payment"; amountPaise: number; methodName: string }
  /** The payment is on the order already (an earlier try that Shopify took). */
  | { kind: "already_recorded" }
  /** Nothing is owed in Shopify (the merchant marked it paid, or another parcel's payment covered it). */
  | { kind: "already_paid" }
  | { kind: "not_recordable"; reason: "order_gone" | "order_cancelled" };

export function nextPaymentStep(order: OrderPaymentState | null, parcel: ParcelRemittance): PaymentStep {
  if (!order) return { kind: "not_recordable", reason: "order_gone" };
  const methodName = paymentMethodNameOf(parcel);
  if (order.payments.some((payment) => payment.gateway === methodName)) return { kind: "already_recorded" };
  if (order.outstandingPaise <= 0) return { kind: "already_paid" };
  if (order.cancelled) return { kind: "not_recordable", reason: "order_cancelled" };
  if (parcel.amountPaise >= order.outstandingPaise) return { kind: "mark_as_paid" };
  return { kind: "manual_payment", amountPaise: parcel.amountPaise, methodName };
}

/** The note's line for a parcel's remittance: the parcel, the amount and the bank's reference (the UTR). */
export const remittanceNoteLine = ({ parcelName, amountPaise, reference }: ParcelRemittance): string => `COD remitted for ${parcelName}: ${formatPaise(amountPaise)}, UTR ${reference}`;

/** The note with the parcel's line added; null when it is there already, or would not fit. */
export function noteWithRemittance(note: string, parcel: ParcelRemittance): string | null {
  const next = noteWithLine(note, remittanceNoteLine(parcel));
  return next === "unchanged" ? null : next;
}
