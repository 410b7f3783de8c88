import { z } from "zod";
import type { ShipmentOverrides } from "../shopify/order-mapping";

const optionalNumber = (label: string, check: (value: number) => boolean, rule: string) =>
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
        .refine((value) => value === undefined || (Number.isFinite(value) && check(value)), { error: `${label} ${rule}` }),
    );

const whole = (value: number) => Number.isInteger(value) && value > 1;

const OverridesSchema = z.object({
  length: optionalNumber("Length", whole, "must be whole centimetres, more than 1"),
  breadth: optionalNumber("Breadth", whole, "must be whole centimetres, more than 1"),
  height: optionalNumber("Height", whole, "must be whole centimetres, more than 1"),
  weightKg: optionalNumber("Weight", (value) => value > 0 && value <= 1000, "must be between 0 and 1000 kg"),
  warehouseId: optionalNumber("Warehouse", (value) => Number.isInteger(value) && value > 0, "must be a warehouse number"),
  paymentMode: z.enum(["cod", "prepaid", ""], { error: "Payment mode must be COD or prepaid" }).optional().transform((value) => value || undefined),
  // An e-waybill number (GST) is exactly 12 digits; spaces typed between the groups are dropped.
  ewaybillNo: z
    .string()
    .max(40, { error: "An e-waybill number is 12 digits" })
    .transform((value) => value.replace(/\s+/g, ""))
    .refine((value) => value === "" || /^\d{12}$/.test(value), { error: "An e-waybill number is 12 digits" })
    .optional()
    .transform((value) => value || undefined),
});

export type OverrideErrors = Partial<Record<keyof ShipmentOverrides, string>>;

/** The merchant's edits from a query string or form; blank means "as mapped". */
export function parseOverrides(source: URLSearchParams | FormData): { overrides: ShipmentOverrides; errors: OverrideErrors } {
  const raw: Record<string, string> = {};
  for (const key of ["length", "breadth", "height", "weightKg", "warehouseId", "paymentMode", "ewaybillNo"]) {
    const value = source.get(key);
    if (typeof value === "string") raw[key] = value;
  }
  const parsed = OverridesSchema.safeParse(raw);
  if (parsed.success) {
    const overrides = Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined)) as ShipmentOverrides;
    return { overrides, errors: {} };
  }
  const errors: OverrideErrors = {};
  for (const issue of parsed.error.issues) errors[issue.path[0] as keyof ShipmentOverrides] ??= issue.message;
  return { overrides: {}, errors };
}

export const orderGidOf = (legacyId: string) => (/^\d{1,20}$/.test(legacyId) ? `gid://shopify/Order/${legacyId}` : null);
export const legacyIdOf = (gid: string) => gid.split("/").pop()!;
