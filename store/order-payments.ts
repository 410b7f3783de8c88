import { randomBytes } from "node:crypto";
import { gid, nextId, type StoreInvoice, type StoreOrder, type StoreRiskAssessment, type StoreShop } from "./model";
import type { StoreEvent } from "./admin-api";
import { toMailingAddress, type AddressInput } from "./order-mutations";
import { displayFulfillmentStatus, orderTotals, orderView, riskView } from "./views";

type Args = Record<string, unknown>;

/** Shopify keeps at most 20 facts an assessment and truncates each description at 256 characters. */
const MAX_FACTS = 20;
const FACT_LENGTH = 256;
/** The one app the local store serves: the provider of the assessments it creates. */
export const APP_ID = gid("App", 7_310_431);

/**
 * Records a payment of an order as a successful SALE transaction under its gateway (the payment method's name), as
 * `Order.transactions` shows; the financial status follows what is still owed, and an order paid in full sends
 * orders/paid, as Shopify does.
 */
function recordPayment(order: StoreOrder, payment: { amount: number; gateway: string; processedAt: string }, emit: (event: StoreEvent) => void): void {
  (order.payments ??= []).push({ id: gid("OrderTransaction", nextId()), ...payment });
  if (!order.paymentGatewayNames.includes(payment.gateway)) order.paymentGatewayNames = [...order.paymentGatewayNames, payment.gateway];
  order.displayFinancialStatus = orderTotals(order).outstanding <= 0.004 ? "PAID" : "PARTIALLY_PAID";
  order.updatedAt = payment.processedAt;
  if (order.displayFinancialStatus === "PAID") emit({ topic: "orders/paid", order });
}

/**
 * Order payment and risk mutations as Shopify's 2026-10 schema defines them, for the part Dakiya uses:
 * `orderRiskAssessmentCreate` (an app's assessment: at most 20 facts, refused once the order is fulfilled),
 * `orderInvoiceSend` (recorded with a payment link the shopper can pay through, `payInvoice`), `orderMarkAsPaid`
 * (the whole balance), `orderCreateManualPayment` (an amount of it, under a payment method's name: a courier's
 * remittance of one parcel of several) and `orderUpdate` (the shipping address, phone, e-mail, note and tags).
 */
export function orderPaymentMutations(shop: StoreShop, { now, emit, touch }: { now: () => Date; emit: (event: StoreEvent) => void; touch: (order: StoreOrder) => void }) {
  const stamp = () => now().toISOString();
  const find = (id: unknown) => shop.orders.find((order) => order.id === id);
  const pay = (order: StoreOrder, amount: number, gateway: string, processedAt: string) => recordPayment(order, { amount, gateway, processedAt }, emit);
  return {
    orderRiskAssessmentCreate: (args: Args) => {
      const input = args.orderRiskAssessmentInput as { orderId: string; riskLevel: StoreRiskAssessment["riskLevel"]; facts: StoreRiskAssessment["facts"] };
      const refuse = (code: string, message: string, field: string[]) => ({ orderRiskAssessment: null, userErrors: [{ field, message, code }] });
      const order = find(input.orderId);
      if (!order) return refuse("NOT_FOUND", "Order does not exist.", ["orderRiskAssessmentInput", "orderId"]);
      if (input.facts.length > MAX_FACTS) return refuse("TOO_MANY_FACTS", `An assessment can have at most ${MAX_FACTS} facts.`, ["orderRiskAssessmentInput", "facts"]);
      if (displayFulfillmentStatus(order) === "FULFILLED") return refuse("ORDER_ALREADY_FULFILLED", "The order is already fulfilled.", ["orderRiskAssessmentInput", "orderId"]);
      const assessment: StoreRiskAssessment = {
        riskLevel: input.riskLevel,
        facts: input.facts.map((fact) => ({ description: fact.description.slice(0, FACT_LENGTH), sentiment: fact.sentiment })),
        providerAppId: APP_ID,
        createdAt: stamp(),
      };
      (order.riskAssessments ??= []).push(assessment);
      order.updatedAt = stamp();
      return { orderRiskAssessment: riskView({ ...order, riskAssessments: [assessment] }).assessments[0], userErrors: [] };
    },

    orderInvoiceSend: (args: Args) => {
      const order = find(args.id);
      const email = (args.email ?? {}) as { to?: string | null; customMessage?: string | null };
      const refuse = (message: string) => ({ order: null, userErrors: [{ field: ["id"], message, code: "ORDER_INVOICE_SEND_UNSUCCESSFUL" }] });
      if (!order) return refuse("Order does not exist.");
      if (order.cancelledAt) return refuse("A cancelled order can't be invoiced.");
      if (orderTotals(order).outstanding <= 0) return refuse("The order has nothing outstanding to pay.");
      const to = email.to ?? order.email;
      if (!to) return refuse("The order has no email address to send the invoice to.");
      const invoice: StoreInvoice = { id: gid("OrderInvoice", nextId()), to, customMessage: email.customMessage ?? null, token: randomBytes(12).toString("hex"), sentAt: stamp(), paidAt: null };
      (order.invoices ??= []).push(invoice);
      return { order: orderView(shop, order), userErrors: [] };
    },

    orderMarkAsPaid: (args: Args) => {
      const input = args.input as { id: string };
      const order = find(input.id);
      if (!order) return { order: null, userErrors: [{ field: ["input", "id"], message: "Order does not exist." }] };
      if (order.cancelledAt) return { order: null, userErrors: [{ field: ["input", "id"], message: "A cancelled order can't be marked as paid." }] };
      const outstanding = orderTotals(order).outstanding;
      if (order.displayFinancialStatus === "PAID" || outstanding <= 0) return { order: orderView(shop, order), userErrors: [{ field: ["input", "id"], message: "Order cannot be marked as paid." }] };
      pay(order, outstanding, order.paymentGatewayNames[0] ?? "manual", stamp());
      return { order: orderView(shop, order), userErrors: [] };
    },

    orderCreateManualPayment: (args: Args) => {
      const refuse = (code: string, message: string, field: string[] | null = null) => ({ order: null, userErrors: [{ field, message, code }] });
      const order = find(args.id);
      if (!order) return refuse("ORDER_NOT_FOUND", "Order does not exist", ["id"]);
      const outstanding = orderTotals(order).outstanding;
      const money = args.amount as { amount: string | number; currencyCode: string } | null | undefined;
      if (money && money.currencyCode !== "INR") return refuse("CURRENCY_MISMATCH", "Currency must match the order's presentment currency", ["amount", "currencyCode"]);
      const amount = money ? Number(money.amount) : outstanding;
      if (!(amount > 0)) return refuse("AMOUNT_NOT_POSITIVE", "Amount must be positive", ["amount"]);
      if (amount > outstanding + 0.004) return refuse("AMOUNT_EXCEEDS_BALANCE", "Amount exceeds the remaining balance", ["amount"]);
      const processedAt = typeof args.processedAt === "string" ? args.processedAt : now().toISOString();
      if (Date.parse(processedAt) > now().getTime() + 60_000) return refuse("PROCESSED_AT_INVALID", "Processed at can't be in the future", ["processedAt"]);
      pay(order, amount, typeof args.paymentMethodName === "string" && args.paymentMethodName ? args.paymentMethodName : "manual", processedAt);
      return { order: orderView(shop, order), userErrors: [] };
    },

    orderUpdate: (args: Args) => {
      const input = args.input as { id: string; email?: string | null; phone?: string | null; note?: string | null; tags?: string[] | null; shippingAddress?: AddressInput | null };
      const order = find(input.id);
      if (!order) return { order: null, userErrors: [{ field: ["id"], message: "Order does not exist." }] };
      if (input.note !== undefined && input.note !== null && input.note.length > 5_000) return { order: orderView(shop, order), userErrors: [{ field: ["note"], message: "Note is too long (maximum is 5000 characters)" }] };
      if (input.shippingAddress) {
        const zip = input.shippingAddress.zip ?? "";
        if ((input.shippingAddress.countryCode ?? "IN") === "IN" && zip && !/^\d{6}$/.test(zip.replace(/\s/g, ""))) {
          return { order: null, userErrors: [{ field: ["shippingAddress", "zip"], message: "Enter a valid PIN code for India." }] };
        }
        order.shippingAddress = toMailingAddress(input.shippingAddress);
      }
      if (input.phone !== undefined) order.phone = input.phone;
      if (input.email !== undefined) order.email = input.email;
      if (input.note !== undefined) order.note = input.note;
      if (input.tags) order.tags = input.tags.flatMap((tag) => tag.split(",")).map((tag) => tag.trim()).filter(Boolean);
      touch(order);
      return { order: orderView(shop, order), userErrors: [] };
    },
  };
}

/**
 * The shopper pays an invoice through its link (`/invoices/{token}` in the local store): the order becomes paid by
 * card, and orders/paid goes to the app. Null when the token is no invoice's, or the order cannot be paid any more.
 */
export function payInvoice(shop: StoreShop, token: string, { now, emit }: { now: () => Date; emit: (event: StoreEvent) => void }): StoreOrder | null {
  for (const order of shop.orders) {
    const invoice = order.invoices?.find((candidate) => candidate.token === token);
    if (!invoice) continue;
    if (invoice.paidAt || order.cancelledAt || orderTotals(order).outstanding <= 0) return null;
    invoice.paidAt = now().toISOString();
    recordPayment(order, { amount: orderTotals(order).outstanding, gateway: "shopify_payments", processedAt: invoice.paidAt }, emit);
    return order;
  }
  return null;
}

/** The invoice a token names, with its order: what the invoice's page shows. */
export function findInvoice(shop: StoreShop, token: string): { order: StoreOrder; invoice: StoreInvoice } | null {
  for (const order of shop.orders) {
    const invoice = order.invoices?.find((candidate) => candidate.token === token);
    if (invoice) return { order, invoice };
  }
  return null;
}

/** Shopify's own assessment of an order (its fraud analysis), as the local store's seed or a test sets it. */
export function assessAsShopify(order: StoreOrder, riskLevel: StoreRiskAssessment["riskLevel"], facts: StoreRiskAssessment["facts"], at: Date): void {
  (order.riskAssessments ??= []).push({ riskLevel, facts, providerAppId: null, createdAt: at.toISOString() });
}
