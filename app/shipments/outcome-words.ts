import { adminStrings, plural, shipmentOutcomeName, type AdminLanguage } from "~/locales/admin-language";
import { SHIPMENT_OUTCOME } from "./lifecycle";

/**
 * Where the courier has a parcel, in the admin's language (or English for the extensions and the export): the
 * outcome's name, with the attempts counted while delivery is being attempted. Pure: the lists, the ship page, the
 * extensions' API and the CSV say it alike.
 */
export function outcomeInWords(shipment: { outcome: string; deliveryAttempts: number }, language: AdminLanguage = "en"): string {
  const strings = adminStrings(language);
  const outcome = shipmentOutcomeName(strings, shipment.outcome) ?? shipment.outcome;
  if (shipment.outcome !== SHIPMENT_OUTCOME.DELIVERY_ATTEMPTED || shipment.deliveryAttempts === 0) return outcome;
  return plural(language, strings.common.outcomeAttempts, shipment.deliveryAttempts, { outcome });
}
