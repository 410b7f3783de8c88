import type { BadgeTone } from "~/shipments/lifecycle";

/**
 * A parcel on the failed-delivery desk — the shopper's answer and the merchant's decision for the parcel's latest
 * failed delivery attempt (the shipment's `delivery_attempted` outcome) — as one transition table, as a shipment's
 * and a return's are: every write of a `FailedDelivery` row is one of these named transitions, applied by
 * `failed-delivery-changes.server.ts` (the one module that writes the desk's tables) under this guard and recorded in
 * its history with who moved it and why. Pure: screens import it.
 *
 *   open ──► answered (the shopper, through the parcel's tracking link) ──► decided ──► handed_off
 *     └──────────────────────────────────────────────────────────────────────► decided     (the day's NDR instructions)
 *
 *   decided, handed_off ──► decided (the merchant changes their mind: handed off again with the next instructions)
 *   any ──► open (the courier's next attempt failed too: the desk asks again, for that attempt)
 *
 * The shop's rules (desk-rules.ts) act once per attempt, as tracking records it, on an open row: the first that matches decides
 * (`rule_decided`), or waits for the shopper (`rule_waiting`) — their answer decides by the same rule (deliver again:
 * re-attempt; no longer wanted: return), and when the time left runs out unanswered the rule's fallback does:
 *
 *   open ──► decided (rule_decided)
 *   open ──► waiting (rule_waiting) ──► answered (the shopper) ──► decided (rule_decided, as the shopper answered)
 *                      └──────────────────────────────────────────► decided (rule_decided, no answer in time)
 *
 * The courier has no API for any of it: a decision reaches the courier in the day's NDR instructions, and the
 * courier's next tracking entry says whether it acted.
 */
export const FAILED_DELIVERY_STATE = {
  /** A failed attempt, nobody has answered or decided yet. */
  OPEN: "open",
  /** A rule waits for the shopper's answer to decide, until the time left runs out. */
  WAITING: "waiting",
  /** The shopper answered through the tracking link; the merchant has not decided. */
  ANSWERED: "answered",
  /** The merchant (or a rule) decided; not handed to the courier yet. */
  DECIDED: "decided",
  /** In the day's NDR instructions: the courier has been told. */
  HANDED_OFF: "handed_off",
} as const;
export type FailedDeliveryState = (typeof FAILED_DELIVERY_STATE)[keyof typeof FAILED_DELIVERY_STATE];
export const FAILED_DELIVERY_STATES = Object.values(FAILED_DELIVERY_STATE) as FailedDeliveryState[];

export function isFailedDeliveryState(value: string): value is FailedDeliveryState {
  return (FAILED_DELIVERY_STATES as string[]).includes(value);
}

/** What the merchant decides: deliver again, send it back (return to origin), or call the shopper first. */
export const DESK_DECISIONS = ["reattempt", "rto", "call"] as const;
export type DeskDecision = (typeof DESK_DECISIONS)[number];
export const isDeskDecision = (value: string): value is DeskDecision => (DESK_DECISIONS as readonly string[]).includes(value);

/** The decisions the courier must hear of (a call is the merchant's own). */
export const COURIER_DECISIONS: readonly DeskDecision[] = ["reattempt", "rto"];

/** What the shopper answers: deliver again (with a day, a time and the corrections), or they no longer want it. */
export const SHOPPER_ANSWERS = ["deliver_again", "cancel"] as const;
export type ShopperAnswer = (typeof SHOPPER_ANSWERS)[number];

/** The time windows a shopper may ask for; India's time. */
export const DELIVERY_SLOTS = ["morning", "afternoon", "evening"] as const;
export type DeliverySlot = (typeof DELIVERY_SLOTS)[number];
export const SLOT_HOURS: Readonly<Record<DeliverySlot, string>> = { morning: "09:00-13:00", afternoon: "13:00-17:00", evening: "17:00-21:00" };

/** Who moved a failed delivery: the shopper (through the tracking link), the merchant, a rule, a background job, a webhook. */
export type DeskActorKind = "shopper" | "merchant" | "rule" | "job" | "webhook";
export interface DeskActor {
  kind: DeskActorKind;
  /** The page, the rule's name, the job's queue. */
  name: string;
}

export interface DeskTransitionRule {
  from: readonly FailedDeliveryState[];
  /** The state it moves to; absent: the state stays. */
  to?: FailedDeliveryState;
  /** States it leaves as they are while still allowed from them (an answer after the merchant decided stays decided). */
  keeps?: readonly FailedDeliveryState[];
  /** Creates the row (the parcel's first time on the desk). */
  creates?: boolean;
  recorded: boolean;
  label: string;
}

const ALL = FAILED_DELIVERY_STATES;

export const DESK_TRANSITIONS = {
  opened: { from: [], to: "open", creates: true, recorded: true, label: "On the failed-delivery desk" },
  reopened: { from: ALL, to: "open", recorded: true, label: "Failed again: on the desk for this attempt" },
  shopper_answered: { from: ["open", "waiting", "answered", "decided"], to: "answered", keeps: ["decided"], recorded: true, label: "The shopper answered" },
  decided: { from: ALL, to: "decided", recorded: true, label: "Decided" },
  // A rule decides as the attempt is recorded, or ends its wait: with the shopper's answer, or without one in time.
  rule_decided: { from: ["open", "waiting", "answered"], to: "decided", recorded: true, label: "Decided by a rule" },
  rule_waiting: { from: ["open"], to: "waiting", recorded: true, label: "A rule waits for the shopper's answer" },
  // The rules were checked for this attempt and none acted (none matched, or the merchant or shopper came first).
  rules_checked: { from: ALL, recorded: true, label: "No rule applied" },
  handed_off: { from: ["decided"], to: "handed_off", recorded: true, label: "Handed to the courier" },
  order_updated: { from: ALL, recorded: true, label: "Corrected contact written onto the Shopify order" },
  redacted: { from: ALL, recorded: true, label: "Customer's details removed" },
} as const satisfies Record<string, DeskTransitionRule>;
export type DeskTransitionName = keyof typeof DESK_TRANSITIONS;

export function allowsDesk(transition: DeskTransitionName, from: string): boolean {
  const rule: DeskTransitionRule = DESK_TRANSITIONS[transition];
  return (rule.from as readonly string[]).includes(from);
}

/** The state a transition leaves the row in, from where it is. */
export function stateAfter(transition: DeskTransitionName, from: FailedDeliveryState): FailedDeliveryState {
  const rule: DeskTransitionRule = DESK_TRANSITIONS[transition];
  if (!rule.to || rule.keeps?.includes(from)) return from;
  return rule.to;
}

export const FAILED_DELIVERY_STATE_TONES: Readonly<Record<FailedDeliveryState, BadgeTone>> = {
  open: "critical",
  waiting: "attention",
  answered: "attention",
  decided: "info",
  handed_off: "success",
};

/** What the courier did after the instructions, as its next tracking entry says. */
export type CourierAction = "none" | "reattempting" | "delivered" | "failed_again" | "returning" | "other";
