/**
 * A cash-on-delivery order's risk of coming back, as levels: what the rules match on and the lists show. Pure, and
 * below both: app/cod/risk-score.ts scores an order into one of them.
 */
export const RISK_LEVELS = ["high", "medium", "low", "none"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
export const isRiskLevel = (value: unknown): value is RiskLevel => typeof value === "string" && (RISK_LEVELS as readonly string[]).includes(value);
