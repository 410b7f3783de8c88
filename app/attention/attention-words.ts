import { adminStrings, courierStatusName, fill, sayStored, type AdminLanguage } from "~/locales/admin-language";
import type { MappingProblem } from "~/shopify/readiness-checks";

/**
 * What each Needs attention entry says, as a code and its parameters (the server's note) and as words in a language:
 * the page words the note in the admin's language, the server keeps the English (the extension API, the tests).
 * A shipment's stored error is said from its words (`errorWords`) where it has them; text the app stored as it was
 * said (a courier's own error, the courier's own stage name) stays as stored. Pure.
 */

/** The courier's stage: its code, and the name the courier gave it when that is all the app has. */
export interface StageNote {
  code: number;
  label: string | null;
  /** Where the courier has the parcel (`Shipment.outcome`), and its attempts to deliver so far. */
  outcome?: string;
  attempts?: number;
}

export type AttentionNote =
  | { code: "cancelled_after_pickup"; courier: string | null; awb: string; isReturn: boolean }
  | { code: "cancel_refused"; awb: string; error: string | null; errorWords?: unknown }
  | { code: "address_changed"; awb: string }
  | { code: "tracking_exception"; courier: string | null; awb: string; isReturn: boolean; stage: StageNote; since: string }
  | { code: "tracking_stalled"; courier: string | null; awb: string; isReturn: boolean; stage: StageNote; since: string }
  | { code: "tracking_stopped"; awb: string; error: string | null; errorWords?: unknown }
  | { code: "booking_failed"; isReturn: boolean; error: string | null; errorWords?: unknown }
  | { code: "fulfillment_pending"; isReturn: boolean; error: string; errorWords?: unknown }
  // A readiness problem is worded by the readiness catalogue (app/shopify/readiness-checks.ts), never here.
  | { code: "order_problems" | "return_problems"; problems: MappingProblem[] }
  | { code: "held_by_rules" | "auto_booking_failed" | "return_held"; reason: string | null; reasonWords?: unknown }
  | { code: "return_received"; items: { title: string; quantity: number }[]; recorded: boolean }
  | { code: "tracking_paused"; count: number; error: string | null; errorWords?: unknown };

export interface AttentionWords {
  /** What happened. */
  message: string;
  /** What resolves it. */
  action: string;
}

/** How the page says a readiness problem; by default as the problem was stored. */
export type ProblemSaying = (problem: MappingProblem) => { message: string; fix: string };

const asStored: ProblemSaying = (problem) => problem;

/**
 * The stage's name in the language: by its code when the courier's name for it is the usual English one, else the
 * courier's own words.
 */
export function stageInWords(stage: StageNote, language: AdminLanguage): string {
  const strings = adminStrings(language);
  if (stage.label !== null && stage.label !== courierStatusName(adminStrings("en"), stage.code)) return stage.label;
  return courierStatusName(strings, stage.code) ?? fill(strings.ship.timeline.statusCode, { code: stage.code });
}

/** What the merchant can do about an exception stage, in the words of the shipment's direction; undefined when it is none. */
export function exceptionAdviceInWords(code: number, isReturn: boolean, language: AdminLanguage): string | undefined {
  const strings = adminStrings(language);
  const advice: Record<string, string> = isReturn ? strings.activity.attention.returnExceptions : strings.ship.timeline.exceptions;
  return Object.hasOwn(advice, code) ? advice[code] : undefined;
}

/** The entry's words in the language. */
export function attentionInWords(note: AttentionNote, language: AdminLanguage, wordProblem: ProblemSaying = asStored): AttentionWords {
  const strings = adminStrings(language);
  const t = strings.activity.attention;
  const courier = "courier" in note ? (note.courier ?? t.theCourier) : "";
  // The shipment's stored error, said in the language from its words (`errorWords`), else as stored.
  const error = "error" in note && note.error !== null ? sayStored(language, note.errorWords, note.error) : null;
  switch (note.code) {
    case "cancelled_after_pickup": {
      const words = note.isReturn ? t.cancelledAfterPickupReturn : t.cancelledAfterPickup;
      return { message: fill(words.message, { courier, awb: note.awb }), action: words.action };
    }
    case "cancel_refused":
      return { message: error ?? fill(t.cancelRefused.message, { awb: note.awb }), action: t.cancelRefused.action };
    case "address_changed":
      return { message: fill(t.addressChanged.message, { awb: note.awb }), action: t.addressChanged.action };
    case "tracking_exception":
    case "tracking_stalled": {
      const what = fill(note.isReturn ? t.returnPickupAwb : t.awb, { awb: note.awb });
      const stage = stageInWords(note.stage, language);
      if (note.code === "tracking_exception") {
        const advice = exceptionAdviceInWords(note.stage.code, note.isReturn, language) ?? t.trackingException.askCourier;
        // A delivery attempted again says which attempt this is: the courier tries a few times, then returns it.
        const attempts = note.stage.outcome === "delivery_attempted" && (note.stage.attempts ?? 0) > 1 ? note.stage.attempts : undefined;
        const message = attempts ? fill(t.trackingException.messageAttempt, { courier, stage, what, since: note.since, attempts }) : fill(t.trackingException.message, { courier, stage, what, since: note.since });
        return { message, action: fill(t.trackingException.action, { advice }) };
      }
      return { message: fill(t.trackingStalled.message, { courier, stage, what, since: note.since }), action: note.isReturn ? t.trackingStalled.actionReturn : t.trackingStalled.action };
    }
    case "tracking_stopped":
      return { message: fill(t.trackingStopped.message, { error: error ?? t.trackingStopped.stopped, awb: note.awb }), action: t.trackingStopped.action };
    case "booking_failed":
      if (note.isReturn) return { message: fill(t.bookingFailedReturn.message, { error: error ?? t.bookingFailedReturn.refused }), action: t.bookingFailedReturn.action };
      return { message: error ?? t.bookingFailed.failed, action: t.bookingFailed.action };
    case "fulfillment_pending":
      return { message: error ?? note.error, action: note.isReturn ? t.fulfillmentPendingReturn.action : t.fulfillmentPending.action };
    case "order_problems":
    case "return_problems": {
      const problems = note.problems.map(wordProblem);
      return { message: problems.map((problem) => problem.message).join(" "), action: problems.map((problem) => problem.fix).join(" ") };
    }
    // The rules' stored reason, said in the language from its words (`reasonWords`), else as stored.
    case "held_by_rules":
      return { message: note.reason === null ? t.heldByRules.held : sayStored(language, note.reasonWords, note.reason), action: t.heldByRules.action };
    case "auto_booking_failed":
      return { message: note.reason === null ? t.autoBookingFailed.failed : sayStored(language, note.reasonWords, note.reason), action: t.autoBookingFailed.action };
    case "return_held":
      return { message: note.reason === null ? t.returnHeld.waits : sayStored(language, note.reasonWords, note.reason), action: t.returnHeld.action };
    case "return_received": {
      const items = note.items.map((item) => fill(t.returnReceived.item, { title: item.title, quantity: item.quantity })).join(t.returnReceived.separator) || t.returnReceived.itsItems;
      return { message: fill(t.returnReceived.message, { items, recorded: note.recorded ? t.returnReceived.recorded : "" }), action: t.returnReceived.action };
    }
    case "tracking_paused": {
      // The count as a plain number, as the English has always said it.
      const shipments = fill(note.count === 1 ? t.trackingPaused.shipments.one : t.trackingPaused.shipments.other, { count: note.count });
      return { message: fill(t.trackingPaused.message, { shipments, error: error ?? t.trackingPaused.refused }), action: t.trackingPaused.action };
    }
  }
}
