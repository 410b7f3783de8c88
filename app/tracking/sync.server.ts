import { createHash } from "node:crypto";
import type { Shipment, ShopSettings, TrackingEvent } from "@prisma/client";
import { getConfig } from "~/config.server";
import prisma from "~/db.server";
import { LOCK_SPACE, LockBusyError, withAdvisoryLock } from "~/locks.server";
import { courierClientFor, courierCredentialsOf, getShopSettings } from "~/settings/shop-settings.server";
import { CourierError, type CourierClient } from "~/shipping/client.server";
import type { TrackingEntry } from "~/shipping/contract";
import { isServiceStatusCode, type ServiceStatusCode } from "~/shipping/status";
import { adminGraphql, type ShopAdmin } from "~/shopify/admin-graphql.server";
import { FULFILLMENT_EVENT_CREATE, FULFILLMENT_EVENTS } from "~/shopify/queries";
import { eventMessage, nextSyncAfter, STAGES, stageLabel, trackingAttentionAfter } from "./courier-progress";

/**
 * Tracking for shoppers: each shipment's courier history is read (`track-order`; the service pushes nothing), every
 * new entry is stored once, and each becomes exactly one Shopify fulfillment event, in chronological order — so the
 * shopper's order status page and Shopify's shipping-update emails follow the parcel.
 *
 * Exactly once, whatever happens: an entry is stored under its fingerprint (the same entry read again is the same
 * row); before posting, the fulfillment's own events are read, and one already there (posted by an attempt that
 * crashed before recording it) is recorded instead of posted again; every shipment is synced under its lock.
 */

export interface SyncDeps {
  admin: ShopAdmin;
  now: () => Date;
  /** TRACKING_SYNC_SECONDS. */
  baseSeconds?: number;
  settings?: ShopSettings;
  client?: CourierClient;
}

export interface SyncResult {
  shipmentId: number;
  /** Entries read for the first time. */
  newEntries: number;
  /** Fulfillment events posted now (or found already posted). */
  posted: number;
  code: number | null;
}

const fingerprintOf = (entry: Pick<TrackingEntry, "service_status" | "timestamp" | "activity">) =>
  createHash("sha256").update(`${entry.service_status}|${new Date(entry.timestamp).toISOString()}|${entry.activity}`).digest("hex").slice(0, 40);

/** A shipment the courier tracks and that is not in a final stage (or has events still to post). */
const TRACKABLE_STATUSES = ["booked_unfulfilled", "fulfilled", "cancelled"];

/** Reads a shipment's tracking, stores its new entries and posts what Shopify has not been told. */
export async function syncShipment(shipment: Shipment, deps: SyncDeps): Promise<SyncResult> {
  if (!shipment.awb) return { shipmentId: shipment.id, newEntries: 0, posted: 0, code: shipment.courierStatusCode };
  const now = deps.now();
  const settings = deps.settings ?? (await getShopSettings(shipment.shop));
  const client = deps.client ?? courierClientFor(courierCredentialsOf(settings));
  const baseSeconds = deps.baseSeconds ?? getConfig().TRACKING_SYNC_SECONDS;

  const tracking = await client.trackOrder(shipment.awb);
  const entries = tracking.tracking_history
    .filter((entry) => isServiceStatusCode(entry.service_status))
    .map((entry) => ({ ...entry, happenedAt: new Date(entry.timestamp) }))
    .sort((a, b) => a.happenedAt.getTime() - b.happenedAt.getTime());
  const inserted = await prisma.trackingEvent.createMany({
    data: entries.map((entry) => ({
      shop: shipment.shop,
      shipmentId: shipment.id,
      fingerprint: fingerprintOf(entry),
      code: entry.service_status,
      label: entry.label || stageLabel(entry.service_status),
      activity: entry.activity.slice(0, 500),
      location: entry.location?.slice(0, 200) ?? null,
      happenedAt: entry.happenedAt,
    })),
    skipDuplicates: true,
  });

  const latest = entries.at(-1);
  const code = latest ? (latest.service_status as ServiceStatusCode) : null;
  const status = {
    ...(latest ? { courierStatusCode: latest.service_status, courierStatusLabel: latest.label || stageLabel(latest.service_status), courierStatusAt: latest.happenedAt, lastScanAt: latest.happenedAt } : {}),
    estimatedDeliveryAt: new Date(tracking.estimated_delivery_date),
    deliveredAt: tracking.delivered_date ? new Date(tracking.delivered_date) : null,
    syncedAt: now,
  };
  const attention = trackingAttentionAfter({
    attention: shipment.attention,
    before: { code: shipment.courierStatusCode, at: shipment.lastScanAt },
    after: { code, at: latest?.happenedAt ?? null },
    previousSyncAt: shipment.syncedAt,
    now,
  });
  const attentionData = attention === null ? {} : "clear" in attention ? { attention: null, attentionAt: null } : { attention: attention.flag, attentionAt: attention.at };
  // Until the events are posted, the shipment stays due again soon: a sync stopped by Shopify is picked up later.
  await prisma.shipment.update({ where: { id: shipment.id }, data: { ...status, ...attentionData, nextSyncAt: new Date(now.getTime() + baseSeconds * 1000) } });
  const posted = shipment.fulfillmentGid ? await postPendingEvents(shipment, { admin: deps.admin, estimatedDeliveryAt: tracking.estimated_delivery_date }) : 0;
  // A final stage (delivered, cancelled, returned, lost, damaged) is not polled again.
  await prisma.shipment.update({ where: { id: shipment.id }, data: { nextSyncAt: code === null ? nextSyncAfter(2, now, baseSeconds) : nextSyncAfter(code, now, baseSeconds) } });
  return { shipmentId: shipment.id, newEntries: inserted.count, posted, code };
}

interface PostDeps {
  admin: ShopAdmin;
  estimatedDeliveryAt: string | null;
}

type ShopifyEvent = { id: string; status: string; happenedAt: string; message: string | null };

/** The event a tracking entry becomes on the fulfillment; what identifies one already posted. */
function toEventInput(event: TrackingEvent, fulfillmentGid: string, estimatedDeliveryAt: string | null) {
  const code = event.code as ServiceStatusCode;
  return {
    fulfillmentId: fulfillmentGid,
    status: STAGES[code].shopifyStatus,
    happenedAt: event.happenedAt.toISOString(),
    message: eventMessage(code, event.activity),
    ...(event.location ? { city: event.location.slice(0, 100) } : {}),
    ...(estimatedDeliveryAt && code !== 8 ? { estimatedDeliveryAt } : {}),
  };
}

/** Shopify keeps times to the second, so an event posted with milliseconds comes back without them. */
const toSecond = (iso: string) => Math.floor(Date.parse(iso) / 1000);

const sameEvent = (existing: ShopifyEvent, input: ReturnType<typeof toEventInput>) =>
  existing.status === input.status && toSecond(existing.happenedAt) === toSecond(input.happenedAt) && (existing.message ?? "") === input.message;

type FulfillmentEventsPage = { fulfillment: { id: string; status: string; events: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: ShopifyEvent[] } } | null };

/**
 * Shopify reserves a query's requested cost before running it: 50 events a page request about 50 points, where a
 * courier's history rarely reaches 20 events; the rest, added by the merchant or other apps, on further pages.
 */
const EVENTS_PAGE = 50;
const EVENTS_PAGES_AT_MOST = 20;

/** Every event on the fulfillment, oldest first; `fulfillment` is null when Shopify no longer has it. */
async function readFulfillmentEvents(admin: ShopAdmin, fulfillmentGid: string): Promise<{ fulfillment: { id: string } | null; events: ShopifyEvent[] }> {
  const events: ShopifyEvent[] = [];
  let after: string | null = null;
  for (let page = 0; page < EVENTS_PAGES_AT_MOST; page += 1) {
    const { fulfillment }: FulfillmentEventsPage = await adminGraphql<FulfillmentEventsPage>(admin, FULFILLMENT_EVENTS, { id: fulfillmentGid, first: EVENTS_PAGE, after });
    if (!fulfillment) return { fulfillment: null, events };
    events.push(...fulfillment.events.nodes);
    if (!fulfillment.events.pageInfo.hasNextPage) return { fulfillment, events };
    after = fulfillment.events.pageInfo.endCursor;
  }
  // A thousand events on one parcel is not a courier's doing: the first thousand are compared, and an entry whose
  // twin lies further back could be posted again (none of a courier's histories comes near).
  return { fulfillment: { id: fulfillmentGid }, events };
}

/**
 * Posts a shipment's unposted entries to its fulfillment, oldest first. The fulfillment's events are read first
 * (only when something is pending): an entry whose event is already there — posted by an attempt that stopped
 * before recording it — is recorded, not posted again. An entry that arrives late is still posted once; Shopify
 * orders events by their time.
 */
export async function postPendingEvents(shipment: Pick<Shipment, "id" | "fulfillmentGid">, { admin, estimatedDeliveryAt }: PostDeps): Promise<number> {
  if (!shipment.fulfillmentGid) return 0;
  const pending = await prisma.trackingEvent.findMany({ where: { shipmentId: shipment.id, postedAt: null }, orderBy: [{ happenedAt: "asc" }, { id: "asc" }] });
  if (pending.length === 0) return 0;
  // Each event found stands for one entry only: two alike entries in the same second are two events.
  const { fulfillment, events: existing } = await readFulfillmentEvents(admin, shipment.fulfillmentGid);
  let posted = 0;
  for (const event of pending) {
    const input = toEventInput(event, shipment.fulfillmentGid, estimatedDeliveryAt);
    const index = existing.findIndex((candidate) => sameEvent(candidate, input));
    const already = index === -1 ? undefined : existing.splice(index, 1)[0];
    if (already) {
      await prisma.trackingEvent.update({ where: { id: event.id }, data: { postedAt: new Date(), shopifyEventGid: already.id } });
      posted += 1;
      continue;
    }
    if (!fulfillment) {
      // The fulfillment is gone (the order was deleted, or the fulfillment cancelled and removed): nothing to tell.
      await prisma.trackingEvent.update({ where: { id: event.id }, data: { postedAt: new Date() } });
      continue;
    }
    const result = await adminGraphql<{ fulfillmentEventCreate: { fulfillmentEvent: { id: string } | null; userErrors: { message: string }[] } }>(admin, FULFILLMENT_EVENT_CREATE, { fulfillmentEvent: input });
    const created = result.fulfillmentEventCreate.fulfillmentEvent;
    // Refused (a cancelled fulfillment takes no events): recorded as handled, so it is not offered again forever.
    await prisma.trackingEvent.update({ where: { id: event.id }, data: { postedAt: new Date(), shopifyEventGid: created?.id ?? null } });
    if (created) posted += 1;
  }
  return posted;
}

export interface ShopSyncReport {
  synced: number;
  changed: number;
  posted: number;
  /** Courier calls made (one per shipment). */
  courierCalls: number;
  skipped: number;
  /** The pass took as many shipments as it may and got on with them: more may be due, for another pass at once. */
  more: boolean;
}

/**
 * One pass over a shop's due shipments (next sync time reached), oldest due first, a bounded number per pass. A
 * shipment whose tracking did not change costs one courier call and no Shopify call.
 */
export async function syncShopTracking(shop: string, deps: Omit<SyncDeps, "settings" | "client">, { limit = 200 }: { limit?: number } = {}): Promise<ShopSyncReport> {
  const now = deps.now();
  const due = await prisma.shipment.findMany({
    where: { shop, nextSyncAt: { lte: now }, awb: { not: null }, status: { in: TRACKABLE_STATUSES } },
    orderBy: { nextSyncAt: "asc" },
    take: limit,
  });
  const report: ShopSyncReport = { synced: 0, changed: 0, posted: 0, courierCalls: 0, skipped: 0, more: false };
  if (due.length === 0) return report;
  const settings = await getShopSettings(shop);
  const client = courierClientFor(courierCredentialsOf(settings));
  let busy = 0;
  for (const shipment of due) {
    try {
      const result = await withAdvisoryLock(LOCK_SPACE.SHIPMENT, shipment.id, async () => {
        const fresh = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
        return syncShipment(fresh, { ...deps, settings, client });
      });
      report.synced += 1;
      report.courierCalls += 1;
      report.posted += result.posted;
      if (result.newEntries > 0) report.changed += 1;
    } catch (error) {
      if (error instanceof LockBusyError) {
        report.skipped += 1;
        busy += 1;
        continue;
      }
      if (error instanceof CourierError && !error.retryable) {
        // The courier no longer knows the awb (or refuses the keys): stop polling it; the shipment says why.
        await prisma.shipment.update({ where: { id: shipment.id }, data: { nextSyncAt: null, lastError: `Tracking stopped: ${error.message}` } });
        report.skipped += 1;
        continue;
      }
      throw error;
    }
  }
  // Shipments another sync holds are not progress: a pass of nothing else leaves them for the next sweep.
  report.more = due.length === limit && busy < due.length;
  return report;
}

/** "Sync now": one shipment, at once, under its lock (waiting for a sync already running to finish). */
export async function syncShipmentNow(shop: string, shipmentId: number, deps: Omit<SyncDeps, "settings" | "client">): Promise<Shipment | null> {
  const shipment = await prisma.shipment.findFirst({ where: { id: shipmentId, shop } });
  if (!shipment?.awb) return shipment;
  return withAdvisoryLock(
    LOCK_SPACE.SHIPMENT,
    shipment.id,
    async () => {
      const fresh = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
      await syncShipment(fresh, deps);
      return prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
    },
    { wait: true },
  );
}

/** The shops with shipments due for a sync, and when the next one falls due after now. */
export async function listShopsDueForTracking(now: Date): Promise<{ shops: string[]; nextDueAt: Date | null }> {
  const shops = await prisma.shipment.findMany({ where: { nextSyncAt: { lte: now }, awb: { not: null }, status: { in: TRACKABLE_STATUSES } }, distinct: ["shop"], select: { shop: true } });
  const next = await prisma.shipment.findFirst({ where: { nextSyncAt: { gt: now }, status: { in: TRACKABLE_STATUSES } }, orderBy: { nextSyncAt: "asc" }, select: { nextSyncAt: true } });
  return { shops: shops.map((row) => row.shop), nextDueAt: next?.nextSyncAt ?? null };
}

/** A shipment's timeline for the screens: its stored entries, oldest first. */
export async function listTrackingEvents(shop: string, shipmentId: number): Promise<Pick<TrackingEvent, "code" | "label" | "activity" | "location" | "happenedAt" | "postedAt">[]> {
  return prisma.trackingEvent.findMany({ where: { shop, shipmentId }, orderBy: [{ happenedAt: "asc" }, { id: "asc" }], select: { code: true, label: true, activity: true, location: true, happenedAt: true, postedAt: true } });
}
