import * as z from "zod";
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

export type OverrideField = keyof Omit<ShipmentOverrides, "parcels">;
/** An edit named as the form names it: the field for parcel 1 and the whole order, `field.N` for parcel N. */
export type OverrideKey = OverrideField | `${OverrideField}.${number}`;
export type OverrideErrors = Partial<Record<OverrideKey, string>>;

const PARCEL_FIELDS = ["length", "breadth", "height", "weightKg", "warehouseId", "ewaybillNo"] as const satisfies readonly OverrideField[];
/** The most parcels the ship page takes edits for: every parcel one read of an order can hold. */
export const MAX_EDITED_PARCELS = 20;

/** The field a key names, without its parcel. */
const fieldOf = (key: OverrideKey) => key.split(".")[0] as OverrideField;

/** What is wrong with each of these edits, in the admin's language. Pure: the ship page and its action word them alike. */
export function overrideErrorsInWords(language: AdminLanguage, invalid: readonly OverrideKey[]): OverrideErrors {
  const messages = adminStrings(language).errors.overrides;
  return Object.fromEntries(invalid.map((key) => [key, messages[fieldOf(key)]]));
}

/** One parcel's edits (or parcel 1's with the order's payment mode): the value of each key, checked. */
function parseEdits(source: URLSearchParams | FormData, suffix: string, fields: readonly OverrideField[]) {
  const raw: Record<string, string> = {};
  for (const field of fields) {
    const value = source.get(`${field}${suffix}`);
    if (typeof value === "string") raw[field] = value;
  }
  const parsed = OverridesSchema.safeParse(raw);
  if (parsed.success) return { edits: Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined)), invalid: [] as OverrideKey[] };
  return { edits: {}, invalid: [...new Set(parsed.error.issues.map((issue) => `${String(issue.path[0])}${suffix}` as OverrideKey))] };
}

/**
 * The merchant's edits from a query string or form; blank means "as mapped". Parcel 1's box, weight, warehouse and
 * e-waybill and the order's payment mode are the fields' own names; parcel N's are `length.N`, `weightKg.N`, and so
 * on. A wrong edit is left out of `overrides` and named in `invalid` (for a page to word) and in `errors` (in
 * `language`).
 */
export function parseOverrides(source: URLSearchParams | FormData, language: AdminLanguage = "en"): { overrides: ShipmentOverrides; invalid: OverrideKey[]; errors: OverrideErrors } {
  const first = parseEdits(source, "", ["length", "breadth", "height", "weightKg", "warehouseId", "paymentMode", "ewaybillNo"]);
  const invalid = [...first.invalid];
  const parcels: NonNullable<ShipmentOverrides["parcels"]> = {};
  for (let number = 2; number <= MAX_EDITED_PARCELS; number += 1) {
    const parcel = parseEdits(source, `.${number}`, PARCEL_FIELDS);
    invalid.push(...parcel.invalid);
    if (Object.keys(parcel.edits).length > 0) parcels[number] = parcel.edits;
  }
  if (invalid.length > 0) return { overrides: {}, invalid, errors: overrideErrorsInWords(language, invalid) };
  const overrides: ShipmentOverrides = { ...first.edits, ...(Object.keys(parcels).length > 0 ? { parcels } : {}) };
  return { overrides, invalid: [], errors: {} };
}

export const orderGidOf = (legacyId: string) => (/^\d{1,20}$/.test(legacyId) ? `gid://shopify/Order/${legacyId}` : null);
export const legacyIdOf = (gid: string) => gid.split("/").pop()!;
