import prisma from "~/db.server";
import { sandboxOrderIdPrefix } from "~/settings/shop-settings.server";

const REDACTED = "[redacted]";
/** The courier order fields that identify a shopper (spec: Order). */
const PERSONAL_FIELDS = ["name", "mobile", "alt_mobile", "email", "company_name", "gst_number", "address_line_1", "address_line_2"] as const;

/**
 * Everything Dakiya keeps about a shop, forgotten: `shop/redact`, 48 h after uninstall. Every
 * model that carries a `shop` column is listed here, plus the sandbox's copies of its orders.
 */
export async function forgetShop(shop: string): Promise<void> {
  await prisma.$transaction([
    prisma.session.deleteMany({ where: { shop } }),
    prisma.webhookDelivery.deleteMany({ where: { shop } }),
    prisma.shipment.deleteMany({ where: { shop } }),
    prisma.shopSettings.deleteMany({ where: { shop } }),
    prisma.serviceOrder.deleteMany({ where: { apiClient: { isSandbox: true }, orderId: { startsWith: sandboxOrderIdPrefix(shop) } } }),
  ]);
}

/**
 * Removes what identifies one customer of a shop (`customers/redact`): the name, phone, e-mail and
 * address in the booking bodies Dakiya stored for the given orders, and in the embedded sandbox's
 * copy of those bookings. Awbs, charges and statuses stay: they identify no one.
 * `orderIds` are Shopify's numeric order ids. Returns how many shipments were redacted.
 */
export async function redactCustomer(shop: string, orderIds: readonly number[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  const shipments = await prisma.shipment.findMany({ where: { shop, orderGid: { in: orderIds.map((id) => `gid://shopify/Order/${id}`) } } });
  for (const shipment of shipments) {
    const payload = shipment.requestPayload ? (JSON.parse(shipment.requestPayload) as Record<string, unknown>) : null;
    if (payload) for (const field of PERSONAL_FIELDS) if (payload[field] !== undefined) payload[field] = REDACTED;
    await prisma.shipment.update({ where: { id: shipment.id }, data: { requestPayload: payload ? JSON.stringify(payload) : "" } });
    if (shipment.awb) {
      await prisma.serviceOrder.updateMany({
        where: { awb: shipment.awb, apiClient: { isSandbox: true } },
        data: { customerName: REDACTED, mobile: REDACTED, altMobile: "", customerEmail: "", companyName: "", gstNumber: "", addressLine1: REDACTED, addressLine2: "" },
      });
    }
  }
  return shipments.length;
}
