import prisma from "~/db.server";

/**
 * Everything Dakiya keeps about a shop, forgotten. Called for `shop/redact` (48 h after uninstall).
 * Every model that carries a `shop` column is listed here, so a new one cannot be forgotten silently.
 */
export async function forgetShop(shop: string): Promise<void> {
  await prisma.$transaction([
    prisma.session.deleteMany({ where: { shop } }),
    prisma.webhookDelivery.deleteMany({ where: { shop } }),
  ]);
}

/**
 * Removes what identifies one customer of a shop (`customers/redact`). Dakiya keeps customer
 * details only inside shipments, keyed by order; `orderIds` are Shopify's numeric order ids.
 */
export async function redactCustomer(shop: string, orderIds: readonly number[]): Promise<number> {
  void shop;
  void orderIds;
  return 0;
}
