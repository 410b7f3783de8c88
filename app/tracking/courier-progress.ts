import { isServiceStatusCode, SERVICE_STATUS, SERVICE_STATUS_LABELS, type ServiceStatusCode } from "~/shipping/status";
import type { FulfillmentEventStatus } from "~/types/admin.types";

/**
 * What each of the courier service's status codes (spec: "States and transitions", 2–15) means for the shopper and
 * the merchant: the Shopify fulfillment event it becomes, how often a shipment in that stage is polled, how long it
 * may go without a new scan, and what the merchant can do when it is an exception. Pure: the sync, the screens and
 * the public tracking page all read it.
 */

/** Shopify's FulfillmentEventStatus, as generated from the 2026-10 schema. */
export type { FulfillmentEventStatus };

export interface StageRule {
  /** The Shopify fulfillment event an entry with this code becomes. */
  shopifyStatus: FulfillmentEventStatus;
  /**
   * Said in the event's message before the courier's own words, where Shopify's status alone would mislead
   * (Shopify has no return-to-origin status: RTO is FAILURE, and the message says what happened).
   */
  explanation: string | null;
  /** Polled every this many base intervals (TRACKING_SYNC_SECONDS, 10 minutes by default). */
  pollEvery: number;
  /** Longer than this without a new scan, the shipment is stuck and the merchant is told. */
  maxQuietHours: number;
  /** An exception the merchant must act on, and what they can do; null for ordinary progress. */
  exception: string | null;
}

/**
 * The table. Choices: 2 Manifested is LABEL_PURCHASED (the courier has the booking and its label, nothing is picked
 * up yet); 3 Out for Pickup is READY_FOR_PICKUP; 10 Cancelled is FAILURE with "cancelled" said, since Shopify has no
 * cancelled status and the parcel will not arrive.
 */
export const STAGES: Readonly<Record<ServiceStatusCode, StageRule>> = {
  2: { shopifyStatus: "LABEL_PURCHASED", explanation: null, pollEvery: 5, maxQuietHours: 48, exception: null },
  3: { shopifyStatus: "READY_FOR_PICKUP", explanation: null, pollEvery: 5, maxQuietHours: 24, exception: null },
  4: { shopifyStatus: "DELAYED", explanation: "Pickup delayed", pollEvery: 5, maxQuietHours: 24, exception: "Pickup failed: make sure the parcel is packed, labelled and ready at the warehouse; the courier tries again." },
  5: { shopifyStatus: "IN_TRANSIT", explanation: null, pollEvery: 5, maxQuietHours: 72, exception: null },
  6: { shopifyStatus: "IN_TRANSIT", explanation: null, pollEvery: 3, maxQuietHours: 48, exception: null },
  7: { shopifyStatus: "OUT_FOR_DELIVERY", explanation: null, pollEvery: 1, maxQuietHours: 24, exception: null },
  8: { shopifyStatus: "DELIVERED", explanation: null, pollEvery: 0, maxQuietHours: 0, exception: null },
  9: { shopifyStatus: "ATTEMPTED_DELIVERY", explanation: null, pollEvery: 1.5, maxQuietHours: 48, exception: "Delivery failed: call the shopper to confirm the address and a good time, then ask the courier to attempt again." },
  10: { shopifyStatus: "FAILURE", explanation: "Shipment cancelled; it will not be delivered", pollEvery: 0, maxQuietHours: 0, exception: null },
  11: { shopifyStatus: "FAILURE", explanation: "Returning to the seller", pollEvery: 5, maxQuietHours: 120, exception: "Returning to you (RTO): ask the courier why; refund or reship when the parcel is back." },
  12: { shopifyStatus: "FAILURE", explanation: "Returned to the seller", pollEvery: 0, maxQuietHours: 0, exception: "Returned to your warehouse (RTO delivered): inspect the parcel, then refund or reship." },
  13: { shopifyStatus: "DELAYED", explanation: "Delayed: misrouted", pollEvery: 5, maxQuietHours: 48, exception: "Misrouted: raise it with the courier; delivery will be late." },
  14: { shopifyStatus: "FAILURE", explanation: "Lost in transit", pollEvery: 0, maxQuietHours: 0, exception: "Lost in transit: raise a claim with the courier, and reship or refund." },
  15: { shopifyStatus: "FAILURE", explanation: "Damaged in transit", pollEvery: 0, maxQuietHours: 0, exception: "Damaged in transit: raise a damage claim with the courier, and reship or refund." },
};

/**
 * A return's pickup runs the other way: collected from the shopper, delivered to the merchant's warehouse. The
 * forward advice ("call the shopper to confirm the address", "refund or reship") is wrong for it, so its exceptions
 * have their own words. Stages not listed here are no exception for a return either.
 */
export const RETURN_EXCEPTIONS: Readonly<Partial<Record<ServiceStatusCode, string>>> = {
  4: "Pickup failed: the courier could not collect the return from the shopper. Ask the shopper to keep the parcel packed and their phone on; the courier tries again.",
  9: "The courier could not hand the return over at your warehouse: make sure someone there can receive it, then ask the courier to attempt again.",
  11: "The return is going back to the shopper: the courier could not bring it to your warehouse. Ask the courier why.",
  12: "The return went back to the shopper and never reached you: ask the shopper and the courier, and decide the refund in Shopify.",
  13: "The return was misrouted: raise it with the courier; it will reach your warehouse late.",
  14: "The return was lost in transit: raise a claim with the courier, and settle with the shopper in Shopify.",
  15: "The return was damaged in transit: raise a damage claim with the courier, and inspect it when it arrives.",
};

/** What the merchant can do about an exception stage, in the words of the shipment's direction; null when it is none. */
export function exceptionAdvice(code: ServiceStatusCode, direction: string): string | null {
  return direction === "return" ? (RETURN_EXCEPTIONS[code] ?? null) : STAGES[code].exception;
}

/** A stage no further progress follows: delivered, cancelled, returned, lost, damaged. Not polled again. */
export const isFinalStage = (code: ServiceStatusCode) => STAGES[code].pollEvery === 0;

/** The fulfillment event's message: the explanation (when there is one) and the courier's words. */
export function eventMessage(code: ServiceStatusCode, activity: string): string {
  const { explanation } = STAGES[code];
  const message = explanation ? `${explanation}: ${activity}` : activity;
  return message.slice(0, 255);
}

/** When a shipment in this stage is polled next (null: never again). */
export function nextSyncAfter(code: ServiceStatusCode, from: Date, baseSeconds: number): Date | null {
  const { pollEvery } = STAGES[code];
  return pollEvery === 0 ? null : new Date(from.getTime() + pollEvery * baseSeconds * 1000);
}

/** Whether a shipment has gone quiet for longer than its stage allows. */
export function isQuietTooLong(code: ServiceStatusCode, lastScanAt: Date, now: Date): boolean {
  const { maxQuietHours } = STAGES[code];
  return maxQuietHours > 0 && now.getTime() - lastScanAt.getTime() > maxQuietHours * 3_600_000;
}

export const stageLabel = (code: number): string => SERVICE_STATUS_LABELS[code as ServiceStatusCode] ?? `Status ${code}`;

export const DELIVERED = SERVICE_STATUS.DELIVERED;

export type TrackingAttentionChange = { flag: "tracking_exception" | "tracking_stalled"; at: Date } | { clear: true } | null;

/**
 * What a sync means for the merchant's attention. Raised when it begins: a new latest entry in an exception stage,
 * or a shipment crossing its stage's quiet limit since the previous sync; so a dismissal holds until something new
 * happens. Cleared when ordinary progress follows (a failed attempt followed by a delivery needs nothing). A flag
 * about the booking itself (a cancellation, an address change) is the merchant's business first and is left alone.
 */
export function trackingAttentionAfter(input: {
  attention: string | null;
  /** The latest entry before this sync, and the one after it (null: none yet). */
  before: { code: number | null; at: Date | null };
  after: { code: ServiceStatusCode | null; at: Date | null };
  previousSyncAt: Date | null;
  now: Date;
}): TrackingAttentionChange {
  const { attention, before, after, previousSyncAt, now } = input;
  if (attention !== null && attention !== "tracking_exception" && attention !== "tracking_stalled") return null;
  if (after.code === null || after.at === null) return null;
  const moved = before.at === null || after.at.getTime() > before.at.getTime();
  if (moved) {
    if (STAGES[after.code].exception) return { flag: "tracking_exception", at: after.at };
    return attention === null ? null : { clear: true };
  }
  const quietNow = isQuietTooLong(after.code, after.at, now);
  const quietBefore = previousSyncAt !== null && isQuietTooLong(after.code, after.at, previousSyncAt);
  return quietNow && !quietBefore && attention === null ? { flag: "tracking_stalled", at: now } : null;
}

/** How a stage is shown: delivered is good news, an exception is bad news, the rest is progress. */
export function stageTone(code: number | null): "success" | "critical" | "info" | undefined {
  if (code === null || !isServiceStatusCode(code)) return undefined;
  if (code === SERVICE_STATUS.DELIVERED) return "success";
  return STAGES[code].exception ? "critical" : "info";
}
