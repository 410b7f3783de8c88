import { createOrderPages } from "./admin-orders";
import { signSessionToken, type AppCredentials } from "./auth";
import { escapeHtml, hostOf, isAppPath, shellLayout } from "./shell-layout";
import type { StoreSimulator } from "./simulator";

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

/** The admin with the app framed in it; the navigation's app links load their page into the frame, as the admin's do. */
function shellPage(shop: string, shopName: string, frameSrc: string, localeQuery: string): string {
  const main = `<iframe id="app" title="Dakiya" src="${escapeHtml(frameSrc)}"></iframe>`;
  const script = `<script>
    for (const link of document.querySelectorAll("nav a[data-path]")) link.addEventListener("click", async (event) => {
      event.preventDefault();
      const token = await fetch("/__shell/session-token?shop=${encodeURIComponent(shop)}").then((r) => r.text());
      document.getElementById("app").src = link.dataset.path + "?embedded=1&shop=${encodeURIComponent(shop)}&host=${encodeURIComponent(hostOf(shop))}${localeQuery}&id_token=" + token;
    });
  </script>`;
  return shellLayout({ shop, shopName, title: "Dakiya", current: "app", main, scripts: script, framed: true });
}

export interface AdminShellOptions {
  app: AppCredentials;
  /** Where the app itself serves, e.g. http://localhost:3000. */
  appUrl: string;
  shopName: (shop: string) => string | undefined;
  defaultShop: string;
  /** The store behind the shell's own order pages (/admin/orders); without it they are not served. */
  simulator?: StoreSimulator;
}

/**
 * The Shopify admin, locally: GET /admin frames the app as the admin does (embedded=1, shop, host,
 * id_token, and the admin's language as `locale` when `?locale=hi` is given), at `?app=<path>` when given. The app is served through this origin so its script can be
 * swapped for the shim and its frame-ancestors admit this shell; nothing of this reaches the app's code.
 * The admin's own Orders pages (store/admin-orders.ts) show Dakiya's order-page extensions.
 */
export function createAdminShell(options: AdminShellOptions) {
  const appOrigin = new URL(options.appUrl).origin;
  const orderPages = options.simulator ? createOrderPages({ simulator: options.simulator, appUrl: options.appUrl }) : null;

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
    if (url.pathname === "/admin" || url.pathname === "/") {
      const shopName = options.shopName(shop);
      if (!shopName) return new Response(`No shop ${shop} in the simulator`, { status: 404 });
      const requested = url.searchParams.get("app") ?? "/app";
      const appPath = isAppPath(requested) ? requested : "/app";
      // The admin's language, as Shopify passes it to an embedded app on every load of its frame: `/admin?locale=hi`.
      const locale = url.searchParams.get("locale");
      const localeQuery = locale && /^[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{2,8})?$/.test(locale) ? `&locale=${locale}` : "";
      const frameSrc = `${appPath}?embedded=1&shop=${encodeURIComponent(shop)}&host=${hostOf(shop)}${localeQuery}&id_token=${signSessionToken(options.app, shop)}`;
      return new Response(shellPage(shop, shopName, frameSrc, localeQuery), { headers: { "Content-Type": "text/html; charset=utf-8" } });
    }
    if (url.pathname === "/__shell/session-token") {
      if (!options.shopName(shop)) return new Response("Unknown shop", { status: 404 });
      return new Response(signSessionToken(options.app, shop), { headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
    }
    if (url.pathname === SHIM_PATH) return new Response(shimScript(shop), { headers: { "Content-Type": "text/javascript; charset=utf-8" } });
    const orderPage = await orderPages?.(request, shop);
    if (orderPage) return orderPage;
    if (/^\/[a-z0-9-]+\.myshopify\.com\//.test(url.pathname)) return null;
    return proxy(request);
  };
}
