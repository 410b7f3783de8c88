import type { BadgeTone } from "~/shipments/lifecycle";

/**
 * A return's life — what Dakiya knows of one Shopify return and its pickup — as one transition table, as a
 * shipment's is (`app/shipments/lifecycle.ts`): every write of a return row is one of these named transitions,
 * applied by `return-changes.server.ts` (the one module that writes the return tables) under this guard and recorded
 * in the return's history with who moved it and why. Pure: screens import it.
 *
 *   requested ──► approved ──► held (the return rules left it to the merchant, or their booking failed)
 *                    │           │
 *                    ▼           ▼
 *                 pickup_booked ──► picked_up ──► received ──► processed ──► inspected
 *                    (the courier has it)           (at the warehouse)  (Shopify told)  (the merchant looked)
 *
 *   declined, cancelled ◄── anything before it reached the warehouse   (Shopify's ends: never booked from then on)
 *   closed ◄── requested, approved, held                                 (Shopify closed it with nothing sent back)
 *
 * Shopify closes a return once its items are processed: for a return that came back, that is the processing Dakiya
 * records, and the merchant's inspection still follows.
 */
export const RETURN_STATE = {
  /** The shopper asked; the merchant has not approved it in Shopify yet. */
  REQUESTED: "requested",
  /** Open in Shopify: its pickup is to book (or what stops it, in `problems`). */
  APPROVED: "approved",
  /** The return rules held the pickup for the merchant to book, or the booking they made failed. */
  HELD: "held",
  /** The courier has the pickup booked (an awb). */
  PICKUP_BOOKED: "pickup_booked",
  /** The courier collected it from the shopper. */
  PICKED_UP: "picked_up",
  /** It reached the warehouse. */
  RECEIVED: "received",
  /** Shopify has the items recorded as the return setting says (restocked, or left for inspection). */
  PROCESSED: "processed",
  /** The merchant inspected what came back. */
  INSPECTED: "inspected",
  DECLINED: "declined",
  CANCELLED: "cancelled",
  CLOSED: "closed",
} as const;
export type ReturnState = (typeof RETURN_STATE)[keyof typeof RETURN_STATE];
export const RETURN_STATES = Object.values(RETURN_STATE) as ReturnState[];

export function isReturnState(value: string): value is ReturnState {
  return (RETURN_STATES as string[]).includes(value);
}

/** Before the parcel reaches the warehouse: what a decline or a cancellation in Shopify still stops. */
const ON_ITS_WAY: readonly ReturnState[] = ["requested", "approved", "held", "pickup_booked", "picked_up"];
/** Nothing sent back yet: what Shopify's closing ends. */
const NOTHING_SENT: readonly ReturnState[] = ["requested", "approved", "held"];

export interface ReturnTransitionRule {
  /** The states a return may be in for this transition; anything else is refused. */
  from: readonly ReturnState[];
  /** The state it moves to; absent: the state stays. */
  to?: ReturnState;
  /** Creates the row (the first time Dakiya sees the return), besides moving an existing one `from`. */
  creates?: boolean;
  /** Kept in the return's history (the shop's erasure is not: the row goes). */
  recorded: boolean;
  /** The history's words for it. */
  label: string;
}

export const RETURN_TRANSITIONS = {
  requested: { from: [], to: "requested", creates: true, recorded: true, label: "Asked for by the shopper" },
  // Also a return closed with nothing sent, then reopened in Shopify: open again, it is decided and booked as any.
  approved: { from: ["requested", "closed"], to: "approved", creates: true, recorded: true, label: "Approved in Shopify" },
  held: { from: ["approved"], to: "held", recorded: true, label: "Pickup held for you to book" },
  // Also from requested: the merchant may book from the order page a return Shopify has approved before Dakiya's check
  // of the approval has run (booking is offered only for a return open in Shopify).
  pickup_booked: { from: ["requested", "approved", "held"], to: "pickup_booked", recorded: true, label: "Pickup booked with the courier" },
  picked_up: { from: ["pickup_booked"], to: "picked_up", recorded: true, label: "Picked up from the shopper" },
  received: { from: ["pickup_booked", "picked_up"], to: "received", recorded: true, label: "Received at the warehouse" },
  processed: { from: ["received"], to: "processed", recorded: true, label: "Recorded in Shopify" },
  inspected: { from: ["received", "processed"], to: "inspected", recorded: true, label: "Inspected" },
  declined: { from: ON_ITS_WAY, to: "declined", creates: true, recorded: true, label: "Declined in Shopify" },
  cancelled: { from: ON_ITS_WAY, to: "cancelled", creates: true, recorded: true, label: "Cancelled in Shopify" },
  closed: { from: NOTHING_SENT, to: "closed", creates: true, recorded: true, label: "Closed in Shopify" },
  redacted: { from: RETURN_STATES, recorded: true, label: "Customer's details removed" },
  /** The shop's erasure: the row goes, and its history with it. */
  erased: { from: RETURN_STATES, recorded: false, label: "Erased" },
} as const satisfies Record<string, ReturnTransitionRule>;

export type ReturnTransitionName = keyof typeof RETURN_TRANSITIONS;
export const RETURN_TRANSITION_NAMES = Object.keys(RETURN_TRANSITIONS) as ReturnTransitionName[];

const ruleOf = (name: ReturnTransitionName): ReturnTransitionRule => RETURN_TRANSITIONS[name];

/** Whether a return in this state may go through the transition (a return not recorded yet: whether it creates one). */
export function allowsReturn(name: ReturnTransitionName, state: string | null): boolean {
  const rule = ruleOf(name);
  return state === null ? Boolean(rule.creates) : (rule.from as readonly string[]).includes(state);
}

export const isRecordedReturnTransition = (name: ReturnTransitionName) => ruleOf(name).recorded;

/** Shopify's `Return.status` values. */
export type ShopifyReturnStatus = "REQUESTED" | "OPEN" | "DECLINED" | "CANCELED" | "CLOSED";

/** The transition Shopify's status asks of a return Dakiya has recorded in this state (or not yet); null for none. */
export function transitionForShopifyStatus(status: string, state: ReturnState | null): ReturnTransitionName | null {
  const wanted: ReturnTransitionName | null = status === "REQUESTED" ? "requested" : status === "OPEN" ? "approved" : status === "DECLINED" ? "declined" : status === "CANCELED" ? "cancelled" : status === "CLOSED" ? "closed" : null;
  if (wanted === null) return state === null ? "requested" : null;
  return allowsReturn(wanted, state) ? wanted : null;
}

/** The status Shopify gives a return in this state (it closes one whose items are processed): what the reconciliation compares. */
export function shopifyStatusOf(state: ReturnState): ShopifyReturnStatus {
  if (state === "requested") return "REQUESTED";
  if (state === "declined") return "DECLINED";
  if (state === "cancelled") return "CANCELED";
  if (state === "closed" || state === "processed" || state === "inspected") return "CLOSED";
  return "OPEN";
}

/** Declined or cancelled in Shopify: never booked from then on. */
export const isStoppedReturn = (state: string) => state === RETURN_STATE.DECLINED || state === RETURN_STATE.CANCELLED;

/** Its pickup is still to book: approved, or held for the merchant. */
export const awaitsPickup = (state: string) => state === RETURN_STATE.APPROVED || state === RETURN_STATE.HELD;

/** Each state's one tone, wherever a return is shown (the Returns view, the ship page). */
export const RETURN_STATE_TONES: Readonly<Record<ReturnState, BadgeTone | undefined>> = {
  requested: "attention",
  approved: "info",
  held: "attention",
  pickup_booked: "info",
  picked_up: "info",
  received: "success",
  processed: "success",
  inspected: "success",
  declined: undefined,
  cancelled: undefined,
  closed: "success",
};

