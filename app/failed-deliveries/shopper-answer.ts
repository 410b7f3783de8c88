import * as z from "zod";
import { istDate, isoDateOfDay, type DispatchCalendar } from "~/storefront/delivery-date";
import { DELIVERY_SLOTS, SHOPPER_ANSWERS, type DeliverySlot, type ShopperAnswer } from "./failed-delivery-lifecycle";

/**
 * The shopper's answer to a failed delivery, as the tracking page's form sends it: checked field by field, every
 * text bounded and free of control characters, the phone an Indian mobile, the day one of those offered. The PIN
 * code is not among the fields: couriers change an address only within its PIN code (Delhivery's rule), so the
 * shopper corrects the line and the landmark, never the area. Pure.
 */

/** The days a shopper may ask for: the next six, as couriers defer a delivery at most six days. */
export const PREFERRED_DAYS = 6;
/** Answers one parcel takes for one failed attempt: a correction of a correction, not a flood. */
export const ANSWERS_PER_ATTEMPT = 3;
export const ADDRESS_LINE_LIMIT = 200;
export const LANDMARK_LIMIT = 100;
export const REMARKS_LIMIT = 200;

const DAY_MS = 86_400_000;

/**
 * The days offered for a new attempt: tomorrow and the five days after it (India's calendar), without the shop's
 * closed weekdays and holidays (nobody at the shop to hand a re-attempt to on those; a courier does not deliver on
 * a Sunday a shop closes anyway).
 */
export function preferredDays(now: Date, calendar: Pick<DispatchCalendar, "closedWeekdays" | "closedDates">): string[] {
  const today = Math.floor(Date.parse(`${istDate(now)}T00:00:00Z`) / DAY_MS);
  const closed = new Set(calendar.closedDates);
  const days: string[] = [];
  for (let day = today + 1; day <= today + PREFERRED_DAYS; day += 1) {
    const weekday = (((day + 4) % 7) + 7) % 7;
    const iso = isoDateOfDay(day);
    if (!calendar.closedWeekdays.includes(weekday) && !closed.has(iso)) days.push(iso);
  }
  return days;
}

/** An Indian mobile number as a shopper writes it (+91, 0 or nothing before ten digits from 6 to 9), as ten digits. */
export function indianMobile(raw: string): string | null {
  const digits = raw.replace(/[\s()-]/g, "");
  const match = /^(?:\+?91|0)?([6-9]\d{9})$/.exec(digits);
  return match ? match[1]! : null;
}

// eslint-disable-next-line no-control-regex -- the characters refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Text a line on a courier's sheet cannot carry: line breaks, tabs and the other control characters. */
export const hasControlCharacters = (text: string) => CONTROL.test(text);

/** The reason a field is refused, by code: the page words it in the shopper's language. */
export type AnswerProblem = "choice" | "date" | "slot" | "phone" | "alternatePhone" | "addressLine" | "landmark";

export interface ShopperAnswerInput {
  answer: ShopperAnswer;
  preferredDate: string | null;
  preferredSlot: DeliverySlot | null;
  phone: string | null;
  alternatePhone: string | null;
  addressLine: string | null;
  landmark: string | null;
}

const optionalText = (limit: number) =>
  z
    .string()
    .max(limit)
    .refine((text) => !CONTROL.test(text))
    .transform((text) => text.trim().replace(/\s+/g, " ") || null);

/**
 * Reads the form: the answer, or the fields it refuses (each by code). "Deliver again" needs a day from `days`; the
 * rest is optional. "I no longer want it" takes nothing else.
 */
export function readShopperAnswer(form: Record<string, string | undefined>, days: readonly string[]): { ok: true; answer: ShopperAnswerInput } | { ok: false; problems: AnswerProblem[] } {
  const problems: AnswerProblem[] = [];
  const choice = z.enum(SHOPPER_ANSWERS).safeParse(form.answer);
  if (!choice.success) return { ok: false, problems: ["choice"] };
  if (choice.data === "cancel") return { ok: true, answer: { answer: "cancel", preferredDate: null, preferredSlot: null, phone: null, alternatePhone: null, addressLine: null, landmark: null } };
  const date = form.preferredDate ?? "";
  if (!days.includes(date)) problems.push("date");
  const slot = z.enum(DELIVERY_SLOTS).safeParse(form.preferredSlot);
  if (!slot.success) problems.push("slot");
  const phoneOf = (field: "phone" | "alternatePhone") => {
    const raw = (form[field] ?? "").slice(0, 40).trim();
    if (!raw) return null;
    const mobile = indianMobile(raw);
    if (!mobile) problems.push(field);
    return mobile;
  };
  const phone = phoneOf("phone");
  const alternatePhone = phoneOf("alternatePhone");
  const addressLine = optionalText(ADDRESS_LINE_LIMIT).safeParse(form.addressLine ?? "");
  if (!addressLine.success) problems.push("addressLine");
  const landmark = optionalText(LANDMARK_LIMIT).safeParse(form.landmark ?? "");
  if (!landmark.success) problems.push("landmark");
  if (problems.length > 0 || !slot.success || !addressLine.success || !landmark.success) return { ok: false, problems };
  return { ok: true, answer: { answer: "deliver_again", preferredDate: date, preferredSlot: slot.data, phone, alternatePhone, addressLine: addressLine.data, landmark: landmark.data } };
}
