import { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { parcelName } from "~/shipments/parcels";
import { chargeableGrams, isFreightVerdict, volumetricGrams, type FreightVerdict } from "./freight-verdicts";

/**
 * The freight check as the merchant reads it: the charges imported from the aggregator's invoices beside each
 * parcel's quote, the over-charges (by how much, in kg and ₹) with their totals per courier and per month, and the
 * dispute pack of one parcel — everything the aggregator's weight-dispute form asks for. Reads only.
 */

export interface FreightChargeView {
  id: number;
  shipmentId: number | null;
  parcelName: string | null;
  awb: string;
  courierName: string | null;
  verdict: FreightVerdict;
  declaredWeightGrams: number | null;
  volumetricWeightGrams: number | null;
  quotedWeightGrams: number | null;
  chargedWeightGrams: number;
  extraWeightGrams: number | null;
  quotedPaise: number | null;
  chargedPaise: number;
  extraPaise: number | null;
  chargedOn: Date | null;
  hasPhoto: boolean;
}

/** The shop's charges of one verdict (over-charged unless asked), latest first. */
export async function listFreightCharges(shop: string, { verdict = "overcharged", courier, take = 50, skip = 0 }: { verdict?: FreightVerdict | "all"; courier?: string; take?: number; skip?: number } = {}) {
  const rows = await prisma.$queryRaw<(Omit<FreightChargeView, "parcelName"> & { orderName: string | null; parcel: number | null })[]>`
    SELECT c.id, c."shipmentId", c.awb, c."courierName", c.verdict, c."declaredWeightGrams", c."volumetricWeightGrams", c."quotedWeightGrams", c."chargedWeightGrams",
           c."extraWeightGrams", c."quotedPaise", c."chargedPaise", c."extraPaise", c."chargedOn", s."orderName", s.parcel,
           EXISTS (SELECT 1 FROM "PackingPhoto" p WHERE p.shop = c.shop AND p."shipmentId" = c."shipmentId") AS "hasPhoto"
      FROM "FreightCharge" c LEFT JOIN "Shipment" s ON s.id = c."shipmentId" AND s.shop = c.shop
     WHERE c.shop = ${shop} ${verdict === "all" ? Prisma.empty : Prisma.sql`AND c.verdict = ${verdict}`} ${courier ? Prisma.sql`AND c."courierName" = ${courier}` : Prisma.empty}
     ORDER BY c.id DESC LIMIT ${take + 1} OFFSET ${skip}`;
  return {
    charges: rows.slice(0, take).map(({ orderName, parcel, ...charge }): FreightChargeView => ({ ...charge, verdict: isFreightVerdict(charge.verdict) ? charge.verdict : "as_quoted", parcelName: orderName === null || parcel === null ? null : parcelName({ orderName, parcel }) })),
    more: rows.length > take,
  };
}

export interface OverchargeTotal {
  /** The courier's name, or the month (YYYY-MM, in the shop's time zone). */
  key: string;
  parcels: number;
  extraWeightGrams: number;
  extraPaise: number;
}

/** Over-charges summed per courier and per month of the charge (its invoice date, else when it was imported). */
export async function overchargeTotals(shop: string, timeZone: string): Promise<{ byCourier: OverchargeTotal[]; byMonth: OverchargeTotal[] }> {
  const sums = Prisma.sql`COUNT(*)::int AS parcels, COALESCE(SUM(c."extraWeightGrams"), 0)::bigint AS "extraWeightGrams", COALESCE(SUM(c."extraPaise"), 0)::bigint AS "extraPaise"`;
  type Row = { key: string; parcels: number; extraWeightGrams: bigint; extraPaise: bigint };
  const toTotal = (row: Row): OverchargeTotal => ({ key: row.key, parcels: row.parcels, extraWeightGrams: Number(row.extraWeightGrams), extraPaise: Number(row.extraPaise) });
  const byCourier = await prisma.$queryRaw<Row[]>`
    SELECT COALESCE(c."courierName", '') AS key, ${sums} FROM "FreightCharge" c WHERE c.shop = ${shop} AND c.verdict = 'overcharged' GROUP BY 1 ORDER BY "extraPaise" DESC, key LIMIT 20`;
  const byMonth = await prisma.$queryRaw<Row[]>`
    SELECT to_char(COALESCE(c."chargedOn", st."importedAt" AT TIME ZONE 'UTC' AT TIME ZONE ${timeZone}), 'YYYY-MM') AS key, ${sums}
      FROM "FreightCharge" c JOIN "CourierStatement" st ON st.id = c."statementId" AND st.shop = c.shop
     WHERE c.shop = ${shop} AND c.verdict = 'overcharged' GROUP BY 1 ORDER BY 1 DESC LIMIT 12`;
  return { byCourier: byCourier.map(toTotal), byMonth: byMonth.map(toTotal) };
}

/** What a weight dispute needs about one parcel: as declared and boxed, as quoted, as charged, and the photo. */
export interface DisputeFacts {
  shipmentId: number;
  parcelName: string;
  orderGid: string;
  awb: string;
  courierName: string | null;
  bookedAt: Date;
  deliveredAt: Date | null;
  /** The box preset's name, "default package" or "edited"; null for a booking made before it was kept. */
  packageName: string | null;
  declaredWeightGrams: number | null;
  box: { length: number; breadth: number; height: number } | null;
  volumetricWeightGrams: number | null;
  quote: { weightGrams: number | null; estimated: boolean; freightPaise: number | null; codChargePaise: number | null; totalPaise: number | null; zone: string | null; edd: string | null };
  /** The courier's charges of it, oldest first. */
  charges: { statementId: number; row: number; chargedWeightGrams: number; chargedPaise: number; chargedOn: Date | null; verdict: string; extraWeightGrams: number | null; extraPaise: number | null }[];
  photo: { contentType: string; width: number; height: number; uploadedAt: Date; bytes: number } | null;
  /** When its label was first printed from Dakiya, if it was. */
  labelPrintedAt: Date | null;
}

const numberIn = (body: Record<string, unknown>, key: string): number | null => (typeof body[key] === "number" && Number.isFinite(body[key]) ? (body[key] as number) : null);

/** A parcel of the shop's, with an awb, as a dispute shows it; null for another shop's or one not booked. */
export async function disputeFacts(shop: string, shipmentId: number): Promise<DisputeFacts | null> {
  const shipment = await prisma.shipment.findFirst({ where: { id: shipmentId, shop, awb: { not: null } } });
  if (!shipment) return null;
  let body: Record<string, unknown> = {};
  try {
    body = shipment.requestPayload ? (JSON.parse(shipment.requestPayload) as Record<string, unknown>) : {};
  } catch {
    body = {};
  }
  const kg = numberIn(body, "package_weight");
  const [length, breadth, height] = [numberIn(body, "package_length"), numberIn(body, "package_breadth"), numberIn(body, "package_height")];
  const box = length !== null && breadth !== null && height !== null ? { length, breadth, height } : null;
  const declaredWeightGrams = kg === null ? null : Math.round(kg * 1000);
  const volumetric = box ? volumetricGrams(box) : null;
  const [charges, photo, document] = await Promise.all([
    prisma.freightCharge.findMany({ where: { shop, shipmentId }, orderBy: [{ statementId: "asc" }, { row: "asc" }], take: 20 }),
    prisma.packingPhoto.findUnique({ where: { shop_shipmentId: { shop, shipmentId } }, select: { contentType: true, width: true, height: true, uploadedAt: true, bytes: true } }),
    prisma.shipmentDocument.findUnique({ where: { shipmentId }, select: { shop: true, labelFirstPrintedAt: true } }),
  ]);
  return {
    shipmentId,
    parcelName: parcelName(shipment),
    orderGid: shipment.direction === "return" ? (shipment.returnOfOrderGid ?? shipment.orderGid) : shipment.orderGid,
    awb: shipment.awb!,
    courierName: shipment.courierName,
    bookedAt: shipment.createdAt,
    deliveredAt: shipment.deliveredAt,
    packageName: shipment.packageName,
    declaredWeightGrams,
    box,
    volumetricWeightGrams: volumetric,
    quote: {
      weightGrams: shipment.quotedWeightGrams ?? (declaredWeightGrams === null ? null : chargeableGrams(declaredWeightGrams, volumetric ?? 0)),
      estimated: shipment.quotedWeightGrams === null,
      freightPaise: shipment.freightPaise,
      codChargePaise: shipment.codPaise,
      totalPaise: shipment.totalChargesPaise,
      zone: shipment.zone,
      edd: shipment.edd,
    },
    charges: charges.map((charge) => ({
      statementId: charge.statementId,
      row: charge.row,
      chargedWeightGrams: charge.chargedWeightGrams,
      chargedPaise: charge.chargedPaise,
      chargedOn: charge.chargedOn,
      verdict: charge.verdict,
      extraWeightGrams: charge.extraWeightGrams,
      extraPaise: charge.extraPaise,
    })),
    photo: photo ? { contentType: photo.contentType, width: photo.width, height: photo.height, uploadedAt: photo.uploadedAt, bytes: photo.bytes.byteLength } : null,
    labelPrintedAt: document?.shop === shop ? document.labelFirstPrintedAt : null,
  };
}

/** The parcel's packing photo, for the dispute page and pack; null when it has none (or is another shop's). */
export async function packingPhotoOf(shop: string, shipmentId: number): Promise<{ contentType: string; bytes: Uint8Array } | null> {
  const photo = await prisma.packingPhoto.findUnique({ where: { shop_shipmentId: { shop, shipmentId } }, select: { contentType: true, bytes: true } });
  return photo ? { contentType: photo.contentType, bytes: new Uint8Array(photo.bytes) } : null;
}
