import { readFileSync } from "node:fs";
import path from "node:path";
import { Liquid, Tag, type Context, type Emitter, type TagToken, type TopLevelToken } from "liquidjs";
import { proxiedUrl } from "./app-proxy";
import { escapeHtml } from "./shell-layout";

/**
 * The shop's storefront as shoppers see it, for the demo, the browser tests and the bench: a home page, the
 * collection of every product, a product page of a seeded product with Dakiya's Delivery estimate app block rendered
 * from the extension's own Liquid (liquidjs, with the few Shopify filters the block uses), a cart, the extension's
 * assets as Shopify's CDN serves them, and the store's app proxy, which forwards `{proxyPath}/…` to the app signed as
 * Shopify signs it (store/app-proxy.ts). Any page with `?app=off` is the same store without Dakiya: no block and no
 * app asset, what Shopify's storefront performance rule compares against.
 */

export interface StorefrontProduct {
  handle: string;
  title: string;
  description: string;
  /** In paise, as Liquid's `variant.price` gives it (the currency's subunit). */
  pricePaise: number;
  grams: number;
}

export const STOREFRONT_PRODUCTS: StorefrontProduct[] = [
  {
    handle: "handloom-cotton-kurta",
    title: "Handloom cotton kurta",
    description: "Hand-woven in Bhagalpur, natural dyes. Machine wash cold; dry in the shade.",
    pricePaise: 129_900,
    grams: 450,
  },
  {
    handle: "brass-diya-set",
    title: "Brass diya set of 4",
    description: "Solid brass, polished by hand in Moradabad. Each diya 7 cm across.",
    pricePaise: 249_900,
    grams: 1_200,
  },
];

const EXTENSION_DIR = path.resolve("extensions/delivery-estimate");
const ASSET_PATH = "/cdn/extensions/delivery-estimate/assets/";
type Language = "en" | "hi";

const money = (paise: number, language: Language) => new Intl.NumberFormat(language === "hi" ? "hi-IN" : "en-IN", { style: "currency", currency: "INR" }).format(paise / 100);
/** A path in the storefront's language: English at the root, Hindi under `/hi`. */
const localised = (language: Language, pathname: string) => (language === "hi" ? `/hi${pathname === "/" ? "" : pathname}` : pathname);

export interface StorefrontOptions {
  shop: string;
  shopName: string;
  /** The app's `[app_proxy] url` (its `/proxy`), where the store forwards the proxy path. */
  appProxyUrl: string;
  apiSecret: string;
  /** The store's proxy path; `/apps/dakiya` unless the merchant renamed it. */
  proxyPath?: string;
}

type Messages = { [key: string]: string | Messages };
const readJson = (file: string) => JSON.parse(readFileSync(path.join(EXTENSION_DIR, file), "utf8")) as Messages;

function lookup(messages: Messages, key: string): string | undefined {
  let current: string | Messages | undefined = messages;
  for (const part of key.split(".")) current = typeof current === "object" ? current[part] : undefined;
  return typeof current === "string" ? current : undefined;
}

/** `{% schema %}…{% endschema %}` configures the block in the theme editor and renders nothing, as at Shopify. */
class SchemaTag extends Tag {
  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid) {
    super(token, remainTokens, liquid);
    while (remainTokens.length > 0) {
      const next = remainTokens.shift()!;
      if ((next as TagToken).name === "endschema") return;
    }
    throw new Error("{% schema %} is not closed");
  }
  *render(_context: Context, _emitter: Emitter): Generator<unknown, void, unknown> {}
}

export function createStorefront(options: StorefrontOptions) {
  const proxyPath = options.proxyPath ?? "/apps/dakiya";
  const locales: Record<Language, Messages> = { en: readJson("locales/en.default.json"), hi: readJson("locales/hi.json") };
  // Templates are read per request (and snippets uncached): the demo shows an edit to a block on the next reload.
  const blockSource = (file: string) => readFileSync(path.join(EXTENSION_DIR, "blocks", file), "utf8");

  /** One of the extension's app blocks, with the template's objects (`product` or `cart`), as the theme renders it. */
  async function renderBlock(file: string, language: Language, objects: Record<string, unknown>, blockId: string): Promise<string> {
    const translate = (key: string) => lookup(locales[language], key) ?? lookup(locales.en, key) ?? `translation missing: ${key}`;
    // An engine per language: `t` reads the storefront's locale, as at Shopify. `render` finds the extension's snippets,
    // which see Shopify's global objects (`request`, `shop`) but not the block's own variables, as at Shopify.
    const globals = { request: { locale: { iso_code: language } }, shop: { url: "", name: options.shopName } };
    const engine = new Liquid({ strictFilters: true, ownPropertyOnly: true, root: [path.join(EXTENSION_DIR, "snippets")], extname: ".liquid", cache: false, globals });
    engine.registerTag("schema", SchemaTag);
    engine.registerFilter("asset_url", (file: string) => `${ASSET_PATH}${encodeURIComponent(file)}`);
    engine.registerFilter("t", translate);
    return engine.parseAndRender(blockSource(file), {
      ...objects,
      block: { id: blockId, settings: { proxy_path: proxyPath }, shopify_attributes: "" },
    });
  }

  /** The theme's layout around a page's content: the shop's name and look. */
  function layout({ title, language, body, switchTo }: { title: string; language: Language; body: string; switchTo?: string }): string {
    const other: Language = language === "hi" ? "en" : "hi";
    return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} – ${escapeHtml(options.shopName)}</title>
<style>
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1f1f1f; }
  header, footer { padding: 1rem 1.25rem; background: #f6f3ee; }
  header { display: flex; justify-content: space-between; align-items: center; }
  main { display: grid; gap: 2rem; padding: 1.25rem; max-width: 64rem; margin: 0 auto; }
  @media (min-width: 750px) { main.product { grid-template-columns: 1fr 1fr; } }
  .media { aspect-ratio: 4 / 5; background: linear-gradient(135deg, #e9dccb, #c9b79c); border-radius: 8px; }
  h1 { margin: 0 0 .5rem; font-size: 1.75rem; }
  .price { font-size: 1.25rem; margin: 0 0 1rem; }
  .buy { min-height: 3rem; width: 100%; max-width: 24rem; font: inherit; background: #1f1f1f; color: #fff; border: 0; border-radius: 4px; }
  .grid { display: grid; gap: 1.25rem; grid-template-columns: repeat(auto-fill, minmax(10rem, 1fr)); padding: 0; list-style: none; }
  .grid a { color: inherit; text-decoration: none; }
  .grid .media { margin-bottom: .5rem; }
</style>
</head>
<body>
<header><a href="${localised(language, "/")}">${escapeHtml(options.shopName)}</a>${switchTo ? `<a href="${escapeHtml(switchTo)}" hreflang="${other}">${other === "hi" ? "हिन्दी" : "English"}</a>` : ""}</header>
${body}
<footer>© ${escapeHtml(options.shopName)}</footer>
</body>
</html>`;
  }

  const page = (html: string, status = 200, cacheControl = "no-store") => new Response(html, { status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": cacheControl } });

  /** The products as the theme's product grid lists them, each a link to its page. */
  function productGrid(language: Language): string {
    const cards = STOREFRONT_PRODUCTS.map(
      (product) => `<li><a href="${localised(language, `/products/${product.handle}`)}"><div class="media" role="img" aria-label="${escapeHtml(product.title)}"></div><h2>${escapeHtml(product.title)}</h2><p class="price">${money(product.pricePaise, language)}</p></a></li>`,
    ).join("");
    return `<ul class="grid">${cards}</ul>`;
  }

  /** The home page: the shop's welcome and its products. No app block is placed here. */
  function homePage(language: Language): Response {
    const body = `<main>
  <h1>${escapeHtml(options.shopName)}</h1>
  <p>${language === "hi" ? "भारत भर के कारीगरों से हाथ का बना सामान।" : "Made by hand by craftspeople across India."} <a href="${localised(language, "/collections/all")}">${language === "hi" ? "सभी उत्पाद देखें" : "Shop all"}</a></p>
  ${productGrid(language)}
</main>`;
    return page(layout({ title: language === "hi" ? "होम" : "Home", language, body, switchTo: localised(language === "hi" ? "en" : "hi", "/") }));
  }

  /** The collection of every product (Shopify's `/collections/all`). No app block is placed here. */
  function collectionPage(language: Language): Response {
    const title = language === "hi" ? "सभी उत्पाद" : "All products";
    const body = `<main>
  <h1>${title}</h1>
  ${productGrid(language)}
</main>`;
    return page(layout({ title, language, body, switchTo: localised(language === "hi" ? "en" : "hi", "/collections/all") }));
  }

  async function productPage(product: StorefrontProduct, language: Language, withApp: boolean): Promise<Response> {
    const price = money(product.pricePaise, language);
    const block = withApp
      ? await renderBlock("delivery-estimate.liquid", language, { product: { title: product.title, selected_or_first_available_variant: { weight: product.grams, price: product.pricePaise } } }, `AbCdEf${product.handle.length}`)
      : "";
    const body = `<main class="product">
  <div class="media" role="img" aria-label="${escapeHtml(product.title)}"></div>
  <div>
    <h1>${escapeHtml(product.title)}</h1>
    <p class="price">${price}</p>
    ${block}
    <button class="buy" type="button">${language === "hi" ? "कार्ट में डालें" : "Add to cart"}</button>
    <p class="description">${escapeHtml(product.description)}</p>
  </div>
</main>`;
    return page(layout({ title: product.title, language, body, switchTo: `${language === "hi" ? "" : "/hi"}/products/${product.handle}` }));
  }

  /** A cart of one of each product, with the cart's Delivery estimate block below its total (the merchant's choice). */
  async function cartPage(language: Language, withApp: boolean): Promise<Response> {
    const totalPaise = STOREFRONT_PRODUCTS.reduce((sum, product) => sum + product.pricePaise, 0);
    const totalGrams = STOREFRONT_PRODUCTS.reduce((sum, product) => sum + product.grams, 0);
    const block = withApp ? await renderBlock("cart-delivery-estimate.liquid", language, { cart: { item_count: STOREFRONT_PRODUCTS.length, total_price: totalPaise, total_weight: totalGrams } }, "CaRtBlOcK1") : "";
    const rows = STOREFRONT_PRODUCTS.map((product) => `<tr><td>${escapeHtml(product.title)}</td><td class="num">1</td><td class="num">${money(product.pricePaise, language)}</td></tr>`).join("");
    const title = language === "hi" ? "आपका कार्ट" : "Your cart";
    const body = `<main class="cart">
  <h1>${title}</h1>
  <table><tbody>${rows}</tbody></table>
  <p class="price">${language === "hi" ? "कुल" : "Total"} ${money(totalPaise, language)}</p>
  ${block}
  <button class="buy" type="button">${language === "hi" ? "चेकआउट करें" : "Check out"}</button>
</main>`;
    return page(layout({ title, language, body, switchTo: `${language === "hi" ? "" : "/hi"}/cart` }));
  }

  /**
   * An app's `application/liquid` answer is rendered as Liquid with the shop's objects and put in the theme's layout,
   * unless it opts out with `{% layout none %}`.
   */
  async function renderLiquidAnswer(source: string, status: number, cacheControl: string | null, language: Language): Promise<Response> {
    const noLayout = /^\s*\{%-?\s*layout\s+none\s*-?%\}/.test(source);
    const engine = new Liquid({ strictFilters: true, ownPropertyOnly: true });
    engine.registerTag("layout", class extends Tag {
      *render(): Generator<unknown, void, unknown> {}
    });
    const content = await engine.parseAndRender(source, { shop: { name: options.shopName, url: "" } });
    const title = /<h1[^>]*>([^<]*)<\/h1>/.exec(content)?.[1] ?? options.shopName;
    return page(noLayout ? content : layout({ title, language, body: `<main>${content}</main>` }), status, cacheControl ?? "no-store");
  }

  async function forwardToApp(request: Request, url: URL): Promise<Response> {
    const forwarded = proxiedUrl({
      proxyUrl: options.appProxyUrl,
      apiSecret: options.apiSecret,
      shop: options.shop,
      pathPrefix: proxyPath,
      pathAndQuery: `${url.pathname.slice(proxyPath.length) || "/"}${url.search}`,
    });
    let answer: Response;
    try {
      // Shopify sends the shopper's request on without their cookies, and the app's answer back without its own.
      // A form's POST goes on with its body (Shopify's proxy forwards it as sent).
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
      const headers: Record<string, string> = { Accept: request.headers.get("accept") ?? "*/*", "Accept-Language": request.headers.get("accept-language") ?? "", ...(body ? { "Content-Type": request.headers.get("content-type") ?? "application/octet-stream" } : {}) };
      answer = await fetch(forwarded, { method: request.method, headers, body, redirect: "manual" });
    } catch {
      return new Response("The app did not answer", { status: 502 });
    }
    const contentType = answer.headers.get("content-type") ?? "";
    if (contentType.startsWith("application/liquid")) {
      const language: Language = /^hi\b/i.test(request.headers.get("accept-language") ?? "") ? "hi" : "en";
      return renderLiquidAnswer(await answer.text(), answer.status, answer.headers.get("cache-control"), language);
    }
    const headers = new Headers();
    for (const name of ["content-type", "cache-control", "location", "retry-after"]) {
      const value = answer.headers.get(name);
      if (value) headers.set(name, value);
    }
    return new Response(await answer.arrayBuffer(), { status: answer.status, headers });
  }

  function asset(file: string): Response {
    if (!/^[\w.-]+\.(js|css)$/.test(file)) return new Response("Not Found", { status: 404 });
    try {
      const body = readFileSync(path.join(EXTENSION_DIR, "assets", file));
      return new Response(body, { headers: { "Content-Type": file.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8", "Cache-Control": "public, max-age=300" } });
    } catch {
      return new Response("Not Found", { status: 404 });
    }
  }

  /** The storefront's answer, or null for paths that are not the storefront's (the admin, the Admin API). */
  return async function handle(request: Request): Promise<Response | null> {
    const url = new URL(request.url);
    if (url.pathname === proxyPath || url.pathname.startsWith(`${proxyPath}/`)) return forwardToApp(request, url);
    if (url.pathname.startsWith(ASSET_PATH)) return asset(decodeURIComponent(url.pathname.slice(ASSET_PATH.length)));
    const withApp = url.searchParams.get("app") !== "off";
    // English at the root, Hindi under /hi (and /en as English), then the page within the language.
    const [, prefix, within] = /^(?:\/(hi|en)(?=\/|$))?(.*)$/.exec(url.pathname)!;
    const language: Language = prefix === "hi" ? "hi" : "en";
    const route = within || "/";
    if (route === "/") return homePage(language);
    if (route === "/collections/all") return collectionPage(language);
    if (route === "/cart") return cartPage(language, withApp);
    const handle = /^\/products\/([a-z0-9-]+)$/.exec(route)?.[1];
    if (!handle) return null;
    const product = STOREFRONT_PRODUCTS.find((candidate) => candidate.handle === handle);
    if (!product) return new Response("Not Found", { status: 404 });
    return productPage(product, language, withApp);
  };
}
