import prisma from "~/db.server";
import { recordShopperAnswer } from "~/failed-deliveries/failed-delivery-changes.server";
import { ANSWERS_PER_ATTEMPT, preferredDays, readShopperAnswer, type AnswerProblem } from "~/failed-deliveries/shopper-answer";
import { SHOPPER_ANSWERS } from "~/failed-deliveries/failed-delivery-lifecycle";
import { SHIPMENT_OUTCOME, TRACKED_STATUSES } from "~/shipments/lifecycle";
import { getStorefrontSettings } from "~/storefront/storefront-settings.server";
import { isTrackingLinkToken, parseAwb } from "./public-tracking.server";

/**
 * The shopper's answer to a failed delivery on the tracking page (`/track/{awb}` and the shop's own domain): the form
 * is offered, and an answer taken, only for the holder of the parcel's tracking link (its `?token=`, compared in
 * constant time) while the parcel is in a failed attempt; a forged or guessed link, or a number typed, answers
 * nothing. The days offered are the next six without the shop's closed days. What the page shows back is the
 * answer's kind and day, never the phone or address sent.
 */

export type AnswerFormState =
  /** The form, to answer (or answer again). */
  | "open"
  /** The seller has passed an answer to the courier already: nothing to change here. */
  | "handed_off"
  /** This attempt had its answers. */
  | "limited";

export interface FailedAttemptAnswerView {
  state: AnswerFormState;
  /** YYYY-MM-DD, India's calendar. */
  days: string[];
  /** The answer kept for this attempt (its kind, day and time), if any. */
  answered: { kind: "deliver_again" | "cancel"; preferredDate: string | null; preferredSlot: string | null } | null;
  answersLeft: number;
  /** What the last POST could not take, by field. */
  problems: AnswerProblem[];
  /** The answer of this POST was kept. */
  saved: boolean;
}

interface LinkHolder {
  token: string | null | undefined;
  /** Only this shop's parcels (the shop's own domain). */
  shop?: string;
}

/** The parcel the link is for, while it is in a failed attempt; null for anything else (or a link that is not its own). */
async function failedParcelOf(rawAwb: string | undefined, { token, shop }: LinkHolder) {
  const awb = parseAwb(rawAwb);
  if (!awb) return null;
  const shipment = await prisma.shipment.findFirst({
    where: { awb: { in: [...new Set([awb, awb.toUpperCase()])] }, status: { in: [...TRACKED_STATUSES] }, direction: "forward", ...(shop ? { shop } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, shop: true, trackingUrl: true, outcome: true, deliveryAttempts: true, failedDelivery: true },
  });
  if (!shipment || !isTrackingLinkToken(shipment.trackingUrl, token) || shipment.outcome !== SHIPMENT_OUTCOME.DELIVERY_ATTEMPTED) return null;
  return shipment;
}

async function viewOf(parcel: NonNullable<Awaited<ReturnType<typeof failedParcelOf>>>, now: Date, extra: Pick<FailedAttemptAnswerView, "problems" | "saved">): Promise<FailedAttemptAnswerView> {
  const calendar = await getStorefrontSettings(parcel.shop);
  const row = parcel.failedDelivery && parcel.failedDelivery.attempt === parcel.deliveryAttempts ? parcel.failedDelivery : null;
  const answersLeft = Math.max(0, ANSWERS_PER_ATTEMPT - (row?.answerCount ?? 0));
  const state: AnswerFormState = row?.state === "handed_off" ? "handed_off" : answersLeft === 0 ? "limited" : "open";
  const kind = SHOPPER_ANSWERS.find((answer) => answer === row?.answer);
  const answered = row && kind ? { kind, preferredDate: row.preferredDate, preferredSlot: row.preferredSlot } : null;
  return { state, days: preferredDays(now, calendar), answered, answersLeft, ...extra };
}

/** The answer form for the holder of the parcel's link while it is in a failed attempt; null otherwise. */
export async function failedAttemptAnswerView(rawAwb: string | undefined, holder: LinkHolder, now = new Date()): Promise<FailedAttemptAnswerView | null> {
  const parcel = await failedParcelOf(rawAwb, holder);
  return parcel ? viewOf(parcel, now, { problems: [], saved: false }) : null;
}

export type AnswerResult =
  /** Not the holder of the parcel's link, or the parcel is not in a failed attempt: nothing was taken. */
  | { kind: "refused" }
  | { kind: "answered"; view: FailedAttemptAnswerView }
  /** Fields to fix (422), or nothing more to take (the seller handed off, the attempt had its answers). */
  | { kind: "invalid" | "closed"; view: FailedAttemptAnswerView };

/** Bounds the form before it is read: a browser sends a few hundred bytes of these fields. */
const FIELDS = ["answer", "preferredDate", "preferredSlot", "phone", "alternatePhone", "addressLine", "landmark"] as const;
const FIELD_LIMIT = 400;
/** The largest answer the page's form sends: its fields at their limits, encoded, with room to spare. */
export const ANSWER_FORM_BYTES = 16 * 1024;

/** A body the page's form never sends: a 4xx that says what the page sends, never the framework's 500. */
export function answerFormRefused(problem: "too_large" | "not_a_form"): Response {
  return problem === "too_large"
    ? new Response(`The answer is larger than the page's form sends (at most ${ANSWER_FORM_BYTES / 1024} KB).`, { status: 413, headers: { "Content-Type": "text/plain; charset=utf-8" } })
    : new Response("Answer with the page's form: its fields as application/x-www-form-urlencoded.", { status: 415, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/** Takes the shopper's answer from the tracking page's form (the page has counted the link's use already). */
export async function answerFailedAttempt(rawAwb: string | undefined, holder: LinkHolder, form: URLSearchParams, language: string, now = new Date()): Promise<AnswerResult> {
  const parcel = await failedParcelOf(rawAwb, holder);
  if (!parcel) return { kind: "refused" };
  const before = await viewOf(parcel, now, { problems: [], saved: false });
  if (before.state !== "open") return { kind: "closed", view: before };
  const fields = Object.fromEntries(FIELDS.map((name) => [name, form.get(name)?.slice(0, FIELD_LIMIT) ?? undefined]));
  const read = readShopperAnswer(fields, before.days);
  if (!read.ok) return { kind: "invalid", view: { ...before, problems: read.problems } };
  const recorded = await recordShopperAnswer({ shop: parcel.shop, shipmentId: parcel.id }, read.answer, language, { actor: { kind: "shopper", name: "Tracking link" }, at: now });
  if (recorded.kind === "not_failed") return { kind: "refused" };
  const after = await failedParcelOf(rawAwb, holder);
  const view = after ? await viewOf(after, now, { problems: [], saved: recorded.kind === "recorded" }) : before;
  return recorded.kind === "recorded" ? { kind: "answered", view } : { kind: "closed", view };
}
