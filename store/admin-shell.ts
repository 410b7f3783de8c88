import { isSafeTrackingUrl } from "../app/shipping/tracking-url";
import { signSessionToken, type AppCredentials } from "./auth";
import type { StoreOrder } from "./model";
import { displayFulfillmentStatus } from "./views";

const APP_BRIDGE_CDN = "https://cdn.shopify.com/shopifycloud/app-bridge.js";
const SHIM_PATH = "/__shell/app-bridge.js";

/**
 * Stands in for App Bridge's CDN script, which cannot load offline: session tokens from the
 * simulator, the Authorization header on the app's own fetches (as App Bridge adds it), the
 * bounce page's reload, and toasts.
 */
function shimScript(shop: string): string {
  return `(() => {
  const shop = ${JSON.stringify(shop)};
  const token = () => fetch("/__shell/session-token?shop=" + encodeURIComponent(shop), { cache: "no-store" }).then((r) => r.text());
  const nativeFetch = window.fetch.bind(window);
  window.fetch = async (input, init = {}) => {
    const url = new URL(typeof input === "string" ? input : input.url, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith("/__shell/")) return nativeFetch(input, init);
    const headers = new Headers(init.headers || (typeof input === "string" ? undefined : input.headers));
    headers.set("Authorization", "Bearer " + (await token()));
    return nativeFetch(input, { ...init, headers });
  };
  // App Bridge moves the app's <ui-nav-menu> into the admin's navigation; the shell has its own.
  customElements.define("ui-nav-menu", class extends HTMLElement { connectedCallback() { this.hidden = true; } });
  const reload = new URLSearchParams(location.search).get("shopify-reload");
  if (reload) {
    token().then((idToken) => {
      const target = new URL(reload, location.href);
      target.searchParams.set("id_token", idToken);
      location.replace(target.pathname + target.search);
    });
  }
  window.shopify = {
    config: { shop, apiKey: document.querySelector("script[data-api-key]")?.dataset.apiKey },
    idToken: token,
    toast: {
      show(message) {
        const note = document.createElement("div");
        note.textContent = message;
        note.setAttribute("role", "status");
        note.style.cssText = "position:fixed;bottom:24px;left:50%;transform:translateX(-50%);background:#303030;color:#fff;padding:10px 16px;border-radius:10px;font:14px system-ui;z-index:9999";
        document.body.appendChild(note);
        setTimeout(() => note.remove(), 4000);
      },
    },
    loading() {},
  };
})();`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const APP_LINKS = [
  ["Home", "/app"],
  ["Orders to ship", "/app/orders"],
  ["Shipments", "/app/shipments"],
  ["Needs attention", "/app/attention"],
  ["Auto-booking", "/app/auto-booking"],
  ["Settings", "/app/settings"],
];

/** The admin's frame around either the app (an iframe, as the admin embeds it) or one of the admin's own pages. */
function shellPage(shop: string, shopName: string, main: string): string {
  const query = (path: string) => `?shop=${encodeURIComponent(shop)}&path=${encodeURIComponent(path)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(shopName)} · Admin (local)</title>
<style>
  body { margin: 0; font: 14px system-ui, sans-serif; background: #f1f1f1; display: grid; grid-template: 48px 1fr / 220px 1fr; height: 100vh; }
  header { grid-column: 1 / 3; background: #1a1a1a; color: #fff; display: flex; align-items: center; padding: 0 16px; gap: 12px; }
  nav { padding: 12px; } nav a { display: block; padding: 8px 10px; color: #303030; text-decoration: none; border-radius: 8px; } nav a:hover { background: #e3e3e3; }
  nav h2 { font-size: 12px; font-weight: 600; color: #616161; margin: 12px 10px 4px; }
  iframe { border: 0; width: 100%; height: 100%; background: #f1f1f1; }
  .page { padding: 20px 28px; overflow: auto; } .card { background: #fff; border-radius: 12px; padding: 16px; margin-bottom: 16px; box-shadow: 0 1px 0 #0000001a; }
  table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 8px; border-bottom: 1px solid #ebebeb; } .muted { color: #616161; }
</style></head>
<body>
  <header><strong>${escapeHtml(shopName)}</strong><span style="opacity:.7">${shop} · local Shopify admin (store simulator)</span></header>
  <nav aria-label="Admin">
    <h2>Shopify</h2><a href="/admin/orders?shop=${encodeURIComponent(shop)}">Orders</a>
    <h2>Dakiya</h2>${APP_LINKS.map(([label, path]) => `<a href="/admin${query(path!)}" data-path="${path}">${label}</a>`).join("")}
  </nav>
  <main${main.startsWith("<iframe") ? "" : ' class="page"'}>${main}</main>
  <script>
    const frame = document.getElementById("app");
    // Inside the app, a link of the navigation loads its page into the frame with a fresh session token, as the admin does.
    if (frame) for (const link of document.querySelectorAll("nav a[data-path]")) link.addEventListener("click", async (event) => {
      event.preventDefault();
      const token = await fetch("/__shell/session-token?shop=${encodeURIComponent(shop)}").then((r) => r.text());
      frame.src = link.dataset.path + "?embedded=1&shop=${encodeURIComponent(shop)}&host=${encodeURIComponent(Buffer.from(`${shop}/admin`).toString("base64url"))}&id_token=" + token;
    });
  </script>
</body></html>`;
}

const titleCase = (status: string) => status.charAt(0) + status.slice(1).toLowerCase().replaceAll("_", " ");
const orderLink = (shop: string, order: StoreOrder) => `<a href="/admin/orders/${order.legacyResourceId}?shop=${encodeURIComponent(shop)}">${escapeHtml(order.name)}</a>`;

/** Shopify's order list, as far as shipping goes: what is fulfilled and how each order is tagged. */
function ordersPage(shop: string, orders: readonly StoreOrder[]): string {
  const rows = [...orders]
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .map((order) => `<tr><td>${orderLink(shop, order)}</td><td>${order.createdAt.slice(0, 10)}</td><td>${titleCase(order.displayFinancialStatus)}</td><td>${order.cancelledAt ? "Cancelled" : titleCase(displayFulfillmentStatus(order))}</td><td>${escapeHtml(order.tags.join(", "))}</td></tr>`);
  return `<h1>Orders</h1><div class="card"><table><thead><tr><th>Order</th><th>Date</th><th>Payment</th><th>Fulfillment</th><th>Tags</th></tr></thead><tbody>${rows.join("")}</tbody></table></div>`;
}

/**
 * Shopify's order page, for its fulfillments: each with its carrier, tracking number and link, and the shipping
 * events posted to it, which is what Shopify shows the shopper. The shopper's address stays out: it is not what
 * this page is for.
 */
function orderPage(order: StoreOrder): string {
  const fulfillments = order.fulfillments.map((fulfillment) => {
    const tracking = fulfillment.trackingInfo
      .map((info) => {
        const number = escapeHtml(info.number ?? "");
        const link = info.url && isSafeTrackingUrl(info.url) ? ` · <a href="${escapeHtml(info.url)}">${escapeHtml(info.url)}</a>` : "";
        return `<p>${escapeHtml(info.company ?? "Other")} · tracking number <strong>${number}</strong>${link}</p>`;
      })
      .join("");
    const events = fulfillment.events
      .map((event) => `<tr><td>${event.happenedAt.slice(0, 16).replace("T", " ")}</td><td>${titleCase(event.status)}</td><td>${escapeHtml(event.message ?? "")}</td><td>${escapeHtml(event.city ?? "")}</td></tr>`)
      .join("");
    return `<div class="card"><h2>${escapeHtml(fulfillment.name)} · ${titleCase(fulfillment.status)}</h2>${tracking}${
      events ? `<table><thead><tr><th>When (UTC)</th><th>Event</th><th>Message</th><th>City</th></tr></thead><tbody>${events}</tbody></table>` : '<p class="muted">No shipping events yet.</p>'
    }</div>`;
  });
  const metafields = order.metafields.map((field) => `<tr><td>${escapeHtml(`${field.namespace}.${field.key}`)}</td><td>${escapeHtml(field.value)}</td></tr>`).join("");
  return `<h1>Order ${escapeHtml(order.name)}</h1>
<div class="card"><p>${titleCase(order.displayFinancialStatus)} · ${order.cancelledAt ? "Cancelled" : titleCase(displayFulfillmentStatus(order))} · tags: ${escapeHtml(order.tags.join(", ") || "none")}</p></div>
${fulfillments.join("") || '<div class="card"><p class="muted">Not fulfilled yet.</p></div>'}
${metafields ? `<div class="card"><h2>Metafields</h2><table><tbody>${metafields}</tbody></table></div>` : ""}`;
}

export interface AdminShellOptions {
  app: AppCredentials;
  /** Where the app itself serves, e.g. http://localhost:3000. */
  appUrl: string;
  shopName: (shop: string) => string | undefined;
  /** The shop's orders, for the admin's own order pages. */
  shopOrders: (shop: string) => readonly StoreOrder[] | undefined;
  defaultShop: string;
}

/**
 * The Shopify admin, locally: GET /admin frames the app as the admin does (embedded=1, shop, host,
 * id_token). The app is served through this origin so its script can be swapped for the shim and
 * its frame-ancestors admit this shell; nothing of this reaches the app's code.
 */
export function createAdminShell(options: AdminShellOptions) {
  const appOrigin = new URL(options.appUrl).origin;

  async function proxy(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    headers.delete("host");
    // As any reverse proxy does: the app sees the host the browser addressed (its own checks of a form's origin
    // compare against it).
    headers.set("X-Forwarded-Host", url.host);
    const upstream = await fetch(`${appOrigin}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      body: request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer(),
      redirect: "manual",
    });
    const responseHeaders = new Headers(upstream.headers);
    responseHeaders.delete("content-encoding");
    responseHeaders.delete("content-length");
    responseHeaders.set("Content-Security-Policy", "frame-ancestors 'self';");
    const location = responseHeaders.get("location");
    if (location?.startsWith(appOrigin)) responseHeaders.set("location", location.slice(appOrigin.length) || "/");
    if (!(upstream.headers.get("content-type") ?? "").includes("text/html")) {
      return new Response(upstream.body, { status: upstream.status, headers: responseHeaders });
    }
    const html = (await upstream.text()).replaceAll(APP_BRIDGE_CDN, SHIM_PATH);
    responseHeaders.delete("link");
    return new Response(html, { status: upstream.status, headers: responseHeaders });
  }

  return async function handle(request: Request): Promise<Response | null> {
    const url = new URL(request.url);
    const shop = url.searchParams.get("shop") ?? options.defaultShop;
    const html = (body: string, status = 200) => new Response(body, { status, headers: { "Content-Type": "text/html; charset=utf-8" } });
    if (url.pathname === "/admin" || url.pathname === "/" || url.pathname.startsWith("/admin/orders")) {
      const shopName = options.shopName(shop);
      const orders = options.shopOrders(shop);
      if (!shopName || !orders) return new Response(`No shop ${shop} in the simulator`, { status: 404 });
      if (url.pathname === "/admin/orders") return html(shellPage(shop, shopName, ordersPage(shop, orders)));
      const orderId = /^\/admin\/orders\/(\d+)$/.exec(url.pathname)?.[1];
      if (orderId) {
        const order = orders.find((candidate) => candidate.legacyResourceId === orderId);
        return order ? html(shellPage(shop, shopName, orderPage(order))) : html(shellPage(shop, shopName, "<h1>No such order</h1>"), 404);
      }
      // The app's page to open: one of its own addresses, as a link of the navigation names it.
      const appPath = url.searchParams.get("path") ?? "/app";
      const framed = /^\/app(\/[\w-]+)*$/.test(appPath) ? appPath : "/app";
      const host = Buffer.from(`${shop}/admin`).toString("base64url");
      const frameSrc = `${framed}?embedded=1&shop=${encodeURIComponent(shop)}&host=${host}&id_token=${signSessionToken(options.app, shop)}`;
      return html(shellPage(shop, shopName, `<iframe id="app" title="Dakiya" src="${frameSrc}"></iframe>`));
    }
    if (url.pathname === "/__shell/session-token") {
      if (!options.shopName(shop)) return new Response("Unknown shop", { status: 404 });
      return new Response(signSessionToken(options.app, shop), { headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
    }
    if (url.pathname === SHIM_PATH) return new Response(shimScript(shop), { headers: { "Content-Type": "text/javascript; charset=utf-8" } });
    if (/^\/[a-z0-9-]+\.myshopify\.com\//.test(url.pathname)) return null;
    return proxy(request);
  };
}
