/**
 * When a parcel ordered now reaches the shopper: the merchant's daily cut-off and handling days decide when it leaves
 * the warehouse, skipping the days the warehouse is closed, and the courier's days decide when it arrives. Pure: the
 * clock is passed in. Days are India's calendar days (IST, UTC+05:30 all year: India has no daylight saving).
 */

const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;
const DAY_MS = 86_400_000;
/** A calendar that closes every day would never ship: the search for a working day stops here. */
const LONGEST_CLOSURE_DAYS = 60;

export interface DispatchCalendar {
  /** Whole working days between the order and dispatch; 0 ships the day the order counts from. */
  handlingDays: number;
  /** Orders from this minute of the day (India time) on count from the next working day. */
  cutoffMinutes: number;
  /** Weekdays nothing leaves the warehouse: 0 Sunday … 6 Saturday. */
  closedWeekdays: readonly number[];
  /** Dates nothing leaves the warehouse (holidays), YYYY-MM-DD in India time. */
  closedDates: readonly string[];
}

export interface DeliveryWindow {
  /** The day the parcel leaves the warehouse, YYYY-MM-DD (India). */
  dispatchOn: string;
  earliest: string;
  /** "Delivered by": the courier's longest time from dispatch. */
  latest: string;
}

/** Days since 1970-01-01 in India's calendar. */
const istDayOf = (instant: Date) => Math.floor((instant.getTime() + IST_OFFSET_MS) / DAY_MS);
const minuteOfIstDay = (instant: Date) => Math.floor((((instant.getTime() + IST_OFFSET_MS) % DAY_MS) + DAY_MS) % DAY_MS / 60_000);
export const isoDateOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** 1970-01-01 was a Thursday. */
const weekdayOfDay = (day: number) => (((day + 4) % 7) + 7) % 7;

/** Today's date in India, YYYY-MM-DD. */
export const istDate = (instant: Date) => isoDateOfDay(istDayOf(instant));

function isWorkingDay(day: number, calendar: DispatchCalendar, closedDates: ReadonlySet<string>): boolean {
  return !calendar.closedWeekdays.includes(weekdayOfDay(day)) && !closedDates.has(isoDateOfDay(day));
}

/** The first working day from `day` on (inclusive), or null when the calendar keeps the warehouse shut that long. */
function nextWorkingDay(day: number, calendar: DispatchCalendar, closedDates: ReadonlySet<string>): number | null {
  for (let candidate = day; candidate <= day + LONGEST_CLOSURE_DAYS; candidate += 1) {
    if (isWorkingDay(candidate, calendar, closedDates)) return candidate;
  }
  return null;
}

/** The day an order placed at `now` leaves the warehouse, or null when the calendar never opens. */
export function dispatchDay(now: Date, calendar: DispatchCalendar): number | null {
  const closedDates = new Set(calendar.closedDates);
  const today = istDayOf(now);
  const countsFrom = minuteOfIstDay(now) < calendar.cutoffMinutes ? today : today + 1;
  let day = nextWorkingDay(countsFrom, calendar, closedDates);
  for (let handled = 0; day !== null && handled < calendar.handlingDays; handled += 1) {
    day = nextWorkingDay(day + 1, calendar, closedDates);
  }
  return day;
}

/**
 * The delivery window for an order placed at `now`, with the courier's days from dispatch (`[fastest, slowest]`,
 * calendar days as couriers quote them), or null when the calendar never opens.
 */
export function deliveryWindow(now: Date, calendar: DispatchCalendar, courierDays: readonly [number, number]): DeliveryWindow | null {
  const dispatch = dispatchDay(now, calendar);
  if (dispatch === null) return null;
  return { dispatchOn: isoDateOfDay(dispatch), earliest: isoDateOfDay(dispatch + courierDays[0]), latest: isoDateOfDay(dispatch + courierDays[1]) };
}

/** "Thu, 27 Nov" in the shopper's language, for a YYYY-MM-DD date. */
// Building a DateTimeFormat costs far more than formatting with one; every storefront answer formats a date.
const dayFormats = new Map<string, Intl.DateTimeFormat>();

export function formatDeliveryDate(isoDate: string, locale: string): string {
  let format = dayFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
    // Locales come from a short fixed list; the bound only guards against a caller passing shoppers' own.
    if (dayFormats.size < 20) dayFormats.set(locale, format);
  }
  return format.format(new Date(`${isoDate}T00:00:00Z`));
}
