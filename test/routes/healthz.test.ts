import { describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { loader } from "~/routes/healthz";
import { uniqueShop } from "../support/webhooks";

const get = (path: string) => loader({ request: new Request(`http://localhost${path}`) });

describe("GET /healthz", () => {
  it("answers 200 when the database answers", async () => {
    const response = await get("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "reachable" });
  });

  it("tells operators how far tracking is behind across the shops, naming none", async () => {
    const shop = uniqueShop("lagging");
    const dueAt = new Date(Date.now() - 3 * 3_600_000);
    await prisma.shipment.create({
      data: { shop, orderGid: "gid://shopify/Order/1", orderName: "#1", status: "fulfilled", requestPayload: "", courierEnvironment: "test", awb: `LAG${Date.now()}`, paymentMode: "prepaid", nextSyncAt: dueAt },
    });
    try {
      const response = await get("/healthz?detail=tracking");
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body).toMatchObject({ status: "ok", database: "reachable", tracking: { shopsBehind: expect.any(Number), overdue: expect.any(Number) } });
      expect(body.tracking!.shopsBehind).toBeGreaterThanOrEqual(1);
      // The oldest overdue parcel is at least this one, three hours due.
      expect(body.tracking!.oldestOverdueSeconds).toBeGreaterThanOrEqual(3 * 3600 - 5);
      expect(JSON.stringify(body)).not.toContain(shop);
    } finally {
      await prisma.shipment.deleteMany({ where: { shop } });
    }
  });
});
