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
