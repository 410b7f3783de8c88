import { code128, type DrawingContext } from "bwip-js/node";
import type { Pdf } from "./text-layout.server";

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Draws `text` as a Code 128 barcode filling the box: bwip-js encodes it and lays out the bars (with the quiet
 * zones left to the caller's margins); this drawing context hands its shapes to pdfkit as vector paths, so the
 * bars stay sharp at any print resolution and cost no image per label. Returns false when the text cannot be
 * encoded (Code 128 takes printable ASCII), and the caller prints the digits alone.
 */
export function drawCode128(doc: Pdf, text: string, box: Box): boolean {
  let scaleX = 1;
  let scaleY = 1;
  const at = ([x, y]: [number, number]): [number, number] => [box.x + x * scaleX, box.y + y * scaleY];
  const drawing: DrawingContext<void> = {
    scale: () => null,
    measure: () => ({ width: 0, ascent: 0, descent: 0 }),
    init(width, height) {
      scaleX = box.width / width;
      scaleY = box.height / height;
    },
    // bwip-js works in whole pixels: a bar of width w around x covers [x − ⌈w/2⌉, x − ⌈w/2⌉ + w), ends included.
    line(x0, y0, x1, y1, lineWidth) {
      const vertical = x0 === x1;
      const left = vertical ? x0 - Math.ceil(lineWidth / 2) : Math.min(x0, x1);
      const top = vertical ? Math.min(y0, y1) : y0 - Math.ceil(lineWidth / 2);
      const width = vertical ? lineWidth : Math.abs(x1 - x0) + 1;
      const height = vertical ? Math.abs(y1 - y0) + 1 : lineWidth;
      const [pdfX, pdfY] = at([left, top]);
      doc.rect(pdfX, pdfY, width * scaleX, height * scaleY).fill("black");
    },
    polygon(points) {
      doc.polygon(...points.map(at));
    },
    hexagon(points) {
      doc.polygon(...points.map(at));
    },
    ellipse() {},
    fill() {
      doc.fill("black");
    },
    text() {},
    end() {},
  };
  if (!/^[\x20-\x7e]{1,80}$/.test(text)) return false;
  try {
    code128({ bcid: "code128", text, scale: 1, height: 10, includetext: false }, drawing);
    return true;
  } catch {
    return false;
  }
}
