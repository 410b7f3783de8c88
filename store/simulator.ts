import { randomBytes } from "node:crypto";
import { runAdminGraphql, type GraphqlRequest, type StoreEvent, type ThrottleSettings } from "./admin-api";
import { ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS, verifySessionToken, type AppCredentials } from "./auth";
import type { StoreOrder, StoreShop } from "./model";
import { orderMutations } from "./order-mutations";
import { payInvoice } from "./order-payments";
import { seedShop } from "./seed";
import { findReturn, returnMutations } from "./returns";
import { runAction, setWorkflow } from "./flow";
import { asSubscribed, deliverWebhook, orderPayload, returnPayload, shopPayload, type DeliveryReport } from "./webhooks";

export interface StoreSimulatorOptions {
  app: AppCredentials;
  /** Where the app serves its webhooks, e.g. http://localhost:3000. */
  appUrl: string;
  throttle?: Partial<ThrottleSettings>;
  now?: () => Date;
  shops?: StoreShop[];
  /** Waits before redelivering a webhook the app did not accept (Shopify: 8 tries over 4 hours). */
  webhookRetryDelaysMs?: number[];
  /**
   * Called, synchronously and before the answer goes out, after anything changed a shop: tokens issued, a mutation
   * run, an order placed or cancelled. What the app was told is then already saved (store/store-state.ts).
   */
  onChange?: () => void;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

async function readBody(request: Request): Promise<Record<string, string>> {
  const text = await request.text();
  if ((request.headers.get("content-type") ?? "").includes("application/json")) return JSON.parse(text || "{}");
  return Object.fromEntries(new URLSearchParams(text));
}

/**
 * A local Shopify for tests and the demo: token exchange, the Admin GraphQL API on Shopify's
 * published 2026-10 schema, cost and throttling, and signed webhooks. Shops are addressed as
 * `/{shop-domain}/admin/...`, where the fetch redirect (redirect-fetch.ts) sends `https://{shop}/admin/...`.
 */
export function createStoreSimulator(options: StoreSimulatorOptions) {
  const now = options.now ?? (() => new Date());
  const throttle: ThrottleSettings = { maximumAvailable: 2_000, restoreRate: 100, ...options.throttle };
  const shops = new Map<string, StoreShop>((options.shops ?? [seedShop()]).map((shop) => [shop.domain, shop]));
  const changed = () => options.onChange?.();

  function issueTokens(shop: StoreShop, expiring: boolean) {
    const accessToken = `shpat_${randomBytes(16).toString("hex")}`;
    const expiresAt = expiring ? now().getTime() + ACCESS_TOKEN_SECONDS * 1000 : Number.POSITIVE_INFINITY;
    shop.accessTokens.set(accessToken, { scope: options.app.scopes, expiresAt });
    if (!expiring) {
      changed();
      return { access_token: accessToken, scope: options.app.scopes };
    }
    const refreshToken = `shprt_${randomBytes(16).toString("hex")}`;
    shop.refreshTokens.set(refreshToken, { expiresAt: now().getTime() + REFRESH_TOKEN_SECONDS * 1000 });
    changed();
    return { access_token: accessToken, scope: options.app.scopes, expires_in: ACCESS_TOKEN_SECONDS, refresh_token: refreshToken, refresh_token_expires_in: REFRESH_TOKEN_SECONDS };
  }

  async function accessToken(shop: StoreShop, request: Request): Promise<Response> {
    const body = await readBody(request);
    if (body.client_id !== options.app.apiKey || body.client_secret !== options.app.apiSecret) {
      return json(401, { error: "invalid_client", error_description: "Client credentials are invalid" });
    }
    if (body.grant_type === "urn:ietf:params:oauth:grant-type:token-exchange") {
      const verified = verifySessionToken(options.app, body.subject_token ?? "", now().getTime());
      if ("error" in verified) return json(400, { error: "invalid_subject_token", error_description: verified.error });
      if (verified.shop !== shop.domain) return json(400, { error: "invalid_subject_token", error_description: "subject_token is for another shop" });
      return json(200, issueTokens(shop, body.expiring === "1"));
    }
    if (body.grant_type === "refresh_token") {
      const refresh = shop.refreshTokens.get(body.refresh_token ?? "");
      if (!refresh || refresh.expiresAt < now().getTime()) return json(400, { error: "invalid_grant", error_description: "refresh_token is invalid or expired" });
      shop.refreshTokens.delete(body.refresh_token!);
      return json(200, issueTokens(shop, true));
    }
    return json(400, { error: "unsupported_grant_type" });
  }

  async function graphql(shop: StoreShop, request: Request): Promise<Response> {
    const token = shop.accessTokens.get(request.headers.get("x-shopify-access-token") ?? "");
    if (!token || token.expiresAt < now().getTime()) {
      return json(401, { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" });
    }
    let body: GraphqlRequest;
    try {
      body = (await request.json()) as GraphqlRequest;
    } catch {
      return json(400, { errors: { query: "Required parameter missing or invalid" } });
    }
    requests += 1;
    const answer = await runAdminGraphql(shop, body, { throttle, now, emit: (event) => void sendEvent(shop, event) });
    if (answer.mutated) changed();
    return json(answer.status, answer.body);
  }

  let requests = 0;
  // Deliveries of the webhooks mutations cause, as Shopify sends them: after the answer, retried on failure.
  const inFlight = new Set<Promise<DeliveryReport>>();
  const deliveries: (DeliveryReport & { topic: StoreEvent["topic"]; orderId: string; returnId?: string })[] = [];
  function sendEvent(shop: StoreShop, event: StoreEvent): Promise<DeliveryReport> {
    const delivery = deliverWebhook({
      appUrl: options.appUrl,
      apiSecret: options.app.apiSecret,
      shop: shop.domain,
      topic: event.topic,
      payload: asSubscribed(event.topic, "return" in event ? returnPayload(event.order, event.return) : orderPayload(event.order)),
      retryDelaysMs: options.webhookRetryDelaysMs ?? [1_000, 5_000, 30_000],
    }).then((report) => {
      deliveries.push({ ...report, topic: event.topic, orderId: event.order.id, ...("return" in event ? { returnId: event.return.id } : {}) });
      return report;
    });
    inFlight.add(delivery);
    void delivery.finally(() => inFlight.delete(delivery));
    return delivery;
  }

  return {
    shops,
    throttle,
    /** Reports of the webhooks mutations (and shoppers' orders) caused, once delivered (or given up), with the order each was about. */
    deliveries,
    /** Admin API requests answered (any shop): proof that a screen asked Shopify nothing. */
    get requests() {
      return requests;
    },
    /**
     * A shopper places an order (Shopify's orderCreate input): it is added and orders/create goes to the app.
     * Not charged to the app's cost budget, as a shopper's checkout is not.
     */
    placeOrder(domain: string, input: unknown): StoreOrder {
      const shop = this.shop(domain);
      const answer = orderMutations(shop, { now, emit: (event) => void sendEvent(shop, event) }).orderCreate({ order: input }) as { order: { id: string } | null; userErrors: { message: string }[] };
      if (!answer.order) throw new Error(`The store refused the order: ${answer.userErrors.map((error) => error.message).join("; ")}`);
      changed();
      return shop.orders.find((order) => order.id === answer.order!.id)!;
    },
    /**
     * The shopper pays an invoice Shopify e-mailed them (orderInvoiceSend) through its link: the order is paid and
     * orders/paid goes to the app. Null when the token is no invoice's or the order can no longer be paid.
     */
    payInvoice(domain: string, token: string): StoreOrder | null {
      const shop = this.shop(domain);
      const paid = payInvoice(shop, token, { now, emit: (event) => void sendEvent(shop, event) });
      if (paid) changed();
      return paid;
    },
    /** The merchant cancels an order in the admin: orders/cancelled goes to the app. */
    cancelOrder(domain: string, orderGid: string, reason = "CUSTOMER"): StoreOrder {
      const shop = this.shop(domain);
      const answer = orderMutations(shop, { now, emit: (event) => void sendEvent(shop, event) }).orderCancel({ orderId: orderGid, reason, restock: true }) as { orderCancelUserErrors: { message: string }[] };
      if (answer.orderCancelUserErrors.length > 0) throw new Error(`The store refused to cancel: ${answer.orderCancelUserErrors[0]!.message}`);
      changed();
      return shop.orders.find((order) => order.id === orderGid)!;
    },
    /**
     * A shopper or the merchant acts on returns in Shopify (not through the app's token, so not charged to its cost
     * budget): `returnRequest` from the shopper's account, `returnApproveRequest`, `returnDeclineRequest`,
     * `returnCreate`, `returnCancel`, `returnClose` from the admin. Takes the mutation's arguments as the schema names
     * them; the returns/* webhook Shopify sends for it goes to the app. Returns the return's id.
     */
    returnAction(
      domain: string,
      action: "returnRequest" | "returnApproveRequest" | "returnDeclineRequest" | "returnCreate" | "returnCancel" | "returnClose",
      args: Record<string, unknown>,
    ): string {
      const shop = this.shop(domain);
      const answer = returnMutations(shop, { now, emit: (event) => void sendEvent(shop, event) })[action](args) as unknown as { return: { id: string } | null; userErrors: { message: string }[] };
      if (!answer.return) throw new Error(`The store refused ${action}: ${answer.userErrors.map((error) => error.message).join("; ")}`);
      changed();
      return answer.return.id;
    },
    /**
     * The merchant uninstalls the app: as at Shopify, every access and refresh token the app holds for the shop stops
     * working at once (the Admin API answers 401, a refresh is an invalid grant), then app/uninstalled goes out.
     */
    uninstallApp(domain: string, options2: { webhookId?: string; retryDelaysMs?: number[] } = {}): Promise<DeliveryReport> {
      const shop = this.shop(domain);
      shop.accessTokens.clear();
      shop.refreshTokens.clear();
      changed();
      return this.deliver("app/uninstalled", domain, options2);
    },
    /**
     * The merchant turns on (or off) a Shopify Flow workflow that starts with one of the app's triggers: Flow's
     * trigger lifecycle callback goes to the app, and the workflow is on once the app took it (store/flow.ts).
     */
    async setFlowWorkflow(domain: string, trigger: string, enabled = true): Promise<Response> {
      const answer = await setWorkflow(this.shop(domain), trigger, enabled, { appUrl: options.appUrl, apiSecret: options.app.apiSecret, now });
      changed();
      return answer;
    },
    /** A workflow of the shop reaches one of the app's Flow actions: the run goes to the action's runtime URL, signed. */
    runFlowAction(domain: string, action: string, properties: Record<string, unknown>, options2: { actionRunId?: string } = {}): Promise<Response> {
      return runAction(this.shop(domain), action, properties, { appUrl: options.appUrl, apiSecret: options.app.apiSecret, now, ...options2 });
    },
    /** Waits for every webhook delivery in flight. */
    async settled(): Promise<void> {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    shop(domain: string): StoreShop {
      const shop = shops.get(domain);
      if (!shop) throw new Error(`The simulator has no shop ${domain}`);
      return shop;
    },
    addShop(shop: StoreShop) {
      shops.set(shop.domain, shop);
      changed();
      return shop;
    },

    async handle(request: Request): Promise<Response> {
      const url = new URL(request.url);
      const match = url.pathname.match(/^\/([a-z0-9][a-z0-9-]*\.myshopify\.com)(\/.*)$/);
      if (!match) return json(404, { errors: "Not Found" });
      const shop = shops.get(match[1]!);
      if (!shop) return json(404, { errors: "Not Found" });
      const path = match[2]!;
      if (request.method === "POST" && path === "/admin/oauth/access_token") return accessToken(shop, request);
      if (request.method === "POST" && path === "/admin/api/2026-10/graphql.json") return graphql(shop, request);
      if (/^\/admin\/api\/[^/]+\/graphql\.json$/.test(path)) return json(404, { errors: "This simulator serves the Admin API version 2026-10 only" });
      return json(404, { errors: "Not Found" });
    },

    /** Sends a topic for an order (orders/*), a return (returns/*) or a shop (app/uninstalled, compliance) to the app. */
    deliver(
      topic: string,
      shopDomain: string,
      options2: { orderId?: string; returnId?: string; payload?: unknown; webhookId?: string; triggeredAt?: string; retryDelaysMs?: number[] } = {},
    ): Promise<DeliveryReport> {
      const shop = this.shop(shopDomain);
      const order = options2.orderId ? shop.orders.find((candidate) => candidate.id === options2.orderId) : undefined;
      const returned = options2.returnId ? findReturn(shop, options2.returnId) : undefined;
      const payload =
        options2.payload ??
        (returned ? asSubscribed(topic, returnPayload(returned.order, returned.ret)) : order ? asSubscribed(topic, orderPayload(order)) : shopPayload(shop));
      return deliverWebhook({
        appUrl: options.appUrl,
        apiSecret: options.app.apiSecret,
        shop: shop.domain,
        topic,
        payload,
        webhookId: options2.webhookId,
        // An earlier time delivered later is how Shopify's out-of-order deliveries look.
        triggeredAt: options2.triggeredAt,
        retryDelaysMs: options2.retryDelaysMs,
      });
    },
  };
}

export type StoreSimulator = ReturnType<typeof createStoreSimulator>;
