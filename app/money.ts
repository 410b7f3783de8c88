/**
 * Money in Dakiya's own records is integer paise (prisma/schema.prisma says why); the courier's wire format and
 * Shopify's are rupees with paise as decimals. These convert at those edges, rounding to the paisa.
 */
export const toPaise = (rupees: number): number => Math.round(rupees * 100);
export const fromPaise = (paise: number): number => paise / 100;
