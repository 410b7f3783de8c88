import bwipjs from "bwip-js/node";
import type { Pdf } from "./text-layout.server";

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What bwip-js's raw encoding gives for a linear symbol: the widths, in modules, of bar, space, bar, … */
interface LinearSymbol {
  sbs?: number[];
}

/**
 * Draws `text` as a Code 128 barcode filling the box: bwip-js encodes it (character set choice, check digit, stop
 * pattern) into the widths of its bars and spaces, and each bar becomes a filled rectangle, all in one path, so the
 * bars stay sharp at any print resolution and cost no image per label. bwip-js's raw encoding skips its renderer,
 * which re-validated its text options per symbol and cost six times the encoding. The quiet zones are the
 * caller's margins. Returns false when the text cannot be encoded (Code 128 takes printable ASCII), and the caller
 * prints the digits alone.
 */
export function drawCode128(doc: Pdf, text: string, box: Box): boolean {
  if (!/^[\x20-\x7e]{1,80}$/.test(text)) return false;
  let widths: number[];
  try {
    const [symbol] = bwipjs.raw({ bcid: "code128", text }) as LinearSymbol[];
    if (!symbol?.sbs?.length) return false;
    widths = symbol.sbs;
  } catch {
    return false;
  }
  const modules = widths.reduce((sum, width) => sum + width, 0);
  const moduleWidth = box.width / modules;
  let at = 0;
  widths.forEach((width, index) => {
    // Even places are bars, odd ones the spaces between them.
    if (index % 2 === 0) doc.rect(box.x + at * moduleWidth, box.y, width * moduleWidth, box.height);
    at += width;
  });
  doc.fill("black");
  return true;
}
