import {
  EWAYBILL_THRESHOLD_RUPEES,
  indiaDate,
  MAX_PRODUCTS,
  ORDER_DATE_MAX_AGE_DAYS,
  type PaymentMode,
  type Product,
} from "../shipping/contract";
import { apportionPaise, fromPaise, toPaise } from "../money";
import type { ShopifyFulfillmentOrder, ShopifyLineItem, ShopifyOrder } from "./queries";
import { orderProblem, withParcel, type MappingProblem } from "./readiness-checks";

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

/** What the merchant may edit of one parcel before booking. */
export interface ParcelEdits {
  length?: number;
  breadth?: number;
  height?: number;
  weightKg?: number;
  warehouseId?: number;
  ewaybillNo?: string;
}

/**
 * What the merchant may edit before booking: the payment mode of the whole order, parcel 1's box, weight, warehouse
 * and e-waybill, and those of parcel 2, 3, … by their number.
 */
export interface ShipmentOverrides extends ParcelEdits {
  paymentMode?: PaymentMode;
  parcels?: Record<number, ParcelEdits>;
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
  /** The location it ships from. */
  locationGid: string | null;
  locationName: string | null;
  fulfillmentOrderIds: string[];
  weightSource: "line items" | "default weight" | "edited";
  packageSource: string;
  paymentModeSource: "tag" | "payment gateway" | "financial status" | "edited" | "return";
  destination: string;
}

/** One parcel of an order: a courier order of its own, from its fulfillment order's location. */
export interface MappedParcel extends MappedShipment {
  /** The Shopify fulfillment order it ships (or, when `splitOff`, the one it is split off from first). */
  fulfillmentOrderId: string;
  /** The fulfillment order's line items it takes, and how many of each. */
  lines: { id: string; quantity: number }[];
  /**
   * A further part of a fulfillment order with more products than one courier order takes: booking splits these
   * lines off into a fulfillment order of their own (fulfillmentOrderSplit), so Shopify's fulfillments match the boxes.
   */
  splitOff: boolean;
  /** Where it stands among the order's parcels as Shopify holds them now: 1 of `count`. */
  position: number;
  count: number;
  /** What stops this parcel alone (its warehouse, its e-waybill); the order's problems list them too. */
  problems: MappingProblem[];
}

export interface MappingResult {
  /**
   * The order as one shipment (every item, the whole weight and amount): what the lists and the rules read. With one
   * parcel, that parcel. Null only when there is nothing to describe (no shipping address and nothing to ship).
   */
  shipment: MappedShipment | null;
  /** One per parcel to book, in Shopify's order of the fulfillment orders; none when nothing is left to ship. */
  parcels: MappedParcel[];
  /** Everything that stops the order: its own problems, then each parcel's. */
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

/** The handle of Dakiya's hold while the shopper confirms cash on delivery (app/shopify/fulfillment-holds.server.ts). */
export const COD_CONFIRMATION_HOLD = "dakiya-cod-confirm";

/**
 * A fulfillment order Dakiya may fulfill: open (or partly done) and accepting a new fulfillment — or held only by
 * Dakiya while the shopper confirms cash on delivery: still the order's parcel to quote and to book once the shopper
 * answers (the booking's claim waits for the hold's release: app/cod/).
 */
export function isOpenFulfillmentOrder(fo: ShopifyFulfillmentOrder): boolean {
  if (fo.status === "ON_HOLD") return fo.fulfillmentHolds.length > 0 && fo.fulfillmentHolds.every((hold) => hold.handle === COD_CONFIRMATION_HOLD && hold.heldByRequestingApp);
  return (fo.status === "OPEN" || fo.status === "IN_PROGRESS") && fo.supportedActions.some((action) => action.action === "CREATE_FULFILLMENT");
}

function paymentModeOf(order: ShopifyOrder, settings: MappingSettings): { mode: PaymentMode; source: MappedShipment["paymentModeSource"] } | null {
  const checkout = paymentModeAtCheckout(order, settings);
  // Cash on delivery at checkout, paid in full since (the shopper paid Shopify's invoice instead): nothing is left to
  // collect at the door, whatever the checkout's gateway or tags said.
  const paidSince = order.displayFinancialStatus === "PAID" && Number(order.totalOutstandingSet.shopMoney.amount) === 0;
  return checkout?.mode === "cod" && paidSince ? { mode: "prepaid", source: "financial status" } : checkout;
}

function paymentModeAtCheckout(order: ShopifyOrder, settings: MappingSettings): { mode: PaymentMode; source: MappedShipment["paymentModeSource"] } | null {
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
  /**
   * Cash on delivery the order's parcels shipped before with Dakiya carry (their fulfillment orders closed), less what
   * Dakiya has recorded in Shopify as paid for them: Shopify's outstanding amount still counts it, and the parcels being
   * booked now must not ask the shopper for it again.
   */
  codCarriedElsewherePaise?: number;
}

/** A fulfillment order's line that still has items to ship, with the order's line item it stands for. */
interface OpenLine {
  /** The fulfillment order line item's id (what a split or a fulfillment names). */
  id: string;
  item: ShopifyLineItem;
  quantity: number;
}

/** One box to book: a fulfillment order, or a part of one that holds more products than one courier order takes. */
interface PlannedParcel {
  fulfillmentOrder: ShopifyFulfillmentOrder;
  lines: OpenLine[];
  splitOff: boolean;
}

/**
 * The order's parcels as Shopify holds it now: one per open fulfillment order (its location, its items), a fulfillment
 * order of more than the courier's 10 products taken in parts of at most 10 (booking splits them off in Shopify first).
 * `unread` says a fulfillment order names an item the read did not include.
 */
function planParcels(order: ShopifyOrder): { parcels: PlannedParcel[]; unread: boolean } {
  let unread = false;
  const parcels = order.fulfillmentOrders.nodes.filter(isOpenFulfillmentOrder).flatMap((fo): PlannedParcel[] => {
    if (fo.lineItems.pageInfo.hasNextPage) unread = true;
    const lines = fo.lineItems.nodes.flatMap((line): OpenLine[] => {
      if (line.remainingQuantity <= 0) return [];
      const item = order.lineItems.nodes.find((candidate) => candidate.id === line.lineItem.id);
      if (!item) {
        unread = true;
        return [];
      }
      return item.requiresShipping ? [{ id: line.id, item, quantity: line.remainingQuantity }] : [];
    });
    if (lines.length === 0) return [];
    const parts = Array.from({ length: Math.ceil(lines.length / MAX_PRODUCTS) }, (_, index) => lines.slice(index * MAX_PRODUCTS, (index + 1) * MAX_PRODUCTS));
    return parts.map((part, index) => ({ fulfillmentOrder: fo, lines: part, splitOff: index > 0 }));
  });
  return { parcels, unread: unread || order.lineItems.pageInfo.hasNextPage };
}

const grams = (lines: readonly OpenLine[]) => lines.reduce((sum, { item, quantity }) => sum + (item.weight ? item.weight.value * GRAMS[item.weight.unit]! * quantity : 0), 0);

function toProduct({ item, quantity }: OpenLine): Product {
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
}

/** The parcel's edits: parcel 1's are the edits' own fields, the others' under `parcels`. */
const editsOf = (overrides: ShipmentOverrides, position: number): ParcelEdits => (position === 1 ? overrides : (overrides.parcels?.[position] ?? {}));

/**
 * Shopify order → one courier order per parcel (`parcels`), and the order as one (`shipment`: its shopper, payment,
 * destination, every item and the whole weight and amount, for the lists and the rules). An order that ships from one
 * place in one box has one parcel, the same as the order as one.
 *
 * Money per parcel: a cash-on-delivery parcel collects its share of what the order still owes (Shopify's outstanding
 * amount, less what Dakiya's parcels shipped before carry for it; the order's total while nothing is recorded as owed),
 * a prepaid one declares its share of the total; the shares are in proportion to each parcel's items at their
 * discounted prices (a declared value's against every item still in the order), so shipping and order-level discounts
 * follow the same proportion, and are rounded to the paisa so that they add up exactly (`apportionPaise`). The
 * e-waybill threshold applies to each parcel's share, as the courier applies it to each order.
 */
export function toCourierOrder(order: ShopifyOrder, { settings, now, overrides = {}, codCarriedElsewherePaise = 0 }: MappingInput): MappingResult {
  const problems: MappingProblem[] = [];
  const problem = (found: MappingProblem) => problems.push(found);

  if (order.cancelledAt) problem(orderProblem("CANCELLED"));

  const openOrders = order.fulfillmentOrders.nodes.filter(isOpenFulfillmentOrder);
  const plan = planParcels(order);
  if (!order.cancelledAt && (order.displayFulfillmentStatus === "FULFILLED" || (openOrders.length === 0 && order.fulfillments.length > 0))) {
    problem(orderProblem("ALREADY_FULFILLED"));
  } else if (!order.cancelledAt && plan.parcels.length === 0) {
    problem(orderProblem("NOTHING_TO_SHIP"));
  }
  if (plan.unread || order.fulfillmentOrders.pageInfo.hasNextPage) {
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
  const paymentMode = payment?.mode ?? "cod";

  const allLines = plan.parcels.flatMap((parcel) => parcel.lines);
  if (!address && allLines.length === 0) return { shipment: null, parcels: [], problems };

  const totalPaise = toPaise(amount(order.currentTotalPriceSet));
  const outstandingPaise = toPaise(amount(order.totalOutstandingSet));
  const valueOf = (item: ShopifyLineItem, quantity: number) => toPaise(amount(item.discountedUnitPriceSet)) * quantity;
  const values = plan.parcels.map((parcel) => parcel.lines.reduce((sum, { item, quantity }) => sum + valueOf(item, quantity), 0));
  // What is declared of the order (its value, shipping, discounts) is each parcel's share against every item still in
  // the order: the items shipped already, or in a fulfillment order that cannot be booked now, keep theirs.
  const orderedPaise = order.lineItems.nodes.filter((item) => item.requiresShipping).reduce((sum, item) => sum + valueOf(item, item.currentQuantity), 0);
  const elsewherePaise = Math.max(0, orderedPaise - values.reduce((sum, value) => sum + value, 0));
  const weights = elsewherePaise > 0 ? [...values, elsewherePaise] : values;
  const share = (paise: number) => apportionPaise(paise, weights).slice(0, values.length).map(fromPaise);
  // What is collected is what Shopify says the shopper still owes, less what Dakiya's parcels shipped before carry for
  // it, shared among these parcels: an item the merchant shipped otherwise was not paid for by that, and is still owed.
  const amounts =
    paymentMode === "cod" && outstandingPaise > 0 ? apportionPaise(Math.max(0, outstandingPaise - codCarriedElsewherePaise), values).map(fromPaise) : share(totalPaise);
  const declared = share(totalPaise);
  const discounts = share(toPaise(amount(order.totalDiscountsSet)));
  const shippings = share(toPaise(amount(order.totalShippingPriceSet)));

  const common = {
    order_id: oneLine(order.name).replace(/^#/, ""),
    order_date: indiaDate(new Date(order.createdAt)),
    order_type: "forward" as const,
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
    payment_mode: paymentMode,
  };
  const described = {
    paymentModeSource: payment?.source ?? ("edited" as const),
    destination: destinationOf(order),
  };
  const count = plan.parcels.length;

  /** A parcel's box, weight and pickup: from its items and location, as the merchant edited them. */
  const boxed = (lines: readonly OpenLine[], locationGid: string | null, edits: ParcelEdits) => {
    const weightFromItems = round(grams(lines) / 1000, 3);
    const weightKg = edits.weightKg ?? (weightFromItems > 0 ? weightFromItems : settings.defaultWeightKg);
    const preset = [...settings.presets].sort((a, b) => a.maxWeightKg - b.maxWeightKg).find((candidate) => candidate.maxWeightKg >= weightKg);
    const box = preset ?? settings.defaultPackage;
    const edited = edits.length !== undefined || edits.breadth !== undefined || edits.height !== undefined;
    const warehouseId = edits.warehouseId ?? (locationGid ? settings.locationWarehouses[locationGid] : undefined) ?? settings.defaultWarehouseId ?? undefined;
    return {
      package: { package_length: edits.length ?? box.length, package_breadth: edits.breadth ?? box.breadth, package_height: edits.height ?? box.height, package_weight: weightKg },
      warehouseId,
      weightSource: edits.weightKg !== undefined ? ("edited" as const) : weightFromItems > 0 ? ("line items" as const) : ("default weight" as const),
      packageSource: edited ? "edited" : preset ? preset.name : "default package",
    };
  };

  const parcels = plan.parcels.map((planned, index): MappedParcel => {
    const position = index + 1;
    const edits = editsOf(overrides, position);
    const fo = planned.fulfillmentOrder;
    const locationGid = fo.assignedLocation.location?.id ?? null;
    const { package: dimensions, warehouseId, weightSource, packageSource } = boxed(planned.lines, locationGid, edits);
    const ewaybillNo = edits.ewaybillNo?.trim();
    const own: MappingProblem[] = [];
    const inParcel = (found: MappingProblem) => (count > 1 ? withParcel(found, { number: position, of: count, location: fo.assignedLocation.name }) : found);
    if (declared[index]! >= EWAYBILL_THRESHOLD_RUPEES && !ewaybillNo) own.push(inParcel(orderProblem("EWAYBILL_REQUIRED", declared[index]!)));
    if (warehouseId === undefined) own.push(inParcel(orderProblem("NO_WAREHOUSE")));
    return {
      fields: {
        ...common,
        products: planned.lines.map(toProduct),
        ...dimensions,
        total_amount: amounts[index]!,
        ...(discounts[index]! > 0 ? { discount: discounts[index]! } : {}),
        ...(shippings[index]! > 0 ? { shipping_charge: shippings[index]! } : {}),
        ...(warehouseId !== undefined ? { warehouse_id: warehouseId } : {}),
        ...(ewaybillNo ? { ewaybill_no: ewaybillNo } : {}),
      },
      locationGid,
      locationName: fo.assignedLocation.name,
      fulfillmentOrderIds: [fo.id],
      fulfillmentOrderId: fo.id,
      lines: planned.lines.map(({ id, quantity }) => ({ id, quantity })),
      splitOff: planned.splitOff,
      position,
      count,
      problems: own,
      weightSource,
      packageSource,
      ...described,
    };
  });
  problems.push(...parcels.flatMap((parcel) => parcel.problems));

  // The order as one: for a single parcel, that parcel; else every item, the whole weight and amount, from the first
  // parcel's location (the lists and the rules read it; nothing books it).
  const first = parcels[0];
  const whole = boxed(allLines, first?.locationGid ?? null, count > 1 ? {} : editsOf(overrides, 1));
  const shipment: MappedShipment =
    count === 1
      ? first!
      : {
          fields: {
            ...common,
            products: allLines.map(toProduct),
            ...whole.package,
            total_amount: fromPaise(amounts.reduce((sum, each) => sum + toPaise(each), 0)),
            ...(amount(order.totalDiscountsSet) > 0 ? { discount: amount(order.totalDiscountsSet) } : {}),
            ...(amount(order.totalShippingPriceSet) > 0 ? { shipping_charge: amount(order.totalShippingPriceSet) } : {}),
            ...(first?.fields.warehouse_id !== undefined ? { warehouse_id: first.fields.warehouse_id } : {}),
          },
          locationGid: first?.locationGid ?? null,
          locationName: first?.locationName ?? null,
          fulfillmentOrderIds: [...new Set(parcels.map((parcel) => parcel.fulfillmentOrderId))],
          weightSource: whole.weightSource,
          packageSource: whole.packageSource,
          ...described,
        };
  return { problems, shipment, parcels };
}
