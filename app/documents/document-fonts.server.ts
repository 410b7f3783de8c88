import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { inflateSync } from "node:zlib";
import * as fontkit from "fontkit";

/**
 * The fonts documents are set in: Noto Sans for Latin text and the rupee sign, and Noto Sans for each script an
 * Indian address may be typed in. A shopper writes "गांधी नगर" or "அண்ணா சாலை" as readily as "MG Road", and a label
 * that prints boxes for it loses the parcel. The files come from the @fontsource packages (Google's Noto, split
 * per script); pdfkit embeds only the glyphs a document uses and shapes each run with the font's OpenType tables,
 * so conjuncts and vowel signs come out as a reader expects.
 */
export type FontWeight = "regular" | "bold";

interface FontFile {
  /** The pdfkit name a document registers it under. */
  name: string;
  weight: FontWeight;
  /** The published WOFF file it was read from. */
  file: string;
  /** The font unpacked from it (sfntOfWoff), as documents embed it. */
  data: Buffer;
  /** OpenType features to set for this font's runs, beside the defaults for its script. */
  features?: Record<string, boolean>;
  covers: (codePoint: number) => boolean;
}

/** Package and file stem of each face, in the order a character looks for a font that has it. */
const FACES: ReadonlyArray<{ pkg: string; stem: string; features?: Record<string, boolean> }> = [
  { pkg: "noto-sans", stem: "noto-sans-latin" },
  { pkg: "noto-sans", stem: "noto-sans-latin-ext" },
  { pkg: "noto-sans-devanagari", stem: "noto-sans-devanagari-devanagari" },
  { pkg: "noto-sans-bengali", stem: "noto-sans-bengali-bengali" },
  { pkg: "noto-sans-gujarati", stem: "noto-sans-gujarati-gujarati" },
  // fontkit stops at this font's above-base mark anchors that are left empty (valid OpenType): without that one
  // feature the tippi and bindi sit at their default place over the letter, which reads the same.
  { pkg: "noto-sans-gurmukhi", stem: "noto-sans-gurmukhi-gurmukhi", features: { abvm: false } },
  { pkg: "noto-sans-oriya", stem: "noto-sans-oriya-oriya" },
  { pkg: "noto-sans-tamil", stem: "noto-sans-tamil-tamil" },
  { pkg: "noto-sans-telugu", stem: "noto-sans-telugu-telugu" },
  { pkg: "noto-sans-kannada", stem: "noto-sans-kannada-kannada" },
  { pkg: "noto-sans-malayalam", stem: "noto-sans-malayalam-malayalam" },
];

const WEIGHTS: Record<FontWeight, number> = { regular: 400, bold: 700 };

let loaded: FontFile[] | undefined;

/**
 * The plain OpenType font a WOFF file wraps: the same tables, each inflated once, behind an sfnt table directory.
 * pdfkit parses a registered font anew for every document, and fontkit inflates a WOFF table each time it reads
 * one, so a WOFF font re-inflated its glyph table for every label; an sfnt font is read in place.
 */
export function sfntOfWoff(woff: Buffer): Buffer {
  if (woff.toString("latin1", 0, 4) !== "wOFF") return woff;
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables: { tag: number; checksum: number; data: Buffer }[] = [];
  for (let index = 0; index < numTables; index += 1) {
    const entry = 44 + index * 20;
    const [tag, offset, compLength, origLength, checksum] = [0, 4, 8, 12, 16].map((at) => woff.readUInt32BE(entry + at)) as [number, number, number, number, number];
    const stored = woff.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateSync(stored) : stored;
    if (data.length !== origLength) throw new Error(`A font table is ${data.length} bytes, not the ${origLength} its WOFF header says`);
    tables.push({ tag, checksum, data });
  }
  const pad = (length: number) => (length + 3) & ~3;
  const headerLength = 12 + 16 * numTables;
  const sfnt = Buffer.alloc(headerLength + tables.reduce((sum, table) => sum + pad(table.data.length), 0));
  const searchPower = Math.floor(Math.log2(numTables));
  sfnt.writeUInt32BE(flavor, 0);
  sfnt.writeUInt16BE(numTables, 4);
  sfnt.writeUInt16BE(16 * 2 ** searchPower, 6);
  sfnt.writeUInt16BE(searchPower, 8);
  sfnt.writeUInt16BE(16 * numTables - 16 * 2 ** searchPower, 10);
  let offset = headerLength;
  tables.forEach((table, index) => {
    const entry = 12 + index * 16;
    sfnt.writeUInt32BE(table.tag, entry);
    sfnt.writeUInt32BE(table.checksum, entry + 4);
    sfnt.writeUInt32BE(offset, entry + 8);
    sfnt.writeUInt32BE(table.data.length, entry + 12);
    table.data.copy(sfnt, offset);
    offset += pad(table.data.length);
  });
  return sfnt;
}

/** Every face in both weights, read once per process (about 1 MB in all, 2 MB unpacked). */
export function documentFonts(): readonly FontFile[] {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const files: FontFile[] = [];
  for (const weight of ["regular", "bold"] as const) {
    for (const face of FACES) {
      const dir = path.join(path.dirname(require.resolve(`@fontsource/${face.pkg}/package.json`)), "files");
      const file = path.join(dir, `${face.stem}-${WEIGHTS[weight]}-normal.woff`);
      const data = sfntOfWoff(readFileSync(file));
      const font = fontkit.create(data) as fontkit.Font;
      const seen = new Map<number, boolean>();
      files.push({
        name: `${face.stem}-${weight}`,
        weight,
        file,
        data,
        features: face.features,
        covers: (codePoint) => {
          let has = seen.get(codePoint);
          if (has === undefined) seen.set(codePoint, (has = font.hasGlyphForCodePoint(codePoint)));
          return has;
        },
      });
    }
  }
  loaded = files;
  return files;
}

/** A stretch of text set in one font. */
export interface TextRun {
  text: string;
  font: string;
  features?: Record<string, boolean>;
}

/**
 * Characters that take the font of the text around them when it has them: spaces, joiners and combining marks
 * must not split a word's run, or shaping would see half a conjunct.
 */
const FOLLOWS_NEIGHBOUR = /[\s\u200c\u200d\p{M}.,\-/()'’:;#&]/u;

/** Splits text into runs, each in the first font of the given weight that has its characters. */
export function textRuns(text: string, weight: FontWeight): TextRun[] {
  const fonts = documentFonts().filter((font) => font.weight === weight);
  const fallback = fonts[0]!;
  const runs: TextRun[] = [];
  let current: { text: string; font: FontFile } | undefined;
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (current && (current.font.covers(codePoint) && (FOLLOWS_NEIGHBOUR.test(char) || current.font === fontFor(codePoint)))) {
      current.text += char;
      continue;
    }
    const font = fontFor(codePoint);
    if (current) runs.push(run(current));
    current = { text: char, font };
  }
  if (current) runs.push(run(current));
  return runs;

  function run({ text, font }: { text: string; font: FontFile }): TextRun {
    return font.features ? { text, font: font.name, features: font.features } : { text, font: font.name };
  }

  function fontFor(codePoint: number): FontFile {
    return fonts.find((font) => font.covers(codePoint)) ?? fallback;
  }
}
