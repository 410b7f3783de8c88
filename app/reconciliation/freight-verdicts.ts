import type { FreightRow } from "./statement-rows";

/**
 * A freight charge against the booking's quote: what the courier charged (weight, amount) beside what the parcel was
 * declared at (its weight, its box's volumetric weight) and what the quote charged for it when it was booked. Pure.
 *
 * Couriers charge freight on the heavier of the dead weight and the volumetric weight (length × breadth × height in
 * cm / 5,000), in slabs of 0.5 kg; the quote at booking did the same with the declared figures. A charge above the
 * quote — more weight, or more money — is an over-charge, by the difference.
 */

export const FREIGHT_VERDICTS = ["as_quoted", "overcharged", "billed_again", "unknown_awb", "already_imported"] as const;
export type FreightVerdict = (typeof FREIGHT_VERDICTS)[number];

export const isFreightVerdict = (value: unknown): value is FreightVerdict => (FREIGHT_VERDICTS as readonly unknown[]).includes(value);

export const VOLUMETRIC_DIVISOR = 5_000;
const SLAB_GRAMS = 500;

/** A box's volumetric weight in grams: L × B × H (cm) / 5,000 kg, to the gram. */
export const volumetricGrams = ({ length, breadth, height }: { length: number; breadth: number; height: number }): number => Math.round((length * breadth * height * 1000) / VOLUMETRIC_DIVISOR);

/** The weight a courier charges for: the heavier of the two, up to the next 0.5 kg (at least 0.5 kg). */
export const chargeableGrams = (declaredGrams: number, volumetric: number): number => Math.max(SLAB_GRAMS, Math.ceil(Math.max(declaredGrams, volumetric) / SLAB_GRAMS) * SLAB_GRAMS);

/** A parcel as booked, as a freight charge is judged against. */
export interface BookedParcel {
  shipmentId: number;
  orderGid: string;
  courierName: string | null;
  /** What the body sent to the courier declared: the weight in grams and the box in cm. */
  declaredGrams: number | null;
  box: { length: number; breadth: number; height: number } | null;
  /** The quote at booking: the weight it charged for (null for bookings made before it was kept) and its total charges. */
  quotedGrams: number | null;
  quotedPaise: number | null;
}

export interface FreightJudgement {
  verdict: FreightVerdict;
  declaredWeightGrams: number | null;
  volumetricWeightGrams: number | null;
  /** The quote's weight; for a booking that did not keep it, the weight its declared figures made chargeable. */
  quotedWeightGrams: number | null;
  quotedPaise: number | null;
  /** How much more than the quote was charged: weight in grams, amount in paise (zero when not more). */
  extraWeightGrams: number | null;
  extraPaise: number | null;
}

/** The same charge, in another file: the same parcel (or awb), weight and amount. */
/**
 * The same charge, in another file: the same parcel (or awb), weight, amount and invoice date. A statement downloaded
 * again over the same days repeats its lines; a later invoice billing the parcel again, even for the same figures, is
 * dated later, and is the parcel billed again. A file without dates cannot tell the two apart, and takes it as a repeat.
 */
export const chargeIdentity = (key: string, charge: Pick<FreightRow, "chargedWeightGrams" | "chargedPaise" | "chargedOn">) => `${key}|${charge.chargedWeightGrams}|${charge.chargedPaise}|${charge.chargedOn?.toISOString().slice(0, 10) ?? ""}`;
export const chargeKeyOf = (charge: Pick<FreightRow, "awb">, parcel: Pick<BookedParcel, "shipmentId"> | null) => (parcel ? `shipment:${parcel.shipmentId}` : `awb:${charge.awb.toLowerCase()}`);

export interface EarlierCharges {
  identities: ReadonlySet<string>;
  /** Whether another line (an earlier statement's, or an earlier row of this one) billed the parcel already. */
  billed: boolean;
}

export function judgeFreightCharge(charge: FreightRow, parcel: BookedParcel | null, earlier: EarlierCharges): FreightJudgement {
  const nothing = { declaredWeightGrams: null, volumetricWeightGrams: null, quotedWeightGrams: null, quotedPaise: null, extraWeightGrams: null, extraPaise: null };
  if (earlier.identities.has(chargeIdentity(chargeKeyOf(charge, parcel), charge))) return { verdict: "already_imported", ...nothing };
  if (!parcel) return { verdict: "unknown_awb", ...nothing };
  const volumetric = parcel.box ? volumetricGrams(parcel.box) : null;
  const quotedWeight = parcel.quotedGrams ?? (parcel.declaredGrams === null ? null : chargeableGrams(parcel.declaredGrams, volumetric ?? 0));
  const extraWeight = quotedWeight === null ? null : Math.max(0, charge.chargedWeightGrams - quotedWeight);
  const extraPaise = parcel.quotedPaise === null ? null : Math.max(0, charge.chargedPaise - parcel.quotedPaise);
  const figures = { declaredWeightGrams: parcel.declaredGrams, volumetricWeightGrams: volumetric, quotedWeightGrams: quotedWeight, quotedPaise: parcel.quotedPaise, extraWeightGrams: extraWeight, extraPaise };
  if (earlier.billed) return { verdict: "billed_again", ...figures };
  return { verdict: (extraWeight ?? 0) > 0 || (extraPaise ?? 0) > 0 ? "overcharged" : "as_quoted", ...figures };
}

/** Grams as kilograms for a sentence or a file: 1500 → "1.5", 500 → "0.5", 1250 → "1.25". */
export const kgOf = (grams: number): string => String(grams / 1000);
