import { z } from "zod";

/**
 * What a merchant may put on the public tracking page beside the shop's name, and how each is checked when saved.
 * Pure: the Settings form and the page both read it.
 */

/** A logo's address: long enough for any CDN's, short enough to keep a page's header small. */
export const LOGO_URL_MAX = 500;
export const CONTACT_EMAIL_MAX = 254;

const optional = <T extends z.ZodType<string, string>>(schema: T) =>
  z
    .string()
    .trim()
    .transform((value) => value || null)
    .pipe(schema.nullable());

export const SellerContactSchema = z.object({
  logoUrl: optional(
    z
      .string()
      .max(LOGO_URL_MAX, { error: `Logo address: at most ${LOGO_URL_MAX} characters` })
      .refine((value) => URL.canParse(value) && new URL(value).protocol === "https:" && !new URL(value).username && !new URL(value).password, {
        error: "Logo address: an https:// address of an image, such as your store's logo on Shopify's CDN",
      }),
  ),
  contactEmail: optional(
    z
      .string()
      .max(CONTACT_EMAIL_MAX, { error: `Contact e-mail: at most ${CONTACT_EMAIL_MAX} characters` })
      .regex(/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>".]{2,}$/, { error: "Contact e-mail: an address such as help@yourstore.in" }),
  ),
  contactPhone: optional(
    z
      .string()
      .max(20, { error: "Contact phone: at most 20 characters" })
      .transform((value) => value.replace(/[\s-]/g, ""))
      .refine((value) => /^(?:\+91|0)?[1-9]\d{9}$/.test(value) || /^1800\d{6,7}$/.test(value), {
        error: "Contact phone: a 10-digit Indian number, with or without +91, or a 1800 toll-free number",
      })
      .transform((value) => (/^\d{10}$/.test(value) ? `+91${value}` : value.startsWith("0") ? `+91${value.slice(1)}` : value)),
  ),
});

export type SellerContact = z.infer<typeof SellerContactSchema>;

export type SellerContactErrors = Partial<Record<keyof SellerContact, string>>;

/** The form's three fields checked; every problem named by its field. */
export function readSellerContact(raw: Record<string, string | undefined>): { ok: true; value: SellerContact } | { ok: false; errors: SellerContactErrors } {
  const parsed = SellerContactSchema.safeParse({ logoUrl: raw.logoUrl ?? "", contactEmail: raw.contactEmail ?? "", contactPhone: raw.contactPhone ?? "" });
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
