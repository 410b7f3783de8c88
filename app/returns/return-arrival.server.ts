import type { Shipment } from "@prisma/client";
import prisma from "~/db.server";
import { describeError } from "~/logging.server";
import { getShopSettings } from "~/settings/shop-settings.server";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { processReturnedItems } from "~/shopify/admin-returns.server";
import { markPickedUp, markReturnProcessed, markReturnReceived, type ReturnChange } from "./return-changes.server";
import { RETURN_STATE } from "./return-lifecycle";
import { returnSettingsOf } from "./return-settings";

/** The courier collected a return's parcel from the shopper: the return says so in its history. */
export async function recordReturnPickedUp(shipment: Pick<Shipment, "shop" | "orderGid">, change: ReturnChange): Promise<void> {
  await markPickedUp({ shop: shipment.shop, returnGid: shipment.orderGid }, change);
}

/**
 * The courier delivered a return's parcel to the warehouse. Recorded once (received), then Shopify is told what
 * happens to the items as the merchant chose: restocked at the location they came back to, or left for inspection
 * (returnProcess with dispositions, never a refund), and the return is recorded as processed. Needs attention shows
 * "Return received: inspect it" until the merchant says it was inspected. A Shopify failure leaves it received and says
 * so (false): the tracking sync keeps the shipment due, and its next pass tries again; once the merchant has inspected
 * it, the merchant records it in Shopify and nothing is tried again.
 */
export async function recordReturnArrival(shipment: Pick<Shipment, "shop" | "orderGid" | "locationGid" | "deliveredAt">, { admin, now, change }: { admin: ShopAdmin; now: Date; change: ReturnChange }): Promise<boolean> {
  const ref = { shop: shipment.shop, returnGid: shipment.orderGid };
  await markReturnReceived(ref, shipment.deliveredAt ?? now, change);
  const record = await prisma.returnRecord.findUnique({ where: { shop_returnGid: ref } });
  if (!record || record.state !== RETURN_STATE.RECEIVED) return true;
  const settings = returnSettingsOf(await getShopSettings(shipment.shop));
  try {
    const outcome = await processReturnedItems(admin, ref.returnGid, settings.disposition === "restock" ? "RESTOCKED" : "PROCESSING_REQUIRED", shipment.locationGid);
    if (outcome.kind === "processed") {
      await markReturnProcessed(ref, settings.disposition, { actor: { kind: "job", name: "tracking-sync" }, at: now });
      return true;
    }
    // Shopify's refusal will not pass by retrying: the merchant processes the return in Shopify after inspecting it.
    console.warn(`Return ${ref.returnGid} (${ref.shop}) arrived but Shopify refused to record it: ${outcome.message}`);
    return true;
  } catch (error) {
    console.warn(`Return ${ref.returnGid} (${ref.shop}) arrived; recording it in Shopify waits for the next sync: ${describeError(error)}`);
    return false;
  }
}
