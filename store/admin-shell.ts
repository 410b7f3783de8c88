import { request as httpRequest } from "node:http";
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from "node:zlib";
import { createOrderPages } from "./admin-orders";
import { createOrderStatusPages } from "./customer-account";
import { signSessionToken, type AppCredentials } from "./auth";
import { headersOf } from "./serve-fetch";
import { escapeHtml, hostOf, isAppPath, shellLayout } from "./shell-layout";
import type { StoreSimulator } from "./simulator";

const APP_BRIDGE_CDN = "https://cdn.shopify.com/shopifycloud/app-bridge.js";
const SHIM_PATH = "/__shell/app-bridge.js";

/**
 * Stands in for App Bridge's CDN script, which cannot load offline: session tokens from the
 * simulator, the Authorization header on the app's own fetches (as App Bridge adds it), the
 * bounce page's reload, toasts (with an action), and the contextual save bar.
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
  // The contextual save bar: App Bridge draws it in the admin's top bar, outside the app's frame, with the Save and
  // Discard buttons standing for the <button>s inside <ui-save-bar>. The admin (shellPage) asks before leaving while
  // one shows.
  const admin = window.parent !== window ? window.parent.document : document;
  const saveBars = new Map();
  const drawSaveBar = () => {
    admin.getElementById("save-bar")?.remove();
    const showing = [...saveBars.values()].find((bar) => bar.showing);
    if (!showing) return;
    const bar = admin.createElement("div");
    bar.id = "save-bar";
    bar.setAttribute("role", "region");
    bar.setAttribute("aria-label", "Unsaved changes");
    bar.style.cssText = "position:fixed;top:0;left:0;right:0;height:48px;background:#1a1a1a;color:#fff;display:flex;align-items:center;gap:8px;padding:0 16px;z-index:9999;font:600 14px system-ui";
    const label = admin.createElement("span");
    label.textContent = "Unsaved changes";
    label.style.marginRight = "auto";
    bar.appendChild(label);
    const buttons = [...showing.querySelectorAll("button")];
    const discard = buttons.find((button) => button.getAttribute("variant") !== "primary");
    const save = buttons.find((button) => button.getAttribute("variant") === "primary");
    for (const [source, text] of [[discard, "Discard"], [save, "Save"]]) {
      if (!source) continue;
      const button = admin.createElement("button");
      button.type = "button";
      button.textContent = source.textContent.trim() || text;
      button.disabled = source.disabled || source.hasAttribute("loading");
      if (source === save) button.className = "primary";
      button.addEventListener("click", () => source.click());
      bar.appendChild(button);
    }
    admin.body.appendChild(bar);
  };
  customElements.define("ui-save-bar", class extends HTMLElement {
    connectedCallback() {
      this.style.display = "none";
      if (this.id) saveBars.set(this.id, this);
      this.observer = new MutationObserver(drawSaveBar);
      this.observer.observe(this, { subtree: true, childList: true, attributes: true, characterData: true });
    }
    disconnectedCallback() {
      this.observer?.disconnect();
      if (saveBars.get(this.id) === this) saveBars.delete(this.id);
      drawSaveBar();
    }
    get showing() { return this._showing === true; }
    async show() { if (!this.showing) { this._showing = true; drawSaveBar(); this.dispatchEvent(new Event("show")); } }
    async hide() { if (this.showing) { this._showing = false; drawSaveBar(); this.dispatchEvent(new Event("hide")); } }
    async toggle() { return this.showing ? this.hide() : this.show(); }
  });
  window.addEventListener("pagehide", () => admin.getElementById("save-bar")?.remove());
  window.shopify = {
    config: { shop, apiKey: document.querySelector("script[data-api-key]")?.dataset.apiKey },
    idToken: token,
    toast: {
      show(message, options = {}) {
        const note = document.createElement("div");
        note.setAttribute("role", "status");
        note.style.cssText = "position:fixed;bottom:24px;left:50%;transform:translateX(-50%);display:flex;gap:12px;align-items:center;background:" + (options.isError ? "#8e0b21" : "#303030") + ";color:#fff;padding:10px 16px;border-radius:10px;font:14px system-ui;z-index:9999";
        const text = document.createElement("span");
        text.textContent = message;
        note.appendChild(text);
        if (options.action) {
          const action = document.createElement("button");
          action.type = "button";
          action.textContent = options.action;
          action.style.cssText = "font:600 14px system-ui;color:#fff;background:none;border:1px solid #fff;border-radius:8px;padding:2px 10px;cursor:pointer";
          action.addEventListener("click", () => { note.remove(); options.onAction?.(); });
          note.appendChild(action);
        }
        document.body.appendChild(note);
        setTimeout(() => note.remove(), options.duration ?? 5000);
        return String(Math.random());
      },
    },
    saveBar: {
      show: async (id) => saveBars.get(id)?.show(),
      hide: async (id) => saveBars.get(id)?.hide(),
      toggle: async (id) => saveBars.get(id)?.toggle(),
      leaveConfirmation: () => window.parent.dakiyaLeaveConfirmation ? window.parent.dakiyaLeaveConfirmation() : Promise.resolve(),
    },
    loading() {},
  };
})();`;
}

/** The admin with the app framed in it; the navigation's app links load their page into the frame, as the admin's do. */
function shellPage(shop: string, shopName: string, frameSrc: string, localeQuery: string): string {
  const main = `<iframe id="app" title="Dakiya" src="${escapeHtml(frameSrc)}"></iframe>`;
  const leaveDialog = `<dialog id="leave-page" aria-labelledby="leave-page-title">
    <div class="dialog-head" id="leave-page-title">Leave page with unsaved changes?</div>
    <div class="dialog-body">Leaving this page will delete all unsaved changes.</div>
    <form method="dialog" class="dialog-foot"><button value="stay">Stay</button><button value="leave" class="critical">Leave page</button></form>
  </dialog>`;
  const script = `<script>
    // As the admin does while an app shows its save bar: leaving asks first, and Stay keeps the edits.
    window.dakiyaLeaveConfirmation = () => new Promise((resolve, reject) => {
      if (!document.getElementById("save-bar")) return resolve();
      const dialog = document.getElementById("leave-page");
      dialog.returnValue = "";
      dialog.addEventListener("close", () => {
        if (dialog.returnValue !== "leave") return reject(new Error("The merchant stayed"));
        document.getElementById("save-bar")?.remove();
        resolve();
      }, { once: true });
      dialog.showModal();
    });
    for (const link of document.querySelectorAll("nav a[data-path]")) link.addEventListener("click", async (event) => {
      event.preventDefault();
      try { await window.dakiyaLeaveConfirmation(); } catch { return; }
      const token = await fetch("/__shell/session-token?shop=${encodeURIComponent(shop)}").then((r) => r.text());
      document.getElementById("app").src = link.dataset.path + "?embedded=1&shop=${encodeURIComponent(shop)}&host=${encodeURIComponent(hostOf(shop))}${localeQuery}&id_token=" + token;
    });
  </script>`;
  return shellLayout({ shop, shopName, title: "Dakiya", current: "app", main: main + leaveDialog, scripts: script, framed: true });
}

interface AppAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/**
 * The app's answer with its bytes as the app sent them, compressed where the browser asked for it. fetch() would
 * decode them, and the browser behind the shell would load several times the bytes that a real admin's browser,
 * which loads the app's origin directly, ever receives.
 */
function requestApp(url: string, method: string, headers: Headers, body: Buffer | undefined): Promise<AppAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method, headers: Object.fromEntries(headers) }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("error", reject);
      incoming.on("end", () => resolve({ status: incoming.statusCode ?? 502, headers: headersOf(incoming.headers), body: Buffer.concat(chunks) }));
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const DECODERS: Record<string, { decode: (bytes: Buffer) => Buffer; encode: (bytes: Buffer) => Buffer }> = {
  // Brotli's default (11) takes a good part of a second for a large page; 5 is what servers use on the fly.
  br: { decode: brotliDecompressSync, encode: (bytes) => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) },
  gzip: { decode: gunzipSync, encode: gzipSync },
};

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
  const orderStatusPages = options.simulator ? createOrderStatusPages({ simulator: options.simulator, appUrl: options.appUrl, app: options.app }) : null;

  async function proxy(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    for (const hopByHop of ["host", "connection", "keep-alive", "transfer-encoding", "content-length", "te", "trailer", "upgrade", "proxy-authorization"]) headers.delete(hopByHop);
    // Only the encodings the shell can decode to put the shim in a page: what the app serves and every browser takes.
    if (headers.has("accept-encoding")) headers.set("accept-encoding", "br, gzip");
    // As any reverse proxy does: the app sees the host the browser addressed (its own checks of a form's origin
    // compare against it).
    headers.set("X-Forwarded-Host", url.host);
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : Buffer.from(await request.arrayBuffer());
    if (body) headers.set("content-length", String(body.byteLength));
    const upstream = await requestApp(`${appOrigin}${url.pathname}${url.search}`, request.method, headers, body);
    const responseHeaders = upstream.headers;
    // A HEAD answer keeps its length (there is no body to measure); any other is measured again as sent.
    if (request.method !== "HEAD") responseHeaders.delete("content-length");
    responseHeaders.delete("transfer-encoding");
    responseHeaders.delete("connection");
    responseHeaders.delete("keep-alive");
    responseHeaders.set("Content-Security-Policy", "frame-ancestors 'self';");
    const location = responseHeaders.get("location");
    if (location?.startsWith(appOrigin)) responseHeaders.set("location", location.slice(appOrigin.length) || "/");
    const noBody = request.method === "HEAD" || [204, 205, 304].includes(upstream.status);
    if (noBody || !(responseHeaders.get("content-type") ?? "").includes("text/html")) {
      return new Response(noBody ? null : new Uint8Array(upstream.body), { status: upstream.status, headers: responseHeaders });
    }
    // The page's App Bridge script becomes the shim: decoded, rewritten and encoded again as it came.
    const encoding = (responseHeaders.get("content-encoding") ?? "").trim().toLowerCase();
    const coding = DECODERS[encoding];
    if (encoding && encoding !== "identity" && !coding) throw new Error(`The app answered a page in ${encoding}, which the local admin cannot read`);
    const html = (coding ? coding.decode(upstream.body) : upstream.body).toString("utf8").replaceAll(APP_BRIDGE_CDN, SHIM_PATH);
    responseHeaders.delete("link");
    return new Response(new Uint8Array(coding ? coding.encode(Buffer.from(html)) : Buffer.from(html)), { status: upstream.status, headers: responseHeaders });
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
    const statusPage = orderStatusPages?.(request, shop);
    if (statusPage) return statusPage;
    const orderPage = await orderPages?.(request, shop);
    if (orderPage) return orderPage;
    if (/^\/[a-z0-9-]+\.myshopify\.com\//.test(url.pathname)) return null;
    return proxy(request);
  };
}
