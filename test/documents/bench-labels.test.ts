import { describe, expect, it } from "vitest";
import { LABEL_LAYOUTS } from "~/documents/label-layout";
import { renderLabels } from "~/documents/label-pdf.server";
import { DAY_ADDRESSES, dayLabel } from "../../bench/tools/day-of-labels";
import { pdfPages } from "../support/pdf-reading";

/**
 * Text compared without its blanks: pdftotext gives a wrapped line back in pieces, and an Indian script's words with a
 * blank before each comma (the shaped runs are written one by one).
 */
const flat = (text: string) => text.replace(/\s+/g, "");

describe("the bench's day of labels", () => {
  it("prints every address's street lines, as the labels the app prints from a booking's create-order body", async () => {
    // One label per address, on the bench's default layout: both layouts draw the same label facts.
    const pages = pdfPages(await renderLabels(DAY_ADDRESSES.map((_, index) => dayLabel(index)), LABEL_LAYOUTS.THERMAL_4X6));
    expect(pages).toHaveLength(DAY_ADDRESSES.length);
    DAY_ADDRESSES.forEach((address, index) => {
      expect(flat(pages[index]!)).toContain(flat(address.address_line_1));
      if (address.address_line_2) expect(flat(pages[index]!)).toContain(flat(address.address_line_2));
    });
  });
});
