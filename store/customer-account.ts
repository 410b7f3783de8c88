import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { printActionsFor, type PrintAction } from "./admin-print-actions";
import { signCustomerAccountSessionToken, type AppCredentials } from "./auth";
import type { StoreOrder, StoreShop } from "./model";
import { escapeHtml } from "./shell-layout";
import type { StoreSimulator } from "./simulator";

/**
 * The shopper's side of an order: its order status page in the customer account (`/account/orders/{id}`, as the
 * signed-in customer who placed it, `?locale=hi` in Hindi), each fulfillment as Shopify lists it, and after each one
 * the app's customer account extensions for `customer-account.order-status.fulfillment-details.render-after` — their
 * own built bundles (extensions/{handle}/dist, `npm run build`), each in a frame with a small `shopify` global: the
 * fulfillment's id, the order, the shopper's language with the extension's translations, and session tokens signed
 * as Shopify signs them (`dest` the shop, `sub` the customer). `?customer=<gid>` opens the page as another customer
 * (to see what the app gives a token that is not the order's customer's); `?customer=` as nobody signed in.
 */

export const ORDER_STATUS_TARGET = "customer-account.order-status.fulfillment-details.render-after";
const FRAME_PREFIX = "/__shell/customer-extensions/";
const TOKEN_PATH = "/__shell/customer-session-token";
type Locale = "en" | "hi";

const EXTENSIONS_DIR = path.resolve("extensions");

interface CustomerExtension extends PrintAction {
  /** Each locale's messages, English the fallback. */
  locales: Record<Locale, PrintAction["messages"]>;
}

function customerExtensions(): CustomerExtension[] {
  return printActionsFor(ORDER_STATUS_TARGET).map((extension) => {
    const hindi = path.join(EXTENSIONS_DIR, extension.handle, "locales", "hi.json");
    return { ...extension, locales: { en: extension.messages, hi: existsSync(hindi) ? JSON.parse(readFileSync(hindi, "utf8")) : extension.messages } };
  });
}

const localeOf = (url: URL): Locale => (url.searchParams.get("locale") === "hi" ? "hi" : "en");

/** Whose account the page is opened in: the order's customer unless `customer` says (empty: nobody signed in). */
function customerOf(url: URL, order: StoreOrder): string | null {
  const asked = url.searchParams.get("customer");
  if (asked === null) return order.customer?.id ?? null;
  return /^gid:\/\/shopify\/Customer\/\d{1,20}$/.test(asked) ? asked : null;
}

/** Data for a script element: JSON that cannot close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

const FRAME_STYLE = `body{font:14px/1.5 system-ui,sans-serif;margin:0;color:#303030}
s-stack{display:flex;flex-direction:column;gap:8px}s-stack[direction=inline]{flex-direction:row;flex-wrap:wrap;align-items:center}
s-text,s-heading,s-link,s-spinner{display:block}s-badge{display:inline-block;padding:2px 8px;border-radius:8px;background:#e3e3e3;font-weight:600}
s-badge[tone=critical]{background:#fedad9;color:#8e0b21}s-ordered-list{display:block;padding-left:0}s-list-item{display:block;padding:6px 0;border-top:1px solid #ebebeb}
s-text[color=subdued]{color:#616161}s-text[type=strong]{font-weight:600}s-banner{display:block;padding:10px 12px;border-radius:10px;background:#fff1e3}`;

/**
 * Stand-ins for the customer account's components where a browser needs more than their text: a section's and a
 * banner's `heading` as a real heading, a link as a link, a button as a button (its click reaches the extension's
 * listener on the element), a spinner announced by its label.
 */
const ELEMENTS_SCRIPT = `(() => {
  const shadow = (name, html, heading) => customElements.define(name, class extends HTMLElement {
    static get observedAttributes() { return ["heading", "href", "accessibilitylabel"]; }
    connectedCallback() { if (!this.shadowRoot) { this.attachShadow({ mode: "open" }).innerHTML = html; } this.sync(); }
    attributeChangedCallback() { this.sync(); }
    sync() {
      const root = this.shadowRoot; if (!root) return;
      const h = root.querySelector("[data-heading]"); if (h) { h.textContent = this.getAttribute("heading") || ""; h.hidden = !this.getAttribute("heading"); }
      const a = root.querySelector("a"); if (a) { a.href = this.getAttribute("href") || "#"; a.target = this.getAttribute("target") || ""; }
      const label = this.getAttribute("accessibilitylabel") || this.accessibilityLabel; if (label && name === "s-spinner") { this.setAttribute("role", "progressbar"); this.setAttribute("aria-label", label); }
    }
  });
  shadow("s-section", '<section><h2 data-heading style="font-size:16px;margin:0 0 8px"></h2><slot></slot></section>');
  shadow("s-banner", '<div role="status"><h3 data-heading style="font-size:14px;margin:0 0 4px"></h3><slot></slot></div>');
  shadow("s-heading", '<h3 style="font-size:14px;margin:8px 0 0"><slot></slot></h3>');
  shadow("s-link", '<a><slot></slot></a>');
  shadow("s-button", '<button type="button" style="font:inherit;padding:6px 12px;border-radius:8px;border:1px solid #8a8a8a;background:#fff"><slot></slot></button>');
  shadow("s-spinner", '<span>…</span>');
})();`;

function framePage(extension: CustomerExtension, config: { shop: string; appUrl: string; fulfillmentId: string; order: { id: string; name: string }; customerGid: string | null; locale: Locale }): string {
  const settings = { ...config, target: ORDER_STATUS_TARGET, messages: extension.locales[config.locale], fallback: extension.locales.en, tokenUrl: `${TOKEN_PATH}?shop=${encodeURIComponent(config.shop)}&customer=${encodeURIComponent(config.customerGid ?? "")}` };
  return `<!doctype html><html lang="${config.locale}"><head><meta charset="utf-8"><title>${escapeHtml(extension.name)}</title><style>${FRAME_STYLE}</style>
<script>${ELEMENTS_SCRIPT}</script>
<script>(() => {
  const config = ${scriptJson(settings)};
  const appOrigin = new URL(config.appUrl).origin;
  const nativeFetch = window.fetch.bind(window);
  // The bundle calls the app at the address it was built for (production's, unless built with SHOPIFY_APP_URL):
  // its /api/ paths reach the app behind this store, as that address reaches the app in production.
  window.fetch = (input, init) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? String(input) : input.url, location.href);
    return url.pathname.startsWith("/api/") ? nativeFetch(appOrigin + url.pathname + url.search, init) : nativeFetch(input, init);
  };
  const intlLocale = config.locale === "hi" ? "hi-IN" : "en-IN";
  const plurals = new Intl.PluralRules(intlLocale);
  const lookup = (messages, key) => key.split(".").reduce((node, part) => (node && typeof node === "object" ? node[part] : undefined), messages);
  const translate = (key, values = {}) => {
    let message = lookup(config.messages, key) ?? lookup(config.fallback, key) ?? key;
    if (typeof message === "object") message = message[plurals.select(Number(values.count))] ?? message.other;
    return String(message).replace(/\\{\\{\\s*(\\w+)\\s*\\}\\}/g, (_, name) => (values[name] !== undefined ? String(values[name]) : ""));
  };
  const signal = (value) => ({ value, subscribe: () => () => undefined });
  window.shopify = {
    extension: { target: config.target },
    extensionPoint: config.target,
    fulfillmentId: config.fulfillmentId,
    order: signal(config.order),
    localization: { language: signal({ isoCode: intlLocale }) },
    authenticationState: signal(config.customerGid ? "fully_authenticated" : "pre_authenticated"),
    i18n: {
      translate,
      formatDate: (date, options) => new Intl.DateTimeFormat(intlLocale, { timeZone: "Asia/Kolkata", ...options }).format(date),
      formatNumber: (number, options) => new Intl.NumberFormat(intlLocale, options).format(number),
      formatCurrency: (number, options) => new Intl.NumberFormat(intlLocale, { style: "currency", currency: "INR", ...options }).format(number),
    },
    sessionToken: { get: () => nativeFetch(config.tokenUrl, { cache: "no-store" }).then((response) => response.text()) },
    requireLogin: async () => { window.top.location.search = "?shop=" + encodeURIComponent(config.shop) + "&signed-in=1"; },
    extend(target, run) { if (target === config.target) void run(); },
  };
  // The page sizes each frame to what the extension shows.
  new ResizeObserver(() => parent.postMessage({ dakiyaFrameHeight: document.documentElement.scrollHeight, fulfillmentId: config.fulfillmentId }, "*")).observe(document.documentElement);
})();</script>
<script src="/__shell/extensions/${escapeHtml(extension.handle)}/bundle.js?target=${encodeURIComponent(ORDER_STATUS_TARGET)}" defer></script>
</head><body></body></html>`;
}

const FULFILLMENT_STATUS: Record<string, string> = { DELIVERED: "Delivered", OUT_FOR_DELIVERY: "Out for delivery", IN_TRANSIT: "In transit", ATTEMPTED_DELIVERY: "Delivery attempted", FAILURE: "Not delivered" };

function statusPage(shop: StoreShop, order: StoreOrder, { customerGid, locale, extensions }: { customerGid: string | null; locale: Locale; extensions: CustomerExtension[] }): string {
  const query = (fulfillmentId: string) => new URLSearchParams({ shop: shop.domain, fulfillment: fulfillmentId, order: order.id, customer: customerGid ?? "", locale }).toString();
  const fulfillments = order.fulfillments
    .filter((fulfillment) => fulfillment.status === "SUCCESS")
    .map((fulfillment, index, all) => {
      const latest = [...fulfillment.events].sort((a, b) => b.happenedAt.localeCompare(a.happenedAt))[0];
      const tracking = fulfillment.trackingInfo.map((info) => `<p>${escapeHtml(info.company ?? "Carrier")} tracking number <strong>${escapeHtml(info.number ?? "")}</strong></p>`).join("");
      const frames = extensions
        .map((extension) => `<iframe class="customer-extension" data-fulfillment="${escapeHtml(fulfillment.id)}" title="${escapeHtml(extension.name)}" src="${FRAME_PREFIX}${escapeHtml(extension.handle)}/frame?${escapeHtml(query(fulfillment.id))}"></iframe>`)
        .join("");
      return `<section class="card" aria-label="Shipment ${index + 1} of ${all.length}"><h2>Shipment ${index + 1} of ${all.length}</h2>
        <p class="status">${escapeHtml(latest ? (FULFILLMENT_STATUS[latest.status] ?? latest.status) : "Shipped")}</p>${tracking}${frames}</section>`;
    })
    .join("");
  const shopper = customerGid === null ? "Not signed in" : customerGid === order.customer?.id ? "Signed in as the order's customer" : "Signed in as another customer";
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>Order ${escapeHtml(order.name)} · ${escapeHtml(shop.name)}</title>
<style>body{margin:0;font:14px system-ui,sans-serif;background:#f5f5f5;color:#303030}header{background:#fff;padding:12px 24px;border-bottom:1px solid #e3e3e3;display:flex;gap:12px;align-items:center}
main{max-width:720px;margin:0 auto;padding:20px}.card{background:#fff;border-radius:12px;padding:16px;margin-bottom:16px;box-shadow:0 0 0 1px rgba(0,0,0,.06)}
.card h2{font-size:16px;margin:0 0 4px}.status{font-weight:600;margin:0 0 4px}.muted{color:#616161}iframe.customer-extension{display:block;width:100%;border:0;height:80px;margin-top:12px}</style></head>
<body><header><strong>${escapeHtml(shop.name)}</strong><span class="muted">${escapeHtml(shopper)}</span></header>
<main><h1>Order ${escapeHtml(order.name)}</h1>${fulfillments || `<section class="card"><p>Not shipped yet.</p></section>`}</main>
<script>addEventListener("message", (event) => {
  const { dakiyaFrameHeight, fulfillmentId } = event.data || {};
  if (typeof dakiyaFrameHeight !== "number") return;
  for (const frame of document.querySelectorAll("iframe.customer-extension")) if (frame.contentWindow === event.source) frame.style.height = Math.min(dakiyaFrameHeight, 2000) + "px";
});</script></body></html>`;
}

const html = (body: string, status = 200) => new Response(body, { status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
const text = (body: string, status = 200) => new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/** The order status pages' handler: an answer for their addresses, null for anything else. */
export function createOrderStatusPages({ simulator, appUrl, app }: { simulator: StoreSimulator; appUrl: string; app: AppCredentials }) {
  const appOrigin = new URL(appUrl).origin;
  return function handle(request: Request, shopDomain: string): Response | null {
    const url = new URL(request.url);
    const shop = simulator.shops.get(shopDomain);
    if (url.pathname === TOKEN_PATH) {
      if (!shop) return text("Unknown shop", 404);
      const customer = url.searchParams.get("customer") || null;
      return text(signCustomerAccountSessionToken(app, shop.domain, customer && /^gid:\/\/shopify\/Customer\/\d{1,20}$/.test(customer) ? customer : null));
    }
    const frame = url.pathname.startsWith(FRAME_PREFIX) ? /^([\w-]+)\/frame$/.exec(url.pathname.slice(FRAME_PREFIX.length)) : null;
    const page = /^\/account\/orders\/(\d{1,20})\/?$/.exec(url.pathname);
    if (!frame && !page) return null;
    if (!shop) return text(`No shop ${shopDomain} in the simulator`, 404);
    if (frame) {
      const extension = customerExtensions().find((candidate) => candidate.handle === frame[1]);
      const order = shop.orders.find((candidate) => candidate.id === url.searchParams.get("order"));
      const fulfillmentId = url.searchParams.get("fulfillment") ?? "";
      if (!extension || !order || !order.fulfillments.some((fulfillment) => fulfillment.id === fulfillmentId)) return text("Not found", 404);
      return html(framePage(extension, { shop: shop.domain, appUrl: appOrigin, fulfillmentId, order: { id: order.id, name: order.name }, customerGid: customerOf(url, order), locale: localeOf(url) }));
    }
    const order = shop.orders.find((candidate) => candidate.legacyResourceId === page![1]);
    if (!order) return html(`<!doctype html><title>Order not found</title><h1>Order not found</h1>`, 404);
    return html(statusPage(shop, order, { customerGid: customerOf(url, order), locale: localeOf(url), extensions: customerExtensions() }));
  };
}
