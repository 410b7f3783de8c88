import { indiaDate, MAX_PRODUCTS } from "../shipping/contract";
import { deliveryContactOf, destinationOf, GRAMS, oneLine, type CourierOrderFields, type MappedShipment, type MappingProblem, type MappingSettings } from "../shopify/order-mapping";
import { returnProblem } from "../shopify/readiness-checks";
import type { ShopifyReturn } from "../shopify/return-queries";

/**
 * A Shopify return → the courier service's Order fields for a reverse shipment. Pure: no I/O, no clock of its own.
 * The pickup is the shopper's address (where the order was delivered), the delivery is the warehouse of the
 * location that shipped the items (`warehouse_id`), the parcel is the returning items' weight, and a return is
 * always prepaid: the shopper pays nothing to the courier. Every way a return cannot become a valid Order is a
 * named problem with what to fix.
 */

export interface MappedReturn extends MappedShipment {
  returnGid: string;
  orderGid: string;
  returnName: string;
  /** The reverse fulfillment order the pickup carries, and its lines with the quantities coming back. */
  reverseFulfillmentOrderId: string | null;
  deliveryLines: { reverseFulfillmentOrderLineItemId: string; quantity: number }[];
  /** The reasons the shopper gave, for the return rules and the merchant's lists. */
  reasons: string[];
  /**
   * Everything the shopper's reasons say (Shopify's handle and name, their note): what the return rules match on.
   * Returns checked before these were kept hold the handle alone, so a preview may place them differently until
   * they are checked again.
   */
  reasonWords: string[];
  tags: string[];
  totalGrams: number;
  items: { title: string; sku: string | null; quantity: number }[];
}

export interface ReturnMappingResult {
  shipment: MappedReturn | null;
  problems: MappingProblem[];
}

const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places;

export function toReverseCourierOrder(ret: ShopifyReturn, { settings, now }: { settings: MappingSettings; now: Date }): ReturnMappingResult {
  const problems: MappingProblem[] = [];
  const problem = (found: MappingProblem) => problems.push(found);

  if (ret.status !== "OPEN") problem(returnProblem("RETURN_NOT_OPEN", ret.status));

  const rfo = ret.reverseFulfillmentOrders.nodes.find((candidate) => candidate.status === "OPEN") ?? null;
  const alreadyInDelivery = new Set(rfo?.reverseDeliveries.nodes.length ? rfo.lineItems.nodes.map((line) => line.id) : []);
  const deliveryLines = (rfo?.lineItems.nodes ?? []).filter((line) => !alreadyInDelivery.has(line.id)).map((line) => ({ reverseFulfillmentOrderLineItemId: line.id, quantity: line.totalQuantity }));
  if (ret.status === "OPEN" && deliveryLines.length === 0) {
    problem(returnProblem("NOTHING_TO_RETURN"));
  }
  const lines = ret.returnLineItems.nodes;
  if (ret.returnLineItems.pageInfo.hasNextPage || lines.length > MAX_PRODUCTS) {
    problem(returnProblem("TOO_MANY_ITEMS"));
  }

  const order = ret.order;
  const address = order.shippingAddress;
  const { phoneCandidates, mobiles, contact } = deliveryContactOf(order);
  if (!address) {
    problem(returnProblem("NO_SHIPPING_ADDRESS"));
  } else if (address.countryCodeV2 && address.countryCodeV2 !== "IN") {
    problem(returnProblem("OUTSIDE_INDIA", address.countryCodeV2));
  } else {
    if (!contact.pincode) problem(returnProblem("PINCODE_MISSING"));
    else if (!/^[1-9]\d{5}$/.test(contact.pincode)) problem(returnProblem("PINCODE_INVALID", oneLine(address.zip)));
    const missing = ([["address", contact.address_line_1], ["city", contact.city], ["state", contact.state]] as const).filter(([, value]) => !value).map(([label]) => label);
    if (missing.length > 0) problem(returnProblem("ADDRESS_INCOMPLETE", missing));
    if (phoneCandidates.length === 0) problem(returnProblem("PHONE_MISSING"));
    else if (mobiles.length === 0) problem(returnProblem("PHONE_INVALID", phoneCandidates[0]!));
  }

  // The items go back to the location that shipped them: the fulfillment holding the first returning line.
  const firstLine = lines[0]?.fulfillmentLineItem.id;
  const fulfillment = order.fulfillments.find((candidate) => candidate.fulfillmentLineItems.nodes.some((line) => line.id === firstLine));
  const locationGid = fulfillment?.location?.id ?? null;
  const warehouseId = (locationGid ? settings.locationWarehouses[locationGid] : undefined) ?? settings.defaultWarehouseId ?? undefined;
  if (warehouseId === undefined) problem(returnProblem("NO_WAREHOUSE"));

  if (lines.length === 0) return { shipment: null, problems };

  const totalGrams = Math.round(lines.reduce((sum, line) => sum + (line.totalWeight ? line.totalWeight.value * (GRAMS[line.totalWeight.unit] ?? 0) : 0), 0));
  const weightKg = totalGrams > 0 ? round(totalGrams / 1000, 3) : settings.defaultWeightKg;
  const preset = [...settings.presets].sort((a, b) => a.maxWeightKg - b.maxWeightKg).find((candidate) => candidate.maxWeightKg >= weightKg);
  const box = preset ?? settings.defaultPackage;
  const products = lines.map((line) => ({
    product_name: oneLine(line.fulfillmentLineItem.lineItem.title),
    price: round(Number(line.fulfillmentLineItem.lineItem.discountedUnitPriceSet.shopMoney.amount)),
    quantity: line.quantity,
    ...(oneLine(line.fulfillmentLineItem.lineItem.sku) ? { sku: oneLine(line.fulfillmentLineItem.lineItem.sku) } : {}),
  }));
  const total = round(products.reduce((sum, product) => sum + product.price * product.quantity, 0));

  const fields: CourierOrderFields = {
    // The return's own name ("#1001-R1" → "1001-R1"): never the order's, which its forward shipment used.
    order_id: oneLine(ret.name).replace(/^#/, ""),
    order_date: indiaDate(now),
    order_type: "reverse",
    name: contact.name,
    mobile: contact.mobile,
    ...(mobiles[1] ? { alt_mobile: mobiles[1] } : {}),
    ...(oneLine(order.email) ? { email: oneLine(order.email) } : {}),
    address_line_1: contact.address_line_1,
    ...(contact.address_line_2 ? { address_line_2: contact.address_line_2 } : {}),
    city: contact.city,
    state: contact.state,
    pincode: contact.pincode,
    products,
    package_length: box.length,
    package_breadth: box.breadth,
    package_height: box.height,
    package_weight: weightKg,
    payment_mode: "prepaid",
    total_amount: total,
    ...(warehouseId !== undefined ? { warehouse_id: warehouseId } : {}),
  };

  return {
    problems,
    shipment: {
      fields,
      locationGid,
      locationName: null,
      fulfillmentOrderIds: [],
      weightSource: totalGrams > 0 ? "line items" : "default weight",
      packageSource: preset ? preset.name : "default package",
      paymentModeSource: "return",
      destination: destinationOf(order),
      returnGid: ret.id,
      orderGid: order.id,
      returnName: oneLine(ret.name),
      reverseFulfillmentOrderId: rfo?.id ?? null,
      deliveryLines,
      reasons: [...new Set(lines.map((line) => line.returnReasonDefinition?.handle ?? (oneLine(line.returnReasonNote) || "unknown")))],
      reasonWords: [...new Set(lines.flatMap((line) => [line.returnReasonDefinition?.handle, line.returnReasonDefinition?.name, oneLine(line.returnReasonNote)]).filter((word): word is string => Boolean(word)))],
      tags: order.tags,
      totalGrams,
      items: lines.map((line) => ({ title: oneLine(line.fulfillmentLineItem.lineItem.title), sku: oneLine(line.fulfillmentLineItem.lineItem.sku) || null, quantity: line.quantity })),
    },
  };
}
