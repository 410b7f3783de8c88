import { englishOf, sayStored, words, type AdminLanguage, type StoredWords } from "~/locales/admin-language";
import type { RiskFactor, RiskLevel } from "./risk-score";

/**
 * A risk score in words: each factor as a sentence of app/locales/admin-cod.*.json (kept as stored words, so a page
 * says it in the admin's language), and the facts Dakiya's assessment gives Shopify (in English, at most 20 of at most
 * 256 characters, each with its sentiment). A fact names the PIN code, the state or the city, the order's value and
 * counts of the shopper's earlier orders: what the merchant's own order page shows, never the shopper's phone,
 * e-mail or address. Pure.
 */

const rupees = (paise: number) => new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", maximumFractionDigits: 0 }).format(Math.round(paise / 100));

/** A factor's sentence, as stored words. */
export function factorWords(factor: RiskFactor): StoredWords {
  const v = factor.values;
  switch (factor.code) {
    case "area_history":
      return words(`cod.factors.areaHistory.${String(v.level)}`, { where: v.where!, returned: v.returned!, parcels: v.parcels!, percent: v.percent! });
    case "area_failed_attempts":
      return words(`cod.factors.areaFailedAttempts.${String(v.level)}`, { where: v.where!, attempts: v.attempts!, parcels: v.parcels! });
    case "area_no_history":
      return words("cod.factors.areaNoHistory", { pincode: v.pincode! });
    case "shopper_returned":
      return words("cod.factors.shopperReturned", { count: v.count! });
    case "shopper_cancelled":
      return words("cod.factors.shopperCancelled", { count: v.count! });
    case "shopper_failed_attempts":
      return words("cod.factors.shopperFailedAttempts", { count: v.count! });
    case "shopper_delivered":
      return words("cod.factors.shopperDelivered", { count: v.count! });
    case "first_order":
      return words("cod.factors.firstOrder");
    case "no_house_number":
      return words("cod.factors.noHouseNumber");
    case "short_address":
      return words("cod.factors.shortAddress", { length: v.length! });
    case "pincode_state":
      return words("cod.factors.pincodeState", { pincode: v.pincode!, expected: v.expected!, state: v.state! });
    case "pincode_city":
      return words("cod.factors.pincodeCity", { pincode: v.pincode!, expected: v.expected!, city: v.city! });
    case "phone_not_mobile":
      return words("cod.factors.phoneNotMobile");
    case "phone_made_up":
      return words("cod.factors.phoneMadeUp");
    case "high_value":
      return words(`cod.factors.highValue.times${String(v.times)}`, { value: rupees(Number(v.valuePaise)), usual: rupees(Number(v.usualPaise)) });
    case "shopify_assessment":
      return words("cod.factors.shopifyAssessment", { level: words(`cod.shopifyLevels.${String(v.level)}`) });
  }
}

/** "+22" / "−10" / "0": a factor's points as the lists show them. */
export const pointsInWords = (points: number) => (points > 0 ? `+${points}` : points < 0 ? `−${Math.abs(points)}` : "0");

/** A factor said in a language, with its points: "PIN code 400050: 5 of 7 parcels came back (RTO) in the last year (+22)". */
export function factorInWords(factor: RiskFactor, language: AdminLanguage): string {
  const stored = factorWords(factor);
  return `${sayStored(language, stored, englishOf(stored))} (${pointsInWords(factor.points)})`;
}

/** The level in the admin's words: "High". */
export const levelWords = (level: RiskLevel): StoredWords => words(`cod.levels.${level}`);

export interface ShopifyFact {
  description: string;
  sentiment: "NEGATIVE" | "NEUTRAL" | "POSITIVE";
}

/**
 * The facts of Dakiya's assessment in Shopify: the score first, then what happened with the shopper (`status`, when
 * asked), then each factor weightiest first; a factor that adds risk is negative, one that takes it away positive.
 */
export function shopifyFacts(risk: { level: RiskLevel; score: number; factors: readonly RiskFactor[] }, status: readonly StoredWords[] = []): ShopifyFact[] {
  const headline = { description: englishOf(words("cod.facts.score", { score: risk.score, level: levelWords(risk.level) })), sentiment: risk.level === "high" || risk.level === "medium" ? "NEGATIVE" : "NEUTRAL" } as const;
  const said = status.map((stored) => ({ description: englishOf(stored), sentiment: "NEUTRAL" as const }));
  const factors = risk.factors.map((factor) => ({
    description: `${englishOf(factorWords(factor))} (${pointsInWords(factor.points)})`,
    sentiment: factor.points > 0 ? ("NEGATIVE" as const) : factor.points < 0 ? ("POSITIVE" as const) : ("NEUTRAL" as const),
  }));
  return [headline, ...said, ...factors].slice(0, 20).map((fact) => ({ ...fact, description: fact.description.slice(0, 256) }));
}

/** The factors as Flow's "Reasons": each sentence, semicolon-separated, within `max` characters. */
export function reasonsForFlow(factors: readonly RiskFactor[], max = 1_000): string {
  return factors
    .filter((factor) => factor.points !== 0)
    .map((factor) => `${englishOf(factorWords(factor))} (${pointsInWords(factor.points)})`)
    .join("; ")
    .slice(0, max);
}
