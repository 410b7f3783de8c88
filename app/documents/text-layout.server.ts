import { documentFonts, textRuns, type FontWeight, type TextRun } from "./document-fonts.server";

export type Pdf = PDFKit.PDFDocument;

/** Registers every document font on a new PDF; pdfkit embeds only those a page then uses. */
export function registerDocumentFonts(doc: Pdf): void {
  for (const font of documentFonts()) doc.registerFont(font.name, font.data);
}

export interface TextBox {
  x: number;
  y: number;
  width: number;
  /** The height the text may take; lines that do not fit are cut, the last one ending in "…". */
  height: number;
  /** The size to set it in, if it fits; it shrinks down to minSize before anything is cut. */
  size: number;
  minSize?: number;
  weight?: FontWeight;
  align?: "left" | "center" | "right";
  color?: string;
  maxLines?: number;
}

const LINE_HEIGHT = 1.18;
const ELLIPSIS = "…";

/** Sets text in a box: wrapped at spaces (inside a word between letters when it must), shrunk, then cut to fit. */
export function drawText(doc: Pdf, text: string, box: TextBox): { height: number } {
  const weight = box.weight ?? "regular";
  const clean = text.replace(/\s+/g, " ").trim();
  if (!clean) return { height: 0 };
  const minSize = Math.min(box.minSize ?? box.size, box.size);
  let size = box.size;
  let lines: string[];
  let maxLines: number;
  for (;;) {
    maxLines = Math.max(1, Math.min(box.maxLines ?? Infinity, Math.floor(box.height / (size * LINE_HEIGHT))));
    lines = wrap(doc, clean, box.width, size, weight);
    if (lines.length <= maxLines || size - 0.5 < minSize) break;
    size -= 0.5;
  }
  if (lines.length > maxLines) {
    lines = lines.slice(0, maxLines);
    lines[maxLines - 1] = withEllipsis(doc, lines[maxLines - 1]!, box.width, size, weight);
  }
  if (box.color) doc.fillColor(box.color);
  lines.forEach((line, index) => {
    const runs = textRuns(line, weight);
    const width = runsWidth(doc, runs, size);
    let x = box.x;
    if (box.align === "center") x += (box.width - width) / 2;
    else if (box.align === "right") x += box.width - width;
    const baseline = box.y + index * size * LINE_HEIGHT + size * 0.93;
    for (const run of runs) {
      // Glyphs of Indian scripts are stored in visual order (a vowel sign before its consonant): the run's own text
      // rides along as ActualText, so copying or extracting the address gives back what the shopper typed.
      const complex = isComplexScript(run.text);
      if (complex) doc.markContent("Span", { actual: run.text });
      doc.font(run.font).fontSize(size).text(run.text, x, baseline, { lineBreak: false, baseline: "alphabetic", ...featuresOf(run) });
      if (complex) doc.endMarkedContent();
      x += doc.widthOfString(run.text, featuresOf(run));
    }
  });
  if (box.color) doc.fillColor("black");
  return { height: lines.length * size * LINE_HEIGHT };
}

/** The width a line of text takes in the given size and weight. */
export function textWidth(doc: Pdf, text: string, size: number, weight: FontWeight = "regular"): number {
  return runsWidth(doc, textRuns(text, weight), size);
}

function runsWidth(doc: Pdf, runs: TextRun[], size: number): number {
  let width = 0;
  for (const run of runs) width += doc.font(run.font).fontSize(size).widthOfString(run.text, featuresOf(run));
  return width;
}

/** Text beyond Latin and the few signs a label uses (₹, —, …): set with its shaped glyphs reordered. */
function isComplexScript(text: string): boolean {
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (codePoint > 0x24f && codePoint !== 0x20b9 && codePoint !== 0x2014 && codePoint !== 0x2026) return true;
  }
  return false;
}

/** pdfkit hands `features` to fontkit's layout, which takes an object of features on and off; its typings say a list. */
function featuresOf(run: TextRun): PDFKit.Mixins.TextOptions {
  return run.features ? ({ features: run.features } as unknown as PDFKit.Mixins.TextOptions) : {};
}

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

function wrap(doc: Pdf, text: string, width: number, size: number, weight: FontWeight): string[] {
  const space = textWidth(doc, " ", size, weight);
  const lines: string[] = [];
  let line = "";
  let lineWidth = 0;
  for (const word of text.split(" ")) {
    const wordWidth = textWidth(doc, word, size, weight);
    if (line && lineWidth + space + wordWidth <= width) {
      line += ` ${word}`;
      lineWidth += space + wordWidth;
      continue;
    }
    if (line) lines.push(line);
    if (wordWidth <= width) {
      line = word;
      lineWidth = wordWidth;
      continue;
    }
    // A word wider than the box (a long house name, a run of digits) breaks between letters, never inside one.
    line = "";
    for (const { segment } of graphemes.segment(word)) {
      if (line && textWidth(doc, line + segment, size, weight) > width) {
        lines.push(line);
        line = segment;
      } else line += segment;
    }
    lineWidth = textWidth(doc, line, size, weight);
  }
  if (line) lines.push(line);
  return lines;
}

function withEllipsis(doc: Pdf, line: string, width: number, size: number, weight: FontWeight): string {
  const parts = Array.from(graphemes.segment(line), ({ segment }) => segment);
  while (parts.length > 0 && textWidth(doc, `${parts.join("").trimEnd()}${ELLIPSIS}`, size, weight) > width) parts.pop();
  return `${parts.join("").trimEnd()}${ELLIPSIS}`;
}
