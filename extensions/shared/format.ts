import type { I18n } from "@shopify/ui-extensions/admin";

/** Rupees in the merchant's locale (₹1,234.00), formatted by the admin. */
export function formatRupees(i18n: I18n, amount: number): string {
  return i18n.formatCurrency(amount, { currency: "INR" });
}

/** A date and time from the backend's ISO string; an unreadable one is shown as sent rather than thrown. */
export function formatDateTime(i18n: I18n, iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : i18n.formatDate(date, { dateStyle: "medium", timeStyle: "short" });
}

export function formatDay(i18n: I18n, iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : i18n.formatDate(date, { weekday: "short", day: "numeric", month: "short" });
}
