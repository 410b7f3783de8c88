import { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { TRACKED_STATUSES, TRACKING_STATE } from "~/shipments/lifecycle";

/**
 * How far tracking is behind: a parcel is overdue once its next read is due and no pass has claimed it yet (a pass's
 * claim moves its next read on). The oldest overdue parcel says how long a shopper's tracking may be stale beyond its
 * stage's interval; a figure that grows means the workers, or the courier's limits, are not keeping up.
 */
export interface TrackingLag {
  /** Parcels due for a read and not yet taken by a pass. */
  overdue: number;
  /** How long the oldest of them has been due, seconds (0 with none). */
  oldestOverdueSeconds: number;
}

/** The parcels read on a schedule: an awb, a status the courier still tracks, not stopped. */
const scheduled = Prisma.sql`"nextSyncAt" IS NOT NULL AND awb IS NOT NULL AND status IN (${Prisma.join([...TRACKED_STATUSES])}) AND "trackingState" IN (${TRACKING_STATE.ACTIVE}, ${TRACKING_STATE.PAUSED})`;

const secondsSince = (due: Date | null, now: Date) => (due === null ? 0 : Math.max(0, Math.round((now.getTime() - due.getTime()) / 1000)));

/** One shop's lag, for its Home. */
export async function trackingLagOf(shop: string, now: Date): Promise<TrackingLag> {
  const [row] = await prisma.$queryRaw<{ overdue: number; oldest: Date | null }[]>`
    SELECT count(*)::int AS overdue, min("nextSyncAt") AS oldest FROM "Shipment" WHERE shop = ${shop} AND "nextSyncAt" <= ${now} AND ${scheduled}`;
  return { overdue: row?.overdue ?? 0, oldestOverdueSeconds: secondsSince(row?.oldest ?? null, now) };
}

/** Every shop with overdue parcels, the longest behind first: what the tracking sweep schedules, and what operators watch. */
export async function shopsBehindOnTracking(now: Date, { installedOnly = false }: { installedOnly?: boolean } = {}): Promise<({ shop: string } & TrackingLag)[]> {
  const installed = installedOnly ? Prisma.sql`AND shop IN (SELECT DISTINCT shop FROM "Session" WHERE "isOnline" = false)` : Prisma.empty;
  const rows = await prisma.$queryRaw<{ shop: string; overdue: number; oldest: Date }[]>`
    SELECT shop, count(*)::int AS overdue, min("nextSyncAt") AS oldest FROM "Shipment"
    WHERE "nextSyncAt" <= ${now} AND ${scheduled} ${installed}
    GROUP BY shop ORDER BY oldest, shop`;
  return rows.map((row) => ({ shop: row.shop, overdue: row.overdue, oldestOverdueSeconds: secondsSince(row.oldest, now) }));
}

/** The lag across every shop, for operators: how many shops are behind, and how far the furthest. No shop is named. */
export async function trackingLagAcrossShops(now: Date): Promise<{ shopsBehind: number; overdue: number; oldestOverdueSeconds: number }> {
  const shops = await shopsBehindOnTracking(now);
  return {
    shopsBehind: shops.length,
    overdue: shops.reduce((sum, shop) => sum + shop.overdue, 0),
    oldestOverdueSeconds: shops[0]?.oldestOverdueSeconds ?? 0,
  };
}
