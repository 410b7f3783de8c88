import * as z from "zod";
import { adminStrings, fill, perAdminLanguage, type AdminLanguage } from "~/locales/admin-language";

/**
 * What a merchant may put on the public tracking page beside the shop's name, and how each is checked when saved.
 * Pure: the Settings form and the page both read it.
 */

/** A logo's address: long enough for any CDN's, short enough to keep a page's header small. */
export const LOGO_URL_MAX = 500;
export const CONTACT_EMAIL_MAX = 254;
const CONTACT_PHONE_MAX = 20;

const optional = <T extends z.ZodType<string, string>>(schema: T) =>
  z
    .string()
    .trim()
    .transform((value) => value || null)
    .pipe(schema.nullable());

/** The three fields' checks, their messages in one admin language. */
function sellerContactSchema(language: AdminLanguage) {
  const m = adminStrings(language).errors.sellerContact;
  return z.object({
    logoUrl: optional(
      z
        .string()
        .max(LOGO_URL_MAX, { error: fill(m.logoUrlLength, { max: LOGO_URL_MAX }) })
        .refine((value) => URL.canParse(value) && new URL(value).protocol === "https:" && !new URL(value).username && !new URL(value).password, {
          error: m.logoUrl,
        }),
    ),
    contactEmail: optional(
      z
        .string()
        .max(CONTACT_EMAIL_MAX, { error: fill(m.contactEmailLength, { max: CONTACT_EMAIL_MAX }) })
        .regex(/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>".]{2,}$/, { error: m.contactEmail }),
    ),
    contactPhone: optional(
      z
        .string()
        .max(CONTACT_PHONE_MAX, { error: fill(m.contactPhoneLength, { max: CONTACT_PHONE_MAX }) })
        .transform((value) => value.replace(/[\s-]/g, ""))
        .refine((value) => /^(?:\+91|0)?[1-9]\d{9}$/.test(value) || /^1800\d{6,7}$/.test(value), {
          error: m.contactPhone,
        })
        .transform((value) => (/^\d{10}$/.test(value) ? `+91${value}` : value.startsWith("0") ? `+91${value.slice(1)}` : value)),
    ),
  });
}

const SCHEMAS = perAdminLanguage(sellerContactSchema);

export type SellerContact = z.infer<typeof SCHEMAS.en>;

export type SellerContactErrors = Partial<Record<keyof SellerContact, string>>;

/** The form's three fields checked; every problem named by its field, in the admin's language. */
export function readSellerContact(
  raw: Record<string, string | undefined>,
  language: AdminLanguage = "en",
): { ok: true; value: SellerContact } | { ok: false; errors: SellerContactErrors } {
  const parsed = SCHEMAS[language].safeParse({ logoUrl: raw.logoUrl ?? "", contactEmail: raw.contactEmail ?? "", contactPhone: raw.contactPhone ?? "" });
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: SellerContactErrors = {};
  for (const issue of parsed.error.issues) errors[issue.path[0] as keyof SellerContact] ??= issue.message;
  return { ok: false, errors };
}

/** `+919820012345` as shoppers read it: `+91 98200 12345`; a toll-free number as stored. */
export function displayPhone(phone: string): string {
  const match = /^\+91(\d{5})(\d{5})$/.exec(phone);
  return match ? `+91 ${match[1]} ${match[2]}` : phone;
}
