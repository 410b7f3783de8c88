import { createHmac, randomUUID } from "node:crypto";
import { seedShop } from "../../store/seed";
import { orderPayload } from "../../store/webhooks";
import { proxiedUrl } from "../../store/app-proxy";
import { sampleOrder } from "../../test/support/orders";

/**
 * The requests the load generator sends, built in its own process. Each kind is described by plain data (it
 * crosses the IPC channel) and numbered: request `index` of a kind is always the same bytes, so a delivery can
 * be sent again exactly as Shopify redelivers it, and the parent can find every record a run made by its prefix.
 */
export type RequestKind =
  | { kind: "ping" }
  | { kind: "orders-create-webhook"; shop: string; secret: string; prefix: string; orderIdBase: number }
  | { kind: "app-uninstalled-webhook"; secret: string; prefix: string }
  | { kind: "create-order"; apiKey: string; secretKey: string; prefix: string }
  | { kind: "calculate-rate"; apiKey: string; secretKey: string }
  /** Tracks the awbs `awbOf(awbPrefix, 0 … count - 1)` in turn, as one sync cycle reads them. */
  | { kind: "track-order"; apiKey: string; secretKey: string; awbPrefix: string; count: number }
  /** A shopper's delivery estimate through the store's app proxy, signed as Shopify signs it: PIN codes `pinBase + index % pinCount`. */
  | { kind: "storefront-estimate"; shop: string; secret: string; pinBase: number; pinCount: number };

export interface BuiltRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export type RequestFactory = (index: number) => BuiltRequest;

/** X-Shopify-Webhook-Id of delivery `index` of a run. */
export const webhookIdOf = (prefix: string, index: number) => `${prefix}-${index}`;
/** The Shopify order gid of delivery `index`: unique per run (the base is), far from the seed's ids. */
export const orderGidOf = (orderIdBase: number, index: number) => `gid://shopify/Order/${orderIdBase + index}`;

function ordersCreate({ shop, secret, prefix, orderIdBase }: Extract<RequestKind, { kind: "orders-create-webhook" }>): RequestFactory {
  // An order of the seeded store, as orders/create carries it (store/webhooks.ts); each delivery a new order.
  const template = orderPayload(seedShop(shop).orders[0]!);
  return (index) => {
    const body = JSON.stringify({ ...template, id: orderIdBase + index, admin_graphql_api_id: orderGidOf(orderIdBase, index), name: `#B${index}`, order_number: index + 1 });
    return {
      method: "POST",
      path: "/webhooks/orders/create",
      body,
      headers: {
        "content-type": "application/json",
        "x-shopify-topic": "orders/create",
        "x-shopify-hmac-sha256": createHmac("sha256", secret).update(body, "utf8").digest("base64"),
        "x-shopify-shop-domain": shop,
        "x-shopify-api-version": "2026-10",
        "x-shopify-webhook-id": webhookIdOf(prefix, index),
        "x-shopify-event-id": randomUUID(),
        "x-shopify-triggered-at": new Date().toISOString(),
      },
    };
  };
}

/** The awb number `index` of a set the bench seeded under `prefix` (bench/measurements/tracking-sync.ts). */
export const awbOf = (prefix: string, index: number) => `${prefix}${String(index).padStart(6, "0")}`;

/** Shop of app/uninstalled delivery `index`: a shop each, so each delivery enqueues a job of its own. */
export const uninstalledShopOf = (prefix: string, index: number) => `${prefix}-${index}.myshopify.com`;

/** app/uninstalled, whose route claims the delivery and enqueues a job in one transaction, as orders/create does. */
function appUninstalled({ secret, prefix }: Extract<RequestKind, { kind: "app-uninstalled-webhook" }>): RequestFactory {
  return (index) => {
    const shop = uninstalledShopOf(prefix, index);
    const body = JSON.stringify({ id: 548_380_009 + index, name: "Bench shop", email: "owner@example.com", domain: shop, myshopify_domain: shop, country_code: "IN", currency: "INR" });
    return {
      method: "POST",
      path: "/webhooks/app/uninstalled",
      body,
      headers: {
        "content-type": "application/json",
        "x-shopify-topic": "app/uninstalled",
        "x-shopify-hmac-sha256": createHmac("sha256", secret).update(body, "utf8").digest("base64"),
        "x-shopify-shop-domain": shop,
        "x-shopify-api-version": "2026-10",
        "x-shopify-webhook-id": webhookIdOf(prefix, index),
        "x-shopify-event-id": randomUUID(),
        "x-shopify-triggered-at": new Date().toISOString(),
      },
    };
  };
}

export function factoryFor(spec: RequestKind): RequestFactory {
  switch (spec.kind) {
    case "ping":
      return () => ({ method: "GET", path: "/ping", headers: {} });
    case "orders-create-webhook":
      return ordersCreate(spec);
    case "app-uninstalled-webhook":
      return appUninstalled(spec);
    case "create-order": {
      const headers = { "content-type": "application/json", "x-api-key": spec.apiKey, "x-secret-key": spec.secretKey };
      // test/support/orders.ts's Bengaluru order, dated today in India, under a unique order_id.
      return (index) => ({ method: "POST", path: "/v1/create-order", headers, body: JSON.stringify(sampleOrder({ order_id: `${spec.prefix}-${index}` })) });
    }
    case "calculate-rate": {
      const headers = { "content-type": "application/json", "x-api-key": spec.apiKey, "x-secret-key": spec.secretKey };
      const body = JSON.stringify({ shipment_type: "forward", payment_mode: "cod", pickup: 421302, delivery: 560038, length: 30, breadth: 25, height: 8, actual_weight: 0.9, amount: 2297 });
      return () => ({ method: "POST", path: "/v1/calculate-rate", headers, body });
    }
    case "storefront-estimate":
      // Signed when built, so each request's timestamp is fresh, as Shopify's are.
      return (index) => {
        const url = new URL(
          proxiedUrl({
            proxyUrl: "http://app/proxy",
            apiSecret: spec.secret,
            shop: spec.shop,
            pathPrefix: "/apps/dakiya",
            pathAndQuery: `/delivery-estimate?pincode=${spec.pinBase + (index % spec.pinCount)}&grams=450&amount=129900&locale=en`,
          }),
        );
        return { method: "GET", path: `${url.pathname}${url.search}`, headers: { accept: "application/json" } };
      };
    case "track-order": {
      // As the app's courier client (Node's fetch) asks: a compressed answer costs the service more than a plain one.
      const headers = { "x-api-key": spec.apiKey, "x-secret-key": spec.secretKey, "accept-encoding": "gzip, deflate" };
      return (index) => ({ method: "GET", path: `/v1/track-order/${encodeURIComponent(awbOf(spec.awbPrefix, index % spec.count))}`, headers });
    }
  }
}
