import { gid, nextId, type MailingAddress, type StoreLineItem, type StoreOrder, type StoreShop } from "./model";
import type { StoreEvent } from "./admin-api";
import { routeToLocations } from "./fulfillment-orders";
import { orderView } from "./views";

type Args = Record<string, unknown>;
type UserError = { field: string[] | null; message: string; code: string };

/** Shopify's MailingAddressInput, as orderCreate and orderUpdate take it. */
export interface AddressInput {
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  company?: string | null;
  countryCode?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  provinceCode?: string | null;
  province?: string | null;
  zip?: string | null;
}

interface LineItemInput {
  title?: string;
  sku?: string;
  quantity: number;
  priceSet?: { shopMoney: { amount: string | number; currencyCode?: string } };
  requiresShipping?: boolean;
  giftCard?: boolean;
  weight?: { unit: StoreLineItem["weight"] extends infer W ? (W extends { unit: infer U } ? U : never) : never; value: number };
}

interface OrderCreateInput {
  name?: string;
  email?: string;
  phone?: string;
  tags?: string[];
  note?: string;
  financialStatus?: string;
  processedAt?: string;
  shippingAddress?: AddressInput;
  billingAddress?: AddressInput;
  lineItems?: LineItemInput[];
  transactions?: { gateway?: string; amountSet: { shopMoney: { amount: string | number } } }[];
  shippingLines?: { title: string; priceSet: { shopMoney: { amount: string | number } } }[];
}

const PROVINCES: Record<string, string> = {
  MH: "Maharashtra", KA: "Karnataka", DL: "Delhi", TN: "Tamil Nadu", UP: "Uttar Pradesh", WB: "West Bengal", GJ: "Gujarat", RJ: "Rajasthan",
  KL: "Kerala", TS: "Telangana", HR: "Haryana", PB: "Punjab", MP: "Madhya Pradesh", AP: "Andhra Pradesh", OR: "Odisha", AS: "Assam", GA: "Goa",
};

/** The address an order keeps of a MailingAddressInput (a new order's, or the one orderUpdate replaces it with). */
export function toMailingAddress(input: AddressInput): MailingAddress {
  const name = [input.firstName, input.lastName].filter(Boolean).join(" ") || null;
  const provinceCode = input.provinceCode ?? null;
  return {
    name,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
    company: input.company ?? null,
    phone: input.phone ?? null,
    address1: input.address1 ?? null,
    address2: input.address2 ?? null,
    city: input.city ?? null,
    province: input.province ?? (provinceCode ? (PROVINCES[provinceCode] ?? provinceCode) : null),
    provinceCode,
    zip: input.zip ?? null,
    country: input.countryCode === "IN" || !input.countryCode ? "India" : input.countryCode,
    countryCodeV2: input.countryCode ?? "IN",
    latitude: null,
    longitude: null,
  };
}

const amountOf = (value: string | number | undefined) => Number(value ?? 0);

/**
 * orderCreate and orderCancel as Shopify's 2026-10 schema defines them, for the part the app's tests, the demo and a
 * person in the local admin need: an order with line items, addresses, tags, payment; a cancellation. Each emits the
 * webhook Shopify would send (orders/create, orders/cancelled) to the app's subscribed address.
 */
export function orderMutations(shop: StoreShop, { now, emit }: { now: () => Date; emit: (event: StoreEvent) => void }) {
  const stamp = () => now().toISOString();
  return {
    orderCreate: (args: Args) => {
      const input = args.order as OrderCreateInput;
      const refuse = (message: string, field: string[]) => ({ order: null, userErrors: [{ field, message, code: "INVALID" }] satisfies UserError[] });
      const lines = input.lineItems ?? [];
      if (lines.length === 0) return refuse("An order needs at least one line item.", ["order", "lineItems"]);
      const bad = lines.findIndex((line) => !Number.isInteger(line.quantity) || line.quantity < 1);
      if (bad !== -1) return refuse("Quantity must be at least 1.", ["order", "lineItems", String(bad), "quantity"]);
      const number = Math.max(1000, ...shop.orders.map((existing) => Number(existing.name.replace(/^#/, "")) || 0)) + 1;
      const id = nextId();
      const createdAt = input.processedAt && Date.parse(input.processedAt) < now().getTime() ? new Date(input.processedAt).toISOString() : stamp();
      const lineItems: StoreLineItem[] = lines.map((line) => ({
        id: gid("LineItem", nextId()),
        title: line.title ?? "Item",
        variantTitle: null,
        sku: line.sku ?? null,
        quantity: line.quantity,
        requiresShipping: line.requiresShipping ?? !line.giftCard,
        isGiftCard: line.giftCard ?? false,
        unitPrice: amountOf(line.priceSet?.shopMoney.amount),
        discountedUnitPrice: amountOf(line.priceSet?.shopMoney.amount),
        taxRate: 0,
        weight: line.weight ? { unit: line.weight.unit, value: line.weight.value } : null,
      }));
      const shippable = lineItems.filter((item) => item.requiresShipping);
      const shipping = amountOf(input.shippingLines?.[0]?.priceSet.shopMoney.amount);
      const order: StoreOrder = {
        id: gid("Order", id),
        legacyResourceId: String(id),
        name: input.name ?? `#${number}`,
        createdAt,
        updatedAt: createdAt,
        cancelledAt: null,
        cancelReason: null,
        closed: false,
        tags: input.tags ?? [],
        note: input.note ?? null,
        email: input.email ?? null,
        phone: input.phone ?? null,
        paymentGatewayNames: (input.transactions ?? []).map((transaction) => transaction.gateway ?? "manual"),
        displayFinancialStatus: input.financialStatus ?? "PENDING",
        customer: null,
        shippingAddress: input.shippingAddress ? toMailingAddress(input.shippingAddress) : null,
        billingAddress: input.billingAddress ? toMailingAddress(input.billingAddress) : input.shippingAddress ? toMailingAddress(input.shippingAddress) : null,
        shippingLine: input.shippingLines?.[0] ? { title: input.shippingLines[0].title, price: shipping } : null,
        lineItems,
        discount: 0,
        shippingPrice: shipping,
        fulfillmentOrders: routeToLocations(shop, shippable),
        fulfillments: [],
        metafields: [],
      };
      shop.orders.push(order);
      emit({ topic: "orders/create", order });
      return { order: orderView(shop, order), userErrors: [] };
    },

    orderCancel: (args: Args) => {
      const order = shop.orders.find((candidate) => candidate.id === args.orderId);
      const refuse = (message: string, code: string) => {
        const errors = [{ field: ["orderId"], message, code }];
        return { job: null, jobResult: null, orderCancelUserErrors: errors, userErrors: errors.map(({ field, message: text }) => ({ field, message: text })) };
      };
      if (!order) return refuse("Order does not exist.", "NOT_FOUND");
      if (order.cancelledAt) return refuse("Order has already been cancelled.", "INVALID");
      order.cancelledAt = stamp();
      order.cancelReason = String(args.reason ?? "OTHER");
      order.closed = true;
      order.updatedAt = order.cancelledAt;
      if (args.staffNote) order.note = String(args.staffNote);
      // What was not fulfilled cannot be any more; what was shipped stays as it is.
      for (const fo of order.fulfillmentOrders) if (fo.status !== "CLOSED") fo.status = "CANCELLED";
      emit({ topic: "orders/cancelled", order });
      const jobId = gid("Job", nextId());
      return {
        job: { __typename: "Job", id: jobId, done: true },
        jobResult: { __typename: "OrderCancelJobResult", id: jobId, done: true, status: "SUCCESS", errors: [], order: orderView(shop, order) },
        orderCancelUserErrors: [],
        userErrors: [],
      };
    },
  };
}
