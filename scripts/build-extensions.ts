/**
 * Bundles each admin extension in extensions/ into its own dist/ as `shopify app build` does, so the bundles
 * can be built, measured and checked without the Shopify CLI or a Partner login.
 *
 * Like the CLI (packages/app, ui_extension spec and bundle service): one generated entry per extension that
 * imports each target's module and registers it with `shopify.extend`, a second entry for a `should_render`
 * module (`dist/<handle>-conditions.js`), then esbuild with `bundle`, JSX `automatic`, `minify`, target es6,
 * no legal comments and `process.env.NODE_ENV` defined. Shopify refuses a deploy whose bundle is over 64 KB
 * compressed; this prints every bundle's size and fails the build before that.
 *
 * Theme app extensions (`type = "theme"`) are not bundled: Shopify serves their Liquid and assets as they are. Their
 * scripts load on the merchant's storefront, where every byte costs shoppers, so each is held to 10 KB compressed.
 */
import { build } from "esbuild";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export const COMPRESSED_LIMIT_BYTES = 64 * 1024;
export const THEME_SCRIPT_LIMIT_BYTES = 10 * 1024;

export interface ExtensionTarget {
  target: string;
  module: string;
  shouldRenderModule: string | null;
}

export interface ExtensionConfig {
  handle: string;
  targets: ExtensionTarget[];
}

/**
 * Reads the part of shopify.extension.toml the build needs: the handle and each `[[extensions.targeting]]`
 * with its module and optional `[extensions.targeting.should_render]` module. One extension per file, as the
 * CLI generates them.
 */
export function readExtensionConfig(toml: string): ExtensionConfig {
  let handle: string | null = null;
  const targets: { target?: string; module?: string; shouldRenderModule: string | null }[] = [];
  let section = "";
  for (const raw of toml.split("\n")) {
    const line = raw.replace(/#.*$/, "").trim();
    if (!line) continue;
    const header = /^\[\[?([\w.]+)\]\]?$/.exec(line);
    if (header) {
      section = header[1]!;
      if (section === "extensions.targeting") targets.push({ shouldRenderModule: null });
      continue;
    }
    const entry = /^(\w+)\s*=\s*"([^"]*)"$/.exec(line);
    if (!entry) continue;
    const [, key, value] = entry as unknown as [string, string, string];
    const current = targets.at(-1);
    if (section === "extensions" && key === "handle") handle = value;
    else if (section === "extensions.targeting" && current && (key === "target" || key === "module")) current[key] = value;
    else if (section === "extensions.targeting.should_render" && current && key === "module") {
      current.shouldRenderModule = value;
    }
  }
  if (!handle) throw new Error("shopify.extension.toml has no handle");
  if (targets.length === 0) throw new Error(`${handle}: shopify.extension.toml has no [[extensions.targeting]]`);
  return {
    handle,
    targets: targets.map((found, index) => {
      if (!found.target || !found.module) throw new Error(`${handle}: targeting ${index + 1} needs a target and a module`);
      return { target: found.target, module: found.module, shouldRenderModule: found.shouldRenderModule };
    }),
  };
}

/** The CLI's name for a should-render target: `admin.x.action.render` → `admin.x.action.should-render`. */
export const shouldRenderTarget = (target: string) => target.replace(/\.render$/, ".should-render");

/** The entries the CLI generates: the main bundle registers every target, the conditions bundle the should-render. */
export function entrySources(config: ExtensionConfig): { file: string; source: string }[] {
  const main = config.targets
    .map(
      ({ target, module }, index) =>
        `import Target_${index} from '${module}';shopify.extend('${target}', (...args) => Target_${index}(...args));`,
    )
    .join("\n");
  const entries = [{ file: `${config.handle}.js`, source: main }];
  const conditional = config.targets.find((target) => target.shouldRenderModule);
  if (conditional?.shouldRenderModule) {
    entries.push({
      file: `${config.handle}-conditions.js`,
      source: `import shouldRender from '${conditional.shouldRenderModule}';shopify.extend('${shouldRenderTarget(conditional.target)}', (...args) => shouldRender(...args));`,
    });
  }
  return entries;
}

export interface BundleSize {
  bundle: string;
  rawBytes: number;
  gzipBytes: number;
}

export async function buildExtension(directory: string): Promise<BundleSize[]> {
  const config = readExtensionConfig(readFileSync(path.join(directory, "shopify.extension.toml"), "utf8"));
  const dist = path.join(directory, "dist");
  rmSync(dist, { recursive: true, force: true });
  const sizes: BundleSize[] = [];
  for (const entry of entrySources(config)) {
    const outfile = path.join(dist, entry.file);
    await build({
      stdin: { contents: entry.source, resolveDir: directory, sourcefile: entry.file, loader: "tsx" },
      outfile,
      bundle: true,
      // What esbuild picks for a browser bundle when, as in the CLI, no format is given.
      format: "iife",
      jsx: "automatic",
      jsxImportSource: "preact",
      loader: { ".esnext": "ts", ".js": "jsx" },
      resolveExtensions: [".tsx", ".ts", ".js", ".json", ".esnext", ".mjs"],
      legalComments: "none",
      minify: true,
      target: "es6",
      define: { "process.env.NODE_ENV": JSON.stringify("production") },
      logLevel: "warning",
    });
    const code = readFileSync(outfile);
    sizes.push({
      bundle: path.relative(process.cwd(), outfile),
      rawBytes: code.byteLength,
      gzipBytes: gzipSync(code).byteLength,
    });
  }
  return sizes;
}

/** A theme app extension's toml says `type = "theme"` at its top level. */
export const isThemeExtension = (toml: string) => /^\s*type\s*=\s*"theme"\s*$/m.test(toml);

function extensionDirectories(root: string): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(root, entry.name, "shopify.extension.toml")))
    .map((entry) => path.join(root, entry.name))
    .sort();
}

const isThemeDirectory = (directory: string) => isThemeExtension(readFileSync(path.join(directory, "shopify.extension.toml"), "utf8"));

/** Every admin UI extension in extensions/: a directory with a shopify.extension.toml that is not a theme's. */
export function listExtensions(root = "extensions"): string[] {
  return extensionDirectories(root).filter((directory) => !isThemeDirectory(directory));
}

/** Every theme app extension in extensions/. */
export function listThemeExtensions(root = "extensions"): string[] {
  return extensionDirectories(root).filter(isThemeDirectory);
}

/** The sizes of a theme extension's scripts as shoppers' browsers fetch them. */
export function themeScriptSizes(directory: string): BundleSize[] {
  const assets = path.join(directory, "assets");
  if (!existsSync(assets)) return [];
  return readdirSync(assets)
    .filter((file) => file.endsWith(".js"))
    .sort()
    .map((file) => {
      const code = readFileSync(path.join(assets, file));
      return { bundle: path.relative(process.cwd(), path.join(assets, file)), rawBytes: code.byteLength, gzipBytes: gzipSync(code).byteLength };
    });
}

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main(): Promise<number> {
  const sizes: (BundleSize & { limit: number })[] = [];
  for (const directory of listExtensions()) sizes.push(...(await buildExtension(directory)).map((size) => ({ ...size, limit: COMPRESSED_LIMIT_BYTES })));
  for (const directory of listThemeExtensions()) sizes.push(...themeScriptSizes(directory).map((size) => ({ ...size, limit: THEME_SCRIPT_LIMIT_BYTES })));
  const width = Math.max(...sizes.map((size) => size.bundle.length));
  let tooLarge = 0;
  for (const size of sizes) {
    const over = size.gzipBytes > size.limit;
    if (over) tooLarge += 1;
    console.log(
      `${size.bundle.padEnd(width)}  ${kilobytes(size.rawBytes).padStart(9)} raw  ${kilobytes(size.gzipBytes).padStart(8)} gzip${over ? `  OVER THE ${kilobytes(size.limit)} LIMIT` : ""}`,
    );
  }
  if (tooLarge > 0) {
    console.error(`${tooLarge} bundle(s) or theme script(s) over their compressed limit (admin ${kilobytes(COMPRESSED_LIMIT_BYTES)}, storefront ${kilobytes(THEME_SCRIPT_LIMIT_BYTES)}).`);
    return 1;
  }
  console.log(`${sizes.length} bundle(s) and theme script(s) from ${listExtensions().length + listThemeExtensions().length} extension(s), each under its compressed limit.`);
  return 0;
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
