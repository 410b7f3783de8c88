import { adminStrings, fill, type AdminLanguage } from "~/locales/admin-language";

/**
 * Why part of the Shipments list's filter was left out. The list's loader cannot know the admin's language, so it
 * answers these and the page words them; the export's plain-text refusal words them in English. Pure.
 */
export type ShipmentFilterProblem = "searchTooLong" | "stage" | "payment" | "event" | "startDate" | "endDate";

export const MAX_SEARCH_LENGTH = 100;

export function shipmentFilterProblemInWords(language: AdminLanguage, problem: ShipmentFilterProblem): string {
  const messages = adminStrings(language).errors.shipmentFilter;
  return problem === "searchTooLong" ? fill(messages.searchTooLong, { max: MAX_SEARCH_LENGTH }) : messages[problem];
}

/** The problems as one notice, in the order found. */
export const shipmentFilterProblemsInWords = (language: AdminLanguage, problems: readonly ShipmentFilterProblem[]) =>
  problems.map((problem) => shipmentFilterProblemInWords(language, problem)).join(" ");
