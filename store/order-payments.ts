import { gid, nextId, type StoreOrder, type StoreShop } from "./model";
import { orderTotals, orderView } from "./views";

type Args = Record<string, unknown>;

/**
 * An order's payments as Shopify's 2026-10 schema takes them, for the part the app uses when a courier remits cash on
 * delivery: orderMarkAsPaid (the whole balance), orderCreateManualPayment (an amount of it, under a payment method's
 * name), and orderUpdate's note. Each payment is recorded as a successful SALE transaction under its gateway (the
 * method's name), as `Order.transactions` shows; the financial status follows what is still owed.
 */
export function orderPaymentMutations(shop: StoreShop, { now, touch }: { now: () => Date; touch: (order: StoreOrder) => void }) {
  const findOrder = (id: unknown) => shop.orders.find((order) => order.id === id);
  const pay = (order: StoreOrder, amount: number, gateway: string, processedAt: string) => {
    (order.payments ??= []).push({ id: gid("OrderTransaction", nextId()), gateway, amount, processedAt });
    order.displayFinancialStatus = orderTotals(order).outstanding <= 0.004 ? "PAID" : "PARTIALLY_PAID";
    touch(order);
  };
  return {
    orderMarkAsPaid: (args: Args) => {
      const input = args.input as { id: string };
      const order = findOrder(input.id);
      if (!order) return { order: null, userErrors: [{ field: ["input", "id"], message: "Order does not exist" }] };
      const outstanding = orderTotals(order).outstanding;
      if (order.displayFinancialStatus === "PAID" || outstanding <= 0) return { order: orderView(shop, order), userErrors: [{ field: ["input", "id"], message: "Order cannot be marked as paid." }] };
      pay(order, outstanding, order.paymentGatewayNames[0] ?? "manual", now().toISOString());
      return { order: orderView(shop, order), userErrors: [] };
    },

    orderCreateManualPayment: (args: Args) => {
      const refuse = (code: string, message: string, field: string[] | null = null) => ({ order: null, userErrors: [{ field, message, code }] });
      const order = findOrder(args.id);
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
      const input = args.input as { id: string; note?: string | null; tags?: string[] };
      const order = findOrder(input.id);
      if (!order) return { order: null, userErrors: [{ field: ["id"], message: "Order does not exist" }] };
      if (input.note !== undefined) {
        if (input.note !== null && input.note.length > 5_000) return { order: orderView(shop, order), userErrors: [{ field: ["note"], message: "Note is too long (maximum is 5000 characters)" }] };
        order.note = input.note;
      }
      if (input.tags) order.tags = input.tags;
      touch(order);
      return { order: orderView(shop, order), userErrors: [] };
    },
  };
}
