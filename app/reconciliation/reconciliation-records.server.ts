import { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { enqueue } from "~/jobs/job-queue.server";
import { SHIPMENT_OUTCOME } from "~/shipments/lifecycle";
import { parcelName } from "~/shipments/parcels";
import { UNCOUNTED_VERDICTS } from "./remittance-verdicts";
import type { ColumnMapping, StatementKind } from "./statement-columns";

/**
 * The one module that writes the reconciliation tables — ReconciliationSettings, CourierStatement, RemittanceLine,
 * FreightCharge, PackingPhoto, ShopifyCodPayment (a test, reconciliation-writers.test.ts, fails on any other writer).
 * Every write names its shop. It writes nothing else: a parcel's own row belongs to the shipments' owner.
 */

type Client = Prisma.TransactionClient;

// ─── Settings ─────────────────────────────────────────────────────────────────────────────────────────────────────

export interface ReconciliationChoices {
  expectedRemittanceDays: number;
  markPaidInShopify: boolean;
}

export async function saveReconciliationChoices(shop: string, choices: ReconciliationChoices): Promise<void> {
  await prisma.reconciliationSettings.upsert({ where: { shop }, create: { shop, ...choices }, update: choices });
}

/** The column mapping that read a statement, remembered for the next file of its kind. */
export async function rememberColumns(tx: Client, shop: string, kind: StatementKind, mapping: ColumnMapping): Promise<void> {
  const data = kind === "remittance" ? { remittanceColumns: mapping } : { invoiceColumns: mapping };
  await tx.reconciliationSettings.upsert({ where: { shop }, create: { shop, ...data }, update: data });
}

// ─── Statements ───────────────────────────────────────────────────────────────────────────────────────────────────

/** A statement being imported: its row exists inside the import's transaction only, under a key of its own until its content's digest is known. */
export async function openStatement(tx: Client, shop: string, kind: StatementKind, fileName: string, now: Date): Promise<number> {
  const { id } = await tx.courierStatement.create({ data: { shop, kind, fileName, sha256: `importing:${crypto.randomUUID()}`, lineCount: 0, summary: {}, importedAt: now } });
  return id;
}

export async function closeStatement(tx: Client, shop: string, id: number, { sha256, lineCount, summary }: { sha256: string; lineCount: number; summary: Record<string, number> }): Promise<void> {
  await tx.courierStatement.updateMany({ where: { id, shop }, data: { sha256, lineCount, summary } });
}

export interface RemittanceLineRecord {
  row: number;
  awb: string;
  orderRef: string;
  amountPaise: number;
  reference: string;
  remittedOn: Date | null;
  shipmentId: number | null;
  orderGid: string | null;
  matchedBy: "awb" | "order" | null;
  verdict: string;
  expectedPaise: number | null;
  remittedBeforePaise: number | null;
  differencePaise: number | null;
}

/**
 * A batch of a statement's remittance lines, in one statement of SQL. The batch travels as one JSON parameter:
 * serialising a thousand rows once is far cheaper for the app than escaping thirteen arrays element by element.
 */
export async function addRemittanceLines(tx: Client, shop: string, statementId: number, lines: readonly RemittanceLineRecord[]): Promise<void> {
  if (lines.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO "RemittanceLine" (shop, "statementId", row, awb, "orderRef", "amountPaise", reference, "remittedOn", "shipmentId", "orderGid", "matchedBy", verdict, "expectedPaise", "remittedBeforePaise", "differencePaise")
    SELECT ${shop}, ${statementId}, line.row, line.awb, line."orderRef", line."amountPaise", line.reference, line."remittedOn", line."shipmentId", line."orderGid", line."matchedBy", line.verdict,
           line."expectedPaise", line."remittedBeforePaise", line."differencePaise"
      FROM jsonb_to_recordset(${JSON.stringify(lines)}::jsonb) AS line(row int, awb text, "orderRef" text, "amountPaise" int, reference text, "remittedOn" timestamp(3), "shipmentId" int, "orderGid" text,
           "matchedBy" text, verdict text, "expectedPaise" int, "remittedBeforePaise" int, "differencePaise" int)`;
}

export interface FreightChargeRecord {
  row: number;
  awb: string;
  chargedWeightGrams: number;
  chargedPaise: number;
  chargedOn: Date | null;
  shipmentId: number | null;
  orderGid: string | null;
  courierName: string | null;
  verdict: string;
  declaredWeightGrams: number | null;
  volumetricWeightGrams: number | null;
  quotedWeightGrams: number | null;
  quotedPaise: number | null;
  extraWeightGrams: number | null;
  extraPaise: number | null;
}

/** A batch of a freight invoice's charges, in one statement of SQL (as one JSON parameter, as the remittance lines). */
export async function addFreightCharges(tx: Client, shop: string, statementId: number, charges: readonly FreightChargeRecord[]): Promise<void> {
  if (charges.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO "FreightCharge" (shop, "statementId", row, awb, "chargedWeightGrams", "chargedPaise", "chargedOn", "shipmentId", "orderGid", "courierName", verdict, "declaredWeightGrams", "volumetricWeightGrams", "quotedWeightGrams", "quotedPaise", "extraWeightGrams", "extraPaise")
    SELECT ${shop}, ${statementId}, charge.row, charge.awb, charge."chargedWeightGrams", charge."chargedPaise", charge."chargedOn", charge."shipmentId", charge."orderGid", charge."courierName", charge.verdict,
           charge."declaredWeightGrams", charge."volumetricWeightGrams", charge."quotedWeightGrams", charge."quotedPaise", charge."extraWeightGrams", charge."extraPaise"
      FROM jsonb_to_recordset(${JSON.stringify(charges)}::jsonb) AS charge(row int, awb text, "chargedWeightGrams" int, "chargedPaise" int, "chargedOn" timestamp(3), "shipmentId" int, "orderGid" text,
           "courierName" text, verdict text, "declaredWeightGrams" int, "volumetricWeightGrams" int, "quotedWeightGrams" int, "quotedPaise" int, "extraWeightGrams" int, "extraPaise" int)`;
}

// ─── Shopify payments ─────────────────────────────────────────────────────────────────────────────────────────────

export interface PaymentToRecord {
  shipmentId: number;
  orderGid: string;
  parcelName: string;
  amountPaise: number;
  reference: string;
}

/**
 * Parcels remitted in full, to be recorded as paid in Shopify: one row a parcel, ever (a parcel already recorded, or
 * waiting, is left as it is). How many were new; the import then enqueues the shop's job once (`recordPaymentsLater`).
 */
export async function queueShopifyPayments(tx: Client, shop: string, payments: readonly PaymentToRecord[]): Promise<number> {
  if (payments.length === 0) return 0;
  return tx.$executeRaw`
    INSERT INTO "ShopifyCodPayment" (shop, "shipmentId", "orderGid", "parcelName", "amountPaise", reference, state)
    SELECT ${shop}, payment."shipmentId", payment."orderGid", payment."parcelName", payment."amountPaise", payment.reference, 'pending'
      FROM jsonb_to_recordset(${JSON.stringify(payments)}::jsonb) AS payment("shipmentId" int, "orderGid" text, "parcelName" text, "amountPaise" int, reference text)
    ON CONFLICT (shop, "shipmentId") DO NOTHING`;
}

/**
 * Parcels whose cash was remitted in full before Dakiya read them delivered (the courier's statement came before its
 * tracking did): the import judged their lines "not delivered" and queued no payment. Once delivered, each is recorded
 * as paid in Shopify as any parcel remitted in full is, unless the merchant turned that off; a parcel with a payment
 * already queued or recorded is left alone. `shipmentIds` narrows the look to parcels just read delivered; without it,
 * every such parcel of the shop (the payments job looks each time it runs, so one missed on delivery is found later).
 * The job is queued with the payments, unless the caller is the job.
 */
export async function queuePaymentsRemittedBeforeDelivery(shop: string, { shipmentIds, queueJob = true }: { shipmentIds?: readonly number[]; queueJob?: boolean } = {}): Promise<number> {
  if (shipmentIds?.length === 0) return 0;
  // Looked for first, with no transaction: after most tracking passes there is none.
  const narrowed = shipmentIds ? Prisma.sql`AND line."shipmentId" = ANY(${[...shipmentIds]}::int[])` : Prisma.empty;
  const parcels = await prisma.$queryRaw<{ id: number; orderGid: string; orderName: string; parcel: number; cashToCollectPaise: number; reference: string }[]>`
    SELECT parcel.id, parcel."orderGid", parcel."orderName", parcel.parcel, parcel."cashToCollectPaise", lines.reference
      FROM "Shipment" parcel
      JOIN LATERAL (
        SELECT sum(line."amountPaise") AS remitted, (array_agg(line.reference ORDER BY line.id DESC))[1] AS reference
          FROM "RemittanceLine" line
         WHERE line.shop = parcel.shop AND line."shipmentId" = parcel.id AND line.verdict <> ALL(${[...UNCOUNTED_VERDICTS]}::text[])
      ) lines ON true
     WHERE parcel.shop = ${shop}
       AND parcel.id IN (SELECT line."shipmentId" FROM "RemittanceLine" line WHERE line.shop = ${shop} AND line.verdict = 'not_delivered' ${narrowed})
       AND parcel.outcome = ${SHIPMENT_OUTCOME.DELIVERED}
       AND parcel."cashToCollectPaise" > 0
       AND lines.remitted >= parcel."cashToCollectPaise"
       AND NOT EXISTS (SELECT 1 FROM "ShopifyCodPayment" payment WHERE payment.shop = parcel.shop AND payment."shipmentId" = parcel.id)`;
  if (parcels.length === 0) return 0;
  const settings = await prisma.reconciliationSettings.findUnique({ where: { shop }, select: { markPaidInShopify: true } });
  if (settings && !settings.markPaidInShopify) return 0;
  // A parcel queued meanwhile by another caller is left as it is (one payment a parcel).
  return prisma.$transaction(async (tx) => {
    const queued = await queueShopifyPayments(
      tx,
      shop,
      parcels.map((parcel) => ({ shipmentId: parcel.id, orderGid: parcel.orderGid, parcelName: parcelName(parcel), amountPaise: parcel.cashToCollectPaise, reference: parcel.reference })),
    );
    if (queued > 0 && queueJob) await recordPaymentsLater(tx, shop);
    return queued;
  });
}

/** The shop's job that records the payments queued, in the import's transaction. */
export async function recordPaymentsLater(tx: Client, shop: string): Promise<void> {
  await enqueue("cod-shopify-payments", { shop }, { tx });
}

export type PaymentSettlement = { state: "recorded"; method: "mark_as_paid" | "manual_payment" } | { state: "already_paid" } | { state: "refused"; detail: string };

/** What became of a parcel's payment in Shopify. Only a payment still pending moves: a second worker's answer changes nothing. */
export async function settleShopifyPayment(shop: string, id: number, settlement: PaymentSettlement, at: Date): Promise<boolean> {
  const data = {
    state: settlement.state,
    method: settlement.state === "recorded" ? settlement.method : null,
    detail: settlement.state === "refused" ? settlement.detail.slice(0, 500) : null,
    settledAt: at,
  };
  return (await prisma.shopifyCodPayment.updateMany({ where: { id, shop, state: "pending" }, data })).count === 1;
}

/** A payment Shopify refused, sent again by the merchant: pending once more, with its job. */
export async function retryShopifyPayment(shop: string, id: number): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.shopifyCodPayment.updateMany({ where: { id, shop, state: "refused" }, data: { state: "pending", detail: null, settledAt: null } });
    if (count === 1) await enqueue("cod-shopify-payments", { shop }, { tx });
    return count === 1;
  });
}

// ─── Packing photos ───────────────────────────────────────────────────────────────────────────────────────────────

export interface PackingPhotoFile {
  contentType: "image/jpeg" | "image/png";
  bytes: Uint8Array;
  width: number;
  height: number;
}

/** The parcel's packing photo, replacing an earlier one. */
export async function savePackingPhoto(shop: string, shipmentId: number, photo: PackingPhotoFile, at: Date): Promise<void> {
  const data = { contentType: photo.contentType, bytes: Buffer.from(photo.bytes), width: photo.width, height: photo.height, uploadedAt: at };
  await prisma.packingPhoto.upsert({ where: { shop_shipmentId: { shop, shipmentId } }, create: { shop, shipmentId, ...data }, update: data });
}

export async function removePackingPhoto(shop: string, shipmentId: number): Promise<boolean> {
  return (await prisma.packingPhoto.deleteMany({ where: { shop, shipmentId } })).count > 0;
}

// ─── Erasure ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** shop/redact: everything of the shop's in these tables, in the erasure's transaction. */
export async function forgetShopReconciliation(tx: Client, shop: string): Promise<void> {
  await tx.remittanceLine.deleteMany({ where: { shop } });
  await tx.freightCharge.deleteMany({ where: { shop } });
  await tx.courierStatement.deleteMany({ where: { shop } });
  await tx.packingPhoto.deleteMany({ where: { shop } });
  await tx.shopifyCodPayment.deleteMany({ where: { shop } });
  await tx.reconciliationSettings.deleteMany({ where: { shop } });
}

/**
 * customers/redact, for these shipments of the shopper's orders: their packing photos go (a parcel's photo shows its
 * label, with the shopper's name and address). The remittances and charges stay: awbs, amounts and bank references
 * identify no one.
 */
export async function redactReconciliationOf(tx: Client, shop: string, shipmentIds: readonly number[]): Promise<void> {
  if (shipmentIds.length === 0) return;
  await tx.packingPhoto.deleteMany({ where: { shop, shipmentId: { in: [...shipmentIds] } } });
}
