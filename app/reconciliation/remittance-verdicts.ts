import type { RemittanceRow } from "./statement-rows";

/**
 * What a remittance line means for the parcel it names: every difference between what the courier paid and what the
 * parcel collected, named. Pure: the import gives it the parcel as Dakiya holds it and what earlier lines paid for it.
 */

export const REMITTANCE_VERDICTS = ["paid_in_full", "short", "over", "paid_twice", "unknown_awb", "not_delivered", "rto", "not_cod", "already_imported"] as const;
export type RemittanceVerdict = (typeof REMITTANCE_VERDICTS)[number];

export const isRemittanceVerdict = (value: unknown): value is RemittanceVerdict => (REMITTANCE_VERDICTS as readonly unknown[]).includes(value);

/** Verdicts of lines that do not count towards a parcel's remitted total: a repeat, and a line that matched no parcel. */
export const UNCOUNTED_VERDICTS: readonly RemittanceVerdict[] = ["already_imported", "unknown_awb"];

/** Verdicts that say the courier's money and the parcel disagree: what the merchant takes up with the aggregator. */
export const REMITTANCE_PROBLEMS: readonly RemittanceVerdict[] = ["short", "over", "paid_twice", "unknown_awb", "not_delivered", "rto", "not_cod"];

/**
 * Where a parcel is, as far as its cash is concerned: delivered (the courier collected the cash, and owes it from
 * then), returning or returned to the seller (RTO: collected nothing, owes nothing), or neither yet.
 */
export type ParcelStanding = "delivered" | "rto" | "not_delivered";

/** A parcel as a remittance line is judged against. */
export interface RemittedParcel {
  shipmentId: number;
  orderGid: string;
  /** What the courier collects for it; null for a prepaid parcel. */
  cashToCollectPaise: number | null;
  standing: ParcelStanding;
}

/** What earlier lines (earlier statements, earlier rows of this one) said about the same parcel, or the same unknown awb. */
export interface EarlierLines {
  /** What they paid for it in all (a line seen before in an earlier file not counted twice). */
  remittedPaise: number;
  /** Lines of earlier statements, by `lineIdentity`: a statement downloaded again over the same days repeats them. */
  identities: ReadonlySet<string>;
}

/** The same payment, in another file: the same parcel (or awb and order id), bank reference and amount. */
export const lineIdentity = (parcelKey: string, line: Pick<RemittanceRow, "reference" | "amountPaise">) => `${parcelKey}|${line.reference.toLowerCase()}|${line.amountPaise}`;

/** The key a line's parcel is known by for `lineIdentity`: its shipment, or for a parcel Dakiya does not know, the awb and order id as written. */
export const parcelKeyOf = (line: Pick<RemittanceRow, "awb" | "orderRef">, parcel: Pick<RemittedParcel, "shipmentId"> | null) => (parcel ? `shipment:${parcel.shipmentId}` : `awb:${line.awb.toLowerCase()}|order:${line.orderRef.toLowerCase()}`);

export interface RemittanceJudgement {
  verdict: RemittanceVerdict;
  /** What the parcel was to remit (0 for an RTO parcel; null when there is no parcel or nothing to collect). */
  expectedPaise: number | null;
  remittedBeforePaise: number | null;
  /** Remitted so far with this line, less what was due: below zero short, above zero over (or paid twice). */
  differencePaise: number | null;
  /** Whether this line leaves the parcel paid in full (or more), so Shopify may record it paid. */
  settlesParcel: boolean;
  /** Whether it counts towards the parcel's remitted total. */
  counts: boolean;
}

export function judgeRemittance(line: RemittanceRow, parcel: RemittedParcel | null, earlier: EarlierLines): RemittanceJudgement {
  const none = { expectedPaise: null, remittedBeforePaise: null, differencePaise: null, settlesParcel: false };
  if (earlier.identities.has(lineIdentity(parcelKeyOf(line, parcel), line))) return { verdict: "already_imported", ...none, counts: false };
  if (!parcel) return { verdict: "unknown_awb", ...none, counts: false };
  const before = earlier.remittedPaise;
  const after = before + line.amountPaise;
  if (parcel.cashToCollectPaise === null) return { verdict: "not_cod", expectedPaise: 0, remittedBeforePaise: before, differencePaise: after, settlesParcel: false, counts: true };
  if (parcel.standing === "rto") return { verdict: "rto", expectedPaise: 0, remittedBeforePaise: before, differencePaise: after, settlesParcel: false, counts: true };
  const expected = parcel.cashToCollectPaise;
  if (parcel.standing === "not_delivered") return { verdict: "not_delivered", expectedPaise: expected, remittedBeforePaise: before, differencePaise: after - expected, settlesParcel: false, counts: true };
  if (before >= expected && line.amountPaise > 0) return { verdict: "paid_twice", expectedPaise: expected, remittedBeforePaise: before, differencePaise: after - expected, settlesParcel: false, counts: true };
  const verdict: RemittanceVerdict = after === expected ? "paid_in_full" : after < expected ? "short" : "over";
  return { verdict, expectedPaise: expected, remittedBeforePaise: before, differencePaise: after - expected, settlesParcel: after >= expected && before < expected, counts: true };
}
