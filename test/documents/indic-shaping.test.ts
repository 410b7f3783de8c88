import { readFileSync } from "node:fs";
import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import { documentFonts, sfntOfWoff } from "~/documents/document-fonts.server";
import { collect } from "~/documents/label-pdf.server";
import { drawText, registerDocumentFonts } from "~/documents/text-layout.server";
import { pdfPages, pdfRaster } from "../support/pdf-reading";

/*
 * Indian scripts as they come out on paper, not only as extracted text: each page is rasterised by pdftoppm and
 * compared pixel for pixel. The fonts are unpacked from their WOFF files once per process (document-fonts.server.ts);
 * a page set with the unpacked fonts must look exactly like one set with the WOFF files themselves, and shaping must
 * be at work (a conjunct drawn whole differs from the same letters kept apart by a zero-width non-joiner).
 */

const SAMPLES = [
  { script: "Devanagari", text: "क्षत्रिय भवन, श्री गणेश मार्ग, नई दिल्ली", apart: "क्\u200Cषत्रिय भवन, श्री गणेश मार्ग, नई दिल्ली" },
  { script: "Tamil", text: "லக்ஷ்மி ஐயர், அண்ணா சாலை, சென்னை", apart: "லக்\u200Cஷ்மி ஐயர், அண்ணா சாலை, சென்னை" },
  { script: "Bengali", text: "গড়িয়াহাট রোড, বালিগঞ্জ, কলকাতা", apart: "গড়িয়াহাট রোড, বালিগন্\u200Cজ, কলকাতা" },
  { script: "Gujarati", text: "કિરણ પટેલ, શ્રી નગર, અમદાવાદ", apart: "કિરણ પટેલ, શ્\u200Cરી નગર, અમદાવાદ" },
];

async function page(text: string, fonts: "unpacked" | "woff"): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, margin: 0 });
  const done = collect(doc);
  if (fonts === "unpacked") registerDocumentFonts(doc);
  else {
    // The same faces, registered from the files as published.
    for (const font of documentFonts()) doc.registerFont(font.name, readFileSync(font.file));
  }
  doc.addPage({ size: [288, 60], margin: 0 });
  drawText(doc, text, { x: 6, y: 6, width: 276, height: 48, size: 12 });
  doc.end();
  return done;
}

describe("Indian scripts on the printed page", () => {
  it.each(SAMPLES)("sets $script exactly as the published WOFF fonts do, shaped, and extracts as typed", async ({ text, apart }) => {
    const unpacked = await page(text, "unpacked");
    expect(pdfPages(unpacked)[0]).toContain(text.split(",")[0]);
    const onPaper = pdfRaster(unpacked);
    const asPublished = pdfRaster(await page(text, "woff"));
    expect(onPaper.length).toBe(asPublished.length);
    expect(onPaper.findIndex((pixel, index) => pixel !== asPublished[index]), "the first pixel that differs").toBe(-1);
    // Something is drawn (not a blank page), and the conjunct is drawn as one: the letters kept apart look otherwise.
    expect(onPaper.filter((pixel) => pixel < 128).length).toBeGreaterThan(500);
    expect(onPaper.equals(pdfRaster(await page(apart, "unpacked")))).toBe(false);
  });

  it("unpacks a WOFF font into the same tables", () => {
    const woff = readFileSync(documentFonts().find((font) => font.name === "noto-sans-devanagari-devanagari-regular")!.file);
    const sfnt = sfntOfWoff(woff);
    expect(sfnt.readUInt32BE(0)).toBe(woff.readUInt32BE(4));
    expect(sfnt.readUInt16BE(4)).toBe(woff.readUInt16BE(12));
    // The unpacked size the WOFF header records (totalSfntSize).
    expect(sfnt.length).toBe(woff.readUInt32BE(16));
    expect(sfntOfWoff(sfnt)).toBe(sfnt);
  });
});
