/**
 * The courier's delivery zones (the letters its rates carry) in the merchant's words. Pure: the ship and compare
 * pages read it; the letters themselves are the courier service's.
 */
const ZONE_WORDS: Readonly<Record<string, string>> = {
  A: "Within the city",
  B: "Within the state or region",
  C: "Metro to metro",
  D: "Rest of India",
  E: "Special area (North-East, J&K, Ladakh, islands)",
};

export function zoneInWords(zone: string): string {
  return ZONE_WORDS[zone.toUpperCase()] ?? `Zone ${zone}`;
}

/** How the recommended courier is chosen, in one sentence (app/shipping/rate-ranking.ts weighs 60% price, 40% days). */
export const RECOMMENDATION_EXPLAINED = "Recommended is the courier with the best balance of price and speed: price counts for 60% and delivery days for 40%, each compared with the cheapest and the fastest here.";
