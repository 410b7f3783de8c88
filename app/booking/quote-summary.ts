import type { RankedRate } from "~/shipping/rate-ranking";

/** A courier as a quote named it, kept with the order: its charges in paise and its days. */
export interface QuotedCourier {
  courierId: number;
  name: string;
  totalPaise: number;
  edd: string;
}

/** What the last quote said, kept with the order for lists, previews and rules. Pure. */
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
