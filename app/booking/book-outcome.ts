import { PROBLEM_LABELS } from "~/shopify/order-mapping";
import type { Shipment } from "@prisma/client";
import type { Warehouse } from "~/shipping/contract";
import type { RankedRate } from "~/shipping/rate-ranking";
import type { MappedShipment, MappingProblem } from "~/shopify/order-mapping";

/** What quoting an order came to. */
export type QuoteOutcome =
  | { kind: "not_found" }
  | { kind: "problems"; shipment: MappedShipment | null; problems: MappingProblem[] }
  | { kind: "quoted"; shipment: MappedShipment; warehouse: Warehouse; rates: RankedRate[] }
  | { kind: "unavailable"; shipment: MappedShipment; message: string };

export type BookOutcome =
  | QuoteOutcome
  | { kind: "already_booked"; shipment: Shipment }
  | { kind: "cancelled" }
  | { kind: "refused"; message: string; fieldErrors: { field: string; message: string }[] }
  | { kind: "booked"; shipment: Shipment };

/**
 * How a booking's problems are put: their short labels ("PIN code not 6 digits"), which quote nothing of the order
 * and so may go anywhere (the shipment's history, a list); their messages; or their messages with the fixes.
 */
export type ProblemWording = "labels" | "messages" | "fixes";

/**
 * The one place a booking that did not happen is put into words, for every screen, job and record that tells the
 * merchant why. Pure.
 */
export function bookOutcomeInWords(outcome: BookOutcome, { problems = "messages" }: { problems?: ProblemWording } = {}): string {
  switch (outcome.kind) {
    case "problems":
      if (problems === "labels") return outcome.problems.map((problem) => PROBLEM_LABELS[problem.code]).join(", ");
      return outcome.problems.map((problem) => (problems === "fixes" ? `${problem.message} ${problem.fix}` : problem.message)).join(" ");
    case "not_found":
      return "The order no longer exists in Shopify.";
    case "cancelled":
      return "The order was cancelled.";
    case "quoted":
      return "No courier serves this route.";
    case "unavailable":
    case "refused":
      return outcome.message;
    default:
      return "The booking did not go through.";
  }
}
