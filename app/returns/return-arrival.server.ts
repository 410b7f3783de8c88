import type { Shipment } from "@prisma/client";
import prisma from "~/db.server";
import { getShopSettings } from "~/settings/shop-settings.server";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { processReturnedItems } from "~/shopify/admin-returns.server";
import { returnSettingsOf } from "./return-settings";

/**
 * The courier delivered a return's parcel to the warehouse. Recorded once (receivedAt), then Shopify is told what
 * happens to the items as the merchant chose: restocked at the location they came back to, or left for inspection
 * (returnProcess with dispositions, never a refund). Needs attention shows "Return received: inspect it" until the
 * merchant says it was inspected. A Shopify failure leaves processedAt empty and says so (false): the tracking sync
 * keeps the shipment due, and its next pass tries again.
 */
export async function recordReturnArrival(shipment: Pick<Shipment, "shop" | "orderGid" | "locationGid" | "deliveredAt">, { admin, now }: { admin: ShopAdmin; now: Date }): Promise<boolean> {
  const { shop, orderGid: returnGid } = shipment;
  await prisma.returnRecord.updateMany({ where: { shop, returnGid, receivedAt: null }, data: { receivedAt: shipment.deliveredAt ?? now } });
  const record = await prisma.returnRecord.findUnique({ where: { shop_returnGid: { shop, returnGid } } });
  if (!record || record.processedAt) return true;
  const settings = returnSettingsOf(await getShopSettings(shop));
  try {
    const outcome = await processReturnedItems(admin, returnGid, settings.disposition === "restock" ? "RESTOCKED" : "PROCESSING_REQUIRED", shipment.locationGid);
    if (outcome.kind === "processed") {
      await prisma.returnRecord.updateMany({ where: { shop, returnGid, processedAt: null }, data: { processedAt: now } });
      return true;
    }
    // Shopify's refusal will not pass by retrying: the merchant processes the return in Shopify after inspecting it.
    console.warn(`Return ${returnGid} (${shop}) arrived but Shopify refused to record it: ${outcome.message}`);
    return true;
  } catch (error) {
    console.warn(`Return ${returnGid} (${shop}) arrived; recording it in Shopify waits for the next sync: ${error instanceof Error ? error.message.slice(0, 120) : "unknown error"}`);
    return false;
  }
}
