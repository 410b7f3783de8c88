import prisma from "~/db.server";
import { courierClientFor, sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { CourierError } from "~/shipping/client.server";

const REDACTED = "[redacted]";
/** The courier order fields that identify a shopper (spec: Order). */
const PERSONAL_FIELDS = ["name", "mobile", "alt_mobile", "email", "company_name", "gst_number", "address_line_1", "address_line_2", "delivery_remarks"] as const;

/** The shop's account on the courier sandbox, reached over HTTP like any courier (docs/courier-service.md, "Erasure"). */
const sandboxClientOf = (shop: string) => courierClientFor(sandboxCredentialsFor(shop));

/** A sandbox that is switched off (404) or never saw the shop holds nothing of it. */
const holdsNothing = (error: unknown) => error instanceof CourierError && (error.kind === "not_found" || error.kind === "unauthorized");

/**
 * Everything Dakiya keeps about a shop, forgotten: `shop/redact`, 48 h after uninstall. Every model that carries
 * a `shop` column is listed here, and the shop's own account on the courier sandbox is erased through the
 * sandbox's erasure operation — selected by the account, never by a pattern over order ids.
 */
export async function forgetShop(shop: string): Promise<void> {
  try {
    await sandboxClientOf(shop).eraseSandboxAccount();
  } catch (error) {
    // Unreachable: thrown, and the job retries; the local rows stay until the sandbox copy is gone too.
    if (!holdsNothing(error)) throw error;
  }
  await prisma.$transaction([
    prisma.session.deleteMany({ where: { shop } }),
    prisma.webhookDelivery.deleteMany({ where: { shop } }),
    prisma.shipment.deleteMany({ where: { shop } }),
    prisma.shopSettings.deleteMany({ where: { shop } }),
  ]);
}

/**
 * Removes what identifies one customer of a shop (`customers/redact`): the name, phone, e-mail and address in
 * the booking bodies Dakiya stored for the given orders, and in the sandbox's copy of those bookings. Awbs,
 * charges and statuses stay: they identify no one. `orderIds` are Shopify's numeric order ids. Returns how many
 * shipments were redacted.
 */
export async function redactCustomer(shop: string, orderIds: readonly number[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  const shipments = await prisma.shipment.findMany({ where: { shop, orderGid: { in: orderIds.map((id) => `gid://shopify/Order/${id}`) } } });
  const awbs = shipments.map((shipment) => shipment.awb).filter((awb): awb is string => awb !== null);
  if (awbs.length > 0) {
    try {
      await sandboxClientOf(shop).redactSandboxOrders(awbs);
    } catch (error) {
      if (!holdsNothing(error)) throw error;
    }
  }
  for (const shipment of shipments) {
    const payload = shipment.requestPayload ? (JSON.parse(shipment.requestPayload) as Record<string, unknown>) : null;
    if (payload) for (const field of PERSONAL_FIELDS) if (payload[field] !== undefined) payload[field] = REDACTED;
    await prisma.shipment.update({ where: { id: shipment.id }, data: { requestPayload: payload ? JSON.stringify(payload) : "" } });
  }
  return shipments.length;
}
