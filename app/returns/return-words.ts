import { adminStrings, type AdminLanguage, type AdminStrings } from "~/locales/admin-language";

/** A return's state and history in words, in the admin's language (or English for the extensions). Pure. */

const has = <T extends object>(table: T, key: string): key is Extract<keyof T, string> => Object.hasOwn(table, key);

/** A return's state (`ReturnRecord.state`) in the language; undefined for one the files do not name. */
export const returnStateName = (strings: AdminStrings, state: string): string | undefined => (has(strings.returns.states, state) ? strings.returns.states[state] : undefined);

/** What happened to a return: "Pickup booked with the courier"; a step kept from before by its name as stored. */
export function returnEventInWords(event: { transition: string }, language: AdminLanguage): string {
  const events = adminStrings(language).returns.events;
  return has(events, event.transition) ? events[event.transition] : event.transition;
}
