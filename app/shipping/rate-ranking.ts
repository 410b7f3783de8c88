import type { RateOption } from "./contract";

/**
 * How Dakiya recommends a courier: score = 0.6 × (price ÷ cheapest price) + 0.4 × (slowest promised
 * day ÷ fastest promised day); the lowest score wins. Price weighs more because merchants pay it on
 * every order; speed still breaks near-ties. Ties go to the cheaper option.
 */
export const PRICE_WEIGHT = 0.6;
export const SPEED_WEIGHT = 0.4;

export interface RankedRate extends RateOption {
  eddMaxDays: number;
  score: number;
  isCheapest: boolean;
  isFastest: boolean;
  isRecommended: boolean;
}

export function maxDays(edd: string): number {
  return Number(edd.split("-").pop()!.trim());
}

export function rankRates(options: readonly RateOption[]): RankedRate[] {
  if (options.length === 0) return [];
  const cheapest = Math.min(...options.map((option) => option.total_charges));
  const fastest = Math.min(...options.map((option) => maxDays(option.edd)));
  const scored = options.map((option) => ({
    ...option,
    eddMaxDays: maxDays(option.edd),
    score: Math.round((PRICE_WEIGHT * (option.total_charges / cheapest) + SPEED_WEIGHT * (maxDays(option.edd) / fastest)) * 1000) / 1000,
  }));
  const byScore = [...scored].sort((a, b) => a.score - b.score || a.total_charges - b.total_charges);
  const fastestOption = [...scored].sort((a, b) => a.eddMaxDays - b.eddMaxDays || a.total_charges - b.total_charges)[0]!;
  const cheapestOption = [...scored].sort((a, b) => a.total_charges - b.total_charges || a.eddMaxDays - b.eddMaxDays)[0]!;
  return scored.map((option) => ({
    ...option,
    isCheapest: option.id === cheapestOption.id,
    isFastest: option.id === fastestOption.id,
    isRecommended: option.id === byScore[0]!.id,
  }));
}
