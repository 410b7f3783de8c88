import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listNeedsAttention } from "~/attention/needs-attention.server";
import { attentionInWords } from "~/attention/attention-words";
import { shipOrders } from "~/orders/ship-orders.server";
import prisma from "~/db.server";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import { enqueue } from "~/jobs/job-queue.server";
import { action as settingsAction } from "~/routes/app.settings";
import { courierCallLimitsOf, courierClientFor, getShopSettings, sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { SANDBOX_CALL_LIMITS } from "~/shipping/sandbox-accounts.server";
import { AWB_UNKNOWN_LIMIT, listShopsDueForTracking } from "~/tracking/sync.server";
import { startCourierService, type RunningCourierService } from "../support/courier-service";
import { htmlFault, jsonFault, startFaultProxy } from "../support/fault-proxy";
import { resetJobs, runJobs } from "../support/jobs";
import { shopperOrder } from "../support/orders";
import { startStore } from "../support/store";

/**
 * Tracking under faults, through a real HTTP proxy standing where the app expects the courier (COURIER_SANDBOX_URL)
 * in front of the embedded courier service: one awb the courier fails on, every key refused for a while, a
 * maintenance page, an awb the courier does not know.
 */
let courier: RunningCourierService;
let proxy: Awaited<ReturnType<typeof startFaultProxy>>;
let store: Awaited<ReturnType<typeof startStore>>;
let clock = new Date();
let placed = 0;

beforeAll(async () => {
  await resetJobs();
  courier = await startCourierService();
  proxy = await startFaultProxy({ port: Number(new URL(process.env.COURIER_SANDBOX_URL!).port), upstream: courier.url });
  store = await startStore({ throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
  await store.install();
  // Shipments other test files left in this database are not this file's.
  await prisma.shipment.updateMany({ where: { shop: { not: store.domain } }, data: { nextSyncAt: null } });
});
afterAll(async () => {
  await store.close();
  await proxy.close();
  await courier.close();
});

const later = (hours: number) => (clock = new Date(clock.getTime() + hours * 3_600_000));
const courierOfShop = () => courierClientFor(sandboxCredentialsFor(store.domain));

async function bookedShipments(count: number) {
  const orders = Array.from({ length: count }, () => store.simulator.placeOrder(store.domain, shopperOrder(700 + (placed += 1))));
  const results = await shipOrders(store.domain, await defaultJobDeps.adminFor(store.domain), orders.map((order) => order.id), { policy: "recommended" });
  expect(results.map((result) => result.outcome)).toEqual(orders.map(() => "booked"));
  return prisma.shipment.findMany({ where: { shop: store.domain, orderGid: { in: orders.map((order) => order.id) } }, orderBy: { id: "asc" } });
}

/** The scheduled path: the sweep, then each shop's sync job, on the test's clock. */
async function syncAt(at: Date) {
  await enqueue("tracking-sweep", {});
  return runJobs(["tracking-sweep", "tracking-sync"], { deps: { now: () => at } });
}

const rows = (ids: number[]) => prisma.shipment.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
const transitionsOf = async (id: number) => (await prisma.shipmentEvent.findMany({ where: { shipmentId: id }, orderBy: { id: "asc" } })).map((event) => event.transition);
const isTrackOf = (awb: string) => (request: { path: string }) => request.path.startsWith("/v1/track-order/") && decodeURIComponent(request.path).endsWith(`/${awb}`);

describe("tracking under faults", () => {
  it("backs off one failing shipment, pauses the shop on an account-wide refusal or a web page, and resumes everything by itself", async () => {
    const shipments = await bookedShipments(4);
    const ids = shipments.map((shipment) => shipment.id);
    const [failing, ...others] = shipments;
    expect((await syncAt(later(1))).failed).toEqual([]);
    expect((await rows(ids)).map((row) => row.courierStatusCode)).toEqual([2, 2, 2, 2]);

    // 503 for one awb, every time: the others move on; that one backs off alone, due again later than the rest.
    for (const shipment of shipments) await courierOfShop().advanceSandboxShipment(shipment.awb!, 3);
    proxy.set((request) => (isTrackOf(failing!.awb!)(request) ? jsonFault(503, "Service temporarily unavailable") : null));
    const at = later(1);
    expect((await syncAt(at)).failed).toEqual([]);
    let now = await rows(ids);
    expect(now.slice(1).map((row) => row.courierStatusCode)).toEqual([3, 3, 3]);
    expect(now[0]).toMatchObject({ courierStatusCode: 2, trackingState: "active", trackingFailures: 1, trackingError: expect.stringMatching(/did not answer/) });
    expect(now[0]!.nextSyncAt!.getTime()).toBeGreaterThan(at.getTime());
    expect(await transitionsOf(failing!.id)).toContain("tracking_retrying");

    // 401 for every call: the shop's tracking pauses as a whole, once, and Needs attention says so; no job fails.
    for (const shipment of others) await courierOfShop().advanceSandboxShipment(shipment.awb!, 5);
    proxy.set(() => jsonFault(401, "Invalid API credentials"));
    expect((await syncAt(later(1))).failed).toEqual([]);
    now = await rows(ids);
    expect(now.map((row) => row.trackingState)).toEqual(["paused", "paused", "paused", "paused"]);
    expect(now.slice(1).map((row) => row.courierStatusCode)).toEqual([3, 3, 3]);
    for (const id of ids) expect((await transitionsOf(id)).filter((name) => name === "tracking_paused")).toHaveLength(1);
    const paused = (await listNeedsAttention(store.domain, clock)).items.filter((item) => item.kind === "tracking_paused");
    expect(paused).toEqual([expect.objectContaining({ message: expect.stringMatching(/paused for 4 shipments: The courier service refused your API keys/) })]);
    // The reason is kept as words too (in the raw statement that pauses the shop), and said in Hindi on the page.
    expect((await rows(ids)).map((row) => row.trackingErrorWords)).toEqual(ids.map(() => ({ key: "outcomes.booking.keysRefused" })));
    expect(attentionInWords(paused[0]!.note, "hi").message).toMatch(/\p{Script=Devanagari}.*कूरियर सेवा/u);
    const pausedEvent = await prisma.shipmentEvent.findFirstOrThrow({ where: { shipmentId: ids[0]!, transition: "tracking_paused" } });
    expect(pausedEvent).toMatchObject({ reason: "The courier service refused your API keys. Check them in Settings.", reasonWords: { key: "outcomes.booking.keysRefused" } });

    // Still refused: one probe per pass, not one call per shipment; the next probe waits longer.
    const faultedBefore = proxy.faulted;
    expect((await syncAt(later(1))).failed).toEqual([]);
    expect(proxy.faulted - faultedBefore).toBe(1);
    expect((await rows(ids)).map((row) => row.trackingState)).toEqual(["paused", "paused", "paused", "paused"]);

    // A maintenance page (200, HTML): still no data, still paused.
    proxy.set(() => htmlFault(200));
    expect((await syncAt(later(1))).failed).toEqual([]);
    now = await rows(ids);
    expect(now.map((row) => row.trackingState)).toEqual(["paused", "paused", "paused", "paused"]);
    expect(now[0]!.trackingError).toMatch(/web page/);
    expect(now[0]!.trackingErrorWords).toEqual({ key: "activity.stored.tracking.notJson" });

    // The courier answers again: everything resumes by itself and catches up, the shipment that failed alone too.
    proxy.heal();
    expect((await syncAt(later(1))).failed).toEqual([]);
    now = await rows(ids);
    expect(now.map((row) => [row.trackingState, row.courierStatusCode, row.trackingError])).toEqual([
      ["active", 3, null],
      ["active", 5, null],
      ["active", 5, null],
      ["active", 5, null],
    ]);
    for (const id of ids) expect((await transitionsOf(id)).filter((name) => name === "tracking_resumed")).toHaveLength(1);
    expect(now.map((row) => row.trackingErrorWords)).toEqual([null, null, null, null]);
    expect(await prisma.shipmentEvent.findFirstOrThrow({ where: { shipmentId: ids[1]!, transition: "tracking_resumed" } })).toMatchObject({ reason: "The courier answers again", reasonWords: { key: "activity.stored.tracking.courierAnswers" } });
    expect((await listNeedsAttention(store.domain, clock)).items.filter((item) => item.kind === "tracking_paused")).toEqual([]);
  });

  it("stops a shipment only after the courier says again and again that it does not know the awb", async () => {
    const [unknown, known] = await bookedShipments(2);
    expect((await syncAt(later(1))).failed).toEqual([]);
    proxy.set((request) => (isTrackOf(unknown!.awb!)(request) ? jsonFault(404, "Order not found") : null));
    for (let attempt = 1; attempt < AWB_UNKNOWN_LIMIT; attempt += 1) {
      expect((await syncAt(later(24))).failed).toEqual([]);
      expect(await prisma.shipment.findUniqueOrThrow({ where: { id: unknown!.id } })).toMatchObject({ trackingState: "active", awbUnknownCount: attempt, nextSyncAt: expect.any(Date) });
    }
    expect((await syncAt(later(24))).failed).toEqual([]);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: unknown!.id } })).toMatchObject({
      trackingState: "stopped",
      nextSyncAt: null,
      trackingError: "Tracking stopped: The courier does not know this awb.",
      trackingErrorWords: { key: "activity.stored.tracking.stopped", values: { reason: { key: "activity.stored.tracking.awbUnknown" } } },
    });
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: known!.id } })).toMatchObject({ trackingState: "active", trackingFailures: 0 });
    expect((await listNeedsAttention(store.domain, clock)).items).toContainEqual(expect.objectContaining({ kind: "tracking_stopped", shipmentId: unknown!.id }));
    proxy.heal();
  });

  it("keeps a delivered parcel's delivery date when the courier's answer leaves it out", async () => {
    const [shipment] = await bookedShipments(1);
    const awb = shipment!.awb!;
    const delivered = await courierOfShop().advanceSandboxShipment(awb, 8);
    const deliveredEntry = delivered.tracking_history.find((entry) => entry.service_status === 8)!;
    // The courier's own answer with its Delivered entry, but no delivery date, as an aggregator may send it.
    const answer = { ...(await courier.client(sandboxCredentialsFor(store.domain)).trackOrder(awb)), delivered_date: "" };
    proxy.set((request) => (isTrackOf(awb)(request) ? { status: 200, body: JSON.stringify(answer), contentType: "application/json" } : null));
    expect((await syncAt(later(1))).failed).toEqual([]);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment!.id } })).toMatchObject({ outcome: "delivered", nextSyncAt: null, deliveredAt: new Date(deliveredEntry.timestamp) });
    proxy.heal();
  });

  it("reads the courier several at a time, no more at once nor faster than the account's limits saved in Settings", async () => {
    const saveLimits = async (atOnce: string, perSecond: string) => {
      const body = new FormData();
      const fields = { mode: "sandbox", environment: "test", defaultWarehouseId: "", packageLength: "20", packageBreadth: "15", packageHeight: "10", defaultWeightKg: "0.5", codTag: "cod", prepaidTag: "prepaid", courierCallsAtOnce: atOnce, courierCallsPerSecond: perSecond };
      for (const [key, value] of Object.entries(fields)) body.set(key, value);
      const response = await settingsAction({ request: store.adminRequest("/app/settings", { method: "POST", body }), params: {}, context: {} });
      return { status: response.status, body: (await response.json()) as { ok: boolean; errors: Record<string, string> } };
    };
    // Refused with a reason, nothing saved: none at once, a word, more a second than any aggregator allows.
    for (const [atOnce, perSecond, field] of [["0", "", "courierCallsAtOnce"], ["two", "", "courierCallsAtOnce"], ["", "5000", "courierCallsPerSecond"]] as const) {
      const refused = await saveLimits(atOnce, perSecond);
      expect(refused.status).toBe(422);
      expect(refused.body.errors[field]).toMatch(/whole number from 1 to/);
    }
    expect(courierCallLimitsOf(await getShopSettings(store.domain))).toEqual(SANDBOX_CALL_LIMITS);

    expect((await saveLimits("2", "5")).status).toBe(200);
    expect(courierCallLimitsOf(await getShopSettings(store.domain))).toEqual({ atOnce: 2, perSecond: 5 });
    const shipments = await bookedShipments(6);
    proxy.countAfresh();
    const began = Date.now();
    expect((await syncAt(later(1))).failed).toEqual([]);
    const took = Date.now() - began;
    expect((await rows(shipments.map((shipment) => shipment.id))).every((row) => row.syncedAt?.getTime() === clock.getTime())).toBe(true);
    // Two at once, never three; six reads at five a second after a burst of two take at least four fifths of a second.
    expect(proxy.mostAtOnce).toBe(2);
    expect(took).toBeGreaterThanOrEqual(750);
    expect((await saveLimits("", "")).status).toBe(200);
  });

  it("does not sync a shop that uninstalled", async () => {
    await bookedShipments(1);
    expect((await listShopsDueForTracking(later(1))).shops).toContain(store.domain);
    await prisma.session.deleteMany({ where: { shop: store.domain } });
    expect((await listShopsDueForTracking(clock)).shops).not.toContain(store.domain);
    const passedBefore = proxy.passed;
    // A sync queued before the uninstall finds nothing to do and does not fail.
    await enqueue("tracking-sync", { shop: store.domain });
    expect((await syncAt(clock)).failed).toEqual([]);
    expect(proxy.passed).toBe(passedBefore);
  });
});
