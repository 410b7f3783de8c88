import { adminStrings, fill, type AdminStrings } from "~/locales/admin-language";

/**
 * The courier's delivery zones (the letters its rates carry) in the merchant's words, in the admin's language
 * (English unless given the words of another). Pure: the ship page reads it; the letters themselves are the courier
 * service's.
 */
export function zoneInWords(zone: string, words: AdminStrings["ship"] = adminStrings("en").ship): string {
  const letter = zone.toUpperCase();
  return Object.hasOwn(words.zones, letter) ? words.zones[letter as keyof AdminStrings["ship"]["zones"]] : fill(words.rates.otherZone, { zone });
}
