/**
 * Money in Dakiya's own records is integer paise (prisma/schema.prisma says why); the courier's wire format and
 * Shopify's are rupees with paise as decimals. These convert at those edges, rounding to the paisa.
 */
export const toPaise = (rupees: number): number => Math.round(rupees * 100);
export const fromPaise = (paise: number): number => paise / 100;

const INR = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", maximumFractionDigits: 2 });

/** Rupees as a merchant reads them, with Indian digit grouping: ₹1,29,900.50. */
export const formatRupees = (amount: number) => INR.format(amount);
export const formatPaise = (paise: number) => INR.format(fromPaise(paise));

const INR_AMOUNT = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 2 });

/** The same without the sign, for a sentence that writes "₹" itself: 1,29,900.5. */
export const formatRupeeAmount = (amount: number) => INR_AMOUNT.format(amount);

/**
 * An amount shared out in proportion to weights, to the paisa, adding up to the amount exactly: each share is rounded
 * down and the paise left over go one each to the largest remainders (the earlier share on a tie). Equal weights
 * (or none above zero) share it equally.
 */
export function apportionPaise(totalPaise: number, weights: readonly number[]): number[] {
  if (weights.length === 0) return [];
  const sum = weights.reduce((total, weight) => total + Math.max(0, weight), 0);
  const fair = weights.map((weight) => (sum > 0 ? (totalPaise * Math.max(0, weight)) / sum : totalPaise / weights.length));
  const shares = fair.map(Math.floor);
  let left = totalPaise - shares.reduce((total, share) => total + share, 0);
  const byRemainder = fair.map((value, index) => ({ index, remainder: value - Math.floor(value) })).sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left <= 0) break;
    shares[index] = shares[index]! + 1;
    left -= 1;
  }
  return shares;
}
