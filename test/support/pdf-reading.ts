import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Reads a PDF back as a person or a scanner would, with Debian's poppler-utils (pdftotext, pdftoppm, pdfinfo,
 * pdffonts) and zbar-tools (zbarimg). The README's test command installs both.
 */
function run(tool: string, args: string[]): string {
  try {
    return execFileSync(tool, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new Error(`${tool} is missing: install Debian's poppler-utils and zbar-tools (apt-get install -y poppler-utils zbar-tools)`);
    }
    // zbarimg exits 4 when a page has no barcode: an empty answer, not a failure.
    const failed = error as { status?: number; stdout?: string };
    if (tool === "zbarimg" && failed.status === 4) return failed.stdout ?? "";
    throw error;
  }
}

function withFile<T>(pdf: Buffer, read: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(path.join(os.tmpdir(), "dakiya-pdf-"));
  try {
    const file = path.join(dir, "document.pdf");
    writeFileSync(file, pdf);
    return read(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of each page in content order (Indian scripts come back as typed, through the PDF's ActualText). */
export function pdfPages(pdf: Buffer): string[] {
  return withFile(pdf, (file) => run("pdftotext", ["-raw", "-enc", "UTF-8", file, "-"]).split("\f").slice(0, -1));
}

export function pdfPageCount(pdf: Buffer): number {
  return withFile(pdf, (file) => Number(/^Pages:\s+(\d+)/m.exec(run("pdfinfo", [file]))?.[1]));
}

/** The first page's size in points, as pdfinfo reports it ("288 x 432"). */
export function pdfPageSize(pdf: Buffer): string {
  return withFile(pdf, (file) => /^Page size:\s+([\d.]+ x [\d.]+)/m.exec(run("pdfinfo", [file]))?.[1] ?? "");
}

/** The names of the fonts embedded in the document. */
export function pdfFonts(pdf: Buffer): string[] {
  return withFile(pdf, (file) =>
    run("pdffonts", [file])
      .split("\n")
      .slice(2)
      .map((line) => line.split(/\s+/)[0]!)
      .filter(Boolean),
  );
}

/** The first page rasterised in grey (a PGM image's bytes), to compare how two documents look on paper. */
export function pdfRaster(pdf: Buffer, dpi = 150): Buffer {
  return withFile(pdf, (file, dir) => {
    run("pdftoppm", ["-r", String(dpi), "-gray", "-f", "1", "-l", "1", "-singlefile", file, path.join(dir, "page")]);
    return readFileSync(path.join(dir, "page.pgm"));
  });
}

/** Rasterises each page (or one region of a page, in points) and decodes every barcode a scanner finds there. */
export function pdfBarcodes(pdf: Buffer, options: { dpi?: number; page?: number; region?: { x: number; y: number; width: number; height: number } } = {}): string[][] {
  const dpi = options.dpi ?? 200;
  return withFile(pdf, (file, dir) => {
    const args = ["-r", String(dpi), "-png"];
    if (options.page) args.push("-f", String(options.page), "-l", String(options.page));
    if (options.region) {
      const px = (points: number) => String(Math.round((points * dpi) / 72));
      args.push("-x", px(options.region.x), "-y", px(options.region.y), "-W", px(options.region.width), "-H", px(options.region.height));
    }
    run("pdftoppm", [...args, file, path.join(dir, "page")]);
    return readdirSync(dir)
      .filter((name) => name.endsWith(".png"))
      .sort()
      .map((image) => run("zbarimg", ["--quiet", "--raw", path.join(dir, image)]).split("\n").filter(Boolean));
  });
}
