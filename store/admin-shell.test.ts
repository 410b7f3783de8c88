import { describe, expect, it } from "vitest";
import { createAdminShell } from "./admin-shell";
import type { AppCredentials } from "./auth";
import { SEED_SHOP, seedShop } from "./seed";

const APP: AppCredentials = { apiKey: "shell-test-key", apiSecret: "shell-test-secret", scopes: "read_orders" };

function shellFor(shop = seedShop()) {
  const handle = createAdminShell({ app: APP, appUrl: "http://127.0.0.1:1", defaultShop: SEED_SHOP, shopName: (domain) => (domain === shop.domain ? shop.name : undefined), shopOrders: (domain) => (domain === shop.domain ? shop.orders : undefined) });
  return { shop, open: async (path: string) => (await handle(new Request(`http://localhost:4000${path}`)))! };
}

describe("the local admin's own pages", () => {
  it("Orders lists every order of the shop with its payment and fulfillment status, each linked to its page", async () => {
    const { shop, open } = shellFor();
    const answer = await open("/admin/orders");
    expect(answer.status).toBe(200);
    const html = await answer.text();
    for (const order of shop.orders) expect(html).toContain(`/admin/orders/${order.legacyResourceId}?shop=${SEED_SHOP}">${order.name}</a>`);
    expect(html).toMatch(/#1011<\/a><\/td><td>[\d-]+<\/td><td>Pending<\/td><td>Partially fulfilled<\/td><td>cod<\/td>/);
    expect(html).toMatch(/#1013<\/a><\/td><td>[\d-]+<\/td><td>Voided<\/td><td>Cancelled<\/td>/);
  });

  it("an order's page shows each fulfillment's carrier, tracking number and link, and its shipping events, but not where the shopper lives", async () => {
    const { shop, open } = shellFor();
    const order = shop.orders.find((each) => each.name === "#1011")!;
    order.fulfillments[0]!.events.push({ id: "gid://shopify/FulfillmentEvent/1", status: "IN_TRANSIT", message: "Shipment picked up", happenedAt: "2026-11-20T10:00:00.000Z", estimatedDeliveryAt: null, city: "Jaipur" });
    const html = await (await open(`/admin/orders/${order.legacyResourceId}`)).text();
    expect(html).toContain('India Post · tracking number <strong>EM123456789IN</strong> · <a href="https://www.indiapost.gov.in/">');
    expect(html).toContain("<td>2026-11-20 10:00</td><td>In transit</td><td>Shipment picked up</td><td>Jaipur</td>");
    expect(html).not.toContain(order.shippingAddress!.address1!);
    expect(html).not.toContain(order.shippingAddress!.phone!);
  });

  it("writes what an order carries as text, and links only web addresses", async () => {
    const shop = seedShop();
    const order = shop.orders[0]!;
    order.name = "<img src=x onerror=alert(1)>";
    order.tags = ['"><script>alert(1)</script>'];
    order.fulfillments.push({ ...structuredClone(shop.orders.find((each) => each.fulfillments.length > 0)!.fulfillments[0]!), trackingInfo: [{ company: "Evil", number: "1", url: "javascript:alert(1)" }] });
    const { open } = shellFor(shop);
    const html = await (await open(`/admin/orders/${order.legacyResourceId}`)).text();
    expect(html).not.toMatch(/<img src=x|<script>alert|href="javascript:/);
    expect(html).toContain("&#60;img src=x onerror=alert(1)&#62;");
    expect(html).toContain("Evil · tracking number <strong>1</strong></p>");
  });

  it("frames the app page the navigation names, and only pages of the app; an unknown order is a 404", async () => {
    const { open } = shellFor();
    expect(await (await open("/admin?path=/app/shipments")).text()).toMatch(/<iframe id="app" title="Dakiya" src="\/app\/shipments\?embedded=1&shop=dakiya-demo\.myshopify\.com&host=[\w-]+&id_token=[\w.-]+">/);
    expect(await (await open("/admin?path=https://evil.example/app")).text()).toMatch(/<iframe id="app" title="Dakiya" src="\/app\?embedded=1&/);
    expect((await open("/admin/orders/1")).status).toBe(404);
  });
});
