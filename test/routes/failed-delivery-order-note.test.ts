import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { enqueue } from "~/jobs/job-queue.server";
import { shipOrders } from "~/orders/ship-orders.server";
import { getConfig } from "~/config.server";
import { loader as deskLoader } from "~/routes/app.failed-deliveries";
import { action as trackAction } from "~/routes/track.$awb";
import { trackingLinkTokenOf } from "~/shipping/tracking-url";
import { preferredDays } from "~/failed-deliveries/shopper-answer";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { courierClientFor, sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { queuedJobs, resetJobs, runJobs } from "../support/jobs";
import { shopperOrder } from "../support/orders";
import { startStore } from "../support/store";
import { uniqueShop } from "../support/webhooks";

/**
 * The shopper's corrected contact onto the Shopify order, end to end against the local store: an answer through the
 * tracking link that corrects the phone, the address line and the landmark queues a job; the job adds one line to the
 * order's note through orderUpdate, keeping the merchant's own note, and records it in the parcel's history once —
 * also when Shopify took the write and the answer was lost, and the job ran again. Order reconciliation then reads the
 * changed order and raises no "Address changed after booking": the address the parcel was booked with is as it was.
 */
let courier: RunningCourierService;
let store: Awaited<ReturnType<typeof startStore>>;
let clock = new Date();
const HOUR = 3_600_000;

beforeAll(async () => {
  await resetJobs();
  courier = await startAppCourierService({ appTrackingLinks: true });
  store = await startStore({ domain: uniqueShop("desk-note"), throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
  await store.install();
  await prisma.shipment.updateMany({ where: { shop: { not: store.domain } }, data: { nextSyncAt: null } });
});
afterAll(async () => {
  await store.close();
  await courier.close();
});

async function failedParcel(index: number) {
  const order = store.simulator.placeOrder(store.domain, { ...shopperOrder(index), note: "Gift wrap, please" });
  const [result] = await shipOrders(store.domain, await defaultJobDeps.adminFor(store.domain), [order.id], { policy: "recommended" });
  expect(result).toMatchObject({ outcome: "booked" });
  const shipment = await prisma.shipment.findUniqueOrThrow({ where: { shop_orderGid_parcel: { shop: store.domain, orderGid: order.id, parcel: 1 } } });
  await courierClientFor(sandboxCredentialsFor(store.domain)).advanceSandboxShipment(shipment.awb!, 9);
  await enqueue("tracking-sweep", {});
  expect((await runJobs(["tracking-sweep", "tracking-sync"], { deps: { now: () => (clock = new Date(clock.getTime() + HOUR)) } })).failed).toEqual([]);
  return { shipment, order: () => store.simulator.shop(store.domain).orders.find((candidate) => candidate.id === order.id)! };
}

async function answer(shipment: { awb: string | null; trackingUrl: string | null }, fields: Record<string, string>) {
  const awb = shipment.awb!;
  const query = new URLSearchParams({ lang: "hi", token: trackingLinkTokenOf(shipment.trackingUrl)! });
  const response = await trackAction({ request: new Request(`${getConfig().SHOPIFY_APP_URL}/track/${awb}?${query}`, { method: "POST", body: new URLSearchParams(fields) }), params: { awb }, context: { clientAddress: "198.51.100.11" } });
  expect(response.status).toBe(200);
}

const noteJobs = async () => (await queuedJobs("failed-delivery-order-note", store.domain)).map((job) => job.data);
const history = async (shipmentId: number) => (await prisma.failedDeliveryEvent.findMany({ where: { failedDelivery: { shipmentId } }, orderBy: { id: "asc" } })).map((event) => `${event.transition}:${event.actorKind}`);
/** "Address changed after booking" raised on the parcel, as its history counts it (the failed attempt raised its own flag). */
const addressFlags = (shipmentId: number) => prisma.shipmentEvent.count({ where: { shipmentId, transition: "attention_raised", toState: "address_changed" } });
const day = () => preferredDays(new Date(), { closedWeekdays: [0], closedDates: [] })[0]!;

/** Shopify takes the next orderUpdate and the answer is lost on the way back, as a dropped connection would. */
function losingTheAnswerOnce() {
  let lost = false;
  return async (shop: string): Promise<ShopAdmin> => {
    const admin = await defaultJobDeps.adminFor(shop);
    const graphql = (async (...args: Parameters<ShopAdmin["graphql"]>) => {
      const answered = await admin.graphql(...args);
      if (!lost && String(args[0]).includes("orderUpdate")) {
        lost = true;
        throw new Error("read ECONNRESET");
      }
      return answered;
    }) as ShopAdmin["graphql"];
    return { shop, graphql };
  };
}

describe("the shopper's corrected contact onto the Shopify order", () => {
  it("adds one line to the order's note per answer, keeps the merchant's note, records it once even when the job runs again, and raises no address change in reconciliation", async () => {
    const { shipment, order } = await failedParcel(801);
    const addressBefore = structuredClone(order().shippingAddress);

    // A day alone corrects nothing: no job.
    await answer(shipment, { answer: "deliver_again", preferredDate: day(), preferredSlot: "morning" });
    expect(await noteJobs()).toEqual([]);

    await answer(shipment, { answer: "deliver_again", preferredDate: day(), preferredSlot: "evening", phone: "+91 98111 22233", addressLine: "Flat 4B, Lake View Apartments", landmark: "हनुमान मंदिर के पास" });
    expect(await noteJobs()).toEqual([{ shop: store.domain, shipmentId: shipment.id }]);

    // Shopify takes the note, and its answer is lost: the job fails, and its retry finds the line there.
    const adminFor = losingTheAnswerOnce();
    const first = await runJobs(["failed-delivery-order-note"], { deps: { adminFor } });
    expect(first.failed).toEqual([{ queue: "failed-delivery-order-note", message: "read ECONNRESET" }]);
    const retried = await runJobs(["failed-delivery-order-note"], { deps: { adminFor } });
    expect(retried).toEqual({ ran: 1, failed: [] });

    const line = `Failed delivery of ${order().name} (AWB ${shipment.awb}), attempt 1: the shopper corrected on`;
    const note = order().note!;
    expect(note.startsWith("Gift wrap, please\n")).toBe(true);
    expect(note.split("\n").filter((text) => text.startsWith(line))).toEqual([
      expect.stringMatching(/ IST — phone 9811122233; address line: Flat 4B, Lake View Apartments; landmark: हनुमान मंदिर के पास\. \(Dakiya\)$/),
    ]);
    // The address the parcel was booked with is as it was.
    expect(order().shippingAddress).toEqual(addressBefore);
    const row = await prisma.failedDelivery.findUniqueOrThrow({ where: { shipmentId: shipment.id } });
    expect(row.orderUpdatedAt).not.toBeNull();
    expect((await history(shipment.id)).filter((step) => step.startsWith("order_updated"))).toEqual(["order_updated:job"]);
    const deskRow = ((await (await deskLoader({ request: store.adminRequest("/app/failed-deliveries"), params: {}, context: {} })).json()).rows as { shipmentId: number; orderUpdatedAt: string | null }[]).find((candidate) => candidate.shipmentId === shipment.id);
    expect(deskRow?.orderUpdatedAt).toBe(row.orderUpdatedAt!.toISOString());

    // The same job again writes nothing more.
    await enqueue("failed-delivery-order-note", { shop: store.domain, shipmentId: shipment.id });
    expect((await runJobs(["failed-delivery-order-note"])).failed).toEqual([]);
    expect(order().note).toBe(note);
    expect((await history(shipment.id)).filter((step) => step.startsWith("order_updated"))).toHaveLength(1);

    // Reconciliation reads the order Dakiya changed, and finds nothing for the merchant to fix.
    await enqueue("orders-reconcile", { shop: store.domain });
    const reconciled = await runJobs(["orders-reconcile", "order-check"]);
    expect(reconciled.failed).toEqual([]);
    expect(reconciled.ran).toBeGreaterThanOrEqual(2);
    // It checked the order as Dakiya's note left it.
    expect((await prisma.orderRecord.findFirstOrThrow({ where: { shop: store.domain, orderGid: order().id } })).shopifyUpdatedAt?.getTime()).toBe(Date.parse(order().updatedAt));
    expect(await addressFlags(shipment.id)).toBe(0);
    expect((await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).attention).toBe("tracking_exception");

    // A second correction is a second line.
    await answer(shipment, { answer: "deliver_again", preferredDate: day(), preferredSlot: "evening", landmark: "Opposite the water tank" });
    expect((await runJobs(["failed-delivery-order-note"])).failed).toEqual([]);
    expect(order().note!.split("\n").filter((text) => text.startsWith(line))).toHaveLength(2);
    expect(order().note).toContain("landmark: Opposite the water tank. (Dakiya)");
    expect((await history(shipment.id)).filter((step) => step.startsWith("order_updated"))).toHaveLength(2);

    // Whereas an address changed in Shopify after booking is the merchant's to look at: the same reconciliation flags it.
    order().shippingAddress!.address1 = "99, Another Road";
    order().updatedAt = new Date().toISOString();
    await enqueue("orders-reconcile", { shop: store.domain });
    expect((await runJobs(["orders-reconcile", "order-check"])).failed).toEqual([]);
    expect(await addressFlags(shipment.id)).toBe(1);
    expect((await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).attention).toBe("address_changed");
  });
});
