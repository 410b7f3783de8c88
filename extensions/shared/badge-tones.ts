/**
 * One badge tone per meaning, for the app's pages and the admin extensions alike: both read this table, so a rate
 * marked "Recommended" looks the same on the order page's extension as on Dakiya's own pages. Only tones both
 * Polaris (React) and the extensions' web components know.
 */
export type SharedTone = "info" | "success" | "warning" | "critical";

export const RATE_BADGE_TONES = {
  recommended: "success",
  cheapest: "info",
  fastest: "info",
} as const satisfies Record<string, SharedTone>;
