import { normaliseMobile } from "~/shopify/order-mapping";
import type { RiskLevel } from "~/automation/risk-levels";
import { pincodeDisagreesWithState, stateKeyOf, statesOfPincode } from "./postal-circles";

/**
 * The risk that a cash-on-delivery order comes back (RTO: refused or never delivered, shipped back at the merchant's
 * cost), scored from what Dakiya knows of this shop: where the parcel goes and how parcels there ended, who ordered and
 * how their earlier orders ended, how the address is written, the order's value against the shop's usual, and
 * Shopify's own fraud analysis. Pure: the order check scores with it (app/cod/cod-risk.server.ts reads the history),
 * and `npm run bench` measures it on a generated year of orders.
 *
 * The score is the sum of each factor's points on a base, 0 – 100, and every factor is said in words with its
 * points, so the merchant (and Shopify's Fraud analysis card) can see why.
 */

export { isRiskLevel, RISK_LEVELS, type RiskLevel } from "~/automation/risk-levels";

/** The lowest score of each level. */
export const LEVEL_FLOORS: Readonly<Record<Exclude<RiskLevel, "none">, number>> = { high: 60, medium: 35, low: 15 };

/** Every cash-on-delivery order starts here: paying at the door is itself the risk being scored. */
export const BASE_SCORE = 10;

export function levelOf(score: number): RiskLevel {
  if (score >= LEVEL_FLOORS.high) return "high";
  if (score >= LEVEL_FLOORS.medium) return "medium";
  if (score >= LEVEL_FLOORS.low) return "low";
  return "none";
}

/** How parcels ended, of a place or of a shopper: parcels with an end, delivered, back at the warehouse (RTO), failed attempts. */
export interface OutcomeCounts {
  delivered: number;
  returned: number;
  failedAttempts: number;
}

export const NO_OUTCOMES: OutcomeCounts = { delivered: 0, returned: 0, failedAttempts: 0 };

/** What the shop knows of the shopper's earlier orders (matched by their phone or e-mail's keyed hash). */
export interface ShopperHistory {
  /** Earlier orders of theirs Dakiya checked in this shop. */
  orders: number;
  /** How their parcels ended. */
  outcomes: OutcomeCounts;
  /** Their orders cancelled (by them on Dakiya's link, or in Shopify) before shipping. */
  cancelled: number;
}

export interface RiskInputs {
  pincode: string;
  /** As the address names them. */
  city: string;
  state: string;
  addressLines: readonly string[];
  /** The order's phone as given (the shipping address's, else the order's). */
  phone: string | null;
  valuePaise: number;
  /** Parcels to this PIN code, its district (first three digits) and its state, and the shop's whole, in the last year. */
  areas: { pincode: OutcomeCounts; district: OutcomeCounts; state: OutcomeCounts; shop: OutcomeCounts };
  shopper: ShopperHistory;
  /** The shop's usual cash-on-delivery order (median over recent orders); null while it has too few. */
  usualValuePaise: number | null;
  /** The city earlier orders to this PIN code name, when most of them agree; null when too few. */
  pincodeCity: string | null;
  /** Shopify's own assessment of the order, if it made one. */
  shopifyLevel: "HIGH" | "MEDIUM" | "LOW" | "NONE" | "PENDING" | null;
}

export type FactorCode =
  | "area_history"
  | "area_no_history"
  | "area_failed_attempts"
  | "shopper_returned"
  | "shopper_cancelled"
  | "shopper_failed_attempts"
  | "shopper_delivered"
  | "first_order"
  | "no_house_number"
  | "short_address"
  | "pincode_state"
  | "pincode_city"
  | "phone_not_mobile"
  | "phone_made_up"
  | "high_value"
  | "shopify_assessment";

/** One factor's contribution: its points (positive is riskier) and the values its words are made of. */
export interface RiskFactor {
  code: FactorCode;
  points: number;
  values: Record<string, string | number>;
}

export interface RiskScore {
  level: RiskLevel;
  score: number;
  /** Each factor that counted, the weightiest first. */
  factors: RiskFactor[];
}

/**
 * A rate of coming back, shrunk toward a wider one by `weight` parcels' worth: a PIN code with two parcels, both
 * returned, is not a 100 % PIN code, and one with none says what its district says.
 */
const smoothed = (counts: OutcomeCounts, prior: number, weight: number) => (counts.returned + weight * prior) / (counts.delivered + counts.returned + weight);
const ended = (counts: OutcomeCounts) => counts.delivered + counts.returned;

/** Cash-on-delivery parcels come back this often when a shop has no history of its own (Indian D2C's usual). */
const TYPICAL_COD_RTO = 0.2;
/** The fewest ended parcels of a place whose figures are named. */
const NAMED_FROM = 3;

export type AreaLevel = "pincode" | "district" | "state";

/**
 * The place's rate of coming back, each level shrunk toward the next wider one (PIN code → district → state → shop →
 * typical), and the shop's own rate it is measured against. `named` is the most precise level with enough parcels to
 * quote, if any.
 */
export function areaRates(areas: RiskInputs["areas"]): { rate: number; baseline: number; named: AreaLevel | null } {
  const baseline = smoothed(areas.shop, TYPICAL_COD_RTO, 20);
  const state = smoothed(areas.state, baseline, 10);
  const district = smoothed(areas.district, state, 8);
  const rate = smoothed(areas.pincode, district, 4);
  const named = (["pincode", "district", "state"] as const).find((level) => ended(areas[level]) >= NAMED_FROM) ?? null;
  return { rate, baseline, named };
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
const percent = (fraction: number) => Math.round(fraction * 100);

/** The points the place's history gives: how much more (or less) often its parcels come back than the shop's. */
export function areaPoints(areas: RiskInputs["areas"]): number {
  const { rate, baseline } = areaRates(areas);
  return clamp(Math.round(120 * (rate - baseline)), -12, 40);
}

function areaFactors(inputs: RiskInputs): RiskFactor[] {
  const { named } = areaRates(inputs.areas);
  const points = areaPoints(inputs.areas);
  if (!named) return [{ code: "area_no_history", points, values: { pincode: inputs.pincode } }];
  const counts = inputs.areas[named];
  const where = named === "pincode" ? inputs.pincode : named === "district" ? `${inputs.pincode.slice(0, 3)}xxx` : inputs.state;
  const factors: RiskFactor[] = [{ code: "area_history", points, values: { level: named, where, returned: counts.returned, parcels: ended(counts), percent: percent(counts.returned / ended(counts)) } }];
  // Failed attempts (nobody home, refused at the door) come before most RTOs: many per parcel is a warning of its own.
  if (counts.failedAttempts >= 2 && counts.failedAttempts / ended(counts) >= 0.5) {
    factors.push({ code: "area_failed_attempts", points: 5, values: { level: named, where, attempts: counts.failedAttempts, parcels: ended(counts) } });
  }
  return factors;
}

function shopperFactors({ shopper }: RiskInputs): RiskFactor[] {
  if (shopper.orders === 0) return [{ code: "first_order", points: 5, values: {} }];
  const factors: RiskFactor[] = [];
  const { returned, failedAttempts, delivered } = shopper.outcomes;
  if (returned > 0) factors.push({ code: "shopper_returned", points: Math.min(45, 25 + 10 * (returned - 1)), values: { count: returned } });
  if (shopper.cancelled > 0) factors.push({ code: "shopper_cancelled", points: Math.min(20, 10 * shopper.cancelled), values: { count: shopper.cancelled } });
  if (failedAttempts > 0 && returned === 0) factors.push({ code: "shopper_failed_attempts", points: Math.min(10, 5 * failedAttempts), values: { count: failedAttempts } });
  // A shopper who took their parcels and sent none back is the safest cash on delivery there is.
  if (delivered > 0 && returned === 0) factors.push({ code: "shopper_delivered", points: -Math.min(25, 10 * delivered), values: { count: delivered } });
  return factors;
}

/** A phone number no Indian mobile can have, or one that looks typed to get past the form. */
function phoneFactors({ phone }: RiskInputs): RiskFactor[] {
  if (!phone?.trim()) return [];
  const mobile = normaliseMobile(phone);
  if (!mobile) return [{ code: "phone_not_mobile", points: 15, values: {} }];
  const sameDigit = /^(\d)\1{7,}/.test(mobile.slice(1)) || /(\d)\1{7,}/.test(mobile);
  const counting = "0123456789012".includes(mobile.slice(1)) || "9876543210987".includes(mobile.slice(1));
  return sameDigit || counting ? [{ code: "phone_made_up", points: 10, values: {} }] : [];
}

function addressFactors(inputs: RiskInputs): RiskFactor[] {
  const factors: RiskFactor[] = [];
  const text = inputs.addressLines.join(" ").trim();
  // A house, flat, plot or shop number is a digit in the address lines; without one a parcel is hard to hand over.
  if (text && !/\d/.test(text)) factors.push({ code: "no_house_number", points: 10, values: {} });
  const letters = text.replace(/[^\p{L}\p{N}]/gu, "").length;
  if (letters < 15) factors.push({ code: "short_address", points: 8, values: { length: letters } });
  if (pincodeDisagreesWithState(inputs.pincode, inputs.state)) {
    factors.push({ code: "pincode_state", points: 12, values: { pincode: inputs.pincode, expected: titleCase(statesOfPincode(inputs.pincode).join(" / ")), state: inputs.state } });
  } else if (inputs.pincodeCity && cityKey(inputs.pincodeCity) !== cityKey(inputs.city) && inputs.city.trim()) {
    factors.push({ code: "pincode_city", points: 8, values: { pincode: inputs.pincode, expected: inputs.pincodeCity, city: inputs.city } });
  }
  return factors;
}

const titleCase = (text: string) => text.replace(/\b\p{L}/gu, (letter) => letter.toUpperCase());

/** A city as addresses name it, for comparing: "Bengaluru", "bengaluru " and "BENGALURU" are one city. */
export const cityKey = (city: string) => city.trim().toLowerCase().replace(/[^\p{L}]/gu, "");

function valueFactors({ valuePaise, usualValuePaise }: RiskInputs): RiskFactor[] {
  if (!usualValuePaise || usualValuePaise <= 0) return [];
  const times = valuePaise / usualValuePaise;
  if (times >= 3) return [{ code: "high_value", points: 10, values: { valuePaise, usualPaise: usualValuePaise, times: 3 } }];
  if (times >= 2) return [{ code: "high_value", points: 5, values: { valuePaise, usualPaise: usualValuePaise, times: 2 } }];
  return [];
}

const SHOPIFY_POINTS: Readonly<Record<string, number>> = { HIGH: 25, MEDIUM: 10, LOW: 0, NONE: 0 };

function shopifyFactors({ shopifyLevel }: RiskInputs): RiskFactor[] {
  if (!shopifyLevel || shopifyLevel === "PENDING") return [];
  return [{ code: "shopify_assessment", points: SHOPIFY_POINTS[shopifyLevel] ?? 0, values: { level: shopifyLevel.toLowerCase() } }];
}

/** The order's score, level and the factors behind them, weightiest first. */
export function scoreCodRisk(inputs: RiskInputs): RiskScore {
  const factors = [...areaFactors(inputs), ...shopperFactors(inputs), ...addressFactors(inputs), ...phoneFactors(inputs), ...valueFactors(inputs), ...shopifyFactors(inputs)];
  const score = clamp(BASE_SCORE + factors.reduce((sum, factor) => sum + factor.points, 0), 0, 100);
  factors.sort((a, b) => Math.abs(b.points) - Math.abs(a.points));
  return { level: levelOf(score), score, factors };
}

/** The same order scored on where it goes alone: how the PIN code's (district's, state's) parcels ended. The bench's baseline. */
export function pincodeOnlyScore(areas: RiskInputs["areas"]): number {
  return clamp(BASE_SCORE + areaPoints(areas), 0, 100);
}

/** The key a state's history is kept under (the address's state, in one spelling). */
export const stateHistoryKey = stateKeyOf;
