import { createHash } from "node:crypto";
import type { Shipment, ShopSettings, TrackingEvent } from "@prisma/client";
import { getConfig } from "~/config.server";
import prisma from "~/db.server";
import { LOCK_SPACE, LockBusyError, withAdvisoryLock } from "~/locks.server";
import { courierCallLimitsOf, courierClientFor, courierCredentialsOf, getShopSettings } from "~/settings/shop-settings.server";
import { CourierError, type CourierClient } from "~/shipping/client.server";
import type { TrackingEntry, TrackingResult } from "~/shipping/contract";
import { isServiceStatusCode, type ServiceStatusCode } from "~/shipping/status";
import { recordReturnArrival, recordReturnPickedUp } from "~/returns/return-arrival.server";
import { applyDeskRules } from "~/failed-deliveries/desk-rules.server";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { createFulfillmentEvent, readFulfillmentEvents, type FulfillmentEvent } from "~/shopify/fulfillments.server";
import { FINAL_OUTCOMES, outcomeOfCode, SHIPMENT_OUTCOME, TRACKED_STATUSES, TRACKING_STATE, type Actor } from "~/shipments/lifecycle";
import type { Sentence } from "~/locales/admin-language";
import {
  claimDueTracking,
  deferPausedTracking,
  recordUnchangedReads,
  releaseTrackingClaims,
  type TrackingClaim,
  type UnchangedRead,
  markTrackingRetrying,
  pauseShopTracking,
  recordCourierProgress,
  resumeShopTracking,
  resumeTracking,
  scheduleNextSync,
  stopTracking,
  trackingStillDue,
} from "~/shipments/shipment-changes.server";
import { forEachAtOnce, paceOf } from "~/shipping/courier-pace";
import { shopsBehindOnTracking } from "./tracking-lag.server";
import { eventMessage, nextSyncAfter, STAGES, stageLabel, trackingAttentionAfter } from "./courier-progress";

/**
 * Tracking for shoppers: each shipment's courier history is read (`track-order`; the service pushes nothing), every
 * new entry is stored once, and each becomes exactly one Shopify fulfillment event, in chronological order — so the
 * shopper's order status page and Shopify's shipping-update emails follow the parcel.
 *
 * Exactly once, whatever happens: an entry is stored under its fingerprint (the same entry read again is the same
 * row); each post is marked as attempted before it is sent, and after an attempt whose outcome is unknown the
 * fulfillment's own events are read, so one already there is recorded instead of posted again; every shipment with
 * news is synced under its lock, and a read without news is written only if the row is as its pass claimed it.
 */

export interface SyncDeps {
  admin: ShopAdmin;
  now: () => Date;
  /** TRACKING_SYNC_SECONDS. */
  baseSeconds?: number;
  settings?: ShopSettings;
  client?: CourierClient;
  /** Who asked for the sync ("Sync now"); the tracking-sync job otherwise. */
  actor?: Actor;
}

const TRACKING_JOB: Actor = { kind: "job", name: "tracking-sync" };
const courierOf = (shipment: Pick<Shipment, "courierName">): Actor => ({ kind: "courier", name: shipment.courierName ?? "Courier" });

export interface SyncResult {
  shipmentId: number;
  /** Entries read for the first time. */
  newEntries: number;
  /** Fulfillment events posted now (or found already posted). */
  posted: number;
  code: number | null;
}

/** What identifies a courier entry once stored: the same entry read again is the same row. */
export const fingerprintOf = (entry: Pick<TrackingEntry, "service_status" | "timestamp" | "activity">) =>
  createHash("sha256").update(`${entry.service_status}|${new Date(entry.timestamp).toISOString()}|${entry.activity}`).digest("hex").slice(0, 40);

/** A shipment the courier tracks and that is not in a final stage (or has events still to post). */
const TRACKABLE_STATUSES = [...TRACKED_STATUSES];

/** The courier's entries of a read with a status code the service defines, oldest first. */
function entriesOf(tracking: TrackingResult) {
  return tracking.tracking_history
    .filter((entry) => isServiceStatusCode(entry.service_status))
    .map((entry) => ({ ...entry, happenedAt: new Date(entry.timestamp) }))
    .sort((a, b) => a.happenedAt.getTime() - b.happenedAt.getTime());
}

/** The code of a read's latest entry, and what the read means for the merchant's attention. */
function newsOf(shipment: Shipment, entries: ReturnType<typeof entriesOf>, now: Date) {
  const latest = entries.at(-1);
  const code = latest ? (latest.service_status as ServiceStatusCode) : null;
  const attention = trackingAttentionAfter({
    attention: shipment.attention,
    before: { code: shipment.courierStatusCode, at: shipment.lastScanAt },
    after: { code, at: latest?.happenedAt ?? null },
    previousSyncAt: shipment.syncedAt,
    now,
  });
  return { code, attention };
}

/**
 * Reads a shipment's tracking (or takes the read a pass already made), stores its new entries and posts what Shopify
 * has not been told.
 */
export async function syncShipment(shipment: Shipment, deps: SyncDeps, read?: TrackingResult): Promise<SyncResult> {
  if (!shipment.awb) return { shipmentId: shipment.id, newEntries: 0, posted: 0, code: shipment.courierStatusCode };
  const now = deps.now();
  const settings = deps.settings ?? (await getShopSettings(shipment.shop));
  const client = deps.client ?? courierClientFor(courierCredentialsOf(settings));
  const baseSeconds = deps.baseSeconds ?? getConfig().TRACKING_SYNC_SECONDS;

  const tracking = read ?? (await client.trackOrder(shipment.awb));
  const entries = entriesOf(tracking);
  // Couriers that time their scans to the minute give two stages one time (Out for Delivery and Delivered): an entry
  // at the moment of the last report read is news too when this read is the first to bring it.
  const since = shipment.lastScanAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  const readAtSince = entries.some((entry) => entry.happenedAt.getTime() === since)
    ? new Set((await prisma.trackingEvent.findMany({ where: { shipmentId: shipment.id, happenedAt: shipment.lastScanAt! }, select: { fingerprint: true } })).map((stored) => stored.fingerprint))
    : new Set<string>();
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

  const { code, attention } = newsOf(shipment, entries, now);
  // The entries since the last scan read are the courier's news, each a report of where the parcel is; an older
  // entry read late is history, stored and posted but moving nothing.
  const reports = entries
    .filter((entry) => entry.happenedAt.getTime() > since || (entry.happenedAt.getTime() === since && !readAtSince.has(fingerprintOf(entry))))
    .map((entry) => ({ code: entry.service_status as ServiceStatusCode, label: entry.label || stageLabel(entry.service_status), at: entry.happenedAt, activity: entry.activity }));
  // Until the events are posted, the shipment stays due again soon: a sync stopped by Shopify is picked up later.
  const progressed = await recordCourierProgress(
    shipment,
    {
      reports,
      estimatedDeliveryAt: new Date(tracking.estimated_delivery_date),
      deliveredAt: tracking.delivered_date ? new Date(tracking.delivered_date) : null,
      ...(attention === null ? {} : { attention }),
      nextSyncAt: new Date(now.getTime() + baseSeconds * 1000),
    },
    { actor: courierOf(shipment), at: now },
  );
  // A failed attempt goes to the shop's failed-delivery rules as soon as it is read (once per attempt: a read that
  // stopped before this step has it done by the next).
  if (progressed.outcome === SHIPMENT_OUTCOME.DELIVERY_ATTEMPTED && progressed.direction === "forward") await applyDeskRules(progressed, now);
  // A return's reverse delivery has no events in Shopify: the shopper follows it on Dakiya's tracking page.
  const isReturn = shipment.direction === "return";
  const posted = shipment.fulfillmentGid && !isReturn ? await postPendingEvents(shipment, { admin: deps.admin, estimatedDeliveryAt: tracking.estimated_delivery_date }) : 0;
  // A return's pickup tells its return where it is: collected from the shopper, then at the warehouse — collected
  // first even when one read brings both (the courier's pickup scans and its delivery at the warehouse).
  const pickedUpNow =
    progressed.outcome === SHIPMENT_OUTCOME.PICKED_UP || (progressed.outcome === SHIPMENT_OUTCOME.RECEIVED && reports.some((report) => outcomeOfCode(report.code, "return") === SHIPMENT_OUTCOME.PICKED_UP));
  if (isReturn && progressed.outcome !== shipment.outcome && pickedUpNow) await recordReturnPickedUp(progressed, { actor: courierOf(shipment), at: now });
  const arrivalRecorded = isReturn && progressed.outcome === SHIPMENT_OUTCOME.RECEIVED ? await recordReturnArrival(progressed, { admin: deps.admin, now, change: { actor: courierOf(shipment), at: now } }) : true;
  // A final stage (delivered, cancelled, returned, lost, damaged) is not polled again, unless a return's arrival is
  // still to be recorded in Shopify; nor is a parcel whose outcome is final, whatever the courier added after it.
  const finished = (FINAL_OUTCOMES as readonly string[]).includes(progressed.outcome);
  const next = finished ? null : code === null ? nextSyncAfter(2, now, baseSeconds) : nextSyncAfter(code, now, baseSeconds);
  await scheduleNextSync(shipment, next ?? (arrivalRecorded ? null : new Date(now.getTime() + baseSeconds * 1000)));
  return { shipmentId: shipment.id, newEntries: inserted.count, posted, code };
}

interface PostDeps {
  admin: ShopAdmin;
  estimatedDeliveryAt: string | null;
}


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

const sameEvent = (existing: FulfillmentEvent, input: ReturnType<typeof toEventInput>) =>
  existing.status === input.status && toSecond(existing.happenedAt) === toSecond(input.happenedAt) && (existing.message ?? "") === input.message;

/**
 * Posts a shipment's unposted entries to its fulfillment, oldest first. Each post is marked as attempted before it is
 * sent. When one of them was attempted already — sent by an attempt whose answer was lost or that stopped before
 * recording it — the fulfillment's events are read first, and an entry whose event is already there is recorded,
 * not posted again. Otherwise nothing of Dakiya's can be on the fulfillment yet and the read (its points, and the
 * larger share of the bucket it reserves) is skipped. An entry that arrives late is still posted once; Shopify
 * orders events by their time.
 */
export async function postPendingEvents(shipment: Pick<Shipment, "id" | "fulfillmentGid">, { admin, estimatedDeliveryAt }: PostDeps): Promise<number> {
  if (!shipment.fulfillmentGid) return 0;
  const pending = await prisma.trackingEvent.findMany({ where: { shipmentId: shipment.id, postedAt: null }, orderBy: [{ happenedAt: "asc" }, { id: "asc" }] });
  if (pending.length === 0) return 0;
  const uncertain = pending.some((event) => event.postAttemptedAt !== null);
  // Each event found stands for one entry only: two alike entries in the same second are two events.
  const { fulfillment, events: existing } = uncertain ? await readFulfillmentEvents(admin, shipment.fulfillmentGid) : { fulfillment: { id: shipment.fulfillmentGid }, events: [] };
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
    await prisma.trackingEvent.update({ where: { id: event.id }, data: { postAttemptedAt: new Date() } });
    const created = await createFulfillmentEvent(admin, input);
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
  /** Shipments whose read failed for a reason of their own, each backing off alone. */
  failed: number;
  /** The courier refused the shop's account: its tracking is paused (or stays paused) until a probe succeeds. */
  paused: boolean;
  /** The pass took as many shipments as it may and got on with them: more may be due, for another pass at once. */
  more: boolean;
  /** Parcels this pass read as delivered (their cash, if any, is now the courier's to remit). */
  delivered: number[];
}

/** Answers in a row that say "no such awb" before a shipment is no longer read. */
export const AWB_UNKNOWN_LIMIT = 5;
/** The longest a failing shipment, or a paused shop's next probe, waits. */
const BACKOFF_CAP_MS = 6 * 3_600_000;
/** A paused shop is probed first after a minute, then at doubling waits. */
const PROBE_FIRST_MS = 60_000;

const backoff = (firstMs: number, failures: number) => Math.min(firstMs * 2 ** Math.max(0, failures - 1), BACKOFF_CAP_MS);

/**
 * An error that says the shop's courier account cannot be read at all, whatever the awb: the keys refused (401/403),
 * or an answer that is not the service's JSON (a proxy's or maintenance page's HTML). Anything else — the courier
 * unreachable for one call, an awb it does not know — belongs to the one shipment.
 */
export function isAccountWide(error: CourierError): boolean {
  return error.kind === "unauthorized" || (error.notJson && !error.retryable);
}

/** The merchant's words for a tracking failure; the courier's message is its own, never the shopper's. */
function trackingFailure(error: CourierError): Sentence {
  if (error.kind === "unauthorized") return { key: "outcomes.booking.keysRefused" };
  if (error.notJson) return { key: "activity.stored.tracking.notJson" };
  if (error.kind === "not_found") return { key: "activity.stored.tracking.awbUnknown" };
  if (error.kind === "unavailable") return { key: "activity.stored.tracking.noAnswer" };
  return { key: "activity.stored.tracking.unreadable", values: { message: error.message.slice(0, 160) } };
}

/** A read that ended in the courier's refusal, whether of the one awb or of the account. */
type SyncAttempt = { kind: "synced"; result: SyncResult } | { kind: "busy" } | { kind: "failed"; error: CourierError };

/** The full sync of one shipment under its lock, with the read already made when there is one. */
async function attemptSync(shipmentId: number, deps: SyncDeps, read?: TrackingResult): Promise<SyncAttempt> {
  try {
    const result = await withAdvisoryLock(LOCK_SPACE.SHIPMENT, shipmentId, async () => {
      const fresh = await prisma.shipment.findUniqueOrThrow({ where: { id: shipmentId } });
      return syncShipment(fresh, deps, read);
    });
    return { kind: "synced", result };
  } catch (error) {
    if (error instanceof LockBusyError) return { kind: "busy" };
    if (error instanceof CourierError) return { kind: "failed", error };
    throw error;
  }
}

/** One shipment's own failure: it backs off alone; repeated "no such awb" answers stop it. */
async function backOff(shipment: Shipment, error: CourierError, now: Date, baseSeconds: number): Promise<void> {
  const change = { actor: TRACKING_JOB, at: now };
  const reason = trackingFailure(error);
  const awbUnknown = error.kind === "not_found";
  if (awbUnknown && shipment.awbUnknownCount + 1 >= AWB_UNKNOWN_LIMIT) {
    await stopTracking(shipment, { key: "activity.stored.tracking.stopped", values: { reason } }, change);
    return;
  }
  const nextSyncAt = new Date(now.getTime() + backoff(baseSeconds * 1000, shipment.trackingFailures + 1));
  await markTrackingRetrying(shipment, { error: reason, nextSyncAt, awbUnknown }, change);
}

/** What is stored of each claimed shipment's entries: their fingerprints, and whether any is still to be posted. */
async function storedEntriesOf(shop: string, shipmentIds: readonly number[]): Promise<Map<number, { fingerprints: Set<string>; unposted: boolean }>> {
  const stored = new Map<number, { fingerprints: Set<string>; unposted: boolean }>();
  if (shipmentIds.length === 0) return stored;
  const rows = await prisma.$queryRaw<{ shipmentId: number; fingerprint: string; unposted: boolean }[]>`
    SELECT "shipmentId", fingerprint, "postedAt" IS NULL AS unposted FROM "TrackingEvent" WHERE shop = ${shop} AND "shipmentId" = ANY(${[...shipmentIds]}::int[])`;
  for (const row of rows) {
    const entry = stored.get(row.shipmentId) ?? { fingerprints: new Set<string>(), unposted: false };
    entry.fingerprints.add(row.fingerprint);
    entry.unposted ||= row.unposted;
    stored.set(row.shipmentId, entry);
  }
  return stored;
}

/**
 * A read that brought nothing new: every entry already stored, none since the last scan, nothing waiting to be posted
 * to Shopify, no attention raised or cleared, and a next read to schedule. Such a read is written with the pass's other
 * unchanged reads in one statement; anything else takes the full path under the shipment's lock.
 */
function unchangedRead(claim: TrackingClaim, tracking: TrackingResult, stored: { fingerprints: Set<string>; unposted: boolean } | undefined, now: Date, baseSeconds: number): (UnchangedRead & { tracking: TrackingResult }) | null {
  const { shipment } = claim;
  if (shipment.trackingState !== TRACKING_STATE.ACTIVE) return null;
  const entries = entriesOf(tracking);
  const since = shipment.lastScanAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  if (entries.some((entry) => entry.happenedAt.getTime() > since || !stored?.fingerprints.has(fingerprintOf(entry)))) return null;
  if (stored?.unposted && shipment.fulfillmentGid && shipment.direction !== "return") return null;
  const { code, attention } = newsOf(shipment, entries, now);
  if (attention !== null) return null;
  const nextSyncAt = nextSyncAfter(code ?? 2, now, baseSeconds);
  if (nextSyncAt === null) return null;
  return { claim, tracking, estimatedDeliveryAt: new Date(tracking.estimated_delivery_date), deliveredAt: tracking.delivered_date ? new Date(tracking.delivered_date) : null, nextSyncAt };
}

/** How long a pass holds the shipments it claimed; one that dies leaves them due again after this. */
const CLAIM_LEASE_MS = 60_000;
/**
 * The longest a pass's reads take at its account's rate: a pass takes no more shipments than that allows, so it ends
 * well within its lease. A pass outliving its lease is safe (a read without news is written only if its row is as
 * claimed; news goes under the shipment's lock), but its shipments may be read twice.
 */
const PASS_READING_SECONDS = 20;

/**
 * One pass over a shop's due shipments (next sync time reached), oldest due first, a bounded number per pass, claimed
 * together in one statement so concurrent passes take different shipments. The courier is read several shipments at
 * a time, at the pace the shop's courier account allows (`courierCallLimitsOf`). A shipment whose tracking did not
 * change costs one courier call and its share of one write for the pass; no Shopify call, no lock of its own. One
 * that changed goes the full way under its lock: its entries stored, its outcome moved, its events posted.
 *
 * Faults: a shipment whose read fails for a reason of its own backs off alone and the pass goes on; an error that
 * says the shop's account cannot be read (keys refused, HTML instead of JSON) pauses the shop's tracking at once —
 * every shipment, each with its history — and a later pass probes with one shipment: when the courier answers,
 * everything paused is due again; when not, the next probe waits longer.
 */
export async function syncShopTracking(shop: string, deps: Omit<SyncDeps, "settings" | "client">, { limit = 500 }: { limit?: number } = {}): Promise<ShopSyncReport> {
  const now = deps.now();
  const baseSeconds = deps.baseSeconds ?? getConfig().TRACKING_SYNC_SECONDS;
  const report: ShopSyncReport = { synced: 0, changed: 0, posted: 0, courierCalls: 0, skipped: 0, failed: 0, paused: false, more: false, delivered: [] };
  const settings = await getShopSettings(shop);
  const credentials = courierCredentialsOf(settings);
  const pace = paceOf(`${credentials.environment}:${credentials.apiKey}`, courierCallLimitsOf(settings));
  const passSize = Math.max(1, Math.min(limit, pace.limits.perSecond * PASS_READING_SECONDS));
  const claimNow = () => claimDueTracking(shop, { now, limit: passSize, leaseUntil: new Date(now.getTime() + CLAIM_LEASE_MS) });
  let claims = await claimNow();
  if (claims.length === 0) return report;
  // Claims not finished when the pass ends are handed back, so they are due as they were.
  const open = new Map(claims.map((claim) => [claim.shipment.id, claim]));
  try {
    const client = courierClientFor(credentials);
    const syncDeps: SyncDeps = { ...deps, baseSeconds, settings, client };
    const count = (result: SyncResult) => {
      report.synced += 1;
      report.courierCalls += 1;
      report.posted += result.posted;
      if (result.newEntries > 0) report.changed += 1;
      if (result.newEntries > 0 && result.code !== null && isServiceStatusCode(result.code) && outcomeOfCode(result.code, "forward") === SHIPMENT_OUTCOME.DELIVERED) report.delivered.push(result.shipmentId);
    };

    const probe = claims.find((claim) => claim.shipment.trackingState === TRACKING_STATE.PAUSED);
    if (probe) {
      open.delete(probe.shipment.id);
      const attempt = await attemptSync(probe.shipment.id, syncDeps);
      if (attempt.kind === "busy") return { ...report, skipped: 1, paused: true };
      if (attempt.kind === "failed") report.courierCalls += 1;
      if (attempt.kind === "failed" && (isAccountWide(attempt.error) || attempt.error.kind === "unavailable")) {
        // Still refused (or the service is down altogether): the paused shipments wait for a later probe.
        await deferPausedTracking(shop, { reason: trackingFailure(attempt.error), nextProbeAt: new Date(now.getTime() + backoff(PROBE_FIRST_MS, probe.shipment.trackingFailures + 1)) });
        return { ...report, paused: true };
      }
      // The courier answered for the account: everything paused is due again, the probe included.
      await resumeShopTracking(shop, { actor: TRACKING_JOB, at: now });
      if (attempt.kind === "synced") count(attempt.result);
      else await backOff(await prisma.shipment.findUniqueOrThrow({ where: { id: probe.shipment.id } }), attempt.error, now, baseSeconds);
      await releaseTrackingClaims(shop, [...open.values()]);
      open.clear();
      // The probe, due again with the rest, is handed back to the next pass rather than read twice in this one.
      const reclaimed = await claimNow();
      for (const claim of reclaimed) open.set(claim.shipment.id, claim);
      claims = reclaimed.filter((claim) => claim.shipment.id !== probe.shipment.id);
    }

    // Read beside the first courier calls rather than before them: a pass's reads are what take its time.
    const storedRead = storedEntriesOf(shop, claims.map((claim) => claim.shipment.id));
    // Its failure is thrown by the first read that awaits it; a pass that awaits none (no claims) has nothing to lose.
    storedRead.catch(() => undefined);
    const unchanged: (UnchangedRead & { tracking: TrackingResult })[] = [];
    const changed: { claim: TrackingClaim; tracking: TrackingResult }[] = [];
    let busy = 0;
    const syncChanged = async (claim: TrackingClaim, tracking: TrackingResult) => {
      const attempt = await attemptSync(claim.shipment.id, syncDeps, tracking);
      if (attempt.kind === "synced") {
        open.delete(claim.shipment.id);
        count(attempt.result);
        return;
      }
      // Another holds the shipment (a booking finishing, "Sync now"): the claim is handed back, due as it was.
      report.skipped += 1;
      busy += 1;
    };
    const failures: { claim: TrackingClaim; error: CourierError }[] = [];
    const stop: { refusal: CourierError | null } = { refusal: null };
    await forEachAtOnce(
      claims,
      pace.limits.atOnce,
      async (claim) => {
        const { shipment } = claim;
        let tracking: TrackingResult;
        try {
          tracking = await pace.run(() => client.trackOrder(shipment.awb!));
        } catch (error) {
          if (!(error instanceof CourierError)) throw error;
          report.courierCalls += 1;
          if (isAccountWide(error)) stop.refusal ??= error;
          else failures.push({ claim, error });
          return;
        }
        const same = unchangedRead(claim, tracking, (await storedRead).get(shipment.id), now, baseSeconds);
        if (same) unchanged.push(same);
        else changed.push({ claim, tracking });
      },
      () => stop.refusal !== null,
    );

    // The reads with nothing new, in one write; a row written meanwhile takes the full path with its read.
    const written = await recordUnchangedReads(shop, unchanged, now);
    for (const read of unchanged) {
      if (!written.has(read.claim.shipment.id)) {
        changed.push({ claim: read.claim, tracking: read.tracking });
        continue;
      }
      open.delete(read.claim.shipment.id);
      report.synced += 1;
      report.courierCalls += 1;
    }
    // News goes the full way, one shipment at a time after the reads: its writes and Shopify calls hold connections
    // a wide pass would take from the rest of the process.
    for (const { claim, tracking } of changed) await syncChanged(claim, tracking);
    for (const { claim, error } of failures) {
      report.failed += 1;
      await backOff(await prisma.shipment.findUniqueOrThrow({ where: { id: claim.shipment.id } }), error, now, baseSeconds);
      open.delete(claim.shipment.id);
    }
    if (stop.refusal) {
      const reason = trackingFailure(stop.refusal);
      await pauseShopTracking(shop, { reason, nextProbeAt: new Date(now.getTime() + PROBE_FIRST_MS) }, { actor: TRACKING_JOB, at: now });
      open.clear();
      return { ...report, paused: true };
    }
    // Shipments another sync holds are not progress: a pass of nothing else leaves them for the next sweep. A full pass
    // asks whether anything is due now, as the next pass would, before that one starts: a shop with an exact multiple of
    // a pass's size ends without an empty one.
    report.more = claims.length === passSize && busy < claims.length && (await trackingStillDue(shop, deps.now()));
    return report;
  } finally {
    await handBackClaims(shop, [...open.values()]);
  }
}

/** Tries to hand back a pass's unfinished claims this many times before their lease is left to run out. */
const HAND_BACK_ATTEMPTS = 3;

/**
 * Hands a pass's unfinished claims back, due as they were. A pass usually ends early because the database dropped its
 * connection; the same moment can refuse the hand-back, which would leave those shipments leased for a minute: it is
 * tried again on a fresh connection first (handing back twice changes nothing, only rows still leased are touched).
 */
async function handBackClaims(shop: string, claims: readonly TrackingClaim[]): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await releaseTrackingClaims(shop, claims);
      return;
    } catch (error) {
      if (attempt >= HAND_BACK_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
  }
}

/**
 * "Sync now": one shipment, at once, under its lock (waiting for a sync already running to finish). A stopped or
 * paused shipment the courier answers for is tracked again.
 */
export async function syncShipmentNow(shop: string, shipmentId: number, deps: Omit<SyncDeps, "settings" | "client">): Promise<Shipment | null> {
  const shipment = await prisma.shipment.findFirst({ where: { id: shipmentId, shop } });
  if (!shipment?.awb) return shipment;
  return withAdvisoryLock(
    LOCK_SPACE.SHIPMENT,
    shipment.id,
    async () => {
      const fresh = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
      if (fresh.trackingState !== TRACKING_STATE.ACTIVE) {
        // Read first: a shipment is only tracked again when the courier answers for it.
        await syncShipment(fresh, deps);
        await resumeTracking(fresh, { actor: deps.actor ?? TRACKING_JOB, at: deps.now() }, { key: "activity.stored.tracking.syncedByHand" });
        return prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
      }
      await syncShipment(fresh, deps);
      return prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
    },
    { wait: true },
  );
}

/** A shop is tracked while it is installed (it has an offline session); a job queued before it uninstalled does nothing. */
export async function isShopInstalled(shop: string): Promise<boolean> {
  return (await prisma.session.count({ where: { shop, isOnline: false } })) > 0;
}

/**
 * The installed shops with shipments due for a sync, the longest behind first, and when the next one falls due after
 * now. A shop that uninstalled has no offline session: nothing of it is read until it installs again. One grouped read:
 * a shop with 50,000 due parcels is one row, not 50,000.
 */
export async function listShopsDueForTracking(now: Date): Promise<{ shops: string[]; nextDueAt: Date | null }> {
  const installed = (await prisma.session.findMany({ where: { isOnline: false }, select: { shop: true }, distinct: ["shop"] })).map((row) => row.shop);
  if (installed.length === 0) return { shops: [], nextDueAt: null };
  const behind = await shopsBehindOnTracking(now, { installedOnly: true });
  const next = await prisma.shipment.findFirst({
    where: { shop: { in: installed }, awb: { not: null }, status: { in: TRACKABLE_STATUSES }, trackingState: { not: TRACKING_STATE.STOPPED }, nextSyncAt: { gt: now } },
    orderBy: { nextSyncAt: "asc" },
    select: { nextSyncAt: true },
  });
  return { shops: behind.map((row) => row.shop), nextDueAt: next?.nextSyncAt ?? null };
}

/** A shipment's timeline for the screens: its stored entries, oldest first. */
export async function listTrackingEvents(shop: string, shipmentId: number): Promise<Pick<TrackingEvent, "code" | "label" | "activity" | "location" | "happenedAt" | "postedAt">[]> {
  return prisma.trackingEvent.findMany({ where: { shop, shipmentId }, orderBy: [{ happenedAt: "asc" }, { id: "asc" }], select: { code: true, label: true, activity: true, location: true, happenedAt: true, postedAt: true } });
}
