import { adminStrings, courierStatusName, fill, shipmentOutcomeName, shipmentStatusName, type AdminLanguage, type AdminStrings } from "~/locales/admin-language";
import { SHIPMENT_TRANSITIONS } from "./lifecycle";

/**
 * A shipment's history in words: what happened (the transition and the states it moved between) and who did it, in
 * the admin's language (the ship page) or in English (the extension API). Names the app stored as they were said — a
 * rule's decision, a courier's name or its own name for a stage, a reason — stay as stored. Pure.
 */

/** One recorded step, as the history keeps it. */
export interface HistoryEvent {
  transition: string;
  fromState: string | null;
  toState: string | null;
}

/** Who moved the shipment: its kind (rule, merchant, webhook, job, courier) and name (the rule, the screen, the topic, the queue, the courier). */
export interface HistoryActor {
  kind: string;
  name: string;
}

const has = <T extends object>(table: T, key: string): key is Extract<keyof T, string> => Object.hasOwn(table, key);

/** The courier's stage under its usual English name, said by its code; any other name is the courier's own. */
function stageName(label: string, strings: AdminStrings): string {
  const english = adminStrings("en").common.courierStatuses;
  const code = Object.keys(english).find((candidate) => english[candidate as keyof typeof english] === label);
  return (code && courierStatusName(strings, Number(code))) || label;
}

function stateInWords(transition: string, state: string | null, strings: AdminStrings): string | null {
  if (state === null || state === "") return null;
  const rule = (SHIPMENT_TRANSITIONS as Record<string, { to?: string; tracking?: unknown; outcome?: unknown }>)[transition];
  if (rule?.to) return shipmentStatusName(strings, state) ?? state;
  if (rule?.outcome || transition === "courier_out_of_order") return shipmentOutcomeName(strings, state) ?? state;
  if (rule?.tracking) return has(strings.activity.history.trackingStates, state) ? strings.activity.history.trackingStates[state] : state;
  if (transition === "attention_raised" || transition === "attention_cleared") return has(strings.attention.kinds, state) ? strings.attention.kinds[state] : state;
  if (transition === "courier_progress") return stageName(state, strings);
  return state;
}

/** What happened: "Booked with the courier", "Courier update: In Transit → Out for Delivery". */
export function eventInWords(event: HistoryEvent, language: AdminLanguage): string {
  const strings = adminStrings(language);
  const t = strings.activity.history;
  const what = has(strings.shipments.events, event.transition) ? strings.shipments.events[event.transition] : event.transition;
  const from = stateInWords(event.transition, event.fromState, strings);
  const to = stateInWords(event.transition, event.toState, strings);
  if (event.transition === "attention_raised" && to) return fill(t.withState, { what, state: to });
  if (event.transition === "attention_cleared" && from) return fill(t.withState, { what, state: from });
  if (event.transition === "courier_progress" && to) return from ? fill(t.stageMove, { what, from, to }) : fill(t.withState, { what, state: to });
  if (event.transition === "courier_out_of_order" && from && to) return fill(t.outOfOrder, { what, from, to });
  return what;
}

/** The screen the merchant acted on, by its English name as the history stores it. */
function screenInWords(name: string, strings: AdminStrings): string {
  const english = adminStrings("en").activity.history.screens;
  const screens = strings.activity.history.screens;
  const screen = (Object.keys(english) as (keyof typeof english)[]).find((key) => english[key] === name);
  if (screen) return screens[screen];
  const byRule = english.ordersToShipByRule.split("{rule}")[0]!;
  return name.startsWith(byRule) ? fill(screens.ordersToShipByRule, { rule: name.slice(byRule.length) }) : name;
}

/** Who did it: the rule's name, "You, on the Ship order page", "Shopify (orders/cancelled)", "Dakiya (tracking-sync)", the courier. */
export function actorInWords(actor: HistoryActor, language: AdminLanguage): string {
  const strings = adminStrings(language);
  const t = strings.activity.history.actors;
  const english = adminStrings("en").activity.history.actors;
  switch (actor.kind) {
    case "rule":
      return actor.name === english.returnRules ? t.returnRules : actor.name;
    case "merchant":
      return fill(t.merchant, { screen: screenInWords(actor.name, strings) });
    case "webhook":
      return fill(t.webhook, { topic: actor.name });
    case "job":
      return fill(t.job, { job: actor.name });
    case "courier":
      return actor.name === english.unnamedCourier ? t.unnamedCourier : actor.name;
    case "shopper":
      return t.shopper;
    default:
      return actor.name;
  }
}
