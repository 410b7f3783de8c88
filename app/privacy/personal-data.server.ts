import prisma from "~/db.server";
import { forgetJobsOf } from "~/jobs/job-queue.server";
import { courierClientFor, sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { CourierError } from "~/shipping/client.server";
import { eraseShopShipments, redactBookingBody } from "~/shipments/shipment-changes.server";

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
    // Tracking entries and the shipments' history go with them.
    ...eraseShopShipments(shop),
    prisma.orderRecord.deleteMany({ where: { shop } }),
    prisma.shopSync.deleteMany({ where: { shop } }),
    prisma.shopSettings.deleteMany({ where: { shop } }),
  ]);
  // Its queued work would only find nothing and fail, and its finished work still names its orders.
  await forgetJobsOf(shop);
}

/**
 * Removes what identifies one customer of a shop (`customers/redact`): the name, phone, e-mail and address in
 * the booking bodies Dakiya stored for the given orders, and in the sandbox's copy of those bookings; the courier's
 * words in their tracking entries; the tags and address digest kept with the orders. Awbs, charges, statuses, city
 * and PIN code stay: they identify no one. `orderIds` are Shopify's numeric order ids. Returns how many
 * shipments were redacted.
 */
export async function redactCustomer(shop: string, orderIds: readonly number[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  const orderGids = orderIds.map((id) => `gid://shopify/Order/${id}`);
  const shipments = await prisma.shipment.findMany({ where: { shop, orderGid: { in: orderGids } } });
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
    await redactBookingBody(shipment, payload ? JSON.stringify(payload) : "", { actor: { kind: "webhook", name: "customers/redact" }, at: new Date() });
  }
  // The courier's own words may name the shopper ("Delivered to Asha Rao"): each entry keeps its stage's label.
  const shipmentIds = shipments.map((shipment) => shipment.id);
  if (shipmentIds.length > 0) {
    await prisma.$executeRaw`UPDATE "TrackingEvent" SET "activity" = "label" WHERE "shop" = ${shop} AND "shipmentId" = ANY(${shipmentIds}::int[])`;
  }
  // The order's stored readiness: its address digest and tags (which may carry a name or a phone) go.
  await prisma.orderRecord.updateMany({ where: { shop, orderGid: { in: orderGids } }, data: { addressDigest: null, tags: [] } });
  return shipments.length;
}
