import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { action as shipAction } from "~/routes/app.orders.$id.ship";
import { action as customersRedact } from "~/routes/webhooks.customers.redact";
import { action as shopRedact } from "~/routes/webhooks.shop.redact";
import { startShippingWorld, type startStore } from "../support/store";
import { resetJobs, runJobs } from "../support/jobs";
import { responseOf, signedWebhookRequest } from "../support/webhooks";

let world: Awaited<ReturnType<typeof startShippingWorld>>;
let store: Awaited<ReturnType<typeof startStore>>;
beforeAll(async () => {
  await resetJobs();
  world = await startShippingWorld();
  ({ store } = world);
});
afterAll(() => world.close());

async function bookOrderNamed(name: string): Promise<{ awb: string; legacyId: string }> {
  const order = store.shop.orders.find((candidate) => candidate.name === name)!;
  const body = new FormData();
  body.set("courierId", "1");
  const response = await shipAction({ request: store.adminRequest(`/app/orders/${order.legacyResourceId}/ship`, { method: "POST", body }), params: { id: order.legacyResourceId }, context: {} });
  const { shipment } = (await response.json()) as { shipment: { awb: string } };
  return { awb: shipment.awb, legacyId: order.legacyResourceId };
}

describe("compliance webhooks", () => {
  it("customers/redact removes the shopper's name, phone and address from shipments and the sandbox's copy", async () => {
    const kept = await bookOrderNamed("#1001");
    const redacted = await bookOrderNamed("#1002");
    const before = await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: redacted.awb } });
    expect(before.customerName).toBe("Rahul Verma");

    const request = signedWebhookRequest("http://localhost:3999/webhooks/customers/redact", {
      topic: "customers/redact",
      shop: store.domain,
      payload: { shop_id: 1, shop_domain: store.domain, customer: { id: 77 }, orders_to_redact: [Number(redacted.legacyId)] },
    });
    expect((await responseOf(() => customersRedact({ request, params: {}, context: {} }))).status).toBe(200);
    expect((await runJobs(["customers-redact"])).failed).toEqual([]);

    const shipment = await prisma.shipment.findFirstOrThrow({ where: { shop: store.domain, awb: redacted.awb } });
    expect(shipment.requestPayload).not.toMatch(/Rahul|9839012345|Aliganj/);
    expect(JSON.parse(shipment.requestPayload)).toMatchObject({ name: "[redacted]", mobile: "[redacted]", pincode: "226024" });
    const serviceOrder = await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: redacted.awb } });
    expect(serviceOrder).toMatchObject({ customerName: "[redacted]", mobile: "[redacted]", addressLine1: "[redacted]", awb: redacted.awb });

    expect((await prisma.serviceOrder.findUniqueOrThrow({ where: { awb: kept.awb } })).customerName).toBe("Priya Sharma");
  });

  it("shop/redact forgets the shop's settings, shipments and its sandbox orders", async () => {
    expect(await prisma.shipment.count({ where: { shop: store.domain } })).toBeGreaterThan(0);
    const request = signedWebhookRequest("http://localhost:3999/webhooks/shop/redact", {
      topic: "shop/redact",
      shop: store.domain,
      payload: { shop_id: 1, shop_domain: store.domain },
    });
    expect((await responseOf(() => shopRedact({ request, params: {}, context: {} }))).status).toBe(200);
    expect((await runJobs(["shop-redact"])).failed).toEqual([]);
    expect(await prisma.shipment.count({ where: { shop: store.domain } })).toBe(0);
    expect(await prisma.session.count({ where: { shop: store.domain } })).toBe(0);
    expect(await prisma.serviceOrder.count({ where: { orderId: { startsWith: store.domain.replace(".myshopify.com", "-") } } })).toBe(0);
  });
});
