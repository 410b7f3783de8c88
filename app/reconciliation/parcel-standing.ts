import { SHIPMENT_OUTCOME, type ShipmentOutcome } from "~/shipments/lifecycle";
import type { ParcelStanding } from "./remittance-verdicts";

/**
 * Where a parcel stands for its cash, from its courier outcome as the shipment holds it: delivered (the courier
 * collected the cash), returning or returned to the seller (RTO: nothing was collected), or neither yet. Pure;
 * `PARCEL_STANDING_SQL` says the same in SQL for the ledger's queries.
 */
export const RTO_OUTCOMES: readonly ShipmentOutcome[] = [SHIPMENT_OUTCOME.RTO_INITIATED, SHIPMENT_OUTCOME.RTO_DELIVERED];

export function parcelStanding({ outcome }: { outcome: string }): ParcelStanding {
  if ((RTO_OUTCOMES as readonly string[]).includes(outcome)) return "rto";
  return outcome === SHIPMENT_OUTCOME.DELIVERED ? "delivered" : "not_delivered";
}

/** The same for a row of "Shipment" aliased `s`. */
export const PARCEL_STANDING_SQL = `CASE WHEN s.outcome IN (${RTO_OUTCOMES.map((outcome) => `'${outcome}'`).join(", ")}) THEN 'rto' WHEN s.outcome = '${SHIPMENT_OUTCOME.DELIVERED}' THEN 'delivered' ELSE 'not_delivered' END`;
