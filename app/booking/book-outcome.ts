import { problemInWords, problemLabel } from "~/shopify/readiness-checks";
import type { Shipment } from "@prisma/client";
import type { Warehouse } from "~/shipping/contract";
import type { RankedRate } from "~/shipping/rate-ranking";
import type { MappedParcel, MappedShipment, MappingProblem } from "~/shopify/order-mapping";
import { adminStrings, sayStored, type AdminLanguage, type AdminStrings } from "~/locales/admin-language";

/**
 * Why a booking or a quote went no further, when Dakiya words it: the merchant reads it in the admin's language. An
 * outcome without a code carries the courier service's own words (or a stored record's), shown as they are.
 */
export type OutcomeCode = "courier_not_on_route" | "keys_refused" | "no_answer" | "booking_refused" | "parcel_gone" | "awaiting_shopper";

/** One parcel of an order, quoted: its pickup warehouse and the couriers' rates for it. */
export interface ParcelQuote {
  parcel: MappedParcel;
  warehouse: Warehouse;
  rates: RankedRate[];
}

/** Every parcel of the order stands booked: its shipments, parcel 1 first (`shipment`). */
type Booked = { shipment: Shipment; shipments: Shipment[] };

/**
 * What quoting an order came to. Quoted: `shipment` is the order as one, `rates` the order's (each courier over every
 * parcel still to book; with one parcel, that parcel's), `warehouse` the first parcel's, and `parcels` each parcel
 * still to book with its own rates (none for a return's pickup, which is one shipment).
 */
export type QuoteOutcome =
  | { kind: "not_found" }
  | { kind: "problems"; shipment: MappedShipment | null; problems: MappingProblem[] }
  | { kind: "quoted"; shipment: MappedShipment; warehouse: Warehouse; rates: RankedRate[]; parcels: ParcelQuote[] }
  | { kind: "unavailable"; shipment: MappedShipment; message: string; code?: OutcomeCode }
  | ({ kind: "already_booked" } & Booked);

/** A booking that did not go through for every parcel carries the parcels of the order booked beside it. */
type Partly = { booked?: Shipment[] };

/** Why a booking did not go through (for one parcel at least). */
export type NotBooked =
  | ({ kind: "not_found" } & Partly)
  | ({ kind: "quoted"; shipment: MappedShipment; warehouse: Warehouse; rates: RankedRate[]; parcels: ParcelQuote[] } & Partly)
  | ({ kind: "problems"; shipment: MappedShipment | null; problems: MappingProblem[] } & Partly)
  | ({ kind: "unavailable"; shipment: MappedShipment; message: string; code?: OutcomeCode; words?: unknown } & Partly)
  | ({ kind: "cancelled" } & Partly)
  | ({
      kind: "refused";
      message: string;
      fieldErrors: { field: string; message: string }[];
      code?: OutcomeCode;
      /** The failed shipment's stored words for `message` (its last error), for a page to say in the admin's language. */
      words?: unknown;
    } & Partly);

export type BookOutcome = NotBooked | ({ kind: "already_booked" } & Booked) | ({ kind: "booked" } & Booked);

/** What of an outcome its words are made from: small enough to send to a page, which words it in the admin's language. */
export type OutcomeForWords =
  | { kind: "problems"; problems: MappingProblem[] }
  | { kind: "unavailable" | "refused"; message: string; code?: OutcomeCode; words?: unknown }
  | { kind: "not_found" | "cancelled" | "quoted" | "booked" | "already_booked" };

/** The outcome without the order's shipment, rates or booked row. */
export function outcomeForWords(outcome: BookOutcome): OutcomeForWords {
  if (outcome.kind === "problems") return { kind: outcome.kind, problems: outcome.problems };
  if (outcome.kind === "unavailable") return { kind: outcome.kind, message: outcome.message, ...(outcome.code ? { code: outcome.code } : {}), ...("words" in outcome && outcome.words ? { words: outcome.words } : {}) };
  if (outcome.kind === "refused") return { kind: outcome.kind, message: outcome.message, ...(outcome.code ? { code: outcome.code } : {}), ...(outcome.words ? { words: outcome.words } : {}) };
  return { kind: outcome.kind };
}

/**
 * How a booking's problems are put: their short labels ("PIN code not 6 digits"), which quote nothing of the order
 * and so may go anywhere (the shipment's history, a list); their messages; or their messages with the fixes.
 */
export type ProblemWording = "labels" | "messages" | "fixes";

/** Each code's sentence in the locale files' `outcomes.booking`. */
export const OUTCOME_WORDS: Readonly<Record<OutcomeCode, keyof AdminStrings["outcomes"]["booking"]>> = {
  courier_not_on_route: "courierNotOnRoute",
  keys_refused: "keysRefused",
  no_answer: "noAnswer",
  booking_refused: "bookingRefused",
  parcel_gone: "parcelGone",
  awaiting_shopper: "awaitingShopper",
};

/** The English of a code, for the outcome's `message`. */
export const outcomeMessage = (code: OutcomeCode): string => adminStrings("en").outcomes.booking[OUTCOME_WORDS[code]];

/**
 * The one place a booking that did not happen is put into words, for every screen, job and record that tells the
 * merchant why: in English unless a language is asked for. Pure.
 */
export function bookOutcomeInWords(outcome: OutcomeForWords, { problems = "messages", language = "en" }: { problems?: ProblemWording; language?: AdminLanguage } = {}): string {
  const words = adminStrings(language).outcomes.booking;
  switch (outcome.kind) {
    case "problems":
      if (problems === "labels") return outcome.problems.map((problem) => problemLabel(problem.code, language)).join(", ");
      return outcome.problems
        .map((problem) => problemInWords(problem, language))
        .map((found) => (problems === "fixes" ? `${found.message} ${found.fix}` : found.message))
        .join(" ");
    case "not_found":
      return words.notFound;
    case "cancelled":
      return words.cancelled;
    case "quoted":
      return words.noCourier;
    case "unavailable":
    case "refused":
      return outcome.code ? words[OUTCOME_WORDS[outcome.code]] : sayStored(language, outcome.words, outcome.message);
    default:
      return words.didNotGoThrough;
  }
}
