import type { StoreFulfillmentOrder, StoreShop } from "./model";

/** Whether a location stocks an item: an SKU the shop's stock table does not list is stocked everywhere. */
export function stocks(shop: StoreShop, locationId: string, sku: string | null): boolean {
  const at = sku ? shop.stock?.[sku] : undefined;
  return at === undefined || at.includes(locationId);
}

/** A fulfillment order that can still take a fulfillment (and be moved, split or merged). */
export const fulfillable = (fo: Pick<StoreFulfillmentOrder, "status">) => fo.status === "OPEN" || fo.status === "IN_PROGRESS";
