import type { Shipment } from "@prisma/client";
import { SHIPMENT_STATUS } from "~/shipments/lifecycle";
import { parcelName } from "~/shipments/parcels";
import { recordLabelsPrinted, recordManifest } from "./document-changes.server";
import prisma from "~/db.server";
import { describeError } from "~/logging.server";
import type { CourierClient } from "~/shipping/client.server";
import { getConfig } from "~/config.server";
import { courierClientFor, courierCredentialsOf, getShopSettings } from "~/settings/shop-settings.server";
import { signDocumentLink } from "./document-links.server";
import { labelFacts, type LabelAddress, type LabelFacts, type LabelSource } from "./label-facts";
import { isLabelLayout, LABEL_LAYOUTS, MAX_SHIPMENTS_PER_DOCUMENT, type LabelLayout } from "./label-layout";
import { renderLabels } from "./label-pdf.server";
import { renderManifest } from "./manifest-pdf.server";

/** Why a document was not made, in words the merchant can act on, with the HTTP status that says so. */
export class DocumentRefusal extends Error {
  override name = "DocumentRefusal";
  constructor(
    readonly status: 400 | 404 | 409 | 503,
    message: string,
  ) {
    super(message);
  }
}

/** Which shipments a document is for: by Dakiya's shipment ids or by the Shopify orders they ship. */
export type ShipmentSelection = { shipmentIds: readonly number[] } | { orderGids: readonly string[] };

const BOOKED: readonly string[] = [SHIPMENT_STATUS.BOOKED_UNFULFILLED, SHIPMENT_STATUS.FULFILLED];

/**
 * A return is collected from the shopper, not handed over at the warehouse: the merchant prints nothing for it and no
 * manifest lists it. Its label goes to the shopper instead, through Shopify's reverse delivery (`returnLabelUrl`).
 */
export function isReturnShipment(shipment: Pick<Shipment, "direction">): boolean {
  return shipment.direction === "return";
}

/** A booked shipment's label as a signed link (a path on the app), or null when it has none to print. */
export function labelLink(shipment: Pick<Shipment, "id" | "shop" | "awb" | "status" | "direction">): string | null {
  if (!shipment.awb || !BOOKED.includes(shipment.status) || isReturnShipment(shipment)) return null;
  return signDocumentLink({ kind: "labels", shop: shipment.shop, shipmentIds: [shipment.id] });
}

/**
 * A booked return's label as an absolute signed link, for Shopify's reverse delivery (`labelInput.fileUrl`): the
 * shopper downloads it from their return in Shopify, or the courier's agent brings one to the pickup.
 */
export function returnLabelUrl(shipment: Pick<Shipment, "id" | "shop" | "awb" | "direction">): string | null {
  if (!shipment.awb || !isReturnShipment(shipment)) return null;
  return `${getConfig().SHOPIFY_APP_URL}${signDocumentLink({ kind: "return-label", shop: shipment.shop, shipmentId: shipment.id })}`;
}


/** The selected shipments, each one of this shop's, booked and not cancelled; anything else is refused, naming it. */
export async function printableShipments(shop: string, selection: ShipmentSelection, { skipUnprintable = false } = {}): Promise<Shipment[]> {
  const keys = "shipmentIds" in selection ? selection.shipmentIds : selection.orderGids;
  if (keys.length === 0) throw new DocumentRefusal(400, "Choose at least one shipment to print.");
  if (keys.length > MAX_SHIPMENTS_PER_DOCUMENT) {
    throw new DocumentRefusal(400, `One document takes at most ${MAX_SHIPMENTS_PER_DOCUMENT} shipments; ${keys.length} were chosen. Print them in parts.`);
  }
  const where = "shipmentIds" in selection ? { shop, id: { in: [...selection.shipmentIds] } } : { shop, orderGid: { in: [...selection.orderGids] } };
  const rows = await prisma.shipment.findMany({ where, orderBy: [{ orderGid: "asc" }, { parcel: "asc" }] });
  // A shipment by its id; an order by its parcels (a failed booking of one is no parcel to print while another stands).
  const byKey = new Map<number | string, Shipment[]>();
  for (const row of rows) {
    const key = "shipmentIds" in selection ? row.id : row.orderGid;
    byKey.set(key, [...(byKey.get(key) ?? []), row]);
  }
  const cancelledOrders = new Set(
    (await prisma.orderRecord.findMany({ where: { shop, orderGid: { in: rows.map((row) => row.orderGid) }, cancelledAt: { not: null } }, select: { orderGid: true } })).map((record) => record.orderGid),
  );
  const ordered: Shipment[] = [];
  const parcelsOf = (key: number | string): Shipment[] => {
    const found = byKey.get(key) ?? [];
    const standing = found.filter((row) => row.status !== SHIPMENT_STATUS.FAILED);
    return standing.length > 0 ? standing : found.slice(0, 1);
  };
  for (const shipment of [...new Set<number | string>(keys)].flatMap((key) => {
    const parcels = parcelsOf(key);
    // Another shop's shipment and one that does not exist answer alike: nothing is revealed.
    if (parcels.length === 0 && !skipUnprintable) throw new DocumentRefusal(404, "shipmentIds" in selection ? `There is no shipment ${key} in this shop.` : "That order has no shipment booked with Dakiya.");
    return parcels;
  })) {
    if (skipUnprintable && !isPrintable(shipment, cancelledOrders)) continue;
    const name = parcelName(shipment) || `Shipment ${shipment.id}`;
    if (isReturnShipment(shipment)) throw new DocumentRefusal(409, `${name} is a return: its label goes to the shopper with the return in Shopify (Return label), so there is nothing to print for it here.`);
    if (shipment.status === SHIPMENT_STATUS.CANCELLED || cancelledOrders.has(shipment.orderGid)) throw new DocumentRefusal(409, `${name} was cancelled: it has no label to print.`);
    if (!BOOKED.includes(shipment.status) || !shipment.awb) throw new DocumentRefusal(409, `${name} is not booked yet: book it first, then print its label.`);
    ordered.push(shipment);
  }
  if (ordered.length === 0) throw new DocumentRefusal(409, "None of the selected orders has a label to print: book them with Dakiya first.");
  if (ordered.length > MAX_SHIPMENTS_PER_DOCUMENT) {
    throw new DocumentRefusal(400, `One document takes at most ${MAX_SHIPMENTS_PER_DOCUMENT} labels; the orders chosen ship as ${ordered.length} parcels. Print them in parts.`);
  }
  return ordered;
}

function isPrintable(shipment: Shipment, cancelledOrders: ReadonlySet<string>): boolean {
  return BOOKED.includes(shipment.status) && Boolean(shipment.awb) && !isReturnShipment(shipment) && !cancelledOrders.has(shipment.orderGid);
}

/** A warehouse's address as the courier gives it; throws when the courier cannot. */
async function warehouseAddress(client: CourierClient, id: number): Promise<LabelAddress> {
  const warehouse = await client.getWarehouse(id);
  return {
    name: warehouse.company_name || warehouse.warehouse_name,
    address1: warehouse.address_line_1,
    address2: warehouse.address_line_2,
    city: warehouse.city,
    state: warehouse.state,
    pincode: String(warehouse.pincode),
    phone: warehouse.mobile,
  };
}

/** The pickup warehouses of a set of shipments, read once each; one the courier cannot give is named by its id. */
async function returnAddresses(client: CourierClient, warehouseIds: ReadonlySet<number>): Promise<Map<number, LabelAddress>> {
  const addresses = new Map<number, LabelAddress>();
  await Promise.all(
    [...warehouseIds].map(async (id) => {
      try {
        addresses.set(id, await warehouseAddress(client, id));
      } catch (error) {
        // The label still prints without the courier: the return address then names the warehouse by its id.
        console.warn(`documents: warehouse ${id} could not be read (${describeError(error)})`);
        addresses.set(id, { name: `Pickup warehouse ${id}`, address1: "", address2: "", city: "", state: "", pincode: "", phone: "" });
      }
    }),
  );
  return addresses;
}

/** What a label of this booked shipment (it has its awb) reads from Dakiya's rows, beside its warehouse's address. */
function labelSourceOf(shipment: Shipment, shopName: string, routingText: string | null, warehouse: LabelAddress): LabelSource {
  return {
    direction: isReturnShipment(shipment) ? "return" : "forward",
    shopName: shopName || shipment.shop.replace(/\.myshopify\.com$/, ""),
    orderName: parcelName(shipment),
    awb: shipment.awb!,
    courierName: shipment.courierName ?? "",
    routing: routingText,
    booked: { zone: shipment.zone, edd: shipment.edd },
    requestPayload: shipment.requestPayload,
    bookedAt: shipment.createdAt,
    returnTo: warehouse,
  };
}

function warehouseOf(shipment: Pick<Shipment, "warehouseId">, defaultWarehouseId: number | null): number {
  // A booking without a warehouse went to the account's primary one, which the shop's settings name (1 by default).
  return shipment.warehouseId ?? defaultWarehouseId ?? 1;
}

export interface DocumentSettings {
  labelLayout: LabelLayout;
  shopName: string;
}

export async function getDocumentSettings(shop: string): Promise<DocumentSettings> {
  const row = await prisma.shopDocumentSettings.findUnique({ where: { shop } });
  return { labelLayout: isLabelLayout(row?.labelLayout) ? row.labelLayout : LABEL_LAYOUTS.THERMAL_4X6, shopName: row?.shopName ?? "" };
}


export interface RenderedDocument {
  pdf: Buffer;
  filename: string;
}

/**
 * The labels of the selected shipments in one PDF, in the shop's layout. With `markPrinted` (the merchant's print:
 * Shopify's Print menu, a POST) each shipment's label is recorded as printed, the first time only; without it the
 * PDF is only looked at — a link opened by a mail scanner or a chat's previewer must not take labels off "Not
 * printed yet".
 */
export async function printLabels(
  shop: string,
  selection: ShipmentSelection,
  options: { now?: Date; layout?: LabelLayout; client?: CourierClient; skipUnprintable?: boolean; markPrinted?: boolean } = {},
): Promise<RenderedDocument> {
  const shipments = await printableShipments(shop, selection, { skipUnprintable: options.skipUnprintable });
  const documentSettings = await getDocumentSettings(shop);
  const labels = await labelsOf(shop, shipments, { client: options.client, shopName: documentSettings.shopName });
  const pdf = await renderLabels(labels, options.layout ?? documentSettings.labelLayout);
  if (options.markPrinted) await recordLabelsPrinted(shop, shipments.map((shipment) => shipment.id), options.now ?? new Date());
  const filename = shipments.length === 1 ? `label-${shipments[0]!.awb!.replace(/[^A-Za-z0-9-]/g, "")}.pdf` : `labels-${shipments.length}.pdf`;
  return { pdf, filename };
}

/** What the labels of these booked shipments show, as printLabels draws them. */
async function labelsOf(shop: string, shipments: readonly Shipment[], { client, shopName }: { client?: CourierClient; shopName: string }): Promise<LabelFacts[]> {
  const settings = await getShopSettings(shop);
  const addresses = await returnAddresses(client ?? courierClientFor(courierCredentialsOf(settings)), new Set(shipments.map((shipment) => warehouseOf(shipment, settings.defaultWarehouseId))));
  const routing = new Map(
    (await prisma.shipmentDocument.findMany({ where: { shop, shipmentId: { in: shipments.map((shipment) => shipment.id) } }, select: { shipmentId: true, routingText: true } })).map((row) => [row.shipmentId, row.routingText]),
  );
  return shipments.map((shipment) => labelFacts(labelSourceOf(shipment, shopName, routing.get(shipment.id) ?? null, addresses.get(warehouseOf(shipment, settings.defaultWarehouseId))!)));
}

/**
 * One booked parcel's label as it prints, for a document that shows it beside other things (a weight dispute's
 * pack); printing nothing and recording nothing. A parcel with no label to print is refused as printLabels refuses it.
 */
export async function parcelLabel(shop: string, shipmentId: number, options: { client?: CourierClient } = {}): Promise<LabelFacts> {
  const shipments = await printableShipments(shop, { shipmentIds: [shipmentId] });
  const { shopName } = await getDocumentSettings(shop);
  const [label] = await labelsOf(shop, shipments, { client: options.client, shopName });
  return label!;
}

/**
 * A return's label, from the shopper to the warehouse, for the link Shopify gives the shopper. Printing it records
 * nothing: it is the shopper's, not a step of the merchant's packing.
 */
export async function printReturnLabel(shop: string, shipmentId: number, options: { client?: CourierClient } = {}): Promise<RenderedDocument> {
  const shipment = await prisma.shipment.findFirst({ where: { shop, id: shipmentId } });
  if (!shipment || !isReturnShipment(shipment)) throw new DocumentRefusal(404, `There is no return ${shipmentId} in this shop.`);
  const name = shipment.orderName || `Return ${shipment.id}`;
  if (shipment.status === SHIPMENT_STATUS.CANCELLED) throw new DocumentRefusal(409, `The pickup of ${name} was cancelled: its label is no longer valid.`);
  if (!shipment.awb || shipment.status === SHIPMENT_STATUS.FAILED) throw new DocumentRefusal(409, `The pickup of ${name} is not booked yet: it has no label.`);
  const settings = await getShopSettings(shop);
  const documentSettings = await getDocumentSettings(shop);
  // The warehouse is where a return goes: without its address there is no label to give, only a wait.
  let warehouse: LabelAddress;
  try {
    warehouse = await warehouseAddress(options.client ?? courierClientFor(courierCredentialsOf(settings)), warehouseOf(shipment, settings.defaultWarehouseId));
  } catch (error) {
    console.warn(`documents: the warehouse of return label ${shipment.id} could not be read (${describeError(error)})`);
    throw new DocumentRefusal(503, "The courier service did not give the warehouse's address just now. Try the label again in a minute.");
  }
  const routing = await prisma.shipmentDocument.findUnique({ where: { shipmentId: shipment.id }, select: { routingText: true } });
  const label = labelFacts(labelSourceOf(shipment, documentSettings.shopName, routing?.routingText ?? null, warehouse));
  // One label a page, whatever the merchant's packing layout: the shopper prints it on whatever paper they have.
  const pdf = await renderLabels([label], LABEL_LAYOUTS.THERMAL_4X6);
  return { pdf, filename: `return-label-${shipment.awb.replace(/[^A-Za-z0-9-]/g, "")}.pdf` };
}


/** Which of these shipments have had their label printed, and when first. */
export async function labelsPrintedAt(shop: string, shipmentIds: readonly number[]): Promise<Map<number, Date>> {
  const rows = await prisma.shipmentDocument.findMany({ where: { shop, shipmentId: { in: [...shipmentIds] }, labelFirstPrintedAt: { not: null } }, select: { shipmentId: true, labelFirstPrintedAt: true } });
  return new Map(rows.map((row) => [row.shipmentId, row.labelFirstPrintedAt!]));
}

/** The ids of a shop's booked shipments whose label has not been printed yet (the "Not printed yet" filter). */
export async function shipmentsNotPrinted(shop: string, take = MAX_SHIPMENTS_PER_DOCUMENT): Promise<number[]> {
  const rows = await prisma.$queryRaw<Array<{ id: number }>>`
    SELECT s.id FROM "Shipment" s
    LEFT JOIN "ShipmentDocument" d ON d."shipmentId" = s.id
    WHERE s.shop = ${shop} AND s.status = ANY(${[...BOOKED]}::text[]) AND s.awb IS NOT NULL AND s.direction = 'forward' AND d."labelFirstPrintedAt" IS NULL
    ORDER BY s."createdAt" DESC LIMIT ${take}`;
  return rows.map((row) => row.id);
}

/** What waits for a pickup: booked shipments not yet in a manifest, by warehouse and courier. */
export async function pendingPickups(shop: string): Promise<Array<{ warehouseId: number; courierName: string; count: number }>> {
  const settings = await getShopSettings(shop);
  const rows = await prisma.$queryRaw<Array<{ warehouseId: number | null; courierName: string | null; count: bigint }>>`
    SELECT s."warehouseId", s."courierName", count(*) AS count FROM "Shipment" s
    LEFT JOIN "ManifestShipment" m ON m."shipmentId" = s.id
    LEFT JOIN "OrderRecord" o ON o.shop = s.shop AND o."orderGid" = s."orderGid"
    WHERE s.shop = ${shop} AND s.status = ANY(${[...BOOKED]}::text[]) AND s.awb IS NOT NULL AND s.direction = 'forward' AND m."shipmentId" IS NULL AND o."cancelledAt" IS NULL
    GROUP BY s."warehouseId", s."courierName"`;
  const groups = new Map<string, { warehouseId: number; courierName: string; count: number }>();
  for (const row of rows) {
    const warehouseId = warehouseOf(row, settings.defaultWarehouseId);
    const courierName = row.courierName ?? "";
    const key = `${warehouseId}\u0000${courierName}`;
    const group = groups.get(key) ?? { warehouseId, courierName, count: 0 };
    group.count += Number(row.count);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => a.warehouseId - b.warehouseId || a.courierName.localeCompare(b.courierName));
}

/**
 * Makes the manifest of one pickup: every booked shipment of this warehouse and courier not yet handed over, at
 * most one document's worth, marked handed over in the same transaction so the next manifest does not list them.
 * Two merchants pressing at once get one manifest each of different shipments, never the same one twice.
 */
export async function createManifest(shop: string, warehouseId: number, courierName: string, now = new Date()): Promise<{ id: number; number: number; count: number }> {
  const settings = await getShopSettings(shop);
  const primary = settings.defaultWarehouseId ?? 1;
  return prisma.$transaction(async (tx) => {
    // One manifest at a time per shop: its number and its shipments are decided together.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(4204, hashtext(${shop}))`;
    const candidates = await tx.$queryRaw<Array<{ id: number }>>`
      SELECT s.id FROM "Shipment" s
      LEFT JOIN "ManifestShipment" m ON m."shipmentId" = s.id
      LEFT JOIN "OrderRecord" o ON o.shop = s.shop AND o."orderGid" = s."orderGid"
      WHERE s.shop = ${shop} AND s.status = ANY(${[...BOOKED]}::text[]) AND s.awb IS NOT NULL AND s.direction = 'forward' AND m."shipmentId" IS NULL AND o."cancelledAt" IS NULL
        AND s."courierName" = ${courierName} AND (s."warehouseId" = ${warehouseId} OR (s."warehouseId" IS NULL AND ${warehouseId} = ${primary}))
      ORDER BY s."createdAt", s.id LIMIT ${MAX_SHIPMENTS_PER_DOCUMENT}`;
    if (candidates.length === 0) throw new DocumentRefusal(409, `Nothing is waiting for a ${courierName || "courier"} pickup at warehouse ${warehouseId}: every booked shipment there is in a manifest already.`);
    const manifest = await recordManifest(tx, { shop, warehouseId, courierName, shipmentIds: candidates.map((candidate) => candidate.id), at: now });
    return { id: manifest.id, number: manifest.number, count: candidates.length };
  });
}

/** A shop's manifests, newest first. */
export async function listManifests(shop: string, take = 20) {
  const manifests = await prisma.manifest.findMany({ where: { shop }, orderBy: { number: "desc" }, take, include: { _count: { select: { shipments: true } } } });
  return manifests.map((manifest) => ({ id: manifest.id, number: manifest.number, warehouseId: manifest.warehouseId, courierName: manifest.courierName, createdAt: manifest.createdAt, count: manifest._count.shipments }));
}

/** The PDF of a manifest, new or old: the same shipments every time it is printed. */
export async function printManifest(shop: string, manifestId: number, options: { client?: CourierClient } = {}): Promise<RenderedDocument> {
  const manifest = await prisma.manifest.findFirst({ where: { id: manifestId, shop }, include: { shipments: true } });
  if (!manifest) throw new DocumentRefusal(404, `There is no manifest ${manifestId} in this shop.`);
  const shipments = await prisma.shipment.findMany({ where: { shop, id: { in: manifest.shipments.map((entry) => entry.shipmentId) } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const settings = await getShopSettings(shop);
  const { shopName } = await getDocumentSettings(shop);
  const client = options.client ?? courierClientFor(courierCredentialsOf(settings));
  const warehouse = (await returnAddresses(client, new Set([manifest.warehouseId]))).get(manifest.warehouseId)!;
  const pdf = await renderManifest({
    number: manifest.number,
    shopName: shopName || shop.replace(/\.myshopify\.com$/, ""),
    courierName: manifest.courierName,
    warehouse,
    createdAt: manifest.createdAt,
    shipments: shipments.map((shipment) => ({ awb: shipment.awb ?? "", orderName: parcelName(shipment), packages: 1, codPaise: codToCollect(shipment.requestPayload) })),
  });
  return { pdf, filename: `manifest-${manifest.number}.pdf` };
}

/** What the courier's agent collects for a shipment: the order's total when it is COD, nothing when prepaid. */
function codToCollect(requestPayload: string): number {
  const facts = labelFacts({ shopName: "", orderName: "", awb: "", courierName: "", routing: null, requestPayload, bookedAt: new Date(0), returnTo: { name: "", address1: "", address2: "", city: "", state: "", pincode: "", phone: "" } });
  return facts.payment.mode === "cod" ? facts.payment.collectPaise : 0;
}
