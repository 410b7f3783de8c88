import { fromPaise, toPaise } from "~/money";
import type {
  OrderCreateManualPaymentMutation,
  OrderCreateManualPaymentMutationVariables,
  OrderForPaymentQuery,
  OrderForPaymentQueryVariables,
  OrderMarkAsPaidMutation,
  OrderMarkAsPaidMutationVariables,
} from "~/types/admin.generated";
import { adminDocument } from "./admin-document";
import { adminGraphql, type ShopAdmin } from "./admin-graphql.server";

/**
 * An order's payment in Shopify, for cash on delivery the courier has remitted: what Shopify holds (whether it is
 * paid, what is still owed, the payments recorded, the note), and the three ways Dakiya records the money —
 * `orderMarkAsPaid` (the whole balance), `orderCreateManualPayment` (one parcel's share of it) and a line in the
 * order's note naming the bank reference (./order-note.server). Scope: `write_orders`; the staff member's `mark_orders_as_paid` is Shopify's
 * own check. The two payment mutations are sent once each (`sendOnce`): a payment Shopify took and did not confirm is
 * found by reading the order again, never by sending it twice.
 */

const ORDER_FOR_PAYMENT = adminDocument<OrderForPaymentQuery, OrderForPaymentQueryVariables>(
  `#graphql
  query OrderForPayment($id: ID!) {
    order(id: $id) {
      id
      name
      note
      cancelledAt
      displayFinancialStatus
      totalOutstandingSet { shopMoney { amount } }
      transactions(first: 100) { gateway kind status amountSet { shopMoney { amount } } }
    }
  }
`
);

const ORDER_MARK_AS_PAID = adminDocument<OrderMarkAsPaidMutation, OrderMarkAsPaidMutationVariables>(
  `#graphql
  mutation OrderMarkAsPaid($input: OrderMarkAsPaidInput!) {
    orderMarkAsPaid(input: $input) {
      order { id displayFinancialStatus }
      userErrors { field message }
    }
  }
`
);

const ORDER_CREATE_MANUAL_PAYMENT = adminDocument<OrderCreateManualPaymentMutation, OrderCreateManualPaymentMutationVariables>(
  `#graphql
  mutation OrderCreateManualPayment($id: ID!, $amount: MoneyInput!, $paymentMethodName: String!, $processedAt: DateTime) {
    orderCreateManualPayment(id: $id, amount: $amount, paymentMethodName: $paymentMethodName, processedAt: $processedAt) {
      order { id displayFinancialStatus }
      userErrors { field message code }
    }
  }
`
);

export interface OrderPayment {
  orderGid: string;
  note: string;
  cancelled: boolean;
  /** Shopify's financial status: PAID, PARTIALLY_PAID, PENDING… */
  financialStatus: string;
  outstandingPaise: number;
  /** Successful sales and captures recorded on the order, by their payment method's name. */
  payments: { gateway: string; amountPaise: number }[];
}

/** The order's payment as Shopify holds it now; null when Shopify has no such order. */
export async function readOrderPayment(admin: ShopAdmin, orderGid: string): Promise<OrderPayment | null> {
  const { order } = await adminGraphql(admin, ORDER_FOR_PAYMENT, { id: orderGid });
  if (!order) return null;
  return {
    orderGid: order.id,
    note: order.note ?? "",
    cancelled: order.cancelledAt !== null && order.cancelledAt !== undefined,
    financialStatus: order.displayFinancialStatus ?? "",
    outstandingPaise: toPaise(Number(order.totalOutstandingSet.shopMoney.amount)),
    payments: order.transactions
      .filter((transaction) => (transaction.kind === "SALE" || transaction.kind === "CAPTURE") && transaction.status === "SUCCESS")
      .map((transaction) => ({ gateway: transaction.gateway ?? "", amountPaise: toPaise(Number(transaction.amountSet.shopMoney.amount)) })),
  };
}

export type PaymentOutcome = { kind: "recorded" } | { kind: "refused"; message: string; code?: string };

/** The whole balance recorded as paid. */
export async function markOrderAsPaid(admin: ShopAdmin, orderGid: string): Promise<PaymentOutcome> {
  const answer = await adminGraphql(admin, ORDER_MARK_AS_PAID, { input: { id: orderGid } }, { sendOnce: true });
  const refusals = answer.orderMarkAsPaid?.userErrors ?? [];
  return refusals.length === 0 ? { kind: "recorded" } : { kind: "refused", message: refusals.map((refusal) => refusal.message).join("; ") };
}

/** One parcel's cash recorded as a manual payment under `methodName` (which names the parcel and the bank reference). */
export async function recordManualPayment(admin: ShopAdmin, orderGid: string, { amountPaise, methodName, processedAt }: { amountPaise: number; methodName: string; processedAt?: Date }): Promise<PaymentOutcome> {
  const answer = await adminGraphql(
    admin,
    ORDER_CREATE_MANUAL_PAYMENT,
    { id: orderGid, amount: { amount: fromPaise(amountPaise).toFixed(2), currencyCode: "INR" }, paymentMethodName: methodName, processedAt: processedAt?.toISOString() ?? null },
    { sendOnce: true },
  );
  const refusals = answer.orderCreateManualPayment?.userErrors ?? [];
  return refusals.length === 0 ? { kind: "recorded" } : { kind: "refused", message: refusals.map((refusal) => refusal.message).join("; "), code: refusals[0]?.code ?? undefined };
}
