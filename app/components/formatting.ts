import { ADMIN_LOCALES, type AdminLanguage } from "~/locales/admin-language";

export { formatPaise, formatRupees } from "~/money";

export const formatKg = (kg: number, language: AdminLanguage = "en") => `${kg.toLocaleString(ADMIN_LOCALES[language], { maximumFractionDigits: 3 })} kg`;
/** A moment as the merchant reads it: day, month and time in the shop's time zone, in the admin's language. */
export const formatDate = (iso: string, timeZone = "Asia/Kolkata", language: AdminLanguage = "en") =>
  new Date(iso).toLocaleString(ADMIN_LOCALES[language], { timeZone, day: "numeric", month: "short", hour: "numeric", minute: "2-digit" });
/** A count grouped as the language groups it (1,20,000). */
export const formatCount = (count: number, language: AdminLanguage = "en") => count.toLocaleString(ADMIN_LOCALES[language]);
