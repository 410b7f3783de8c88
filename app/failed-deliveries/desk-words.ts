import { adminStrings, type AdminLanguage } from "~/locales/admin-language";
import type { HistoryEvent } from "~/shipments/history-words";

/**
 * A failed delivery's history in words: what happened (its transition, the state it moved to), in the admin's
 * language. Pure.
 */
export function deskEventInWords(event: HistoryEvent, language: AdminLanguage): string {
  const t = adminStrings(language).failedDeliveries;
  const events: Readonly<Record<string, string>> = t.events;
  return Object.hasOwn(events, event.transition) ? events[event.transition]! : event.transition;
}
