import { z } from "zod";
import type { ShipmentOverrides } from "../shopify/order-mapping";
import { adminStrings, type AdminLanguage } from "../locales/admin-language";

const optionalNumber = (check: (value: number) => boolean) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined))
    .pipe(
      z
        .string()
        .optional()
        .transform((value) => (value === undefined ? undefined : Number(value)))
        .refine((value) => value === undefined || (Number.isFinite(value) && check(value))),
    );

const whole = (value: number) => Number.isInteger(value) && value > 1;

// Each edit has one way to be wrong, so a wrong edit is named by its field alone and worded by the admin's language.
const OverridesSchema = z.object({
  length: optionalNumber(whole),
  breadth: optionalNumber(whole),
  height: optionalNumber(whole),
  weightKg: optionalNumber((value) => value > 0 && value <= 1000),
  warehouseId: optionalNumber((value) => Number.isInteger(value) && value > 0),
  paymentMode: z.enum(["cod", "prepaid", ""]).optional().transform((value) => value || undefined),
  // An e-waybill number (GST) is exactly 12 digits; spaces typed between the groups are dropped.
  ewaybillNo: z
    .string()
    .max(40)
    .transform((value) => value.replace(/\s+/g, ""))
    .refine((value) => value === "" || /^\d{12}$/.test(value))
    .optional()
    .transform((value) => value || undefined),
});

export type OverrideField = keyof ShipmentOverrides;
export type OverrideErrors = Partial<Record<OverrideField, string>>;

/** What is wrong with each of these edits, in the admin's language. Pure: the ship page and its action word them alike. */
export function overrideErrorsInWords(language: AdminLanguage, invalid: readonly OverrideField[]): OverrideErrors {
  const messages = adminStrings(language).errors.overrides;
  return Object.fromEntries(invalid.map((field) => [field, messages[field]]));
}

/**
 * The merchant's edits from a query string or form; blank means "as mapped". A wrong edit is left out of `overrides`
 * and named in `invalid` (for a page to word) and in `errors` (in `language`).
 */
export function parseOverrides(source: URLSearchParams | FormData, language: AdminLanguage = "en"): { overrides: ShipmentOverrides; invalid: OverrideField[]; errors: OverrideErrors } {
  const raw: Record<string, string> = {};
  for (const key of ["length", "breadth", "height", "weightKg", "warehouseId", "paymentMode", "ewaybillNo"]) {
    const value = source.get(key);
    if (typeof value === "string") raw[key] = value;
  }
  const parsed = OverridesSchema.safeParse(raw);
  if (parsed.success) {
    const overrides = Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined)) as ShipmentOverrides;
    return { overrides, invalid: [], errors: {} };
  }
  const invalid = [...new Set(parsed.error.issues.map((issue) => issue.path[0] as OverrideField))];
  return { overrides: {}, invalid, errors: overrideErrorsInWords(language, invalid) };
}

export const orderGidOf = (legacyId: string) => (/^\d{1,20}$/.test(legacyId) ? `gid://shopify/Order/${legacyId}` : null);
export const legacyIdOf = (gid: string) => gid.split("/").pop()!;
