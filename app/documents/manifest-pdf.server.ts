import PDFDocument from "pdfkit";
import { formatPaise } from "~/money";
import { drawCode128 } from "./barcode.server";
import type { LabelAddress } from "./label-facts";
import { collect, letOtherWorkRun } from "./label-pdf.server";
import { drawText, registerDocumentFonts, type Pdf } from "./text-layout.server";

export interface ManifestFacts {
  number: number;
  shopName: string;
  courierName: string;
  warehouse: LabelAddress;
  /** When the manifest was made, shown in India time. */
  createdAt: Date;
  shipments: Array<{ awb: string; orderName: string; packages: number; codPaise: number }>;
}

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 36;
const WIDTH = PAGE.width - 2 * MARGIN;
const ROW = 44;
const COLUMNS = { index: 0, awb: 26, order: 266, packages: 366, cod: 426 } as const;

const indiaTime = new Intl.DateTimeFormat("en-IN", { timeZone: "Asia/Kolkata", dateStyle: "medium", timeStyle: "short" });

/** The paper a courier's pickup agent signs: every shipment handed over, with its awb barcode, and the totals. */
export async function renderManifest(manifest: ManifestFacts): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, margin: 0, info: { Title: `Pickup manifest ${manifest.number}`, Creator: "Dakiya" } });
  const done = collect(doc);
  registerDocumentFonts(doc);
  const codTotal = manifest.shipments.reduce((sum, shipment) => sum + shipment.codPaise, 0);
  const count = manifest.shipments.length;

  let y = header(doc, manifest, count, codTotal);
  for (const [index, shipment] of manifest.shipments.entries()) {
    // A row at a time between other requests: a 500-shipment manifest is 500 barcodes.
    await letOtherWorkRun();
    if (y + ROW > PAGE.height - MARGIN) y = header(doc, manifest, count, codTotal);
    drawText(doc, String(index + 1), { x: MARGIN + COLUMNS.index, y: y + 12, width: 24, height: 12, size: 9 });
    drawCode128(doc, shipment.awb, { x: MARGIN + COLUMNS.awb, y: y + 3, width: 200, height: 24 });
    drawText(doc, shipment.awb, { x: MARGIN + COLUMNS.awb, y: y + 29, width: 220, height: 11, size: 8.5, weight: "bold", maxLines: 1, minSize: 6 });
    drawText(doc, shipment.orderName, { x: MARGIN + COLUMNS.order, y: y + 12, width: 95, height: 12, size: 9.5, maxLines: 1, minSize: 6 });
    drawText(doc, String(shipment.packages), { x: MARGIN + COLUMNS.packages, y: y + 12, width: 50, height: 12, size: 9.5, maxLines: 1 });
    drawText(doc, shipment.codPaise > 0 ? formatPaise(shipment.codPaise) : "Prepaid", { x: MARGIN + COLUMNS.cod, y: y + 12, width: WIDTH - COLUMNS.cod, height: 12, size: 9.5, weight: shipment.codPaise > 0 ? "bold" : "regular", align: "right", maxLines: 1 });
    y += ROW;
    doc.moveTo(MARGIN, y).lineTo(MARGIN + WIDTH, y).lineWidth(0.4).stroke("#888888");
  }

  // Totals and the two signatures: on the last page, on a fresh one when they do not fit.
  if (y + 150 > PAGE.height - MARGIN) y = header(doc, manifest, count, codTotal);
  y += 12;
  drawText(doc, `${count} ${count === 1 ? "shipment" : "shipments"}, ${count} ${count === 1 ? "package" : "packages"}; COD to collect ${formatPaise(codTotal)}`, { x: MARGIN, y, width: WIDTH, height: 16, size: 12, weight: "bold", maxLines: 1, minSize: 8 });
  y += 60;
  const half = (WIDTH - 30) / 2;
  for (const [index, who] of ["Handed over by (merchant)", "Received by (courier's pickup agent)"].entries()) {
    const x = MARGIN + index * (half + 30);
    doc.moveTo(x, y).lineTo(x + half, y).lineWidth(0.8).stroke("black");
    drawText(doc, who, { x, y: y + 4, width: half, height: 12, size: 9, weight: "bold", maxLines: 1 });
    drawText(doc, "Name, signature, date and time", { x, y: y + 17, width: half, height: 11, size: 8, maxLines: 1 });
  }
  doc.end();
  return done;
}

function header(doc: Pdf, manifest: ManifestFacts, count: number, codTotal: number): number {
  doc.addPage({ size: "A4", margin: 0 });
  drawText(doc, `Pickup manifest #${manifest.number}`, { x: MARGIN, y: MARGIN, width: WIDTH * 0.6, height: 24, size: 18, weight: "bold", maxLines: 1, minSize: 10 });
  drawText(doc, manifest.courierName, { x: MARGIN + WIDTH * 0.6, y: MARGIN, width: WIDTH * 0.4, height: 24, size: 16, weight: "bold", align: "right", maxLines: 1, minSize: 9 });
  const w = manifest.warehouse;
  const from = [manifest.shopName, w.name, w.address1, w.address2, [w.city, w.state].filter(Boolean).join(", "), w.pincode ? `PIN ${w.pincode}` : "", w.phone ? `Ph ${w.phone}` : ""].filter(Boolean).join(", ");
  drawText(doc, `Pickup from: ${from}`, { x: MARGIN, y: MARGIN + 28, width: WIDTH, height: 24, size: 9.5, minSize: 7 });
  drawText(doc, `Made ${indiaTime.format(manifest.createdAt)} · ${count} ${count === 1 ? "shipment" : "shipments"} · COD total ${formatPaise(codTotal)}`, { x: MARGIN, y: MARGIN + 54, width: WIDTH, height: 12, size: 9.5, maxLines: 1, minSize: 7 });
  const top = MARGIN + 74;
  for (const [key, title] of [["index", "#"], ["awb", "AWB"], ["order", "Order"], ["packages", "Packages"], ["cod", "COD to collect"]] as const) {
    drawText(doc, title, { x: MARGIN + COLUMNS[key], y: top, width: key === "cod" ? WIDTH - COLUMNS.cod : 90, height: 12, size: 8.5, weight: "bold", align: key === "cod" ? "right" : "left", maxLines: 1 });
  }
  doc.moveTo(MARGIN, top + 14).lineTo(MARGIN + WIDTH, top + 14).lineWidth(1).stroke("black");
  return top + 16;
}
