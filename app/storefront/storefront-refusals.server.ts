import prisma from "~/db.server";
import { describeError } from "~/logging.server";

/**
 * What the storefront turned away, per shop: tracking lookups by number past the store's limit (someone trying awbs
 * in bulk) and delivery estimates answered "try again shortly" past the shop's share of courier quotes and weight
 * reads. Shoppers' own tracking links are never among them. Counted in memory as they happen — a flood must not
 * become a write per request — and added to the shop's row for the hour every `FLUSH_MS` at most; Home reads the
 * last day's.
 */
export type RefusalKind = "trackingLookups" | "estimates";

const FLUSH_MS = 30_000;
/** Shops with counts waiting at once, at most: a flood across more shops than this drops the newest shops' counts. */
const MAX_PENDING = 10_000;
/** How long the hourly rows are kept: Home shows a day. */
const KEPT_MS = 7 * 86_400_000;

const HOUR_MS = 3_600_000;
const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

interface Pending {
  shop: string;
  hour: Date;
  trackingLookups: number;
  estimates: number;
}

const pending = new Map<string, Pending>();
let timer: NodeJS.Timeout | null = null;
let lastPrunedAt = 0;

/** Counts one refused request for the shop; written to the database within half a minute. */
export function noteRefusal(shop: string, kind: RefusalKind, at = new Date()): void {
  const hour = hourOf(at);
  const key = `${shop}|${hour.getTime()}`;
  let entry = pending.get(key);
  if (!entry) {
    if (pending.size >= MAX_PENDING) return;
    pending.set(key, (entry = { shop, hour, trackingLookups: 0, estimates: 0 }));
  }
  entry[kind] += 1;
  // The first refusal of a quiet spell is written at once, so Home shows a flood as it begins; the rest in batches.
  if (!timer) {
    void flushRefusals();
    timer = setTimeout(() => {
      timer = null;
      void flushRefusals();
    }, FLUSH_MS);
    timer.unref();
  }
}

/** Adds the counts waiting in this process to the database (tests and shutdown call it; a timer does otherwise). */
export async function flushRefusals(now = new Date()): Promise<void> {
  const batch = [...pending.values()];
  pending.clear();
  try {
    for (const entry of batch) {
      await prisma.$executeRaw`
        INSERT INTO "StorefrontRefusal" ("shop", "hour", "trackingLookups", "estimates")
        VALUES (${entry.shop}, ${entry.hour}, ${entry.trackingLookups}, ${entry.estimates})
        ON CONFLICT ("shop", "hour") DO UPDATE SET
          "trackingLookups" = "StorefrontRefusal"."trackingLookups" + EXCLUDED."trackingLookups",
          "estimates" = "StorefrontRefusal"."estimates" + EXCLUDED."estimates"`;
    }
    if (now.getTime() - lastPrunedAt > HOUR_MS) {
      lastPrunedAt = now.getTime();
      await prisma.storefrontRefusal.deleteMany({ where: { hour: { lt: new Date(now.getTime() - KEPT_MS) } } });
    }
  } catch (error) {
    // Counts for the merchant's information only: losing a batch is better than failing the storefront's answers.
    console.warn(`Storefront refusals could not be recorded (${describeError(error)})`);
  }
}

/** The shop's refused requests over the last `hours` hours (the current hour included). */
export async function recentRefusals(shop: string, { hours = 24, now = new Date() }: { hours?: number; now?: Date } = {}): Promise<Record<RefusalKind, number>> {
  const since = new Date(hourOf(now).getTime() - (hours - 1) * HOUR_MS);
  const totals = await prisma.storefrontRefusal.aggregate({ where: { shop, hour: { gte: since } }, _sum: { trackingLookups: true, estimates: true } });
  return { trackingLookups: totals._sum.trackingLookups ?? 0, estimates: totals._sum.estimates ?? 0 };
}
