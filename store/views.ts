import { gid, money, nextId, type StoreFulfillment, type StoreFulfillmentOrder, type StoreFulfillmentOrderLine, type StoreLineItem, type StoreOrder, type StoreShop } from "./model";
import { fulfillable as canFulfill, stocks } from "./stock";
import { fulfillmentLines, matchesReturnSearch, orderReturnStatus, returnsOf, returnView } from "./returns";

type Args = Record<string, unknown>;

export interface Page<T> {
  edges: { cursor: string; node: T }[];
  nodes: T[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

const cursorOf = (index: number) => Buffer.from(`index:${index}`).toString("base64");
const indexOf = (cursor: unknown) => (typeof cursor === "string" ? Number(Buffer.from(cursor, "base64").toString().replace("index:", "")) : NaN);

/** Relay pagination as Shopify does it: first/after and last/before over an ordered list. */
export function connection<T>(items: readonly T[], args: Args): Page<T> {
  let start = 0;
  let end = items.length;
  if (args.after !== undefined && args.after !== null) start = indexOf(args.after) + 1;
  if (args.before !== undefined && args.before !== null) end = indexOf(args.before);
  if (typeof args.first === "number") end = Math.min(end, start + args.first);
  if (typeof args.last === "number") start = Math.max(start, end - args.last);
  const slice = items.slice(start, end);
  const edges = slice.map((node, offset) => ({ cursor: cursorOf(start + offset), node }));
  return {
    edges,
    nodes: slice,
    pageInfo: {
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

export const GRAMS_PER: Record<string, number> = { GRAMS: 1, KILOGRAMS: 1000, POUNDS: 453.59237, OUNCES: 28.349523125 };

export function orderTotals(order: StoreOrder) {
  const subtotal = order.lineItems.reduce((sum, item) => sum + item.discountedUnitPrice * item.quantity, 0) - order.discount;
  const total = subtotal + order.shippingPrice;
  const tax = order.lineItems.reduce((sum, item) => sum + (item.discountedUnitPrice * item.quantity * item.taxRate) / (1 + item.taxRate), 0);
  const paid = order.displayFinancialStatus === "PAID";
  const received = (order.payments ?? []).reduce((sum, payment) => sum + payment.amount, 0);
  return { subtotal, total, tax, outstanding: paid || order.cancelledAt ? 0 : Math.max(0, Math.round((total - received) * 100) / 100) };
}

export function displayFulfillmentStatus(order: StoreOrder): string {
  const lines = order.fulfillmentOrders.filter((fo) => fo.status !== "CANCELLED").flatMap((fo) => fo.lines);
  const remaining = lines.reduce((sum, line) => sum + line.remainingQuantity, 0);
  const total = lines.reduce((sum, line) => sum + line.totalQuantity, 0);
  if (total === 0) return order.cancelledAt ? "UNFULFILLED" : "FULFILLMENT_NOT_REQUIRED";
  if (remaining === 0) return "FULFILLED";
  if (remaining < total) return "PARTIALLY_FULFILLED";
  if (order.fulfillmentOrders.some((fo) => fo.status === "ON_HOLD")) return "ON_HOLD";
  return "UNFULFILLED";
}

export function lineItemView(item: StoreLineItem, order?: StoreOrder) {
  const unfulfilled = order
    ? order.fulfillmentOrders.filter((fo) => fo.status !== "CANCELLED").flatMap((fo) => fo.lines).filter((line) => line.lineItemId === item.id).reduce((sum, line) => sum + line.remainingQuantity, 0)
    : item.quantity;
  return {
    unfulfilledQuantity: unfulfilled,
    __typename: "LineItem",
    id: item.id,
    title: item.title,
    name: item.variantTitle ? `${item.title} - ${item.variantTitle}` : item.title,
    variantTitle: item.variantTitle,
    sku: item.sku,
    quantity: item.quantity,
    currentQuantity: item.quantity,
    requiresShipping: item.requiresShipping,
    isGiftCard: item.isGiftCard,
    originalUnitPriceSet: money(item.unitPrice),
    discountedUnitPriceSet: money(item.discountedUnitPrice),
    taxLines: [
      {
        title: "IGST",
        rate: item.taxRate,
        ratePercentage: item.taxRate * 100,
        priceSet: money((item.discountedUnitPrice * item.quantity * item.taxRate) / (1 + item.taxRate)),
      },
    ],
    weight: item.weight,
  };
}

function locationView(shop: StoreShop, locationId: string) {
  const location = shop.locations.find((candidate) => candidate.id === locationId)!;
  return { __typename: "Location", id: location.id, name: location.name, address: { __typename: "LocationAddress", ...location.address, address2: null, countryCode: location.address.countryCode } };
}

export function fulfillmentOrderView(shop: StoreShop, order: StoreOrder, fo: StoreFulfillmentOrder) {
  const location = shop.locations.find((candidate) => candidate.id === fo.locationId)!;
  const fulfillable = canFulfill(fo);
  const remainingUnits = fo.lines.reduce((sum, line) => sum + line.remainingQuantity, 0);
  const openBeside = order.fulfillmentOrders.some((other) => other !== fo && other.locationId === fo.locationId && other.status === "OPEN");
  const actions = fulfillable
    ? ["CREATE_FULFILLMENT", "HOLD", ...(remainingUnits > 1 ? ["SPLIT"] : []), ...(fo.status === "OPEN" && shop.locations.length > 1 ? ["MOVE"] : []), ...(openBeside ? ["MERGE"] : [])]
    : fo.status === "ON_HOLD"
      ? ["RELEASE_HOLD", "HOLD"]
      : [];
  return {
    __typename: "FulfillmentOrder",
    id: fo.id,
    status: fo.status,
    requestStatus: "UNSUBMITTED",
    fulfillAt: null,
    orderId: order.id,
    orderName: order.name,
    assignedLocation: {
      __typename: "FulfillmentOrderAssignedLocation",
      name: location.name,
      address1: location.address.address1,
      address2: null,
      city: location.address.city,
      province: location.address.province,
      zip: location.address.zip,
      countryCode: location.address.countryCode,
      phone: null,
      location: locationView(shop, fo.locationId),
    },
    deliveryMethod: { __typename: "DeliveryMethod", methodType: "SHIPPING" },
    supportedActions: actions.map((action) => ({ __typename: "FulfillmentOrderSupportedAction", action, externalUrl: null })),
    fulfillmentHolds: (fo.holds ?? []).map((hold) => ({ __typename: "FulfillmentHold", ...hold, heldByRequestingApp: true, displayReason: hold.reasonNotes ?? hold.reason })),
    locationsForMove: (args: Args) => connection(locationsForMove(shop, order, fo, args), args),
    lineItems: (args: Args) =>
      connection(
        fo.lines.map((line) => {
          const item = order.lineItems.find((candidate) => candidate.id === line.lineItemId)!;
          return { __typename: "FulfillmentOrderLineItem", id: line.id, totalQuantity: line.totalQuantity, remainingQuantity: line.remainingQuantity, sku: item.sku, lineItem: lineItemView(item, order) };
        }),
        args,
      ),
    order: () => orderView(shop, order),
  };
}

export function fulfillmentView(shop: StoreShop, order: StoreOrder, fulfillment: StoreFulfillment) {
  return {
    __typename: "Fulfillment",
    id: fulfillment.id,
    name: fulfillment.name,
    status: fulfillment.status,
    displayStatus: fulfillment.status === "CANCELLED" ? "CANCELED" : (fulfillment.events.at(-1)?.status ?? "FULFILLED"),
    createdAt: fulfillment.createdAt,
    updatedAt: fulfillment.updatedAt,
    trackingInfo: (args: Args) => fulfillment.trackingInfo.slice(0, typeof args.first === "number" ? args.first : undefined),
    location: () => {
      if (fulfillment.locationId) return locationView(shop, fulfillment.locationId);
      const fo = order.fulfillmentOrders.find((candidate) => fulfillment.fulfillmentOrderIds.includes(candidate.id));
      return fo ? locationView(shop, fo.locationId) : null;
    },
    fulfillmentLineItems: (args: Args) =>
      connection(
        fulfillmentLines(order)
          .filter((line) => line.fulfillment === fulfillment)
          .map((line) => {
            const item = order.lineItems.find((candidate) => candidate.id === line.lineItemId)!;
            const total = money(item.discountedUnitPrice * line.quantity);
            return { __typename: "FulfillmentLineItem", id: line.id, quantity: line.quantity, lineItem: lineItemView(item, order), originalTotalSet: money(item.unitPrice * line.quantity), discountedTotalSet: total };
          }),
        args,
      ),
    events: (args: Args) => {
      const events = fulfillment.events.map((event) => ({ __typename: "FulfillmentEvent", ...event }));
      if (args.sortKey === "HAPPENED_AT") events.sort((a, b) => a.happenedAt.localeCompare(b.happenedAt));
      if (args.reverse) events.reverse();
      return connection(events, args);
    },
    order: () => orderView(shop, order),
  };
}

function metafieldView(metafield: StoreOrder["metafields"][number]) {
  return {
    __typename: "Metafield",
    ...metafield,
    jsonValue: metafield.type === "json" ? JSON.parse(metafield.value) : metafield.value,
    compareDigest: Buffer.from(`${metafield.id}:${metafield.updatedAt}`).toString("base64"),
  };
}

/** An order's payments as `Order.transactions`: successful sales under each payment method's name. */
function transactionsView(order: StoreOrder, args: Args) {
  const first = typeof args.first === "number" ? args.first : undefined;
  return (order.payments ?? []).slice(0, first).map((payment) => ({
    __typename: "OrderTransaction",
    id: payment.id,
    gateway: payment.gateway,
    formattedGateway: payment.gateway,
    kind: "SALE",
    status: "SUCCESS",
    manualPaymentGateway: true,
    processedAt: payment.processedAt,
    createdAt: payment.processedAt,
    amountSet: { shopMoney: { amount: payment.amount.toFixed(2), currencyCode: "INR" }, presentmentMoney: { amount: payment.amount.toFixed(2), currencyCode: "INR" } },
  }));
}

export function orderView(shop: StoreShop, order: StoreOrder) {
  const totals = orderTotals(order);
  const grams = Math.round(
    order.lineItems.reduce((sum, item) => sum + (item.weight ? item.weight.value * GRAMS_PER[item.weight.unit]! * item.quantity : 0), 0),
  );
  const customer = order.customer;
  return {
    __typename: "Order",
    id: order.id,
    legacyResourceId: order.legacyResourceId,
    name: order.name,
    createdAt: order.createdAt,
    processedAt: order.createdAt,
    updatedAt: order.updatedAt,
    cancelledAt: order.cancelledAt,
    cancelReason: order.cancelReason,
    closed: order.closed,
    tags: order.tags,
    note: order.note,
    email: order.email,
    phone: order.phone,
    currencyCode: "INR",
    presentmentCurrencyCode: "INR",
    paymentGatewayNames: order.paymentGatewayNames,
    displayFinancialStatus: order.displayFinancialStatus,
    displayFulfillmentStatus: displayFulfillmentStatus(order),
    requiresShipping: order.lineItems.some((item) => item.requiresShipping),
    totalWeight: String(grams),
    currentTotalWeight: String(grams),
    customer: customer && {
      __typename: "Customer",
      id: customer.id,
      firstName: customer.firstName,
      lastName: customer.lastName,
      displayName: `${customer.firstName} ${customer.lastName}`.trim(),
      defaultPhoneNumber: customer.phone ? { phoneNumber: customer.phone } : null,
      defaultEmailAddress: customer.email ? { emailAddress: customer.email } : null,
    },
    shippingAddress: order.shippingAddress && { __typename: "MailingAddress", ...order.shippingAddress },
    billingAddress: order.billingAddress && { __typename: "MailingAddress", ...order.billingAddress },
    shippingLine: order.shippingLine && {
      title: order.shippingLine.title,
      code: order.shippingLine.title,
      source: "shopify",
      carrierIdentifier: null,
      originalPriceSet: money(order.shippingLine.price),
    },
    subtotalPriceSet: money(totals.subtotal),
    currentSubtotalPriceSet: money(totals.subtotal),
    totalPriceSet: money(totals.total),
    currentTotalPriceSet: money(totals.total),
    totalDiscountsSet: money(order.discount),
    currentTotalDiscountsSet: money(order.discount),
    totalShippingPriceSet: money(order.shippingPrice),
    totalTaxSet: money(totals.tax),
    currentTotalTaxSet: money(totals.tax),
    totalOutstandingSet: money(totals.outstanding),
    lineItems: (args: Args) => connection(order.lineItems.map((item) => lineItemView(item, order)), args),
    fulfillmentOrders: (args: Args) =>
      connection(
        order.fulfillmentOrders.filter((fo) => !args.displayable || (!fo.hidden && (fo.status !== "CANCELLED" || order.cancelledAt))).map((fo) => fulfillmentOrderView(shop, order, fo)),
        args,
      ),
    fulfillments: (args: Args) =>
      order.fulfillments.slice(0, typeof args.first === "number" ? args.first : undefined).map((fulfillment) => fulfillmentView(shop, order, fulfillment)),
    transactions: (args: Args) => transactionsView(order, args),
    returnStatus: orderReturnStatus(order),
    returns: (args: Args) => connection(returnsOf(order).filter((ret) => matchesReturnSearch(ret, args.query as string | undefined)).map((ret) => returnView(shop, order, ret)), args),
    metafield: (args: Args) => {
      const found = order.metafields.find((metafield) => metafield.namespace === args.namespace && metafield.key === args.key);
      return found ? metafieldView(found) : null;
    },
    metafields: (args: Args) =>
      connection(order.metafields.filter((metafield) => !args.namespace || metafield.namespace === args.namespace).map(metafieldView), args),
  };
}

/** `FulfillmentOrder.locationsForMove`: every other location, movable where it stocks the items asked about. */
function locationsForMove(shop: StoreShop, order: StoreOrder, fo: StoreFulfillmentOrder, args: Args) {
  // Shopify's default is an empty list: every item of the fulfillment order.
  const asked = (args.lineItemIds as string[] | undefined)?.length ? (args.lineItemIds as string[]) : null;
  const lines = fo.lines.filter((line) => line.remainingQuantity > 0 && (asked === null || asked.includes(line.lineItemId)));
  const itemOf = (line: StoreFulfillmentOrderLine) => order.lineItems.find((item) => item.id === line.lineItemId)!;
  return shop.locations
    .filter((location) => location.id !== fo.locationId && canFulfill(fo))
    .map((location) => {
      const unavailable = lines.filter((line) => !stocks(shop, location.id, itemOf(line).sku));
      const count = (value: number) => ({ __typename: "Count", count: value, precision: "EXACT" });
      return {
        __typename: "FulfillmentOrderLocationForMove",
        location: locationView(shop, location.id),
        movable: unavailable.length === 0 && lines.length > 0,
        message: unavailable.length === 0 ? null : `${location.name} doesn't stock ${unavailable.map((line) => itemOf(line).title).join(", ")}.`,
        availableLineItemsCount: count(lines.length - unavailable.length),
        unavailableLineItemsCount: count(unavailable.length),
      };
    });
}

export { locationView, gid, nextId };
