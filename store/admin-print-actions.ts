import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { escapeHtml } from "./shell-layout";

/**
 * The local admin's Print menu, as Shopify's admin builds it: every app extension that declares a print-action
 * target for the page is an entry, named by its `name` (from its English locale). Choosing it runs the
 * extension's own built bundle (extensions/{handle}/dist, `npm run build`) in a frame, with a small `shopify`
 * global standing in for the admin's (the selected resources, translations, and a `fetch` that resolves relative
 * addresses against the app URL and adds the admin's session token). The menu then reads the `src` the extension
 * set on `s-admin-print-action` and loads that document with the session token, as the admin's print preview
 * does (store/admin-print-menu.js). An order's page hands the action its order; the Orders list, the orders
 * selected in it.
 */

export const ORDER_PRINT_TARGET = "admin.order-details.print-action.render";
export const ORDER_INDEX_PRINT_TARGET = "admin.order-index.selection-print-action.render";
/**
 * How many orders each target's page hands an action: an order's page its one order; the list at most 500 of its
 * selection, which one frame's address holds (gids of about 28 characters, within the 16 KB of a request's head).
 */
const MOST_SELECTED: Record<string, number> = { [ORDER_PRINT_TARGET]: 1, [ORDER_INDEX_PRINT_TARGET]: 500 };
const ORDER_GID = /^gid:\/\/shopify\/Order\/\d{1,20}$/;
export const PRINT_MENU_SCRIPT_PATH = "/__shell/print-menu.js";
const HOST_PREFIX = "/__shell/extensions/";

const PRINT_MENU_SCRIPT = readFileSync(new URL("./admin-print-menu.js", import.meta.url), "utf8");

export interface PrintAction {
  handle: string;
  target: string;
  /** The menu entry, in English. */
  name: string;
  /** The English locale: each message a string, or its plural forms ({ one, other }). */
  messages: Record<string, string | Record<string, string>>;
}

const EXTENSIONS_DIR = path.resolve("extensions");

/** The print actions the app's extensions declare for `target`, read from their shopify.extension.toml. */
export function printActionsFor(target: string, root = EXTENSIONS_DIR): PrintAction[] {
  if (!existsSync(root)) return [];
  const actions: PrintAction[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const toml = path.join(root, entry.name, "shopify.extension.toml");
    if (!entry.isDirectory() || !existsSync(toml)) continue;
    const text = readFileSync(toml, "utf8");
    const handle = /^\s*handle\s*=\s*"([\w-]+)"/m.exec(text)?.[1];
    const targets = [...text.matchAll(/^\s*target\s*=\s*"([\w.-]+)"/gm)].map((match) => match[1]);
    if (!handle || !targets.includes(target)) continue;
    const locale = path.join(root, entry.name, "locales", "en.default.json");
    const messages: PrintAction["messages"] = existsSync(locale) ? JSON.parse(readFileSync(locale, "utf8")) : {};
    actions.push({ handle, target, name: typeof messages.name === "string" ? messages.name : handle, messages });
  }
  return actions.sort((a, b) => a.name.localeCompare(b.name));
}

/** Shopify's Print menu: a button that shows the print actions, each opening the print dialog (admin-print-menu.js). */
export function printMenu(actions: readonly PrintAction[]): string {
  if (actions.length === 0) return "";
  const entries = actions.map((action) => `<button type="button" data-print-action="${escapeHtml(action.handle)}">${escapeHtml(action.name)}</button>`).join("");
  return `<div class="menu" data-print-menu><button type="button" aria-expanded="false" aria-controls="print-menu-entries">Print</button><div class="menu-items" id="print-menu-entries" hidden>${entries}</div></div>`;
}

export interface PrintDialogOptions {
  shop: string;
  appUrl: string;
  /** The print-action target of the page's menu. */
  target: string;
  /** The order an order's page hands its actions; without it, the orders checked in the page's list. */
  orderGid?: string;
  /** The name Download saves the document under. */
  documentName: string;
}

/** Shopify's print dialog: the action's frame, then the document it names, with Print and Download. */
export function printDialog({ shop, appUrl, target, orderGid, documentName }: PrintDialogOptions): string {
  return `<dialog id="print-dialog" aria-labelledby="print-dialog-title" data-shop="${escapeHtml(shop)}" data-app-url="${escapeHtml(appUrl)}" data-target="${escapeHtml(target)}"${orderGid ? ` data-order-gid="${escapeHtml(orderGid)}"` : ""}>
      <div class="dialog-head" id="print-dialog-title">Print</div>
      <div class="dialog-body">
        <iframe class="extension" title="Print" src="about:blank" style="width:100%;height:72px;border:0"></iframe>
        <p class="print-status muted" role="status"></p>
        <iframe class="preview" title="Print preview" hidden style="width:100%;height:480px;border:1px solid #e3e3e3"></iframe>
      </div>
      <div class="dialog-foot"><button type="button" class="close">Close</button><a class="download button" download="${escapeHtml(documentName)}" hidden>Download</a><button type="button" class="print primary" disabled>Print</button></div>
    </dialog>`;
}

/** Data for a script element: JSON that cannot close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/** The frame an extension runs in: the admin's `shopify` global, then the extension's bundle. */
function hostPage(action: PrintAction, { shop, appUrl, selectedGids }: { shop: string; appUrl: string; selectedGids: readonly string[] }): string {
  const config = { shop, appUrl, target: action.target, selected: selectedGids.map((id) => ({ id })), messages: action.messages };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${action.name.replace(/[<&]/g, "")}</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:8px;color:#303030} s-admin-print-action,s-banner,s-text{display:block}</style>
<script>(() => {
  const config = ${scriptJson(config)};
  const appOrigin = new URL(config.appUrl).origin;
  const nativeFetch = window.fetch.bind(window);
  const idToken = () => nativeFetch("/__shell/session-token?shop=" + encodeURIComponent(config.shop), { cache: "no-store" }).then((response) => response.text());
  // The admin's fetch for extensions: relative addresses go to the app, which gets the session token.
  window.fetch = async (input, init = {}) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? String(input) : input.url, config.appUrl);
    if (url.origin !== appOrigin) return nativeFetch(input, init);
    const headers = new Headers(init.headers);
    headers.set("Authorization", "Bearer " + (await idToken()));
    return nativeFetch(url, { ...init, headers });
  };
  // A message with plural forms is chosen by its count, as the admin's i18n does.
  const plurals = new Intl.PluralRules("en");
  const messageOf = (key, values) => {
    const message = config.messages[key] ?? key;
    return typeof message === "string" ? message : (message[plurals.select(Number(values && values.count))] ?? message.other);
  };
  const translate = (key, values) => String(messageOf(key, values)).replace(/\\{\\{\\s*(\\w+)\\s*\\}\\}/g, (_, name) => (values && values[name] !== undefined ? String(values[name]) : ""));
  window.shopify = {
    extension: { target: config.target },
    data: { selected: config.selected },
    i18n: { translate, locale: "en" },
    auth: { idToken },
    extend(target, run) {
      if (target === config.target) void run();
    },
  };
})();</script>
<script src="${HOST_PREFIX}${action.handle}/bundle.js?target=${encodeURIComponent(action.target)}" defer></script>
</head><body></body></html>`;
}

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * The orders a frame's address hands its action (`selected`, gids separated by commas), or why they cannot be:
 * each must be an order's gid, and there must be one to as many as the target's page hands over.
 */
function selectionOf(url: URL, target: string): { gids: string[] } | { refused: string } {
  const gids = (url.searchParams.get("selected") ?? "").split(",").filter(Boolean);
  const most = MOST_SELECTED[target] ?? 1;
  const notOrder = gids.find((gid) => !ORDER_GID.test(gid));
  if (notOrder !== undefined) return { refused: `selected holds ${JSON.stringify(notOrder.slice(0, 60))}, which is not an order's gid` };
  if (gids.length === 0) return { refused: "selected must name the orders to print, as gids separated by commas" };
  if (gids.length > most) return { refused: `selected names ${gids.length} orders; this page hands its print actions at most ${most}` };
  return { gids };
}

/** Serves the menu's script, each print action's frame and its built bundle; null for other addresses. */
export function servePrintActions(request: Request, { shop, appUrl }: { shop: string; appUrl: string }): Response | null {
  const url = new URL(request.url);
  if (url.pathname === PRINT_MENU_SCRIPT_PATH) return new Response(PRINT_MENU_SCRIPT, { headers: { "Content-Type": "text/javascript; charset=utf-8" } });
  if (!url.pathname.startsWith(HOST_PREFIX)) return null;
  const match = /^([\w-]+)\/(frame|bundle\.js)$/.exec(url.pathname.slice(HOST_PREFIX.length));
  const target = url.searchParams.get("target") ?? ORDER_PRINT_TARGET;
  const action = match && printActionsFor(target).find((candidate) => candidate.handle === match[1]);
  if (!match || !action) return notFound();
  if (match[2] === "bundle.js") {
    const bundle = path.join(EXTENSIONS_DIR, action.handle, "dist", `${action.handle}.js`);
    if (!existsSync(bundle)) return new Response(`The extension ${action.handle} is not built: run npm run build`, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    return new Response(readFileSync(bundle), { headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store" } });
  }
  const selection = selectionOf(url, target);
  if ("refused" in selection) return new Response(selection.refused, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(hostPage(action, { shop, appUrl, selectedGids: selection.gids }), { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}
