import * as z from "zod";
import { isSafeTrackingUrl, TRACKING_URL_RULE } from "~/shipping/tracking-url";
import { ZONES } from "./zones";

const ZoneRateSchema = z.object({
  /** Freight for the first 0.5 kg, in rupees. */
  base: z.number().positive(),
  /** Freight for each further 0.5 kg. */
  additional: z.number().nonnegative(),
  /** Delivery days, [min, max]. */
  edd: z.tuple([z.number().int().positive(), z.number().int().positive()]),
});

export const CourierRateCardSchema = z.object({
  id: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  /** Spelled as Shopify's supported tracking-company list spells it, so tracking links resolve. */
  name: z.string().min(1),
  mode: z.enum(["surface", "air"]),
  /**
   * Public tracking page; `{awb}` is replaced by the air waybill number. Checked with an awb in place,
   * as the service fills it, so the service never hands out an address the app may not link to.
   */
  trackingUrl: z
    .string()
    .includes("{awb}")
    .refine((template) => isSafeTrackingUrl(template.replace("{awb}", "1234567890")), { error: `trackingUrl ${TRACKING_URL_RULE}` }),
  /** Zones the courier serves, with their prices; a zone left out is not served. */
  zones: z.partialRecord(z.enum(ZONES), ZoneRateSchema),
  cod: z.object({ fixed: z.number().nonnegative(), percent: z.number().nonnegative() }),
  /** Reverse pick-ups cost more and take longer than forward deliveries. */
  reverse: z.object({ multiplier: z.number().min(1), extraDays: z.number().int().nonnegative() }),
});
export type CourierRateCard = z.infer<typeof CourierRateCardSchema>;

export const RateCardsSchema = z
  .array(CourierRateCardSchema)
  .length(4)
  .refine((cards) => new Set(cards.map((card) => card.id)).size === 4, { message: "courier ids must be 1, 2, 3 and 4" });

const zone = (base: number, additional: number, min: number, max: number) => ({ base, additional, edd: [min, max] as [number, number] });

/**
 * The sandbox's four couriers: Delhivery the balanced default, Bluedart fast air at a premium,
 * XpressBees the cheapest surface option (no special areas), DTDC cheap but slowest.
 * Charges exclude GST. Replace them with SANDBOX_RATE_CARDS_FILE (docs/courier-service.md).
 */
export const DEFAULT_RATE_CARDS: CourierRateCard[] = [
  {
    id: 1,
    name: "Delhivery",
    mode: "surface",
    trackingUrl: "https://www.delhivery.com/track-v2/package/{awb}",
    zones: { A: zone(32, 28, 1, 2), B: zone(38, 33, 2, 3), C: zone(45, 40, 2, 4), D: zone(52, 46, 4, 6), E: zone(70, 60, 6, 9) },
    cod: { fixed: 35, percent: 1.75 },
    reverse: { multiplier: 1.25, extraDays: 1 },
  },
  {
    id: 2,
    name: "Bluedart",
    mode: "air",
    trackingUrl: "https://www.bluedart.com/web/guest/trackdartresultthirdparty?trackFor=0&trackNo={awb}",
    zones: { A: zone(45, 40, 1, 1), B: zone(58, 52, 1, 2), C: zone(72, 65, 1, 2), D: zone(85, 76, 2, 3), E: zone(110, 95, 3, 5) },
    cod: { fixed: 50, percent: 2 },
    reverse: { multiplier: 1.35, extraDays: 1 },
  },
  {
    id: 3,
    name: "XpressBees",
    mode: "surface",
    trackingUrl: "https://www.xpressbees.com/shipment/tracking?awbNo={awb}",
    zones: { A: zone(28, 24, 1, 2), B: zone(33, 29, 2, 4), C: zone(40, 36, 3, 5), D: zone(46, 41, 4, 7) },
    cod: { fixed: 30, percent: 1.5 },
    reverse: { multiplier: 1.2, extraDays: 2 },
  },
  {
    id: 4,
    name: "DTDC",
    mode: "surface",
    trackingUrl: "https://www.dtdc.in/trace.asp?strCnno={awb}",
    zones: { A: zone(30, 26, 2, 3), B: zone(35, 31, 3, 4), C: zone(42, 38, 3, 5), D: zone(48, 43, 5, 8), E: zone(62, 55, 7, 10) },
    cod: { fixed: 30, percent: 1.6 },
    reverse: { multiplier: 1.3, extraDays: 2 },
  },
];
