/**
 * Days and times in the shop's own time zone (Shopify's `ianaTimezone`), so "today" on a screen is the merchant's
 * today, not UTC's. Pure.
 */
export const DEFAULT_SHOP_TIME_ZONE = "Asia/Kolkata";

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-IN", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Minutes the zone is ahead of UTC at this instant. */
function offsetMinutes(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" })
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The instant a calendar day ("2026-11-25") begins in the zone, or null for anything that is not a real day. */
export function startOfDay(day: string, timeZone: string): Date | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const midnightUtc = Date.UTC(year, month - 1, date);
  const check = new Date(midnightUtc);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) return null;
  // Twice: the offset at the guessed instant may differ from the offset at the answer across a change of time.
  let instant = midnightUtc - offsetMinutes(midnightUtc, timeZone) * 60_000;
  instant = midnightUtc - offsetMinutes(instant, timeZone) * 60_000;
  return new Date(instant);
}

/** The calendar day ("2026-11-25") an instant falls on in the zone. */
export function dayIn(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(instant);
}

/** The instant the day after `day` begins in the zone. */
export function startOfNextDay(day: string, timeZone: string): Date | null {
  const start = startOfDay(day, timeZone);
  if (!start) return null;
  return startOfDay(dayIn(new Date(start.getTime() + 36 * 3_600_000), timeZone), timeZone);
}

/** A moment as the shop's people read it, in English: "25 Nov, 2:15 pm" in the zone. */
export function formatShopTime(instant: Date, timeZone: string = DEFAULT_SHOP_TIME_ZONE): string {
  return new Intl.DateTimeFormat("en-IN", { timeZone, day: "numeric", month: "short", hour: "numeric", minute: "2-digit", hour12: true }).format(instant);
}
