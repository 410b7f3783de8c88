import PDFDocument from "pdfkit";
import { formatPaise } from "~/money";
import { drawCode128 } from "./barcode.server";
import type { LabelFacts } from "./label-facts";
import { LABEL_LAYOUTS, type LabelLayout } from "./label-layout";
import { drawText, registerDocumentFonts, type Pdf } from "./text-layout.server";

/** 4 × 6 inches in PDF points: the thermal label most Indian couriers' agents and merchants' printers take. */
const LABEL_WIDTH = 288;
const LABEL_HEIGHT = 432;
const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 10;
const INNER = LABEL_WIDTH - 2 * MARGIN;

/**
 * Lets the process answer other requests between a document's pages: a day's 500 labels are about a second of
 * drawing, which must not be one block that holds up every other request the process serves.
 */
export const letOtherWorkRun = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Renders shipping labels into one PDF: a 4 × 6 in page each, or four to an A4 page. */
export async function renderLabels(labels: readonly LabelFacts[], layout: LabelLayout = LABEL_LAYOUTS.THERMAL_4X6): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, margin: 0, info: { Title: labels.length === 1 ? `Shipping label ${labels[0]!.awb}` : `${labels.length} shipping labels`, Creator: "Dakiya" } });
  const done = collect(doc);
  registerDocumentFonts(doc);
  if (layout === LABEL_LAYOUTS.A4_FOUR_UP) {
    // Four labels to a sheet, each scaled just enough to fit a quarter (A4's half height is 421 pt, not 432).
    const cell = { width: A4.width / 2, height: A4.height / 2 };
    const scale = Math.min(cell.width / LABEL_WIDTH, cell.height / LABEL_HEIGHT);
    for (const [index, label] of labels.entries()) {
      await letOtherWorkRun();
      const slot = index % 4;
      if (slot === 0) {
        doc.addPage({ size: "A4", margin: 0 });
        doc.save().dash(4, { space: 4 }).lineWidth(0.5).strokeColor("#999999");
        doc.moveTo(cell.width, 0).lineTo(cell.width, A4.height).moveTo(0, cell.height).lineTo(A4.width, cell.height).stroke();
        doc.undash().restore();
      }
      const x = (slot % 2) * cell.width + (cell.width - LABEL_WIDTH * scale) / 2;
      const y = Math.floor(slot / 2) * cell.height + (cell.height - LABEL_HEIGHT * scale) / 2;
      doc.save().translate(x, y).scale(scale);
      drawLabel(doc, label);
      doc.restore();
    }
  } else {
    for (const label of labels) {
      await letOtherWorkRun();
      doc.addPage({ size: [LABEL_WIDTH, LABEL_HEIGHT], margin: 0 });
      drawLabel(doc, label);
    }
  }
  if (labels.length === 0) doc.addPage({ size: [LABEL_WIDTH, LABEL_HEIGHT], margin: 0 });
  doc.end();
  return done;
}

/** A 4 × 6 in page with the label on it, added to a document of other pages (a weight dispute's pack). */
export function addLabelPage(doc: Pdf, label: LabelFacts): void {
  doc.addPage({ size: [LABEL_WIDTH, LABEL_HEIGHT], margin: 0 });
  drawLabel(doc, label);
}

export function collect(doc: Pdf): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
}

function rule(doc: Pdf, y: number): void {
  doc.moveTo(MARGIN, y).lineTo(LABEL_WIDTH - MARGIN, y).lineWidth(0.8).stroke("black");
}

/** One label, drawn from the top left of the current coordinate system, top to bottom in the order an agent reads. */
function drawLabel(doc: Pdf, label: LabelFacts): void {
  const x = MARGIN;
  doc.rect(4, 4, LABEL_WIDTH - 8, LABEL_HEIGHT - 8).lineWidth(1).stroke("black");

  // The courier and the shop the parcel comes from.
  drawText(doc, label.courierName || "Courier", { x, y: 10, width: INNER * 0.6, height: 20, size: 15, minSize: 9, weight: "bold", maxLines: 1 });
  drawText(doc, label.shopName, { x: x + INNER * 0.6, y: 10, width: INNER * 0.4, height: 10, size: 8, minSize: 6, weight: "bold", align: "right", maxLines: 1 });
  drawText(doc, `Booked ${label.bookedOn}`, { x: x + INNER * 0.6, y: 21, width: INNER * 0.4, height: 9, size: 7, align: "right", maxLines: 1 });
  rule(doc, 33);

  // The awb: bars for the scanner, digits for the eye.
  drawCode128(doc, label.awb, { x: x + 14, y: 38, width: INNER - 28, height: 50 });
  drawText(doc, label.awb, { x, y: 91, width: INNER, height: 16, size: 13, minSize: 8, weight: "bold", align: "center", maxLines: 1 });
  rule(doc, 109);

  // The courier's routing text.
  drawText(doc, label.routing || "Routing: see the courier's pickup scan", { x, y: 112, width: INNER, height: 29, size: 7.5, minSize: 5.5 });
  rule(doc, 143);

  // Ship to.
  const isReturn = label.direction === "return";
  drawText(doc, isReturn ? "RETURN — SHIP TO THE SELLER" : "SHIP TO", { x, y: 146, width: INNER, height: 9, size: 7, weight: "bold", maxLines: 1 });
  const to = label.shipTo;
  drawText(doc, [to.name, to.company].filter(Boolean).join(", "), { x, y: 155, width: INNER, height: 15, size: 12, minSize: 8, weight: "bold", maxLines: 1 });
  const address = [to.address1, to.address2, [to.city, to.state].filter(Boolean).join(", ")].filter(Boolean).join(", ");
  drawText(doc, address, { x, y: 171, width: INNER, height: 52, size: 9.5, minSize: 6 });
  drawText(doc, `PIN ${to.pincode}`, { x, y: 224, width: INNER * 0.55, height: 26, size: 22, minSize: 14, weight: "bold", maxLines: 1 });
  drawText(doc, `Ph ${to.phone}`, { x: x + INNER * 0.55, y: 231, width: INNER * 0.45, height: 14, size: 11, minSize: 8, weight: "bold", align: "right", maxLines: 1 });
  rule(doc, 252);

  // What the agent collects: nothing, or exactly this much.
  if (label.payment.mode === "cod") {
    doc.rect(x, 256, INNER, 30).fill("black");
    drawText(doc, `COD — collect ${formatPaise(label.payment.collectPaise)}`, { x: x + 4, y: 262, width: INNER - 8, height: 20, size: 16, minSize: 10, weight: "bold", align: "center", color: "white", maxLines: 1 });
  } else {
    doc.rect(x + 1, 257, INNER - 2, 28).lineWidth(2).stroke("black");
    drawText(doc, isReturn ? "RETURN — do not collect" : "PREPAID — do not collect", { x: x + 4, y: 262, width: INNER - 8, height: 20, size: 15, minSize: 10, weight: "bold", align: "center", maxLines: 1 });
  }

  // The order, as a barcode too, beside the parcel's weight, size and e-waybill.
  const half = INNER * 0.52;
  const encoded = drawCode128(doc, label.orderName, { x, y: 292, width: Math.min(half, 40 + label.orderName.length * 11), height: 26 });
  drawText(doc, `Order ${label.orderName}`, { x, y: encoded ? 320 : 300, width: half, height: 12, size: 9, minSize: 6, weight: "bold", maxLines: 1 });
  const { length, breadth, height } = label.dimensionsCm;
  const parcel = [
    `Weight ${label.weightKg.toLocaleString("en-IN", { maximumFractionDigits: 3 })} kg`,
    `Size ${length} × ${breadth} × ${height} cm`,
    label.ewaybill ? `E-waybill ${label.ewaybill}` : "",
  ].filter(Boolean);
  parcel.forEach((line, index) => {
    drawText(doc, line, { x: x + half + 6, y: 293 + index * 12, width: INNER - half - 6, height: 11, size: 8.5, minSize: 6, weight: index === 2 ? "bold" : "regular", maxLines: 1 });
  });
  rule(doc, 334);

  // The items, as many as fit, then how many more.
  drawText(doc, "ITEMS", { x, y: 337, width: INNER, height: 9, size: 6.5, weight: "bold", maxLines: 1 });
  const rowHeight = 10;
  const rows = 4;
  const shown = label.items.length > rows ? label.items.slice(0, rows - 1) : label.items;
  shown.forEach((item, index) => {
    const line = `${item.name} × ${item.quantity}${item.sku ? `  ·  SKU ${item.sku}` : ""}`;
    drawText(doc, line, { x, y: 346 + index * rowHeight, width: INNER, height: rowHeight, size: 7.5, minSize: 6, maxLines: 1 });
  });
  if (shown.length < label.items.length) {
    drawText(doc, `+ ${label.items.length - shown.length} more`, { x, y: 346 + shown.length * rowHeight, width: INNER, height: rowHeight, size: 7.5, weight: "bold", maxLines: 1 });
  }
  rule(doc, 388);

  // Where the parcel goes back to (the pickup warehouse), or, on a return, where the courier collects it.
  const back = label.returnTo;
  drawText(doc, isReturn ? "PICKUP FROM" : "RETURN TO", { x, y: 391, width: INNER, height: 9, size: 6.5, weight: "bold", maxLines: 1 });
  const returnAddress = [back.name, back.address1, back.address2, [back.city, back.state].filter(Boolean).join(", "), back.pincode ? `PIN ${back.pincode}` : "", back.phone ? `Ph ${back.phone}` : ""]
    .filter(Boolean)
    .join(", ");
  drawText(doc, returnAddress, { x, y: 400, width: INNER, height: 26, size: 7.5, minSize: 5.5 });
}
