import PDFDocument from "pdfkit";
import { DocumentRefusal, getDocumentSettings, parcelLabel } from "~/documents/documents.server";
import type { LabelFacts } from "~/documents/label-facts";
import { addLabelPage, collect } from "~/documents/label-pdf.server";
import { drawText, registerDocumentFonts, type Pdf } from "~/documents/text-layout.server";
import { formatPaise } from "~/money";
import type { CourierClient } from "~/shipping/client.server";
import { disputeFacts, packingPhotoOf, type DisputeFacts } from "./freight-audit.server";
import { kgOf } from "./freight-verdicts";

/**
 * A parcel's weight-dispute pack, one PDF for the aggregator's dispute form: what was declared and in which box, what
 * the quote charged for at booking, what the courier charged since, the label exactly as it prints, and the
 * merchant's packing photo. In English, as the aggregators read disputes; times in India time.
 */

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 42;
const WIDTH = PAGE.width - 2 * MARGIN;
const indiaDay = new Intl.DateTimeFormat("en-IN", { timeZone: "Asia/Kolkata", dateStyle: "medium" });

const kg = (grams: number | null) => (grams === null ? "not known" : `${kgOf(grams)} kg`);
const rupees = (paise: number | null) => (paise === null ? "not known" : formatPaise(paise));

/** The pack's facts as lines under headings: what the summary page prints. */
export function disputeSummary(facts: DisputeFacts, shopName: string, label: { printable: boolean; reason?: string }): { heading: string; lines: string[] }[] {
  const box = facts.box ? `${facts.box.length} × ${facts.box.breadth} × ${facts.box.height} cm` : "not known";
  return [
    {
      heading: "Parcel",
      lines: [
        `Seller: ${shopName}`,
        `Parcel: ${facts.parcelName}   AWB: ${facts.awb}`,
        `Courier: ${facts.courierName ?? "not known"}`,
        `Booked: ${indiaDay.format(facts.bookedAt)}${facts.deliveredAt ? `   Delivered: ${indiaDay.format(facts.deliveredAt)}` : ""}`,
      ],
    },
    {
      heading: "As packed and declared at booking",
      lines: [
        `Declared (dead) weight: ${kg(facts.declaredWeightGrams)}`,
        `Box: ${facts.packageName ?? "not recorded (booked before boxes were kept)"}, ${box}`,
        `Volumetric weight (L × B × H / 5000): ${kg(facts.volumetricWeightGrams)}`,
      ],
    },
    {
      heading: "As quoted at booking",
      lines: [
        `Chargeable weight: ${kg(facts.quote.weightGrams)}${facts.quote.estimated ? " (worked out from the declared weight and box: the quote's own figure was not kept for this booking)" : ""}`,
        `Freight: ${rupees(facts.quote.freightPaise)}   COD charge: ${rupees(facts.quote.codChargePaise)}   Total: ${rupees(facts.quote.totalPaise)}`,
        `Zone: ${facts.quote.zone ?? "not known"}   Delivery days: ${facts.quote.edd ?? "not known"}`,
      ],
    },
    {
      heading: "As charged by the courier",
      lines:
        facts.charges.length === 0
          ? ["No charge imported yet."]
          : facts.charges.map(
              (charge) =>
                `${charge.chargedOn ? `${indiaDay.format(charge.chargedOn)}: ` : ""}${kg(charge.chargedWeightGrams)} for ${formatPaise(charge.chargedPaise)}` +
                (charge.extraWeightGrams || charge.extraPaise ? ` — ${kg(charge.extraWeightGrams ?? 0)} and ${formatPaise(charge.extraPaise ?? 0)} above the quote` : " — as quoted"),
            ),
    },
    {
      heading: "Evidence attached",
      lines: [
        label.printable ? `The shipping label as printed${facts.labelPrintedAt ? ` (first printed ${indiaDay.format(facts.labelPrintedAt)})` : ""}: next page.` : `No label: ${label.reason ?? "the parcel has no label to print"}.`,
        facts.photo ? `Packing photo (${facts.photo.width} × ${facts.photo.height} px, taken into Dakiya ${indiaDay.format(facts.photo.uploadedAt)}): last page.` : "No packing photo was attached.",
      ],
    },
  ];
}

function drawSummary(doc: Pdf, facts: DisputeFacts, sections: { heading: string; lines: string[] }[]): void {
  doc.addPage({ size: "A4", margin: 0 });
  let y = MARGIN;
  y += drawText(doc, `Weight dispute: ${facts.parcelName}, AWB ${facts.awb}`, { x: MARGIN, y, width: WIDTH, height: 40, size: 18, minSize: 11, weight: "bold", maxLines: 2 }).height + 18;
  for (const section of sections) {
    y += drawText(doc, section.heading, { x: MARGIN, y, width: WIDTH, height: 18, size: 12, weight: "bold", maxLines: 1 }).height + 6;
    for (const line of section.lines) y += drawText(doc, line, { x: MARGIN, y, width: WIDTH, height: 44, size: 10.5, minSize: 8, maxLines: 3 }).height + 4;
    y += 12;
    doc.moveTo(MARGIN, y - 6).lineTo(MARGIN + WIDTH, y - 6).lineWidth(0.4).stroke("#999999");
  }
  drawText(doc, "Prepared by Dakiya from its booking records.", { x: MARGIN, y: PAGE.height - MARGIN - 12, width: WIDTH, height: 12, size: 8, color: "#555555", maxLines: 1 });
}

function drawPhoto(doc: Pdf, photo: { bytes: Uint8Array }): void {
  doc.addPage({ size: "A4", margin: 0 });
  drawText(doc, "Packing photo", { x: MARGIN, y: MARGIN, width: WIDTH, height: 18, size: 12, weight: "bold", maxLines: 1 });
  try {
    doc.image(Buffer.from(photo.bytes), MARGIN, MARGIN + 28, { fit: [WIDTH, PAGE.height - 2 * MARGIN - 28], align: "center" });
  } catch {
    // Checked as an image when uploaded; pdfkit reading it otherwise leaves the page saying so, not the pack broken.
    drawText(doc, "The photo could not be drawn into this PDF.", { x: MARGIN, y: MARGIN + 28, width: WIDTH, height: 14, size: 10, maxLines: 1 });
  }
}

/** The pack of one of the shop's parcels; null when it is not the shop's or not booked. */
export async function renderDisputePack(shop: string, shipmentId: number, options: { client?: CourierClient } = {}): Promise<{ pdf: Buffer; filename: string } | null> {
  const facts = await disputeFacts(shop, shipmentId);
  if (!facts) return null;
  const [{ shopName }, photo] = await Promise.all([getDocumentSettings(shop), facts.photo ? packingPhotoOf(shop, shipmentId) : null]);
  let label: LabelFacts | null = null;
  let labelRefusal: string | undefined;
  try {
    label = await parcelLabel(shop, shipmentId, options);
  } catch (error) {
    if (!(error instanceof DocumentRefusal)) throw error;
    labelRefusal = error.message.replace(/\.$/, "");
  }
  const doc = new PDFDocument({ autoFirstPage: false, margin: 0, info: { Title: `Weight dispute ${facts.parcelName} ${facts.awb}`, Creator: "Dakiya" } });
  const done = collect(doc);
  registerDocumentFonts(doc);
  drawSummary(doc, facts, disputeSummary(facts, shopName || shop.replace(/\.myshopify\.com$/, ""), { printable: label !== null, reason: labelRefusal }));
  if (label) addLabelPage(doc, label);
  if (photo) drawPhoto(doc, photo);
  doc.end();
  return { pdf: await done, filename: `weight-dispute-${facts.awb.replace(/[^A-Za-z0-9-]/g, "")}.pdf` };
}
