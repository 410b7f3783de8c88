import en from "~/locales/admin.en.json";
import hi from "~/locales/admin.hi.json";

/**
 * The admin pages' language: Shopify opens an embedded app with `?locale=` set to the merchant's admin language
 * ("en", "hi", "hi-IN" …), and the local admin passes its own `?locale=hi` the same way. Hindi for Hindi, English
 * for everything else. The words are in app/locales/admin.*.json. Pure.
 */

export type AdminStrings = typeof en;
export const ADMIN_LANGUAGES = ["en", "hi"] as const;
export type AdminLanguage = (typeof ADMIN_LANGUAGES)[number];

// Typed against the English file: a key missing from the Hindi one fails the typecheck.
const STRINGS: Readonly<Record<AdminLanguage, AdminStrings>> = { en, hi };

export const adminStrings = (language: AdminLanguage): AdminStrings => STRINGS[language];

/** The language a `locale` parameter asks for; null when it names none (the parameter is absent or empty). */
export function adminLanguageOf(locale: string | null | undefined): AdminLanguage | null {
  const primary = (locale ?? "").trim().slice(0, 35).toLowerCase().split(/[-_]/)[0] ?? "";
  if (!primary) return null;
  return primary === "hi" ? "hi" : "en";
}
