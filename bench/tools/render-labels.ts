import { performance } from "node:perf_hooks";
import PDFDocument from "pdfkit";
import { labelFacts } from "../../app/documents/label-facts";
import { LABEL_LAYOUTS } from "../../app/documents/label-layout";
import { collect, renderLabels } from "../../app/documents/label-pdf.server";

/**
 * Renders one PDF of N shipping labels (default 500) in this process and prints, as one JSON line, the time it took,
 * the process's peak resident memory above what it held before, and the floor measured beside it: pdfkit writing
 * the same number of empty 4 × 6 in pages. The labels vary as a day's do: COD and prepaid, Latin addresses and
 * addresses in Devanagari, Tamil, Bengali and Gujarati, long names, up to six items. A fresh process per run,
 * so memory is this render's alone (bench/measurements/documents.ts runs it; `node --cpu-prof` profiles it).
 *
 *   npx tsx bench/tools/render-labels.ts [count] [--layout a4]
 */
const count = Math.max(1, Math.min(5_000, Number(process.argv[2] ?? 500) || 500));
const layout = process.argv.includes("--layout") && process.argv[process.argv.indexOf("--layout") + 1] === "a4" ? LABEL_LAYOUTS.A4_FOUR_UP : LABEL_LAYOUTS.THERMAL_4X6;

const ADDRESSES = [
  { name: "Aditi Rao", address1: "12, 3rd Cross, Indiranagar", address2: "Near the metro station", city: "Bengaluru", state: "Karnataka", pincode: 560038 },
  { name: "राजेश कुमार", address1: "क्षत्रिय भवन, श्री गणेश मार्ग", address2: "गांधी नगर", city: "नई दिल्ली", state: "Delhi", pincode: 110001 },
  { name: "லக்ஷ்மி ஐயர்", address1: "12, அண்ணா சாலை", address2: "அடையாறு", city: "சென்னை", state: "Tamil Nadu", pincode: 600020 },
  { name: "নিশা বসু", address1: "গড়িয়াহাট রোড, বালিগঞ্জ", address2: "", city: "কলকাতা", state: "West Bengal", pincode: 700019 },
  { name: "Sri Venkateswara Handloom and Handicrafts Emporium Private Limited, Purchase Department", address1: "Plot 14-B, Second Floor, Above the State Bank ATM, Opposite the Old Bus Stand, Beside the Temple Road", address2: "Banjara Hills Road No. 10, Landmark: the blue gate with the mango tree", city: "Hyderabad", state: "Telangana", pincode: 500034 },
  { name: "કિરણ પટેલ", address1: "સી.જી. રોડ, નવરંગપુરા", address2: "", city: "અમદાવાદ", state: "Gujarat", pincode: 380009 },
];
const PRODUCTS = ["Handloom cotton kurta", "Block-print bedsheet, king size, indigo", "Brass table lamp", "Chanderi silk scarf", "Masala chai tin 250 g", "Kanjivaram silk stole"];
const warehouse = { name: "Chai Point Warehouse", address1: "Unit 4, Andheri East Industrial Estate", address2: "", city: "Mumbai", state: "Maharashtra", pincode: "400069", phone: "9876543210" };

function labelAt(index: number) {
  const to = ADDRESSES[index % ADDRESSES.length]!;
  const items = 1 + (index % 6);
  return labelFacts({
    shopName: "Chai Point Store",
    orderName: `#${10_000 + index}`,
    awb: String(15_616_928_599_560 + index * 7_919),
    courierName: ["Delhivery", "Blue Dart", "Xpressbees", "Ecom Express"][index % 4]!,
    routing: `Mumbai (400069) to ${to.city} (${to.pincode}), zone ${"ABCDE"[index % 5]}, ${(0.5 + (index % 4) * 0.5).toFixed(1)} kg chargeable`,
    bookedAt: new Date("2026-11-25T06:00:00Z"),
    returnTo: warehouse,
    requestPayload: JSON.stringify({
      ...to,
      mobile: `98${String(12_345_678 + index).padStart(8, "0")}`,
      products: Array.from({ length: items }, (_, item) => ({ product_name: PRODUCTS[(index + item) % PRODUCTS.length], quantity: 1 + (item % 3), sku: `SKU-${index}-${item}` })),
      package_length: 20,
      package_breadth: 15,
      package_height: 10,
      package_weight: 0.5 + (index % 4) * 0.5,
      payment_mode: index % 2 === 0 ? "cod" : "prepaid",
      total_amount: 499 + index,
      ewaybill_no: index % 10 === 0 ? `3410${String(index).padStart(8, "0")}` : undefined,
    }),
  });
}

async function emptyPages(pages: number): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, margin: 0 });
  const done = collect(doc);
  for (let page = 0; page < pages; page += 1) doc.addPage({ size: [288, 432], margin: 0 });
  doc.end();
  return done;
}

const labels = Array.from({ length: count }, (_, index) => labelAt(index));
// Warm: fonts read, code compiled, as in a server that has printed before.
await renderLabels(labels.slice(0, 6), layout);
await emptyPages(10);
globalThis.gc?.();

const floorStart = performance.now();
const floorPdf = await emptyPages(count);
const floorMs = performance.now() - floorStart;

globalThis.gc?.();
// The drawing runs synchronously, so no timer could sample it: the kernel's high-water mark of resident memory
// (maxRSS) after the render, against what the process held just before it.
const rssBefore = process.memoryUsage().rss;
const start = performance.now();
const pdf = await renderLabels(labels, layout);
const ms = performance.now() - start;
const peakRss = Math.max(process.resourceUsage().maxRSS * 1024, process.memoryUsage().rss);

console.log(JSON.stringify({ count, layout, ms, labelsPerSecond: (count * 1000) / ms, bytes: pdf.length, memoryGrowthMb: (peakRss - rssBefore) / 1024 / 1024, floorMs, floorPagesPerSecond: (count * 1000) / floorMs, floorBytes: floorPdf.length }));
