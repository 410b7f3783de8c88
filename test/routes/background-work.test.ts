import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { enqueue, jobQueue, listFailedJobs } from "~/jobs/job-queue.server";
import { jobKey } from "~/jobs/queues";
import { action as attentionAction, loader as attentionLoader } from "~/routes/app.attention";
import { resetJobs, runJobs } from "../support/jobs";
import { startShippingWorld, type startStore } from "../support/store";
import { uniqueShop } from "../support/webhooks";

let world: Awaited<ReturnType<typeof startShippingWorld>>;
let store: Awaited<ReturnType<typeof startStore>>;

beforeAll(async () => {
  await resetJobs();
  world = await startShippingWorld();
  ({ store } = world);
});
afterAll(() => world.close());

const retryForm = (queue: string, jobId: string) => {
  const body = new FormData();
  body.set("queue", queue);
  body.set("jobId", jobId);
  return store.adminRequest("/app/attention", { method: "POST", body });
};

describe("background work that needs the merchant", () => {
  it("shows a job that failed for good with its reason, to its shop only, and retries it on request", async () => {
    const order = store.shop.orders.find((candidate) => candidate.name === "#1002")!;
    // A booked order whose fulfillment Shopify never took: what the job finishes.
    const shipment = await prisma.shipment.create({
      data: {
        shop: store.domain, orderGid: order.id, orderName: order.name, status: "booked_unfulfilled", requestPayload: "{}", courierEnvironment: "test",
        paymentMode: "cod", awb: "1234567890123", courierName: "Delhivery", trackingUrl: "https://www.delhivery.com/track/package/1234567890123",
        locationGid: order.fulfillmentOrders[0]!.locationId,
      },
    });
    const boss = await jobQueue();
    // No retries left: the first failure is final.
    await boss.send("shipment-complete", { shop: store.domain, shipmentId: shipment.id }, { retryLimit: 0 });
    const down = await runJobs(["shipment-complete"], { deps: { adminFor: async () => Promise.reject(new Error("Shopify is down")) } });
    expect(down.failed).toHaveLength(1);

    const [failed] = await listFailedJobs(store.domain);
    expect(failed).toMatchObject({ queue: "shipment-complete", subject: `shipment ${shipment.id}`, reason: "Shopify is down", label: expect.stringMatching(/Finishing a booking/) });
    expect(await listFailedJobs(uniqueShop())).toEqual([]);

    const page = (await (await attentionLoader({ request: store.adminRequest("/app/attention"), params: {}, context: {} })).json()) as { failedJobs: { id: string }[] };
    expect(page.failedJobs.map((job) => job.id)).toEqual([failed!.id]);

    // A shop cannot retry another shop's failed work by naming its id.
    const otherShop = uniqueShop();
    await boss.send("app-uninstalled", { shop: otherShop }, { retryLimit: 0 });
    const [otherJob] = await boss.fetch("app-uninstalled");
    await boss.fail("app-uninstalled", otherJob!.id, { message: "failed for good" });
    expect((await listFailedJobs(otherShop)).map((job) => job.id)).toEqual([otherJob!.id]);
    const stranger = await attentionAction({ request: retryForm("app-uninstalled", otherJob!.id), params: {}, context: {} });
    expect(stranger.status).toBe(404);
    expect((await listFailedJobs(otherShop)).map((job) => job.id)).toEqual([otherJob!.id]);

    const retried = await attentionAction({ request: retryForm("shipment-complete", failed!.id), params: {}, context: {} });
    expect(retried.status).toBe(200);
    expect(await listFailedJobs(store.domain)).toEqual([]);

    expect((await runJobs(["shipment-complete"])).failed).toEqual([]);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ status: "fulfilled" });
    expect(order.fulfillments[0]!.trackingInfo[0]!.number).toBe("1234567890123");
  });

  it("does not show a job that failed while the same work was retrying, once that work is under way or done", async () => {
    const shop = uniqueShop();
    const data = { shop };
    const boss = await jobQueue();
    // A redelivered webhook's job failed for good while the first delivery's job of the same work was retrying:
    // the queue holds one retrying job per key, so the second could not wait beside it.
    await boss.send("app-uninstalled", data, { singletonKey: jobKey("app-uninstalled", data), retryLimit: 0 });
    const [redelivered] = await boss.fetch("app-uninstalled");
    await boss.fail("app-uninstalled", redelivered!.id, { message: "Connection terminated unexpectedly" });
    expect((await listFailedJobs(shop)).map((job) => job.id)).toEqual([redelivered!.id]);

    // The same work waiting (the first job's retry): nothing for the merchant to do.
    expect(await enqueue("app-uninstalled", data)).not.toBeNull();
    expect(await listFailedJobs(shop)).toEqual([]);
    // Done: still nothing.
    expect((await runJobs(["app-uninstalled"])).failed).toEqual([]);
    expect(await listFailedJobs(shop)).toEqual([]);

    // Done before it failed proves nothing: a later failure of the same work is shown.
    await boss.send("app-uninstalled", data, { singletonKey: jobKey("app-uninstalled", data), retryLimit: 0 });
    const [later] = await boss.fetch("app-uninstalled");
    await boss.fail("app-uninstalled", later!.id, { message: "Shopify is down" });
    expect((await listFailedJobs(shop)).map((job) => job.reason)).toEqual(["Shopify is down"]);
  });
});
