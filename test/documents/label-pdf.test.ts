import { describe, expect, it } from "vitest";
import { labelFacts, type LabelSource } from "~/documents/label-facts";
import { LABEL_LAYOUTS } from "~/documents/label-layout";
import { renderLabels } from "~/documents/label-pdf.server";
import { pdfBarcodes, pdfFonts, pdfPageCount, pdfPages } from "../support/pdf-reading";

const warehouse = { name: "Chai Point Warehouse", address1: "Unit 4, Andheri East Industrial Estate", address2: "", city: "Mumbai", state: "Maharashtra", pincode: "400069", phone: "9876543210" };

function label(overrides: Partial<LabelSource> = {}, body: Record<string, unknown> = {}) {
  return labelFacts({
    shopName: "Chai Point Store",
    orderName: "#1001",
    awb: "15616928599560",
    courierName: "Delhivery",
    routing: "Mumbai (400069) to New Delhi (110001), zone D, 0.5 kg chargeable",
    bookedAt: new Date("2026-11-25T06:00:00Z"),
    returnTo: warehouse,
    requestPayload: JSON.stringify({
      name: "राजेश कुमार",
      mobile: "9812345678",
      address_line_1: "क्षत्रिय भवन, श्री गणेश मार्ग",
      address_line_2: "गांधी नगर",
      city: "नई दिल्ली",
      state: "Delhi",
      pincode: 110001,
      products: [{ product_name: "Masala Chai 250g", quantity: 2, sku: "CHAI-250" }],
      package_length: 20,
      package_breadth: 15,
      package_height: 10,
      package_weight: 0.5,
      payment_mode: "cod",
      total_amount: 1299,
      ...body,
    }),
    ...overrides,
  });
}

describe("shipping labels", () => {
  it("prints a COD label a person reads and a scanner decodes: awb, PIN, amount to collect, the address in Devanagari", async () => {
    const pdf = await renderLabels([label()]);
    const [page] = pdfPages(pdf);
    expect(page).toContain("15616928599560");
    expect(page).toContain("PIN 110001");
    expect(page).toContain("COD — collect ₹1,299.00");
    // Conjuncts (क्ष, त्र, श्र) and a vowel sign drawn before its consonant (ि) come back as typed.
    expect(page).toContain("क्षत्रिय भवन");
    expect(page).toContain("राजेश कुमार");
    expect(page).toContain("Delhivery");
    expect(page).toContain("Mumbai (400069) to New Delhi (110001)");
    expect(page).toContain("Chai Point Warehouse");
    expect(page).toContain("Masala Chai 250g × 2");
    expect(pdfFonts(pdf).some((font) => /NotoSansDevanagari/i.test(font))).toBe(true);
    // The awb's barcode, alone in its band, decodes to exactly the awb; the page's other one is the order number.
    expect(pdfBarcodes(pdf, { region: { x: 10, y: 34, width: 268, height: 58 } })).toEqual([["15616928599560"]]);
    expect(pdfBarcodes(pdf)[0]!.sort()).toEqual(["#1001", "15616928599560"]);
  });

  it("says PREPAID — do not collect, and sets Tamil, Bengali and Gujarati in their own fonts", async () => {
    const pdf = await renderLabels([
      label({ awb: "D73731648", orderName: "#1002" }, { name: "முருகன் சுப்பிரமணியம்", address_line_1: "அண்ணா சாலை", address_line_2: "শ্রী অরবিন্দ সরণি, ગાંધીનગર", city: "சென்னை", pincode: 600018, payment_mode: "prepaid" }),
    ]);
    const [page] = pdfPages(pdf);
    expect(page).toContain("PREPAID — do not collect");
    expect(page).not.toContain("COD");
    expect(page).toContain("முருகன் சுப்பிரமணியம்");
    expect(page).toContain("শ্রী অরবিন্দ সরণি");
    expect(page).toContain("ગાંધીનગર");
    const fonts = pdfFonts(pdf).join(" ");
    expect(fonts).toMatch(/NotoSansTamil/i);
    expect(fonts).toMatch(/NotoSansBengali/i);
    expect(fonts).toMatch(/NotoSansGujarati/i);
    expect(pdfBarcodes(pdf)[0]).toContain("D73731648");
  });

  it("fits an order whose text overflows on its one page: long names and address, ten items cut with + N more", async () => {
    const pdf = await renderLabels([
      label(
        { awb: "143337905549130", orderName: "#1003" },
        {
          name: "Sourav Bandyopadhyay ".repeat(12),
          address_line_1: "Flat 1203, Tower B, An Extremely Long Residential Complex Name, Near The Big Temple, ".repeat(6),
          address_line_2: "শ্রী অরবিন্দ সরণি ".repeat(10),
          pincode: 700001,
          ewaybill_no: "EWB123456789012",
          total_amount: 54999.5,
          products: Array.from({ length: 10 }, (_, index) => ({ product_name: `Hand-block printed cotton kurta, a very long product title ${index + 1}`, quantity: index + 1, sku: `KURTA-${index}` })),
        },
      ),
    ]);
    expect(pdfPageCount(pdf)).toBe(1);
    const [page] = pdfPages(pdf);
    expect(page).toContain("PIN 700001");
    expect(page).toContain("COD — collect ₹54,999.50");
    expect(page).toContain("E-waybill EWB123456789012");
    expect(page).toContain("+ 7 more");
    expect(page).toContain("…");
    expect(pdfBarcodes(pdf, { region: { x: 10, y: 34, width: 268, height: 58 } })).toEqual([["143337905549130"]]);
  });

  it("puts four labels on each A4 page, every awb still scannable", async () => {
    const awbs = ["15616928599560", "D73731648", "143337905549130", "SF1234567890", "77001122334"];
    const pdf = await renderLabels(awbs.map((awb, index) => label({ awb, orderName: `#10${index + 10}` })), LABEL_LAYOUTS.A4_FOUR_UP);
    expect(pdfPageCount(pdf)).toBe(2);
    const found = pdfBarcodes(pdf, { dpi: 300 });
    expect(found[0]).toEqual(expect.arrayContaining(awbs.slice(0, 4)));
    expect(found[1]).toEqual(expect.arrayContaining([awbs[4]]));
    expect(found.flat().filter((code) => !code.startsWith("#")).sort()).toEqual([...awbs].sort());
  });

  it("draws a day's 500 labels a page at a time, so the process answers other requests meanwhile", async () => {
    const labels = Array.from({ length: 500 }, (_, index) => label({ orderName: `#${2_000 + index}`, awb: String(15_616_928_599_560 + index) }));
    // Another request, every 2 ms: how often it got its turn while the labels were drawn. Counted rather than timed,
    // so a busy machine (which stretches every stretch of work alike) does not change the answer.
    let answered = 0;
    const probe = setInterval(() => (answered += 1), 2);
    const pdf = await renderLabels(labels);
    clearInterval(probe);
    expect(pdfPageCount(pdf)).toBe(500);
    // Drawn all at once, the other request would get its turn once at most; a page at a time, it gets many turns.
    expect(answered).toBeGreaterThanOrEqual(50);
  }, 60_000);
});
