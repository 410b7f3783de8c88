/**
 * Asking a shopper to confirm their cash-on-delivery order, as one transition table: the states a confirmation goes
 * through, and which move each answer or event may make from where it is. Pure: app/cod/confirmation.server.ts moves
 * a confirmation only through `canMove`, the pages read the states' meaning here.
 *
 *     asking ──► asked ──► reminded ──┐ (silence past the deadline, the merchant chose "remind")
 *       │          │          │       │
 *       └──────────┴──────────┴───────┴──► confirmed | corrected | cancelled (the shopper's answer)
 *                                      ├──► awaiting_payment ──► paid_online (Shopify says it is paid)
 *                                      ├──► expired (silence: booked anyway, cancelled, or held for the merchant)
 *                                      └──► withdrawn (the merchant stopped waiting, or released the hold in Shopify)
 *
 * While a confirmation is open, or answered but its hold not yet released in Shopify, the order is not booked by any
 * path (the booking's claim checks `holdsBooking` in its transaction).
 */

export const CONFIRMATION_STATE = {
  /** Recorded; Dakiya is putting the hold on the order in Shopify and writing the link. */
  ASKING: "asking",
  /** The order is held in Shopify and the shopper's link answers. */
  ASKED: "asked",
  /** No answer by the deadline: reminded once, with a second deadline. */
  REMINDED: "reminded",
  /** The shopper chose to pay online: Shopify e-mailed them an invoice; the order waits for the payment. */
  AWAITING_PAYMENT: "awaiting_payment",
  CONFIRMED: "confirmed",
  /** Confirmed with a corrected address or phone, written to the order in Shopify. */
  CORRECTED: "corrected",
  /** Paid online: the order ships prepaid. */
  PAID_ONLINE: "paid_online",
  /** Cancelled at the shopper's word (or by the merchant's choice for silence): cancelled in Shopify. */
  CANCELLED: "cancelled",
  /** No answer by the last deadline: what the merchant chose for silence was done. */
  EXPIRED: "expired",
  /** The merchant stopped waiting (or released the hold in Shopify themselves). */
  WITHDRAWN: "withdrawn",
} as const;

export type ConfirmationState = (typeof CONFIRMATION_STATE)[keyof typeof CONFIRMATION_STATE];
export const CONFIRMATION_STATES = Object.values(CONFIRMATION_STATE) as ConfirmationState[];

/** States in which the shopper's link takes an answer. */
export const OPEN_STATES: readonly ConfirmationState[] = ["asking", "asked", "reminded", "awaiting_payment"];
/** The shopper's answers on the link. */
export const SHOPPER_ANSWERS = ["confirm", "correct", "cancel", "pay_online"] as const;
export type ShopperAnswer = (typeof SHOPPER_ANSWERS)[number];

/** Where each answer or event takes a confirmation, and from where. */
export const CONFIRMATION_MOVES = {
  asked: { from: ["asking"], to: "asked" },
  reminded: { from: ["asking", "asked"], to: "reminded" },
  confirm: { from: OPEN_STATES, to: "confirmed" },
  correct: { from: OPEN_STATES, to: "corrected" },
  cancel: { from: OPEN_STATES, to: "cancelled" },
  pay_online: { from: ["asking", "asked", "reminded"], to: "awaiting_payment" },
  paid: { from: OPEN_STATES, to: "paid_online" },
  expire: { from: OPEN_STATES, to: "expired" },
  withdraw: { from: [...OPEN_STATES, "expired"], to: "withdrawn" },
} as const satisfies Record<string, { from: readonly ConfirmationState[]; to: ConfirmationState }>;

export type ConfirmationMove = keyof typeof CONFIRMATION_MOVES;

export function canMove(move: ConfirmationMove, from: string): boolean {
  return (CONFIRMATION_MOVES[move].from as readonly string[]).includes(from);
}

export const isOpen = (state: string) => (OPEN_STATES as readonly string[]).includes(state);

/** What the silence of a shopper past the deadline does, as the merchant chose. */
export const SILENCE_ACTIONS = ["remind", "book", "cancel"] as const;
export type SilenceAction = (typeof SILENCE_ACTIONS)[number];
export const isSilenceAction = (value: unknown): value is SilenceAction => typeof value === "string" && (SILENCE_ACTIONS as readonly string[]).includes(value);

/**
 * Whether a confirmation stops the order from being booked: while the shopper may still answer, and after, until
 * Dakiya's hold is released in Shopify (a cancelled order is stopped by its cancellation).
 */
export function holdsBooking(confirmation: { state: string; releasedAt: Date | null } | null): boolean {
  if (!confirmation) return false;
  if (confirmation.state === CONFIRMATION_STATE.CANCELLED) return false;
  return confirmation.releasedAt === null;
}

/** Whether the shopper has had their say (answered, or stayed silent to the end): a rule that asks does not ask again. */
export const hasBeenAsked = (confirmation: { state: string } | null) => confirmation !== null;

/** The hours the merchant may give a shopper: at least a few, and never past the courier's 7-day window for the order. */
export const CONFIRM_HOURS = { min: 2, max: 120, default: 48 } as const;

/**
 * The last moment a shopper's answer can still lead to a booking: the courier takes an order dated at most 7 days back
 * (India's dates), so everything must end a day short of that, leaving the booking its day.
 */
export const lastAnswerMoment = (placedAt: Date) => new Date(placedAt.getTime() + 6 * 86_400_000 - 60 * 60_000);

/** The deadline of an ask made `at` with `hours` to answer, kept inside the order's window (never before `at` plus an hour). */
export function deadlineOf({ at, hours, placedAt }: { at: Date; hours: number; placedAt: Date }): Date {
  const wanted = at.getTime() + hours * 3_600_000;
  return new Date(Math.max(at.getTime() + 3_600_000, Math.min(wanted, lastAnswerMoment(placedAt).getTime())));
}
