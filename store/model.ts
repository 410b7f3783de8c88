/**
 * The simulator's in-memory store: what one Shopify shop holds, shaped so graphql-js's default
 * resolver can read Shopify's field names straight off the objects.
 */

export interface Money {
  amount: string;
  currencyCode: "INR" | string;
}

export interface MoneyBag {
  shopMoney: Money;
  presentmentMoney: Money;
}

export interface MailingAddress {
  name: string | null;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  phone: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  provinceCode: string | null;
  zip: string | null;
  country: string | null;
  countryCodeV2: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface StoreLocation {
  id: string;
  name: string;
  address: { address1: string; city: string; province: string; zip: string; countryCode: string };
}

export interface StoreLineItem {
  id: string;
  title: string;
  variantTitle: string | null;
  sku: string | null;
  quantity: number;
  requiresShipping: boolean;
  isGiftCard: boolean;
  unitPrice: number;
  discountedUnitPrice: number;
  taxRate: number;
  weight: { unit: "GRAMS" | "KILOGRAMS" | "POUNDS" | "OUNCES"; value: number } | null;
}

export interface StoreFulfillmentOrderLine {
  id: string;
  lineItemId: string;
  totalQuantity: number;
  remainingQuantity: number;
}

export type FulfillmentOrderStatus = "OPEN" | "IN_PROGRESS" | "CLOSED" | "CANCELLED" | "ON_HOLD" | "SCHEDULED" | "INCOMPLETE";

export interface StoreFulfillmentOrder {
  id: string;
  status: FulfillmentOrderStatus;
  locationId: string;
  lines: StoreFulfillmentOrderLine[];
  /** Closed because its items were merged or moved into another: left out of `displayable` lists, as Shopify does. */
  hidden?: boolean;
  /** Holds apps put on it (`fulfillmentOrderHold`): while any stands it is ON_HOLD, and goes back to its status before. */
  holds?: StoreFulfillmentHold[];
  statusBeforeHold?: FulfillmentOrderStatus;
}

export interface StoreFulfillmentHold {
  id: string;
  handle: string | null;
  reason: string;
  reasonNotes: string | null;
}

export interface StoreFulfillmentEvent {
  id: string;
  status: string;
  message: string | null;
  happenedAt: string;
  estimatedDeliveryAt: string | null;
  city: string | null;
}

export interface StoreFulfillment {
  id: string;
  name: string;
  status: "SUCCESS" | "CANCELLED";
  createdAt: string;
  updatedAt: string;
  trackingInfo: { company: string | null; number: string | null; url: string | null }[];
  notifyCustomer: boolean;
  fulfillmentOrderIds: string[];
  /** The location it shipped from, as it was when fulfilled (absent in stores saved before it was kept). */
  locationId?: string;
  /** Each line's `id` is its FulfillmentLineItem id, what a return names; stores saved before returns existed lack it. */
  lines: { id?: string; lineItemId: string; quantity: number }[];
  events: StoreFulfillmentEvent[];
}

export type ReturnStatus = "REQUESTED" | "OPEN" | "DECLINED" | "CANCELED" | "CLOSED";
export type DispositionType = "RESTOCKED" | "NOT_RESTOCKED" | "PROCESSING_REQUIRED" | "MISSING";

export interface StoreReturnLine {
  id: string;
  fulfillmentLineItemId: string;
  lineItemId: string;
  quantity: number;
  processedQuantity: number;
  returnReason: string;
  returnReasonNote: string;
  customerNote: string | null;
}

export interface StoreDisposition {
  id: string;
  type: DispositionType;
  quantity: number;
  locationId: string | null;
  createdAt: string;
}

export interface StoreReverseFulfillmentOrderLine {
  id: string;
  returnLineId: string;
  totalQuantity: number;
  dispositions: StoreDisposition[];
}

export interface StoreReverseDelivery {
  id: string;
  lines: { id: string; reverseFulfillmentOrderLineId: string; quantity: number }[];
  tracking: { number: string | null; url: string | null } | null;
  label: { fileUrl: string; createdAt: string; updatedAt: string } | null;
  notifyCustomer: boolean;
}

export interface StoreReverseFulfillmentOrder {
  id: string;
  status: "OPEN" | "CLOSED" | "CANCELED";
  lines: StoreReverseFulfillmentOrderLine[];
  deliveries: StoreReverseDelivery[];
}

/** A shopper's return of fulfilled items: requested (by the shopper) or created (by the merchant) on an order. */
export interface StoreReturn {
  id: string;
  name: string;
  status: ReturnStatus;
  createdAt: string;
  requestApprovedAt: string | null;
  closedAt: string | null;
  decline: { reason: string; note: string | null } | null;
  lines: StoreReturnLine[];
  /** Made when the return opens (approved or created), as Shopify does. */
  reverseFulfillmentOrders: StoreReverseFulfillmentOrder[];
}

export interface StoreMetafield {
  id: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
  createdAt: string;
  updatedAt: string;
}

export interface StoreOrder {
  id: string;
  legacyResourceId: string;
  name: string;
  createdAt: string;
  /** Changed by every edit Shopify counts: fulfillments, tags, metafields, cancellation. */
  updatedAt: string;
  cancelledAt: string | null;
  cancelReason: string | null;
  closed: boolean;
  tags: string[];
  note: string | null;
  email: string | null;
  phone: string | null;
  paymentGatewayNames: string[];
  displayFinancialStatus: string;
  customer: { id: string; firstName: string; lastName: string; phone: string | null; email: string | null } | null;
  shippingAddress: MailingAddress | null;
  billingAddress: MailingAddress | null;
  shippingLine: { title: string; price: number } | null;
  lineItems: StoreLineItem[];
  discount: number;
  shippingPrice: number;
  fulfillmentOrders: StoreFulfillmentOrder[];
  fulfillments: StoreFulfillment[];
  metafields: StoreMetafield[];
  /** Absent in stores saved before returns existed. */
  returns?: StoreReturn[];
  /** Payments recorded after the order was placed (orderMarkAsPaid, orderCreateManualPayment); absent when none. */
  payments?: { id: string; gateway: string; amount: number; processedAt: string }[];
  /** The language the shopper checked out in (Shopify's `customerLocale`: "en", "hi-IN"…); absent: unknown. */
  customerLocale?: string | null;
  /** Risk assessments of the order, oldest first: Shopify's own (no provider) and apps' (orderRiskAssessmentCreate). */
  riskAssessments?: StoreRiskAssessment[];
  /** Invoices e-mailed for the order (orderInvoiceSend), and whether the shopper paid through them. */
  invoices?: StoreInvoice[];
}

export interface StoreRiskAssessment {
  riskLevel: "HIGH" | "MEDIUM" | "LOW" | "NONE" | "PENDING";
  facts: { description: string; sentiment: "NEGATIVE" | "NEUTRAL" | "POSITIVE" }[];
  /** The app that made it; null for Shopify's own. */
  providerAppId: string | null;
  createdAt: string;
}

export interface StoreInvoice {
  id: string;
  /** The address Shopify e-mailed, the message above the payment link, and the link's token (its page: /invoices/{token}). */
  to: string;
  customMessage: string | null;
  token: string;
  sentAt: string;
  paidAt: string | null;
}

export interface StoreVariant {
  id: string;
  title: string;
  grams: number | null;
}

export interface StoreShop {
  domain: string;
  name: string;
  email: string;
  ianaTimezone: string;
  /** The shop's own domain (Shopify's `primaryDomain`); unset, the myshopify domain is the primary one. */
  primaryDomainHost?: string;
  /** The catalogue's product variants, with the shipping weight the merchant entered (null: none). */
  variants?: StoreVariant[];
  /** In priority order: Shopify's order routing assigns an order to the first locations that stock its items. */
  locations: StoreLocation[];
  /**
   * Items stocked at some locations only: SKU → the ids of the locations that stock it. An SKU not listed is stocked
   * everywhere (absent in stores saved before stock was kept).
   */
  stock?: Record<string, string[]>;
  orders: StoreOrder[];
  /** Access tokens issued by token exchange, with their expiry (ms since epoch). */
  accessTokens: Map<string, { scope: string; expiresAt: number }>;
  refreshTokens: Map<string, { expiresAt: number }>;
  bucket: { available: number; updatedAt: number };
  /** What the shop's Admin API answers cost (actual points charged) and how many were THROTTLED refusals. */
  usage: { points: number; answers: number; throttled: number };
  /** What Shopify Flow did for the app: its triggers received and the workflows turned on (store/flow.ts). */
  flow?: StoreFlow;
  /** Failures to inject, by mutation or query root field name: the next `times` calls fail this way (`Infinity`: until deleted). */
  faults: Map<string, { kind: "THROTTLED" | "INTERNAL_ERROR" | "HTTP_503"; times: number }>;
}

/** One `flowTriggerReceive` the app sent, as received, and whether Flow took it (the reasons when not). */
export interface StoreFlowTriggerReceipt {
  handle: string | null;
  payload: unknown;
  receivedAt: string;
  errors: string[];
}

export interface StoreFlow {
  received: StoreFlowTriggerReceipt[];
  /** The triggers the merchant's turned-on workflows start with. */
  workflows: string[];
}

let sequence = 5_000_000;
export const nextId = () => ++sequence;
/** The last id handed out; a restored store continues after it, so new objects never reuse a saved id. */
export const lastId = () => sequence;
export function continueIdsAfter(id: number): void {
  sequence = Math.max(sequence, id);
}
export const gid = (type: string, id: number | string) => `gid://shopify/${type}/${id}`;

export function money(amount: number, currencyCode = "INR"): MoneyBag {
  const value = { amount: amount.toFixed(2), currencyCode };
  return { shopMoney: value, presentmentMoney: { ...value } };
}
