import { adminStrings, fill, formLanguage } from "~/locales/admin-language";

/**
 * The Storefront settings form: what the merchant typed → the settings to save, or each mistake on its field. Pure.
 */

export interface StorefrontFormValues {
  estimateEnabled: boolean;
  handlingDays: number;
  cutoffMinutes: number;
  closedWeekdays: number[];
  closedDates: string[];
  showCod: boolean;
  codMaxPaise: number | null;
  defaultWeightGrams: number;
  trackOnShopDomain: boolean;
}

export type StorefrontFormResult = { ok: true; values: StorefrontFormValues } | { ok: false; errors: Record<string, string> };

export const WEEKDAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
export const MAX_HANDLING_DAYS = 30;
export const MAX_CLOSED_DATES = 60;
const MAX_FIELD_LENGTH = 2_000;

export const formatCutoff = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

const isRealDate = (text: string) => {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
};

/** The form read; each mistake in the language the page sent as `locale`. */
export function parseStorefrontForm(form: FormData): StorefrontFormResult {
  const m = adminStrings(formLanguage(form)).errors.storefront;
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.trim().slice(0, MAX_FIELD_LENGTH) : "";
  };
  const errors: Record<string, string> = {};

  const handling = text("handlingDays");
  const handlingDays = /^\d{1,2}$/.test(handling) ? Number(handling) : NaN;
  if (!(handlingDays <= MAX_HANDLING_DAYS)) errors.handlingDays = fill(m.handlingDays, { max: MAX_HANDLING_DAYS });

  const cutoff = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text("cutoff"));
  if (!cutoff) errors.cutoff = m.cutoff;

  const closedWeekdays = form
    .getAll("closedWeekdays")
    .map(String)
    .filter((day) => /^[0-6]$/.test(day))
    .map(Number);
  const uniqueWeekdays = [...new Set(closedWeekdays)].sort();
  if (uniqueWeekdays.length === 7) errors.closedWeekdays = m.closedWeekdays;

  const dates = text("closedDates")
    .split(/[\s,]+/)
    .filter(Boolean);
  const badDate = dates.find((date) => !/^\d{4}-\d{2}-\d{2}$/.test(date) || !isRealDate(date));
  if (badDate) errors.closedDates = fill(m.closedDate, { text: badDate.slice(0, 20) });
  else if (dates.length > MAX_CLOSED_DATES) errors.closedDates = fill(m.closedDateCount, { max: MAX_CLOSED_DATES });

  const codMax = text("codMaxRupees");
  let codMaxPaise: number | null = null;
  if (codMax) {
    if (!/^\d{1,7}(\.\d{1,2})?$/.test(codMax) || Number(codMax) > 1_00_00_000) errors.codMaxRupees = m.codMax;
    else codMaxPaise = Math.round(Number(codMax) * 100);
  }

  const weight = text("defaultWeightGrams");
  const defaultWeightGrams = /^\d{1,7}$/.test(weight) ? Number(weight) : NaN;
  if (!(defaultWeightGrams >= 1 && defaultWeightGrams <= 1_000_000)) errors.defaultWeightGrams = m.defaultWeight;

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    values: {
      estimateEnabled: form.get("estimateEnabled") === "on",
      handlingDays,
      cutoffMinutes: Number(cutoff![1]) * 60 + Number(cutoff![2]),
      closedWeekdays: uniqueWeekdays,
      closedDates: [...new Set(dates)].sort(),
      showCod: form.get("showCod") === "on",
      codMaxPaise,
      defaultWeightGrams,
      trackOnShopDomain: form.get("trackOnShopDomain") === "on",
    },
  };
}
