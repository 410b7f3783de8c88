import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { bundlesOf, COMPRESSED_LIMIT_BYTES, isThemeExtension, listExtensions, sizeReport, THEME_SCRIPT_LIMIT_BYTES } from "./build-extensions";

const scratch: string[] = [];
afterEach(() => {
  for (const directory of scratch.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function extensionWithBundles(bundles: Record<string, Buffer | string>): string {
  const directory = mkdtempSync(path.join(tmpdir(), "dakiya-extension-"));
  scratch.push(directory);
  mkdirSync(path.join(directory, "dist"));
  for (const [file, content] of Object.entries(bundles)) writeFileSync(path.join(directory, "dist", file), content);
  return directory;
}

describe("checking the extensions' bundles", () => {
  it("finds every extension directory with a shopify.extension.toml", () => {
    const found = listExtensions();
    expect(found).toEqual(expect.arrayContaining(["extensions/dakiya-shipment-block", "extensions/ship-selected-with-dakiya", "extensions/ship-with-dakiya"]));
    expect(found).not.toContain("extensions/shared");
  });

  it("holds the storefront's theme script to 10 KB compressed, measured as shoppers' browsers fetch it", () => {
    expect(isThemeExtension('name = "x"\ntype = "theme"\n')).toBe(true);
    expect(isThemeExtension('[[extensions]]\ntype = "ui_extension"\n')).toBe(false);
    const scripts = bundlesOf("extensions/delivery-estimate");
    expect(scripts.map((script) => script.bundle)).toEqual(["extensions/delivery-estimate/assets/delivery-estimate.js"]);
    for (const script of scripts) {
      expect(script.limit).toBe(THEME_SCRIPT_LIMIT_BYTES);
      expect(script.gzipBytes).toBeLessThan(THEME_SCRIPT_LIMIT_BYTES);
    }
  });

  it("measures the shipped JavaScript only, not source maps or metafiles", () => {
    const directory = extensionWithBundles({ "block.js": "x".repeat(5000), "block.js.map": "{}", "block.metafile.json": "{}" });
    const [size, ...rest] = bundlesOf(directory);
    expect(rest).toEqual([]);
    expect(size!.bundle).toBe(path.join(directory, "dist", "block.js"));
    expect(size!.rawBytes).toBe(5000);
    // Repetitive text compresses: the gate is on what Shopify measures, the compressed size.
    expect(size!.gzipBytes).toBeLessThan(200);
  });

  it("fails a bundle over 64 KB compressed and passes one under it", () => {
    const directory = extensionWithBundles({
      "large.js": randomBytes(COMPRESSED_LIMIT_BYTES + 1024),
      "small.js": randomBytes(1024),
    });
    const { lines, tooLarge } = sizeReport(bundlesOf(directory));
    expect(tooLarge.map((size) => path.basename(size.bundle))).toEqual(["large.js"]);
    expect(lines.find((line) => line.includes("large.js"))).toContain("OVER THE 64.0 KB LIMIT");
    expect(lines.find((line) => line.includes("small.js"))).not.toContain("OVER");
  });

  it("has nothing to measure in an extension the CLI has not built", () => {
    const directory = mkdtempSync(path.join(tmpdir(), "dakiya-extension-"));
    scratch.push(directory);
    expect(bundlesOf(directory)).toEqual([]);
  });
});
