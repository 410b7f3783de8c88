import { describe, expect, it } from "vitest";
import { createStorefront, STOREFRONT_PRODUCTS } from "./storefront";

const storefront = createStorefront({ shop: "dakiya-demo.myshopify.com", shopName: "Dakiya Demo Store", appProxyUrl: "http://127.0.0.1:1/proxy", apiSecret: "storefront-test-secret" });

async function open(path: string): Promise<{ status: number; html: string }> {
  const answer = (await storefront(new Request(`http://localhost:4000${path}`)))!;
  return { status: answer.status, html: await answer.text() };
}

const BLOCK = "data-dakiya-estimate";
const APP_ASSET = "/cdn/extensions/delivery-estimate/assets/delivery-estimate.js";

describe("the local store's storefront", () => {
  it("the home page and the collection list every product, linked to its page, with no app block or asset", async () => {
    for (const path of ["/", "/hi", "/collections/all", "/hi/collections/all"]) {
      const { status, html } = await open(path);
      expect(status, path).toBe(200);
      for (const product of STOREFRONT_PRODUCTS) expect(html, path).toContain(`/products/${product.handle}"`);
      expect(html, path).not.toContain(BLOCK);
      expect(html, path).not.toContain(APP_ASSET);
    }
    expect((await open("/hi")).html).toContain('href="/hi/products/brass-diya-set"');
    expect((await open("/collections/all")).html).toContain("₹2,499.00");
  });

  it("with ?app=off, the home page and the collection are the same bytes: they never carry the app", async () => {
    for (const path of ["/", "/collections/all"]) expect((await open(`${path}?app=off`)).html).toBe((await open(path)).html);
  });

  it("the product page and the cart carry the Delivery estimate block and its script, and lose both with ?app=off", async () => {
    for (const path of ["/products/handloom-cotton-kurta", "/hi/products/brass-diya-set", "/cart"]) {
      const withApp = await open(path);
      expect(withApp.html, path).toContain(BLOCK);
      expect(withApp.html, path).toContain(APP_ASSET);
      const withoutApp = await open(`${path}?app=off`);
      expect(withoutApp.status, path).toBe(200);
      expect(withoutApp.html, path).not.toContain(BLOCK);
      expect(withoutApp.html, path).not.toContain(APP_ASSET);
      expect(withoutApp.html, path).toContain('class="buy"');
    }
  });

  it("leaves other paths to the admin and the Admin API", async () => {
    expect(await storefront(new Request("http://localhost:4000/admin"))).toBeNull();
    expect((await open("/products/no-such-product")).status).toBe(404);
  });
});
