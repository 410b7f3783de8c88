import {
  EWAYBILL_THRESHOLD_RUPEES,
  indiaDate,
  MAX_PRODUCTS,
  ORDER_DATE_MAX_AGE_DAYS,
  type PaymentMode,
  type Product,
} from "../shipping/contract";
import type { ShopifyFulfillmentOrder, ShopifyOrder } from "./queries";
import { orderProblem, type MappingProblem } from "./readiness-checks";

/**
 * Shopify order → the courier service's Order fields. Pure: no I/O, no clock of its own.
 * Every way an order cannot become a valid Order is a named problem in plain words with what
 * to fix; nothing is guessed silently.
 */

export interface PackagePreset {
  name: string;
  length: number;
  breadth: number;
  height: number;
  /** The heaviest parcel this box takes; the lightest fitting preset is chosen. */
  maxWeightKg: number;
}

export interface MappingSettings {
  codTag: string;
  prepaidTag: string;
  defaultPackage: { length: number; breadth: number; height: number };
  defaultWeightKg: number;
  presets: PackagePreset[];
  /** Shopify location GID → courier warehouse id. */
  locationWarehouses: Record<string, number>;
  defaultWarehouseId: number | null;
}

/** What the merchant may edit before booking. */
export interface ShipmentOverrides {
  length?: number;
  breadth?: number;
  height?: number;
  weightKg?: number;
  paymentMode?: PaymentMode;
  warehouseId?: number;
  ewaybillNo?: string;
}

export { PROBLEM_LABELS, type MappingProblem, type ProblemCode } from "./readiness-checks";

/** The spec's Order fields, less the courier choice (logistic_id), which the merchant makes. */
export interface CourierOrderFields {
  order_id: string;
  order_date: string;
  /** forward: to the shopper; reverse: a pickup from the shopper back to the warehouse (app/returns/return-mapping.ts). */
  order_type: "forward" | "reverse";
  name: string;
  mobile: string;
  alt_mobile?: string;
  email?: string;
  company_name?: string;
  address_line_1: string;
  address_line_2?: string;
  city: string;
  state: string;
  pincode: string;
  products: Product[];
  package_length: number;
  package_breadth: number;
  package_height: number;
  package_weight: number;
  payment_mode: PaymentMode;
  total_amount: number;
  discount?: number;
  shipping_charge?: number;
  warehouse_id?: number;
  ewaybill_no?: string;
}

export interface MappedShipment {
  fields: CourierOrderFields;
  /** The location whose open fulfillment orders this shipment fulfills. */
  locationGid: string | null;
  locationName: string | null;
  fulfillmentOrderIds: string[];
  weightSource: "line items" | "default weight" | "edited";
  packageSource: string;
  paymentModeSource: "tag" | "payment gateway" | "financial status" | "edited" | "return";
  destination: string;
}

export interface MappingResult {
  /** Null only when there is nothing to describe (no shipping address and nothing to ship). */
  shipment: MappedShipment | null;
  problems: MappingProblem[];
}

export const GRAMS: Record<string, number> = { GRAMS: 1, KILOGRAMS: 1000, POUNDS: 453.59237, OUNCES: 28.349523125 };
const COD_GATEWAY = /cash on delivery|\bcod\b/i;
const PREPAID_STATUSES = new Set(["PAID", "PARTIALLY_REFUNDED", "REFUNDED"]);

/**
 * Shopify's text as Dakiya can store and send it. Shopify keeps whatever a checkout, an app or the Admin API wrote,
 * NUL and other control characters included; PostgreSQL refuses NUL in text and JSON (a job storing it would fail on
 * every retry), and the courier service refuses control characters (app/shipping/contract.ts). In one-line text, line
 * breaks and tabs become a blank; with `lineBreaks` (notes) they are kept. Every other control character is dropped,
 * and broken UTF-16 (a lone surrogate) becomes U+FFFD.
 */
export function toPlainText(value: string, { lineBreaks = false }: { lineBreaks?: boolean } = {}): string {
  const whole = value.replace(/\p{Cs}/gu, "\uFFFD");
  if (lineBreaks) return whole.replace(/(?![\t\n\r])\p{Cc}/gu, "");
  // Vertical tab, form feed and NEL break lines too.
  return whole.replace(/[\t\n\r\v\f\u0085]+/g, " ").replace(/\p{Cc}/gu, "");
}

/** Every string in a value read from Shopify, with nothing PostgreSQL or the courier cannot hold (line breaks kept). */
export function withPlainText<T>(value: T): T {
  if (typeof value === "string") return toPlainText(value, { lineBreaks: true }) as T;
  if (Array.isArray(value)) return value.map(withPlainText) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, withPlainText(inner)])) as T;
  return value;
}

/** One line of Shopify's text, as a courier field takes it: see toPlainText. */
export const oneLine = (value: string | null | undefined) => toPlainText(value ?? "").trim();

const amount = (value: { shopMoney: { amount: string } } | null | undefined) => Math.round(Number(value?.shopMoney.amount ?? 0) * 100) / 100;
const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places;

/** A 10-digit Indian mobile from Shopify's free-form phone, or null. `+91` and a leading `0` are dropped. */
export function normaliseMobile(phone: string | null | undefined): string | null {
  if (!phone) return null;
  let digits = phone.replace(/\D/g, "");
  if (digits.length === 12 && digits.startsWith("91")) digits = digits.slice(2);
  else if (digits.length === 11 && digits.startsWith("0")) digits = digits.slice(1);
  return /^[6-9]\d{9}$/.test(digits) ? digits : null;
}

/** What of an order says where and to whom it goes: enough to tell whether that changed, without its items. */
export type OrderContact = Pick<ShopifyOrder, "phone" | "shippingAddress" | "billingAddress">;

export type DeliveryContact = Pick<CourierOrderFields, "name" | "mobile" | "address_line_1" | "city" | "state" | "pincode"> & { address_line_2?: string };

/**
 * The courier fields that say where and to whom a shipment goes, as the mapping fills them: the mobile is the
 * first valid Indian mobile of the shipping address's, the order's and the billing address's phones.
 */
export function deliveryContactOf(order: OrderContact): { contact: DeliveryContact; phoneCandidates: string[]; mobiles: string[] } {
  const address = order.shippingAddress;
  const phoneCandidates = [address?.phone, order.phone, order.billingAddress?.phone].map(oneLine).filter(Boolean);
  const mobiles = [...new Set(phoneCandidates.map(normaliseMobile).filter((phone): phone is string => phone !== null))];
  const line2 = oneLine(address?.address2);
  return {
    phoneCandidates,
    mobiles,
    contact: {
      name: oneLine(address?.name) || oneLine([address?.firstName, address?.lastName].filter(Boolean).join(" ")),
      mobile: mobiles[0] ?? "",
      address_line_1: oneLine(address?.address1),
      ...(line2 ? { address_line_2: line2 } : {}),
      city: oneLine(address?.city),
      state: oneLine(address?.province),
      pincode: pincodeOf(address),
    },
  };
}

/** The shipping address's PIN code with blanks and anything else a PIN code cannot hold taken out. */
const pincodeOf = (address: { zip?: string | null } | null | undefined) => oneLine(address?.zip).replace(/\s/g, "");

/** The destination as the merchant's lists show it: city and PIN code. */
export function destinationOf(order: Pick<ShopifyOrder, "shippingAddress">): string {
  const address = order.shippingAddress;
  return [oneLine(address?.city), pincodeOf(address)].filter(Boolean).join(" ");
}

/** A fulfillment order Dakiya may fulfill: open (or partly done) and accepting a new fulfillment. */
export function isOpenFulfillmentOrder(fo: ShopifyFulfillmentOrder): boolean {
  return (fo.status === "OPEN" || fo.status === "IN_PROGRESS") && fo.supportedActions.some((action) => action.action === "CREATE_FULFILLMENT");
}

function paymentModeOf(order: ShopifyOrder, settings: MappingSettings): { mode: PaymentMode; source: MappedShipment["paymentModeSource"] } | null {
  const tags = order.tags.map((tag) => tag.trim().toLowerCase());
  const hasCodTag = tags.includes(settings.codTag.toLowerCase());
  const hasPrepaidTag = tags.includes(settings.prepaidTag.toLowerCase());
  if (hasCodTag !== hasPrepaidTag) return { mode: hasCodTag ? "cod" : "prepaid", source: "tag" };
  if (order.paymentGatewayNames.some((gateway) => COD_GATEWAY.test(gateway))) return { mode: "cod", source: "payment gateway" };
  if (order.displayFinancialStatus && PREPAID_STATUSES.has(order.displayFinancialStatus)) return { mode: "prepaid", source: "financial status" };
  return null;
}

export interface MappingInput {
  settings: MappingSettings;
  /** The moment the order is judged at (its age, India's date). */
  now: Date;
  /** The merchant's edits, if any. */
  overrides?: ShipmentOverrides;
}

export function toCourierOrder(order: ShopifyOrder, { settings, now, overrides = {} }: MappingInput): MappingResult {
  const problems: MappingProblem[] = [];
  const problem = (found: MappingProblem) => problems.push(found);

  if (order.cancelledAt) problem(orderProblem("CANCELLED"));

  const openOrders = order.fulfillmentOrders.nodes.filter(isOpenFulfillmentOrder);
  const shippable = order.lineItems.nodes
    .filter((item) => item.requiresShipping && item.unfulfilledQuantity > 0 && openOrders.length > 0)
    .map((item) => ({ item, quantity: item.unfulfilledQuantity }));
  if (!order.cancelledAt && (order.displayFulfillmentStatus === "FULFILLED" || (openOrders.length === 0 && order.fulfillments.length > 0))) {
    problem(orderProblem("ALREADY_FULFILLED"));
  } else if (!order.cancelledAt && shippable.length === 0) {
    problem(orderProblem("NOTHING_TO_SHIP"));
  }
  if (order.lineItems.pageInfo.hasNextPage || shippable.length > MAX_PRODUCTS) {
    problem(orderProblem("TOO_MANY_ITEMS"));
  }

  const ageDays = Math.round((Date.parse(`${indiaDate(now)}T00:00:00Z`) - Date.parse(`${indiaDate(new Date(order.createdAt))}T00:00:00Z`)) / 86_400_000);
  if (ageDays > ORDER_DATE_MAX_AGE_DAYS) {
    problem(orderProblem("ORDER_TOO_OLD", ageDays));
  }

  const address = order.shippingAddress;
  // Abroad, the PIN code and mobile rules do not apply: "outside India" is the whole story.
  const isAbroad = Boolean(address?.countryCodeV2 && address.countryCodeV2 !== "IN");
  const { phoneCandidates, mobiles, contact } = deliveryContactOf(order);
  if (!address) {
    problem(orderProblem("NO_SHIPPING_ADDRESS"));
  } else if (isAbroad) {
    problem(orderProblem("OUTSIDE_INDIA", address.countryCodeV2));
  } else {
    const zip = contact.pincode;
    if (!zip) problem(orderProblem("PINCODE_MISSING"));
    else if (!/^[1-9]\d{5}$/.test(zip)) {
      problem(orderProblem("PINCODE_INVALID", oneLine(address.zip)));
    }
    const missing = ([["address", contact.address_line_1], ["city", contact.city], ["state", contact.state]] as const).filter(([, value]) => !value).map(([label]) => label);
    if (missing.length > 0) problem(orderProblem("ADDRESS_INCOMPLETE", missing));
    if (phoneCandidates.length === 0) {
      problem(orderProblem("PHONE_MISSING"));
    } else if (mobiles.length === 0) {
      problem(orderProblem("PHONE_INVALID", phoneCandidates[0]!));
    }
  }

  const total = amount(order.currentTotalPriceSet);
  if (total >= EWAYBILL_THRESHOLD_RUPEES && !overrides.ewaybillNo?.trim()) {
    problem(orderProblem("EWAYBILL_REQUIRED", total));
  }

  const payment = overrides.paymentMode ? { mode: overrides.paymentMode, source: "edited" as const } : paymentModeOf(order, settings);
  if (!payment) {
    problem(
      orderProblem("PAYMENT_MODE_UNKNOWN", {
        gateways: oneLine(order.paymentGatewayNames.join(", ")),
        financialStatus: order.displayFinancialStatus ?? "unknown",
        codTag: settings.codTag,
        prepaidTag: settings.prepaidTag,
      }),
    );
  }

  if (!address && shippable.length === 0) return { shipment: null, problems };

  const knownGrams = shippable.reduce((sum, { item, quantity }) => sum + (item.weight ? item.weight.value * GRAMS[item.weight.unit]! * quantity : 0), 0);
  const weightFromItems = round(knownGrams / 1000, 3);
  const weightKg = overrides.weightKg ?? (weightFromItems > 0 ? weightFromItems : settings.defaultWeightKg);
  const weightSource = overrides.weightKg !== undefined ? "edited" : weightFromItems > 0 ? "line items" : "default weight";
  const preset = [...settings.presets].sort((a, b) => a.maxWeightKg - b.maxWeightKg).find((candidate) => candidate.maxWeightKg >= weightKg);
  const box = preset ?? settings.defaultPackage;
  const edited = overrides.length !== undefined || overrides.breadth !== undefined || overrides.height !== undefined;

  const fulfillingOrder = openOrders[0];
  const locationGid = fulfillingOrder?.assignedLocation.location?.id ?? null;
  const warehouseId = overrides.warehouseId ?? (locationGid ? settings.locationWarehouses[locationGid] : undefined) ?? settings.defaultWarehouseId ?? undefined;
  const fields: CourierOrderFields = {
    order_id: oneLine(order.name).replace(/^#/, ""),
    order_date: indiaDate(new Date(order.createdAt)),
    order_type: "forward",
    name: contact.name,
    mobile: contact.mobile,
    ...(mobiles[1] ? { alt_mobile: mobiles[1] } : {}),
    ...(oneLine(order.email) ? { email: oneLine(order.email) } : {}),
    ...(oneLine(address?.company) ? { company_name: oneLine(address?.company) } : {}),
    address_line_1: contact.address_line_1,
    ...(contact.address_line_2 ? { address_line_2: contact.address_line_2 } : {}),
    city: contact.city,
    state: contact.state,
    pincode: contact.pincode,
    products: shippable.map(({ item, quantity }) => {
      const unitPrice = amount(item.discountedUnitPriceSet);
      const lineTax = (item.taxLines ?? []).reduce((sum, line) => sum + Number(line.priceSet.shopMoney.amount), 0);
      const unitTax = item.quantity > 0 ? lineTax / item.quantity : 0;
      return {
        product_name: oneLine(item.title),
        price: unitPrice,
        quantity,
        ...(oneLine(item.sku) ? { sku: oneLine(item.sku) } : {}),
        tax: round(unitTax),
        discount: round(Math.max(0, amount(item.originalUnitPriceSet) - unitPrice)),
      };
    }),
    package_length: overrides.length ?? box.length,
    package_breadth: overrides.breadth ?? box.breadth,
    package_height: overrides.height ?? box.height,
    package_weight: weightKg,
    payment_mode: payment?.mode ?? "cod",
    total_amount: total,
    ...(amount(order.totalDiscountsSet) > 0 ? { discount: amount(order.totalDiscountsSet) } : {}),
    ...(amount(order.totalShippingPriceSet) > 0 ? { shipping_charge: amount(order.totalShippingPriceSet) } : {}),
    ...(warehouseId !== undefined ? { warehouse_id: warehouseId } : {}),
    ...(overrides.ewaybillNo?.trim() ? { ewaybill_no: overrides.ewaybillNo.trim() } : {}),
  };

  return {
    problems,
    shipment: {
      fields,
      locationGid,
      locationName: fulfillingOrder?.assignedLocation.name ?? null,
      fulfillmentOrderIds: openOrders.filter((fo) => (fo.assignedLocation.location?.id ?? null) === locationGid).map((fo) => fo.id),
      weightSource,
      packageSource: edited ? "edited" : preset ? preset.name : "default package",
      paymentModeSource: payment?.source ?? "edited",
      destination: destinationOf(order),
    },
  };
}
