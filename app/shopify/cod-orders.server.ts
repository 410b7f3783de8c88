import type {
  CodConfirmationLinkSetMutation,
  CodConfirmationLinkSetMutationVariables,
  OrderCancelByShopperMutation,
  OrderCancelByShopperMutationVariables,
  OrderDeliveryCorrectMutation,
  OrderDeliveryCorrectMutationVariables,
  OrderInvoiceSendMutation,
  OrderInvoiceSendMutationVariables,
  OrderRiskAssessmentCreateMutation,
  OrderRiskAssessmentCreateMutationVariables,
  OrderDeliveryNowQuery,
  OrderDeliveryNowQueryVariables,
  OrderRiskFactsQuery,
  OrderRiskFactsQueryVariables,
} from "~/types/admin.generated";
import { adminDocument } from "./admin-document";
import { adminGraphql, type ShopAdmin } from "./admin-graphql.server";

/**
 * What cash-on-delivery risk and confirmation ask of Shopify: the order's own risk facts, Dakiya's risk assessment on
 * the order (what the order page's Fraud analysis and the merchant's other apps read), the shopper's corrected
 * address and phone, Shopify's invoice e-mail (paying online instead), the order cancelled at the shopper's word, and
 * the confirmation link in an app metafield for the order confirmation e-mail.
 */

const ORDER_RISK_FACTS = adminDocument<OrderRiskFactsQuery, OrderRiskFactsQueryVariables>(
  `#graphql
  query OrderRiskFacts($id: ID!) {
    order(id: $id) {
      id
      email
      customerLocale
      risk {
        assessments {
          riskLevel
          provider { id }
        }
      }
    }
  }
`
);

export type ShopifyRiskLevel = "HIGH" | "MEDIUM" | "LOW" | "NONE" | "PENDING";

/**
 * Shopify's own assessment of the order (an assessment without a provider is Shopify's; apps' name theirs), the
 * language the shopper ordered in, and whether Shopify has an e-mail address to send them an invoice. Null when
 * Shopify no longer has the order.
 */
export async function getOrderRiskFacts(admin: ShopAdmin, orderGid: string): Promise<{ shopifyLevel: ShopifyRiskLevel | null; customerLocale: string | null; hasEmail: boolean } | null> {
  const { order } = await adminGraphql(admin, ORDER_RISK_FACTS, { id: orderGid });
  if (!order) return null;
  const shopify = order.risk.assessments.filter((assessment) => assessment.provider === null);
  const severity = ["PENDING", "NONE", "LOW", "MEDIUM", "HIGH"] as const;
  const worst = shopify.map((assessment) => assessment.riskLevel).sort((a, b) => severity.indexOf(b) - severity.indexOf(a))[0] ?? null;
  return { shopifyLevel: worst, customerLocale: order.customerLocale ?? null, hasEmail: Boolean(order.email?.trim()) };
}

const ORDER_RISK_ASSESSMENT_CREATE = adminDocument<OrderRiskAssessmentCreateMutation, OrderRiskAssessmentCreateMutationVariables>(
  `#graphql
  mutation OrderRiskAssessmentCreate($input: OrderRiskAssessmentCreateInput!) {
    orderRiskAssessmentCreate(orderRiskAssessmentInput: $input) {
      orderRiskAssessment { riskLevel }
      userErrors { field message code }
    }
  }
`
);

/** Shopify keeps at most 20 facts an assessment, each at most 256 characters. */
export const MAX_RISK_FACTS = 20;
export const MAX_RISK_FACT_LENGTH = 256;

export interface RiskFactInput {
  description: string;
  sentiment: "NEGATIVE" | "NEUTRAL" | "POSITIVE";
}

export type AssessmentOutcome = { kind: "assessed" } | { kind: "too_late" } | { kind: "refused"; message: string };

/**
 * Dakiya's assessment of the order in Shopify. An order already fulfilled takes none (`too_late`): the assessment is a
 * before-shipping judgement.
 */
export async function createRiskAssessment(admin: ShopAdmin, orderGid: string, riskLevel: ShopifyRiskLevel, facts: readonly RiskFactInput[]): Promise<AssessmentOutcome> {
  const answer = await adminGraphql(admin, ORDER_RISK_ASSESSMENT_CREATE, {
    input: { orderId: orderGid, riskLevel, facts: facts.slice(0, MAX_RISK_FACTS).map((fact) => ({ ...fact, description: fact.description.slice(0, MAX_RISK_FACT_LENGTH) })) },
  });
  const errors = answer.orderRiskAssessmentCreate?.userErrors ?? [];
  if (errors.some((error) => error.code === "ORDER_ALREADY_FULFILLED")) return { kind: "too_late" };
  if (errors.length > 0 || !answer.orderRiskAssessmentCreate?.orderRiskAssessment) return { kind: "refused", message: errors.map((error) => error.message).join(" ") || "Shopify did not take the assessment." };
  return { kind: "assessed" };
}

const ORDER_DELIVERY_NOW = adminDocument<OrderDeliveryNowQuery, OrderDeliveryNowQueryVariables>(
  `#graphql
  query OrderDeliveryNow($id: ID!) {
    order(id: $id) {
      id
      phone
      shippingAddress { firstName lastName company address1 address2 city provinceCode zip phone }
    }
  }
`
);

/** The order's delivery address and phone as Shopify holds them now (what a correction is written over); null when the order is gone. */
export async function getOrderDelivery(admin: ShopAdmin, orderGid: string) {
  const { order } = await adminGraphql(admin, ORDER_DELIVERY_NOW, { id: orderGid });
  return order;
}

const ORDER_DELIVERY_CORRECT = adminDocument<OrderDeliveryCorrectMutation, OrderDeliveryCorrectMutationVariables>(
  `#graphql
  mutation OrderDeliveryCorrect($input: OrderInput!) {
    orderUpdate(input: $input) {
      order { id }
      userErrors { field message }
    }
  }
`
);

/**
 * The order's delivery address and phone as they are to be: the shopper's correction over what Shopify held (Shopify
 * replaces the shipping address whole, so the name and company are sent again as they were).
 */
export interface DeliveryCorrection {
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  address1: string;
  address2: string;
  city: string;
  provinceCode: string | null;
  zip: string;
  phone: string;
}

/** Writes the corrected address and phone on the order in Shopify; Shopify's refusal in its words. */
export async function correctOrderDelivery(admin: ShopAdmin, orderGid: string, correction: DeliveryCorrection): Promise<{ ok: true } | { ok: false; message: string }> {
  const answer = await adminGraphql(admin, ORDER_DELIVERY_CORRECT, {
    input: {
      id: orderGid,
      phone: correction.phone,
      shippingAddress: {
        firstName: correction.firstName,
        lastName: correction.lastName,
        company: correction.company,
        address1: correction.address1,
        address2: correction.address2,
        city: correction.city,
        zip: correction.zip,
        phone: correction.phone,
        countryCode: "IN",
        ...(correction.provinceCode ? { provinceCode: correction.provinceCode } : {}),
      },
    },
  });
  const errors = answer.orderUpdate?.userErrors ?? [];
  if (errors.length > 0 || !answer.orderUpdate?.order) return { ok: false, message: errors.map((error) => error.message).join(" ") || "Shopify did not update the order." };
  return { ok: true };
}

const ORDER_INVOICE_SEND = adminDocument<OrderInvoiceSendMutation, OrderInvoiceSendMutationVariables>(
  `#graphql
  mutation OrderInvoiceSend($id: ID!, $email: EmailInput) {
    orderInvoiceSend(id: $id, email: $email) {
      order { id }
      userErrors { field message code }
    }
  }
`
);

/**
 * Shopify's invoice e-mail to the shopper for the order: a link to pay what the order still owes online, with a
 * message of Dakiya's above it. Shopify sends it to the order's e-mail address.
 */
export async function sendOrderInvoice(admin: ShopAdmin, orderGid: string, customMessage: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const answer = await adminGraphql(admin, ORDER_INVOICE_SEND, { id: orderGid, email: { customMessage: customMessage.slice(0, 1_000) } });
  const errors = answer.orderInvoiceSend?.userErrors ?? [];
  if (errors.length > 0 || !answer.orderInvoiceSend?.order) return { ok: false, message: errors.map((error) => error.message).join(" ") || "Shopify did not send the invoice." };
  return { ok: true };
}

const ORDER_CANCEL_BY_SHOPPER = adminDocument<OrderCancelByShopperMutation, OrderCancelByShopperMutationVariables>(
  `#graphql
  mutation OrderCancelByShopper($id: ID!, $staffNote: String) {
    orderCancel(orderId: $id, reason: CUSTOMER, restock: true, notifyCustomer: true, staffNote: $staffNote, refundMethod: { originalPaymentMethodsRefund: false }) {
      job { id }
      orderCancelUserErrors { field message code }
    }
  }
`
);

/**
 * Cancels the order at the shopper's word: its items go back to stock, and nothing is refunded (a cash-on-delivery
 * order was not paid). An order cancelled already counts as done.
 */
export async function cancelOrderForShopper(admin: ShopAdmin, orderGid: string, staffNote: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const answer = await adminGraphql(admin, ORDER_CANCEL_BY_SHOPPER, { id: orderGid, staffNote: staffNote.slice(0, 255) });
  const errors = answer.orderCancel?.orderCancelUserErrors ?? [];
  if (errors.length === 0) return { ok: true };
  if (errors.some((error) => /already been cancelled|already cancelled/i.test(error.message))) return { ok: true };
  return { ok: false, message: errors.map((error) => error.message).join(" ") };
}

const COD_CONFIRMATION_LINK_SET = adminDocument<CodConfirmationLinkSetMutation, CodConfirmationLinkSetMutationVariables>(
  `#graphql
  mutation CodConfirmationLinkSet($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields { id key }
      userErrors { field message }
    }
  }
`
);

/** The app metafield the order confirmation e-mail's snippet reads the shopper's link from (`$app:dakiya`). */
export const CONFIRMATION_LINK_METAFIELD = { namespace: "$app:dakiya", key: "cod_confirmation_url" } as const;

/** Writes the shopper's confirmation link on the order. */
export async function writeConfirmationLink(admin: ShopAdmin, orderGid: string, url: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const answer = await adminGraphql(admin, COD_CONFIRMATION_LINK_SET, {
    metafields: [{ ownerId: orderGid, namespace: CONFIRMATION_LINK_METAFIELD.namespace, key: CONFIRMATION_LINK_METAFIELD.key, type: "url", value: url }],
  });
  const errors = answer.metafieldsSet?.userErrors ?? [];
  if (errors.length > 0) return { ok: false, message: errors.map((error) => error.message).join(" ") };
  return { ok: true };
}
