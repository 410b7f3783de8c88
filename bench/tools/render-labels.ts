import { performance } from "node:perf_hooks";
import PDFDocument from "pdfkit";
import { LABEL_LAYOUTS } from "../../app/documents/label-layout";
import { collect, renderLabels } from "../../app/documents/label-pdf.server";
import { dayLabel } from "./day-of-labels";

/**
 * Renders one PDF of N shipping labels (default 500) in this process and prints, as one JSON line, the time it took,
 * the process's peak resident memory above what it held before, and the floor measured beside it: pdfkit writing
 * the same number of empty 4 × 6 in pages. The labels vary as a day's do (bench/tools/day-of-labels.ts). A fresh
 * process per run, so memory is this render's alone (bench/measurements/documents.ts runs it; `node --cpu-prof` profiles it).
 *
 *   npx tsx bench/tools/render-labels.ts [count] [--layout a4]
 */
const count = Math.max(1, Math.min(5_000, Number(process.argv[2] ?? 500) || 500));
const layout = process.argv.includes("--layout") && process.argv[process.argv.indexOf("--layout") + 1] === "a4" ? LABEL_LAYOUTS.A4_FOUR_UP : LABEL_LAYOUTS.THERMAL_4X6;

async function emptyPages(pages: number): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, margin: 0 });
  const done = collect(doc);
  for (let page = 0; page < pages; page += 1) doc.addPage({ size: [288, 432], margin: 0 });
  doc.end();
  return done;
}

const labels = Array.from({ length: count }, (_, index) => dayLabel(index));
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
