import { signSessionToken, type AppCredentials } from "./auth";

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

function shellPage(shop: string, shopName: string, frameSrc: string): string {
  const links = [
    ["Home", "/app"],
    ["Orders to ship", "/app/orders"],
    ["Shipments", "/app/shipments"],
    ["Needs attention", "/app/attention"],
    ["Auto-booking", "/app/auto-booking"],
    ["Settings", "/app/settings"],
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${shopName} · Admin (local)</title>
<style>
  body { margin: 0; font: 14px system-ui, sans-serif; background: #f1f1f1; display: grid; grid-template: 48px 1fr / 220px 1fr; height: 100vh; }
  header { grid-column: 1 / 3; background: #1a1a1a; color: #fff; display: flex; align-items: center; padding: 0 16px; gap: 12px; }
  nav { padding: 12px; } nav a { display: block; padding: 8px 10px; color: #303030; text-decoration: none; border-radius: 8px; } nav a:hover { background: #e3e3e3; }
  iframe { border: 0; width: 100%; height: 100%; background: #f1f1f1; }
</style></head>
<body>
  <header><strong>${shopName}</strong><span style="opacity:.7">${shop} · local Shopify admin (store simulator)</span></header>
  <nav aria-label="Dakiya">${links.map(([label, path]) => `<a href="#" data-path="${path}">${label}</a>`).join("")}</nav>
  <main><iframe id="app" title="Dakiya" src="${frameSrc}"></iframe></main>
  <script>
    for (const link of document.querySelectorAll("nav a")) link.addEventListener("click", async (event) => {
      event.preventDefault();
      const token = await fetch("/__shell/session-token?shop=${encodeURIComponent(shop)}").then((r) => r.text());
      document.getElementById("app").src = link.dataset.path + "?embedded=1&shop=${encodeURIComponent(shop)}&host=${encodeURIComponent(Buffer.from(`${shop}/admin`).toString("base64url"))}&id_token=" + token;
    });
  </script>
</body></html>`;
}

export interface AdminShellOptions {
  app: AppCredentials;
  /** Where the app itself serves, e.g. http://localhost:3000. */
  appUrl: string;
  shopName: (shop: string) => string | undefined;
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
    if (url.pathname === "/admin" || url.pathname === "/") {
      const shopName = options.shopName(shop);
      if (!shopName) return new Response(`No shop ${shop} in the simulator`, { status: 404 });
      const host = Buffer.from(`${shop}/admin`).toString("base64url");
      const frameSrc = `/app?embedded=1&shop=${encodeURIComponent(shop)}&host=${host}&id_token=${signSessionToken(options.app, shop)}`;
      return new Response(shellPage(shop, shopName, frameSrc), { headers: { "Content-Type": "text/html; charset=utf-8" } });
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
