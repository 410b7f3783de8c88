import type { Manifest, Prisma } from "@prisma/client";
import prisma from "~/db.server";
import type { Actor } from "~/shipments/lifecycle";
import { recordDocumentStep } from "~/shipments/shipment-changes.server";
import type { LabelLayout } from "./label-layout";

/**
 * The one module that writes the document tables (`ShipmentDocument`, `Manifest`, `ManifestShipment`,
 * `ShopDocumentSettings`): a label's routing and its first print, a pickup's manifest and the shipments it hands over,
 * the shop's label layout and name. A step a document takes with its shipments (printed, handed over) is written in
 * the same transaction as the shipments' history rows, through their owner. A test (`app/table-owners.test.ts`) fails
 * when any other file writes these tables.
 */

type Client = Prisma.TransactionClient;

/** Who prints labels and makes manifests: the merchant, through Dakiya (its pages, or Shopify's Print menu). */
const PRINTED_FROM_DAKIYA: Actor = { kind: "merchant", name: "Dakiya app" };

/** Keeps the courier's routing text from the booking's answer, for the label. */
export async function recordRoutingText(shop: string, shipmentId: number, routingText: string): Promise<void> {
  const text = routingText.slice(0, 1_000);
  // One statement, no transaction: it runs inside a booking, beside many others at busy times.
  await prisma.$executeRaw`
    INSERT INTO "ShipmentDocument" ("shipmentId", "shop", "routingText", "updatedAt") VALUES (${shipmentId}, ${shop}, ${text}, now())
    ON CONFLICT ("shipmentId") DO UPDATE SET "routingText" = EXCLUDED."routingText", "updatedAt" = now()`;
}

/** Each label's first print, recorded on its document and in its shipment's history; a reprint changes neither. */
export async function recordLabelsPrinted(shop: string, shipmentIds: readonly number[], at: Date): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const firstPrinted = await tx.$queryRaw<Array<{ shipmentId: number }>>`
      INSERT INTO "ShipmentDocument" ("shipmentId", "shop", "labelFirstPrintedAt", "updatedAt")
      SELECT id, ${shop}, ${at}, ${at} FROM unnest(${[...shipmentIds]}::int[]) AS id
      ON CONFLICT ("shipmentId") DO UPDATE SET "labelFirstPrintedAt" = ${at}, "updatedAt" = ${at}
      WHERE "ShipmentDocument"."labelFirstPrintedAt" IS NULL
      RETURNING "shipmentId"`;
    await recordDocumentStep(tx, shop, firstPrinted.map((row) => row.shipmentId), "label_printed", { actor: PRINTED_FROM_DAKIYA, at });
  });
}

/**
 * A pickup's manifest, numbered next in the shop (the caller holds the shop's manifest lock), listing these shipments,
 * each handed over in its history, in the caller's transaction.
 */
export async function recordManifest(tx: Client, { shop, warehouseId, courierName, shipmentIds, at }: { shop: string; warehouseId: number; courierName: string; shipmentIds: readonly number[]; at: Date }): Promise<Manifest> {
  const last = await tx.manifest.findFirst({ where: { shop }, orderBy: { number: "desc" }, select: { number: true } });
  const manifest = await tx.manifest.create({ data: { shop, number: (last?.number ?? 0) + 1, warehouseId, courierName, createdAt: at } });
  await tx.manifestShipment.createMany({ data: shipmentIds.map((shipmentId) => ({ manifestId: manifest.id, shipmentId, shop })) });
  await recordDocumentStep(tx, shop, shipmentIds, "handed_over", { actor: PRINTED_FROM_DAKIYA, at }, { key: "activity.stored.manifest", values: { number: manifest.number } });
  return manifest;
}

export async function saveLabelLayout(shop: string, labelLayout: LabelLayout, tx: Client = prisma): Promise<void> {
  await tx.shopDocumentSettings.upsert({ where: { shop }, create: { shop, labelLayout }, update: { labelLayout } });
}

/** The shop's name as Shopify last gave it, kept for documents opened by a signed link (no Shopify session). */
export async function rememberShopName(shop: string, shopName: string): Promise<void> {
  const name = shopName.slice(0, 200);
  await prisma.shopDocumentSettings.upsert({ where: { shop }, create: { shop, shopName: name }, update: { shopName: name } });
}

/** shop/redact, in the caller's transaction: the shop's documents, manifests and document settings. */
export async function eraseShopDocuments(tx: Client, shop: string): Promise<void> {
  await tx.shipmentDocument.deleteMany({ where: { shop } });
  await tx.manifestShipment.deleteMany({ where: { shop } });
  await tx.manifest.deleteMany({ where: { shop } });
  await tx.shopDocumentSettings.deleteMany({ where: { shop } });
}
