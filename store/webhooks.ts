import { createHmac, randomUUID } from "node:crypto";
import type { StoreOrder, StoreReturn, StoreShop } from "./model";
import { displayFulfillmentStatus, GRAMS_PER, orderTotals } from "./views";

/** Where shopify.app.toml subscribes each topic. */
export const WEBHOOK_PATHS: Record<string, string> = {
  "orders/create": "/webhooks/orders/create",
  "orders/cancelled": "/webhooks/orders/cancelled",
  "orders/paid": "/webhooks/orders/paid",
  "returns/request": "/webhooks/returns/request",
  "returns/approve": "/webhooks/returns/approve",
  "returns/decline": "/webhooks/returns/decline",
  "returns/cancel": "/webhooks/returns/cancel",
  "returns/close": "/webhooks/returns/close",
  "returns/process": "/webhooks/returns/process",
  "app/uninstalled": "/webhooks/app/uninstalled",
  "app/scopes_update": "/webhooks/app/scopes_update",
  "customers/data_request": "/webhooks/customers/data_request",
  "customers/redact": "/webhooks/customers/redact",
  "shop/redact": "/webhooks/shop/redact",
};

const RETURN_FIELDS = ["id", "admin_graphql_api_id", "status"] as const;

/** The fields each subscription asks for (`include_fields` in shopify.app.toml); a topic not listed gets the whole body. */
export const SUBSCRIBED_FIELDS: Record<string, readonly string[]> = {
  "orders/create": ["id", "admin_graphql_api_id"],
  "orders/cancelled": ["id", "admin_graphql_api_id", "cancelled_at"],
  "orders/paid": ["id", "admin_graphql_api_id"],
  "returns/request": RETURN_FIELDS,
  "returns/approve": RETURN_FIELDS,
  "returns/decline": RETURN_FIELDS,
  "returns/cancel": RETURN_FIELDS,
  "returns/close": RETURN_FIELDS,
  "returns/process": RETURN_FIELDS,
};

/** The body as Shopify sends it to a subscription with `include_fields`: only those top-level fields. */
export function asSubscribed(topic: string, payload: unknown): unknown {
  const fields = SUBSCRIBED_FIELDS[topic];
  if (!fields || typeof payload !== "object" || payload === null) return payload;
  return Object.fromEntries(fields.filter((field) => field in payload).map((field) => [field, (payload as Record<string, unknown>)[field]]));
}

const legacyId = (gidValue: string) => Number(gidValue.split("/").pop());

/** The REST representation of an order that orders/* webhooks carry (API 2026-10). */
export function orderPayload(order: StoreOrder) {
  const totals = orderTotals(order);
  const status = displayFulfillmentStatus(order);
  const address = order.shippingAddress;
  return {
    id: legacyId(order.id),
    admin_graphql_api_id: order.id,
    name: order.name,
    order_number: Number(order.name.replace("#", "")),
    email: order.email,
    phone: order.phone,
    created_at: order.createdAt,
    updated_at: order.createdAt,
    cancelled_at: order.cancelledAt,
    cancel_reason: order.cancelReason?.toLowerCase() ?? null,
    currency: "INR",
    financial_status: order.displayFinancialStatus.toLowerCase(),
    fulfillment_status: status === "FULFILLED" ? "fulfilled" : status === "PARTIALLY_FULFILLED" ? "partial" : null,
    payment_gateway_names: order.paymentGatewayNames,
    tags: order.tags.join(", "),
    total_price: totals.total.toFixed(2),
    subtotal_price: totals.subtotal.toFixed(2),
    total_tax: totals.tax.toFixed(2),
    total_discounts: order.discount.toFixed(2),
    line_items: order.lineItems.map((item) => ({
      id: legacyId(item.id),
      admin_graphql_api_id: item.id,
      title: item.title,
      sku: item.sku,
      quantity: item.quantity,
      price: item.unitPrice.toFixed(2),
      requires_shipping: item.requiresShipping,
      grams: item.weight ? Math.round(item.weight.value * GRAMS_PER[item.weight.unit]!) : 0,
    })),
    shipping_address: address && {
      name: address.name,
      first_name: address.firstName,
      last_name: address.lastName,
      company: address.company,
      phone: address.phone,
      address1: address.address1,
      address2: address.address2,
      city: address.city,
      province: address.province,
      province_code: address.provinceCode,
      zip: address.zip,
      country: address.country,
      country_code: address.countryCodeV2,
    },
  };
}

/** The REST representation of a return that returns/* webhooks carry (API 2026-10). */
export function returnPayload(order: StoreOrder, ret: StoreReturn) {
  return {
    id: legacyId(ret.id),
    admin_graphql_api_id: ret.id,
    name: ret.name,
    status: ret.status.toLowerCase(),
    order: { id: legacyId(order.id), admin_graphql_api_id: order.id },
    total_return_line_items: ret.lines.reduce((sum, line) => sum + line.quantity, 0),
    return_line_items: ret.lines.map((line) => ({
      id: legacyId(line.id),
      admin_graphql_api_id: line.id,
      fulfillment_line_item: { id: legacyId(line.fulfillmentLineItemId), admin_graphql_api_id: line.fulfillmentLineItemId },
      quantity: line.quantity,
      return_reason: line.returnReason.toLowerCase(),
      return_reason_note: line.returnReasonNote,
      customer_note: line.customerNote,
    })),
    decline: ret.decline && { reason: ret.decline.reason.toLowerCase(), note: ret.decline.note },
  };
}

/**
 * The REST representation of a shop that app/uninstalled carries: `myshopify_domain` is the shop's own domain (as
 * in X-Shopify-Shop-Domain), `domain` its primary one, which a shop with a domain of its own has changed.
 */
export function shopPayload(shop: Pick<StoreShop, "domain" | "name" | "email">) {
  return { id: 1, name: shop.name, email: shop.email, domain: shop.domain, myshopify_domain: shop.domain, currency: "INR", country_code: "IN" };
}

export interface WebhookDelivery {
  appUrl: string;
  apiSecret: string;
  shop: string;
  topic: string;
  payload: unknown;
  /** Reuse an id to redeliver the same webhook, as Shopify does. */
  webhookId?: string;
  eventId?: string;
  triggeredAt?: string;
  /** Waits before each retry after a non-2xx answer or a network failure (Shopify: 8 over 4 hours). */
  retryDelaysMs?: number[];
  fetch?: typeof fetch;
}

export interface DeliveryReport {
  webhookId: string;
  attempts: { status: number | "network-error" }[];
  delivered: boolean;
  /** When the app acknowledged it (epoch ms), if it did: where a measurement of what follows starts. */
  acknowledgedAt?: number;
}

/** Delivers one webhook with Shopify's headers and HMAC, retrying on anything but 2xx. */
export async function deliverWebhook(delivery: WebhookDelivery): Promise<DeliveryReport> {
  const path = WEBHOOK_PATHS[delivery.topic];
  if (!path) throw new Error(`No subscription for topic ${delivery.topic}`);
  const body = JSON.stringify(delivery.payload);
  const webhookId = delivery.webhookId ?? randomUUID();
  const headers = {
    "Content-Type": "application/json",
    "X-Shopify-Topic": delivery.topic,
    "X-Shopify-Hmac-Sha256": createHmac("sha256", delivery.apiSecret).update(body, "utf8").digest("base64"),
    "X-Shopify-Shop-Domain": delivery.shop,
    "X-Shopify-API-Version": "2026-10",
    "X-Shopify-Webhook-Id": webhookId,
    "X-Shopify-Event-Id": delivery.eventId ?? randomUUID(),
    "X-Shopify-Triggered-At": delivery.triggeredAt ?? new Date().toISOString(),
  };
  const doFetch = delivery.fetch ?? fetch;
  const delays = [0, ...(delivery.retryDelaysMs ?? [])];
  const report: DeliveryReport = { webhookId, attempts: [], delivered: false };
  for (const delay of delays) {
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    try {
      // Shopify counts a redirect as a failure, so redirects are not followed.
      const response = await doFetch(`${delivery.appUrl.replace(/\/$/, "")}${path}`, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(5_000) });
      report.attempts.push({ status: response.status });
      if (response.status >= 200 && response.status < 300) {
        report.delivered = true;
        report.acknowledgedAt = Date.now();
        return report;
      }
    } catch {
      report.attempts.push({ status: "network-error" });
    }
  }
  return report;
}
