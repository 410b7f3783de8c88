import type { ParcelStanding } from "./remittance-verdicts";

/**
 * Where a parcel stands for its cash, from its courier's progress as the shipment holds it: the courier's latest stage
 * code (11 RTO, 12 RTO delivered: the parcel went back, nothing was collected) and the delivery time (set when the
 * courier reported it delivered). Pure; `PARCEL_STANDING_SQL` says the same in SQL for the ledger's queries.
 */
export const RTO_STATUS_CODES = [11, 12] as const;

export function parcelStanding({ courierStatusCode, deliveredAt }: { courierStatusCode: number | null; deliveredAt: Date | null }): ParcelStanding {
  if (courierStatusCode !== null && (RTO_STATUS_CODES as readonly number[]).includes(courierStatusCode)) return "rto";
  return deliveredAt ? "delivered" : "not_delivered";
}

/** The same for a row of "Shipment" aliased `s`. */
export const PARCEL_STANDING_SQL = `CASE WHEN s."courierStatusCode" IN (${RTO_STATUS_CODES.join(", ")}) THEN 'rto' WHEN s."deliveredAt" IS NOT NULL THEN 'delivered' ELSE 'not_delivered' END`;
