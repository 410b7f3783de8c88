import type { FailedJob } from "~/jobs/job-queue.server";
import type { DataRequestSummary } from "~/privacy/data-requests.server";
import type { AttentionNote } from "./attention-words";

/** The kinds of things waiting on the merchant, and their names on screen. Pure: the pages read it. */

export type AttentionKind =
  | "order_problems"
  | "held_by_rules"
  | "auto_booking_failed"
  | "booking_failed"
  | "fulfillment_pending"
  | "cancelled_after_pickup"
  | "cancel_refused"
  | "address_changed"
  | "tracking_exception"
  | "tracking_stalled"
  | "tracking_paused"
  | "tracking_stopped"
  | "return_received"
  | "return_problems"
  | "return_held";

export interface AttentionItem {
  kind: AttentionKind;
  orderGid: string;
  orderName: string;
  /** What happened and what resolves it, as a code and its parameters: the page words it in the admin's language. */
  note: AttentionNote;
  /** What happened, in English. */
  message: string;
  /** What resolves it, in English. */
  action: string;
  at: string;
  /** A shipment's flag the merchant can dismiss once dealt with. */
  shipmentId?: number;
  /** A return (its Shopify id): the items that came back, for "Return received: inspect it". */
  returnGid?: string;
  items?: { title: string; quantity: number }[];
}

export interface NeedsAttention {
  items: AttentionItem[];
  failedJobs: FailedJob[];
  /** Customers who asked what the shop holds about them, not yet answered. */
  dataRequests: DataRequestSummary[];
}

export const ATTENTION_LABELS: Record<AttentionKind, string> = {
  order_problems: "Can't ship yet",
  held_by_rules: "Held by rules",
  auto_booking_failed: "Auto-booking failed",
  booking_failed: "Booking failed",
  fulfillment_pending: "Fulfillment pending",
  cancelled_after_pickup: "Cancelled after pickup",
  cancel_refused: "Cancellation refused",
  address_changed: "Address changed after booking",
  tracking_exception: "Delivery problem",
  tracking_stalled: "No courier scan",
  tracking_paused: "Tracking paused",
  tracking_stopped: "Tracking stopped",
  return_received: "Return received: inspect it",
  return_problems: "Return pickup can't be booked",
  return_held: "Return pickup held",
};

/** An order not booked that the merchant may set aside as never shipping through Dakiya (abroad, too old, shipped another way). */
export const ORDER_DISMISSABLE_KINDS: readonly AttentionKind[] = ["order_problems", "held_by_rules", "auto_booking_failed"];

/** A flag on a shipment the merchant dismisses once dealt with (the others go away when their cause does). */
export const DISMISSABLE_KINDS: readonly AttentionKind[] = ["cancelled_after_pickup", "cancel_refused", "address_changed", "tracking_exception", "tracking_stalled"];

export const CRITICAL_KINDS: readonly AttentionKind[] = ["booking_failed", "auto_booking_failed", "cancelled_after_pickup", "cancel_refused", "tracking_exception", "tracking_paused"];

/** One tone per meaning, as on Orders to ship: a booking gone wrong is critical, an order to fix warning, the rest attention. */
export function attentionTone(kind: AttentionKind): "critical" | "warning" | "attention" {
  if (CRITICAL_KINDS.includes(kind)) return "critical";
  return kind === "order_problems" ? "warning" : "attention";
}

/** Kinds fixed on the order in Shopify (its address, phone, items), not in Dakiya. */
export const FIXED_IN_SHOPIFY_KINDS: readonly AttentionKind[] = ["order_problems", "address_changed"];
