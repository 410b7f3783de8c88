import type { PaymentMode, RateOption, ShipmentType } from "~/shipping/contract";
import type { CourierRateCard } from "./rate-cards";
import { isServiceablePincode, zoneBetween, type Zone } from "./zones";

export const VOLUMETRIC_DIVISOR = 5000;
const SLAB_KG = 0.5;

export interface Parcel {
  length: number;
  breadth: number;
  height: number;
  actualWeight: number;
}

export interface RouteAndParcel extends Parcel {
  shipmentType: ShipmentType;
  paymentMode: PaymentMode;
  pickup: number;
  delivery: number;
  amount: number;
}

export interface Quote {
  courierId: number;
  courierName: string;
  mode: string;
  zone: Zone;
  chargeableWeightKg: number;
  freight: number;
  cod: number;
  total: number;
  eddDays: [number, number];
}

const rupees = (value: number) => Math.round(value * 100) / 100;

/** max(actual, L×B×H / 5000), rounded up to the next 0.5 kg. */
export function chargeableWeightKg(parcel: Parcel): number {
  const volumetric = (parcel.length * parcel.breadth * parcel.height) / VOLUMETRIC_DIVISOR;
  const heavier = Math.max(parcel.actualWeight, volumetric);
  // The epsilon keeps 1.5000000001 from floating-point noise out of the 2 kg slab.
  return Math.max(SLAB_KG, Math.ceil(heavier / SLAB_KG - 1e-9) * SLAB_KG);
}

export function formatKg(kg: number): string {
  return `${Number.isInteger(kg) ? kg.toFixed(0) : kg.toFixed(1)} KG`;
}

/** One courier's price for a route and parcel, or null when it does not serve the zone. */
export function quoteFor(card: CourierRateCard, request: RouteAndParcel): Quote | null {
  if (!isServiceablePincode(request.pickup) || !isServiceablePincode(request.delivery)) return null;
  const zone = zoneBetween(request.pickup, request.delivery);
  const rate = card.zones[zone];
  if (!rate) return null;
  const weight = chargeableWeightKg(request);
  const isReverse = request.shipmentType === "reverse";
  const freight = freightFor(card, zone, weight, request.shipmentType)!;
  const cod = request.paymentMode === "cod" ? rupees(Math.max(card.cod.fixed, (card.cod.percent / 100) * request.amount)) : 0;
  const extraDays = isReverse ? card.reverse.extraDays : 0;
  return {
    courierId: card.id,
    courierName: card.name,
    mode: card.mode,
    zone,
    chargeableWeightKg: weight,
    freight,
    cod,
    total: rupees(freight + cod),
    eddDays: [rate.edd[0] + extraDays, rate.edd[1] + extraDays],
  };
}

/** A courier's freight for a chargeable weight (a whole number of 0.5 kg slabs) in a zone; null when it does not serve the zone. */
export function freightFor(card: CourierRateCard, zone: Zone, chargeableKg: number, shipmentType: ShipmentType): number | null {
  const rate = card.zones[zone];
  if (!rate) return null;
  const slabs = Math.max(1, Math.round(chargeableKg / SLAB_KG));
  return rupees((rate.base + (slabs - 1) * rate.additional) * (shipmentType === "reverse" ? card.reverse.multiplier : 1));
}

export function quoteAll(cards: readonly CourierRateCard[], request: RouteAndParcel): Quote[] {
  return cards.flatMap((card) => quoteFor(card, request) ?? []);
}

export function toRateOption(quote: Quote): RateOption {
  return {
    id: quote.courierId,
    type: quote.mode,
    name: quote.courierName,
    chargeable_weight: formatKg(quote.chargeableWeightKg),
    freight_charges: quote.freight,
    cod_charges: quote.cod,
    total_charges: quote.total,
    zone: quote.zone,
    edd: `${quote.eddDays[0]} - ${quote.eddDays[1]}`,
  };
}
