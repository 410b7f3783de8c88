import { MYSHOPIFY_DOMAIN } from "../webhook-topics";

/**
 * Where an order is edited in Shopify's admin: https://admin.shopify.com/store/<handle>/orders/<id>, the handle being
 * the shop's myshopify name. Every fix the merchant makes to an order (address, phone, items) is made there. Pure.
 */
export function shopifyOrderAdminUrl(shopDomain: string, legacyOrderId: string): string | null {
  if (!MYSHOPIFY_DOMAIN.test(shopDomain) || !/^\d{1,20}$/.test(legacyOrderId)) return null;
  return `https://admin.shopify.com/store/${shopDomain.replace(/\.myshopify\.com$/, "")}/orders/${legacyOrderId}`;
}
