import type { FailedDelivery, FailedDeliveryEvent, Prisma } from "@prisma/client";
import * as z from "zod";
import prisma from "~/db.server";
import { toPaise } from "~/money";
import { FINAL_OUTCOMES, SHIPMENT_OUTCOME } from "~/shipments/lifecycle";
import { parcelName } from "~/shipments/parcels";
import { historyEntryOf, type ShipmentHistoryEntry } from "~/shipments/history.server";
import { COURIER_DECISIONS, isDeskDecision, isFailedDeliveryState, type CourierAction, type DeskDecision, type FailedDeliveryState } from "./failed-delivery-lifecycle";
import { deskEventInWords } from "./desk-words";
import { DESK_VIEWS, isDeskView, type DeskView } from "./desk-views";
import { getDeskSettings } from "./desk-settings.server";

/**
 * The failed-delivery desk's read model: one row per parcel the courier failed to deliver and that has not reached
 * an end (delivered, returned, lost…) nor started back (RTO): its attempts and the courier's latest reason, the
 * hours since and those left before the courier's usual return, COD or prepaid and the amount, the PIN code, the
 * shopper's answer, the merchant's decision and what the courier did after it. Oldest attempt first. No Shopify call.
 */

export interface DeskFilter {
  view: DeskView;
  /** An order number, an awb or a PIN code. */
  search: string | null;
  payment: "cod" | "prepaid" | null;
}

export const DESK_SEARCH_LIMIT = 64;

/** The filter the desk's address asks for; anything unreadable is left out. */
export function readDeskFilter(params: URLSearchParams): DeskFilter {
  const view = params.get("view") ?? "";
  const search = (params.get("q") ?? "").trim();
  const payment = params.get("payment");
  return {
    view: isDeskView(view) ? view : "decide",
    search: search && search.length <= DESK_SEARCH_LIMIT ? search : null,
    payment: payment === "cod" || payment === "prepaid" ? payment : null,
  };
}

/** A decision with no courier action this long after it was handed off is raised again. */
export const COURIER_ACTION_HOURS = 24;
/** The most parcels the desk lists at once. */
const DESK_LIMIT = 300;
const HOUR_MS = 3_600_000;

export interface DeskAnswer {
  kind: "deliver_again" | "cancel";
  at: string;
  preferredDate: string | null;
  preferredSlot: string | null;
  phone: string | null;
  alternatePhone: string | null;
  addressLine: string | null;
  landmark: string | null;
  language: "en" | "hi";
}

export interface DeskRow {
  shipmentId: number;
  orderGid: string;
  /** "#1042", "#1042-2". */
  name: string;
  awb: string | null;
  courierName: string | null;
  attempts: number;
  /** The courier's words for its latest failed attempt. */
  reason: string | null;
  /** ISO time of the latest failed attempt. */
  attemptAt: string | null;
  hoursSince: number | null;
  /** Hours before the courier usually starts the return; negative: overdue. */
  hoursLeft: number | null;
  paymentMode: "cod" | "prepaid";
  amountPaise: number | null;
  pincode: string | null;
  /** The shopper's mobile as booked: the merchant's WhatsApp chat goes to it. */
  mobile: string | null;
  /** Where the desk has it, for the latest attempt ("open" when nothing is recorded for it yet). */
  state: FailedDeliveryState;
  answer: DeskAnswer | null;
  decision: DeskDecision | null;
  decidedAt: string | null;
  /** The shop's rule that decided this attempt, or waits for the shopper's answer; null when the merchant decided. */
  rule: string | null;
  /** While a rule waits: until when, and what it decides if the shopper has not answered by then. */
  waitUntil: string | null;
  /** Whole hours before the wait runs out (0 once it has). */
  waitHoursLeft: number | null;
  waitOtherwise: "reattempt" | "rto" | null;
  /** The shopper's corrected contact is on the Shopify order's note. */
  orderUpdatedAt: string | null;
  remarks: string | null;
  handedOffAt: string | null;
  /** What the courier did since the instructions went out. */
  courierAction: CourierAction;
  /** Handed off a day ago and the courier has not acted: ask it again. */
  raisedAgain: boolean;
  /** The parcel is in a failed attempt now (not out again): the shopper may answer and the merchant decide. */
  awaitingAction: boolean;
  history: ShipmentHistoryEntry[];
}

const BodySchema = z.object({
  pincode: z.union([z.string(), z.number()]).transform(String).optional().catch(undefined),
  mobile: z.union([z.string(), z.number()]).transform(String).optional().catch(undefined),
  total_amount: z.coerce.number().nonnegative().max(10_000_000).optional().catch(undefined),
});

function bookedFacts(requestPayload: string): z.infer<typeof BodySchema> {
  try {
    const parsed = BodySchema.safeParse(JSON.parse(requestPayload));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** What the courier did after the desk's row for `attempt`, read off the parcel's outcome now. */
export function courierActionOf(outcome: string, deliveryAttempts: number, attempt: number): CourierAction {
  if (deliveryAttempts > attempt) return "failed_again";
  if (outcome === SHIPMENT_OUTCOME.DELIVERY_ATTEMPTED) return "none";
  if (outcome === SHIPMENT_OUTCOME.OUT_FOR_DELIVERY || outcome === SHIPMENT_OUTCOME.IN_TRANSIT) return "reattempting";
  if (outcome === SHIPMENT_OUTCOME.DELIVERED) return "delivered";
  if (outcome === SHIPMENT_OUTCOME.RTO_INITIATED || outcome === SHIPMENT_OUTCOME.RTO_DELIVERED) return "returning";
  return "other";
}

type RowOf = FailedDelivery & { events: FailedDeliveryEvent[] };

/** The desk's row of a desk record, for the parcel's current attempt only: an older attempt's record is open again. */
function deskState(record: RowOf | null, attempts: number): { state: FailedDeliveryState; current: RowOf | null } {
  if (!record || record.attempt < attempts || !isFailedDeliveryState(record.state)) return { state: "open", current: null };
  return { state: record.state, current: record };
}

/** A rule waits for the shopper's answer: not the merchant's to decide (they may, to end the wait). */
const waitingForShopper = (row: DeskRow) => row.awaitingAction && row.state === "waiting";

function inView(row: DeskRow, view: DeskView): boolean {
  switch (view) {
    case "decide":
      return row.awaitingAction && (row.state === "open" || row.state === "answered" || (row.state === "decided" && row.decision === "call"));
    case "handoff":
      return row.state === "decided" && row.decision !== null && COURIER_DECISIONS.includes(row.decision);
    case "handed_off":
      return row.state === "handed_off";
    case "all":
      return true;
  }
}

/** The desk's rows, oldest attempt first, and how many each view holds. */
export async function listFailedDeliveries(shop: string, filter: DeskFilter, now = new Date()) {
  const settings = await getDeskSettings(shop);
  const search = filter.search;
  const candidates = (outcome: Prisma.StringFilter, order: "asc" | "desc", take: number) =>
    prisma.shipment.findMany({
      where: {
        shop,
        outcome,
        direction: "forward",
        deliveryAttempts: { gt: 0 },
        ...(filter.payment ? { paymentMode: filter.payment } : {}),
        ...(search ? { OR: [{ orderName: { contains: search, mode: "insensitive" } }, { awb: { equals: search, mode: "insensitive" } }, ...(/^\d{6}$/.test(search) ? [{ requestPayload: { contains: `"pincode":"${search}"` } }] : [])] } : {}),
      },
      select: {
        id: true,
        orderGid: true,
        orderName: true,
        parcel: true,
        awb: true,
        courierName: true,
        outcome: true,
        deliveryAttempts: true,
        paymentMode: true,
        requestPayload: true,
        failedDelivery: { include: { events: { orderBy: [{ at: "asc" }, { id: "asc" }], take: 50 } } },
        trackingEvents: { where: { code: 9 }, orderBy: [{ happenedAt: "desc" }, { id: "desc" }], take: 1, select: { activity: true, happenedAt: true } },
      },
      orderBy: { id: order },
      take,
    });
  // The parcels in a failed attempt now are the merchant's to act on, every one of them (up to the limit, oldest
  // first); the rest — re-attempted, handed off — fill what the limit leaves, newest first, so that parcels long
  // finished with never crowd out a new failed attempt.
  const awaiting = await candidates({ equals: SHIPMENT_OUTCOME.DELIVERY_ATTEMPTED }, "asc", DESK_LIMIT);
  const others = awaiting.length < DESK_LIMIT ? await candidates({ notIn: [...FINAL_OUTCOMES, SHIPMENT_OUTCOME.RTO_INITIATED, SHIPMENT_OUTCOME.DELIVERY_ATTEMPTED] }, "desc", DESK_LIMIT - awaiting.length) : [];
  const shipments = [...awaiting, ...others];
  const rows = shipments.map((shipment): DeskRow => {
    const attempt = shipment.trackingEvents[0] ?? null;
    const { state, current } = deskState(shipment.failedDelivery, shipment.deliveryAttempts);
    const body = bookedFacts(shipment.requestPayload);
    const hoursSince = attempt ? Math.max(0, Math.floor((now.getTime() - attempt.happenedAt.getTime()) / HOUR_MS)) : null;
    const awaitingAction = shipment.outcome === SHIPMENT_OUTCOME.DELIVERY_ATTEMPTED;
    const courierAction = current ? courierActionOf(shipment.outcome, shipment.deliveryAttempts, current.attempt) : "none";
    const handedOffAt = current?.handedOffAt ?? null;
    return {
      shipmentId: shipment.id,
      orderGid: shipment.orderGid,
      name: parcelName(shipment),
      awb: shipment.awb,
      courierName: shipment.courierName,
      attempts: shipment.deliveryAttempts,
      reason: attempt?.activity ?? null,
      attemptAt: attempt?.happenedAt.toISOString() ?? null,
      hoursSince,
      hoursLeft: hoursSince === null || !awaitingAction ? null : settings.returnAfterHours - hoursSince,
      paymentMode: shipment.paymentMode === "prepaid" ? "prepaid" : "cod",
      amountPaise: body.total_amount === undefined ? null : toPaise(body.total_amount),
      pincode: body.pincode ?? null,
      mobile: body.mobile ?? null,
      state,
      answer:
        current?.answer === "deliver_again" || current?.answer === "cancel"
          ? {
              kind: current.answer,
              at: current.answeredAt!.toISOString(),
              preferredDate: current.preferredDate,
              preferredSlot: current.preferredSlot,
              phone: current.phone,
              alternatePhone: current.alternatePhone,
              addressLine: current.addressLine,
              landmark: current.landmark,
              language: current.answerLanguage === "hi" ? "hi" : "en",
            }
          : null,
      decision: current?.decision && isDeskDecision(current.decision) ? current.decision : null,
      decidedAt: current?.decidedAt?.toISOString() ?? null,
      rule: current?.rule ?? null,
      waitUntil: current?.state === "waiting" ? (current.waitUntil?.toISOString() ?? null) : null,
      waitHoursLeft: current?.state === "waiting" && current.waitUntil ? Math.max(0, Math.floor((current.waitUntil.getTime() - now.getTime()) / HOUR_MS)) : null,
      waitOtherwise: current?.state === "waiting" ? (current.waitOtherwise === "rto" ? "rto" : "reattempt") : null,
      orderUpdatedAt: current?.orderUpdatedAt?.toISOString() ?? null,
      remarks: current?.remarks ?? null,
      handedOffAt: handedOffAt?.toISOString() ?? null,
      courierAction,
      raisedAgain: handedOffAt !== null && courierAction === "none" && now.getTime() - handedOffAt.getTime() > COURIER_ACTION_HOURS * HOUR_MS,
      awaitingAction,
      history: (shipment.failedDelivery?.events ?? []).map((event) => historyEntryOf(event, deskEventInWords(event, "en"))),
    };
  });
  rows.sort((a, b) => (a.attemptAt ?? "").localeCompare(b.attemptAt ?? "") || a.shipmentId - b.shipmentId);
  const counts = { ...(Object.fromEntries(DESK_VIEWS.map((view) => [view, rows.filter((row) => inView(row, view)).length])) as Record<DeskView, number>), waiting: rows.filter(waitingForShopper).length };
  return {
    rows: rows.filter((row) => inView(row, filter.view)),
    // Shown beside the parcels to decide: what the rules are waiting on.
    waiting: filter.view === "decide" ? rows.filter(waitingForShopper) : [],
    counts,
    returnAfterHours: settings.returnAfterHours,
  };
}

/** How many parcels wait on the merchant's decision: Home's and Needs attention's link to the desk. */
export async function countAwaitingDecision(shop: string, now = new Date()): Promise<number> {
  return (await listFailedDeliveries(shop, { view: "decide", search: null, payment: null }, now)).counts.decide;
}
