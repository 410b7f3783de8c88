import type { RankedRate } from "~/shipping/rate-ranking";

/**
 * An order's readiness as Dakiya last checked it (OrderRecord.readiness), and the automatic decision on it.
 * The Orders to ship page, the rules' preview and the order-page extensions read these without a Shopify call.
 */
export const READINESS = {
  UNCHECKED: "unchecked",
  READY: "ready",
  PROBLEMS: "problems",
  /** Booked (or being booked): the Shipment tells the rest. */
  SHIPMENT: "shipment",
  CANCELLED: "cancelled",
  /** Fulfilled outside Dakiya, or nothing left to ship. */
  FULFILLED: "fulfilled",
  /** Shopify no longer returns it (deleted). */
  NOT_FOUND: "not_found",
} as const;
export type Readiness = (typeof READINESS)[keyof typeof READINESS];

export const DECISION = {
  BOOKED: "booked",
  /** Held for review: by a rule, or because no rule matched. */
  HELD: "held",
  /** Not booked automatically because the order has problems to fix first; decided again once it is ready. */
  PROBLEMS: "problems",
  /** A rule chose a courier but the booking failed; the reason says why. */
  FAILED: "failed",
  /** Waiting for the shopper to confirm cash on delivery (app/cod/); the rules decide again once they answer. */
  CONFIRMING: "confirming",
} as const;
export type DecisionKind = (typeof DECISION)[keyof typeof DECISION];

export interface QuotedCourier {
  courierId: number;
  name: string;
  totalPaise: number;
  edd: string;
}

/** What the last quote said, kept with the order for lists, previews and rules. */
export interface QuoteSummary {
  zone: string;
  couriers: number;
  cheapest: QuotedCourier | null;
  fastest: QuotedCourier | null;
  recommended: QuotedCourier | null;
}

const toQuoted = (rate: RankedRate | undefined): QuotedCourier | null =>
  rate ? { courierId: rate.id, name: rate.name, totalPaise: Math.round(rate.total_charges * 100), edd: rate.edd } : null;

export function summarizeQuote(rates: readonly RankedRate[]): QuoteSummary | null {
  if (rates.length === 0) return null;
  return {
    zone: rates[0]!.zone,
    couriers: rates.length,
    cheapest: toQuoted(rates.find((rate) => rate.isCheapest)),
    fastest: toQuoted(rates.find((rate) => rate.isFastest)),
    recommended: toQuoted(rates.find((rate) => rate.isRecommended)),
  };
}
