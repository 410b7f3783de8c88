/**
 * The local admin's frame around every page it serves (store/admin-shell.ts, store/admin-orders.ts): the top bar
 * with the shop, and one navigation with Shopify's own pages (Orders) and the app's pages (framed at /admin).
 */

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Everything a page shows from the store (names, addresses, notes) goes through this: shoppers type those. */
export const escapeHtml = (value: string | number | null | undefined): string => String(value ?? "").replace(/[&<>"']/g, (character) => ENTITIES[character]!);

/** The admin's `host` parameter for a shop, as the admin passes it to embedded apps. */
export const hostOf = (shop: string): string => Buffer.from(`${shop}/admin`).toString("base64url");

/** The app's pages, as its own navigation lists them; the shell frames each at /admin?app=<path>. */
export const APP_PAGES: readonly (readonly [label: string, path: string])[] = [
  ["Home", "/app"],
  ["Orders to ship", "/app/orders"],
  ["Shipments", "/app/shipments"],
  ["Failed deliveries", "/app/failed-deliveries"],
  ["COD remittance", "/app/cod"],
  ["Freight & weight", "/app/freight"],
  ["Needs attention", "/app/attention"],
  ["Auto-booking", "/app/auto-booking"],
  ["Settings", "/app/settings"],
  ["Storefront", "/app/storefront"],
];

/** A path of the app a shell link may frame: /app and below, nothing else. */
export const isAppPath = (path: string): boolean => /^\/app(\/[\w\-/]*)?$/.test(path);

export const shopQuery = (shop: string): string => `shop=${encodeURIComponent(shop)}`;

export interface LayoutOptions {
  shop: string;
  shopName: string;
  title: string;
  /** Which of the shell's own pages this is, for the navigation's current item. */
  current: "app" | "orders";
  main: string;
  /** Scripts at the end of the body. */
  scripts?: string;
  /** The page frames the app: the main area is the frame, full height, without scrolling of its own. */
  framed?: boolean;
}

const STYLE = `
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px system-ui, sans-serif; color: #303030; background: #f1f1f1; display: grid; grid-template: 48px 1fr / 220px 1fr; height: 100vh; }
  header { grid-column: 1 / 3; background: #1a1a1a; color: #fff; display: flex; align-items: center; padding: 0 16px; gap: 12px; }
  nav { padding: 12px; overflow: auto; } nav a { display: block; padding: 8px 10px; color: #303030; text-decoration: none; border-radius: 8px; }
  nav a:hover { background: #e3e3e3; } nav a[aria-current="page"] { background: #fff; font-weight: 600; }
  nav .section { margin: 16px 10px 4px; font-size: 12px; font-weight: 600; color: #616161; text-transform: uppercase; letter-spacing: .04em; }
  main { min-height: 0; overflow: auto; } main.framed { overflow: hidden; }
  iframe { border: 0; width: 100%; height: 100%; background: #f1f1f1; display: block; }
  .page { max-width: 1100px; margin: 0 auto; padding: 20px 24px 48px; }
  .page-head { display: flex; align-items: center; gap: 12px; flex-wrap: wrap; margin-bottom: 16px; }
  .page-head h1 { font-size: 20px; margin: 0; } .page-head .actions { margin-left: auto; display: flex; gap: 8px; }
  .back { display: inline-block; margin-bottom: 8px; color: #005bd3; text-decoration: none; }
  .card { background: #fff; border-radius: 12px; box-shadow: 0 1px 0 rgba(0,0,0,.07), 0 0 0 1px rgba(0,0,0,.05); padding: 16px; margin-bottom: 16px; }
  .card h2 { font-size: 14px; margin: 0 0 12px; }
  .columns { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 1fr); gap: 16px; align-items: start; }
  table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 8px; border-bottom: 1px solid #ebebeb; vertical-align: top; }
  th { font-weight: 600; color: #616161; font-size: 12px; } td.num, th.num { text-align: right; } tr:last-child td { border-bottom: 0; }
  a { color: #005bd3; }
  button, .button { font: inherit; padding: 6px 12px; border-radius: 8px; border: 1px solid #c9c9c9; background: #fff; cursor: pointer; }
  button.primary { background: #303030; color: #fff; border-color: #303030; } button.critical { color: #8e0b21; border-color: #e0b4bb; }
  button:disabled { opacity: .55; cursor: default; }
  .badge { display: inline-block; padding: 2px 8px; border-radius: 8px; background: #e3e3e3; font-size: 12px; margin-right: 4px; }
  .badge.success { background: #cdfee1; } .badge.attention { background: #ffef9d; } .badge.critical { background: #fedad9; } .badge.info { background: #e0f0ff; }
  .banner { border-radius: 8px; padding: 10px 12px; margin: 8px 0; background: #eaf4ff; } .banner.warning { background: #fff5d6; }
  .banner.critical { background: #fee9e8; } .banner.success { background: #e9fbef; } .banner p { margin: 4px 0; }
  .muted { color: #616161; } dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; margin: 8px 0; } dl.facts dt { color: #616161; } dl.facts dd { margin: 0; }
  .totals td { border: 0; padding: 2px 8px; } .dakiya-body > button { margin-top: 8px; }
  dialog { border: 0; border-radius: 12px; padding: 0; width: min(560px, 92vw); box-shadow: 0 10px 40px rgba(0,0,0,.3); }
  dialog::backdrop { background: rgba(0,0,0,.4); }
  dialog .dialog-head { padding: 14px 16px; border-bottom: 1px solid #ebebeb; font-weight: 600; }
  dialog .dialog-body { padding: 16px; max-height: 60vh; overflow: auto; } dialog .dialog-foot { padding: 12px 16px; border-top: 1px solid #ebebeb; display: flex; justify-content: flex-end; gap: 8px; }
  fieldset { border: 0; padding: 0; margin: 0; } fieldset label { display: flex; gap: 8px; align-items: center; padding: 8px; border-radius: 8px; flex-wrap: wrap; }
  fieldset label:hover { background: #f6f6f6; } fieldset label:has(input:checked) { background: #f1f8ff; }
  [hidden] { display: none !important; }
  .menu { position: relative; } details.menu > summary { list-style: none; display: inline-block; } details.menu > summary::-webkit-details-marker { display: none; }
  .menu .menu-items { position: absolute; right: 0; top: calc(100% + 4px); background: #fff; border-radius: 10px; padding: 4px; min-width: 180px; z-index: 5; box-shadow: 0 4px 16px rgba(0,0,0,.15); }
  .menu .menu-items button { border: 0; width: 100%; text-align: left; }
  .bulk-actions { display: flex; align-items: center; gap: 12px; padding: 8px; border-bottom: 1px solid #ebebeb; } .bulk-actions .menu-items { left: 0; right: auto; }
  #print-dialog { width: min(720px, 94vw); }
`;

export function shellLayout({ shop, shopName, title, current, main, scripts = "", framed = false }: LayoutOptions): string {
  const nav = [
    `<a href="/admin/orders?${escapeHtml(shopQuery(shop))}"${current === "orders" ? ' aria-current="page"' : ""}>Orders</a>`,
    `<div class="section" aria-hidden="true">Dakiya</div>`,
    ...APP_PAGES.map(
      ([label, path]) => `<a href="/admin?${escapeHtml(shopQuery(shop))}&amp;app=${escapeHtml(encodeURIComponent(path))}" data-path="${escapeHtml(path)}">${escapeHtml(label)}</a>`,
    ),
  ].join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · ${escapeHtml(shopName)} · Admin (local)</title>
<style>${STYLE}</style></head>
<body>
  <header><strong>${escapeHtml(shopName)}</strong><span style="opacity:.7">${escapeHtml(shop)} · local Shopify admin (store simulator)</span></header>
  <nav aria-label="Admin">${nav}</nav>
  <main${framed ? ' class="framed"' : ""}>${main}</main>
${scripts}
</body></html>`;
}
