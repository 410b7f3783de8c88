/**
 * Builds every extension in extensions/ with Shopify's own CLI (`shopify app build`, which needs neither a Partner
 * login nor the network) and checks what it wrote: Shopify refuses a deploy whose UI extension bundle is over 64 KB
 * compressed, so this prints every bundle's size and fails the build before that. The CLI also validates each
 * extension's configuration and the app's `shopify.app.toml` and `shopify.web.toml` as a deploy would.
 *
 * Theme app extensions (`type = "theme"`) are not bundled: Shopify serves their Liquid and assets as they are. Their
 * scripts load on the merchant's storefront, where every byte costs shoppers, so each is held to 10 KB compressed.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export const COMPRESSED_LIMIT_BYTES = 64 * 1024;
export const THEME_SCRIPT_LIMIT_BYTES = 10 * 1024;

export interface BundleSize {
  bundle: string;
  rawBytes: number;
  gzipBytes: number;
  /** The compressed size it must stay under. */
  limit: number;
}

/** A theme app extension's toml says `type = "theme"` at its top level. */
export const isThemeExtension = (toml: string) => /^\s*type\s*=\s*"theme"\s*$/m.test(toml);
const isThemeDirectory = (directory: string) => isThemeExtension(readFileSync(path.join(directory, "shopify.extension.toml"), "utf8"));

/** Every directory in extensions/ that holds a shopify.extension.toml. */
export function listExtensions(root = "extensions"): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(root, entry.name, "shopify.extension.toml")))
    .map((entry) => path.join(root, entry.name))
    .sort();
}

function sizesOf(directory: string, files: string[], limit: number): BundleSize[] {
  return files
    .filter((file) => file.endsWith(".js"))
    .sort()
    .map((file) => {
      const code = readFileSync(path.join(directory, file));
      return { bundle: path.join(directory, file), rawBytes: code.byteLength, gzipBytes: gzipSync(code).byteLength, limit };
    });
}

/**
 * What an extension ships, with its limit: a UI extension's bundles the CLI wrote into dist/ (source maps and
 * metafiles are not shipped), or a theme extension's scripts in assets/.
 */
export function bundlesOf(directory: string): BundleSize[] {
  const theme = existsSync(path.join(directory, "shopify.extension.toml")) && isThemeDirectory(directory);
  const shipped = path.join(directory, theme ? "assets" : "dist");
  if (!existsSync(shipped)) return [];
  return sizesOf(shipped, readdirSync(shipped), theme ? THEME_SCRIPT_LIMIT_BYTES : COMPRESSED_LIMIT_BYTES);
}

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** One line per bundle, and the bundles over their limit. */
export function sizeReport(sizes: BundleSize[]): { lines: string[]; tooLarge: BundleSize[] } {
  const width = Math.max(0, ...sizes.map((size) => size.bundle.length));
  const tooLarge = sizes.filter((size) => size.gzipBytes > size.limit);
  const lines = sizes.map(
    (size) =>
      `${size.bundle.padEnd(width)}  ${kilobytes(size.rawBytes).padStart(9)} raw  ${kilobytes(size.gzipBytes).padStart(8)} gzip${size.gzipBytes > size.limit ? `  OVER THE ${kilobytes(size.limit)} LIMIT` : ""}`,
  );
  return { lines, tooLarge };
}

function runShopifyBuild(): number {
  const cli = path.resolve("node_modules/@shopify/cli/bin/run.js");
  // Dependencies are the root's npm workspaces, installed by `npm install`; the CLI must not install on its own.
  const result = spawnSync(process.execPath, [cli, "app", "build", "--path", ".", "--skip-dependencies-installation", "--no-color"], {
    stdio: "inherit",
    env: { ...process.env, SHOPIFY_CLI_NO_ANALYTICS: "1" },
  });
  return result.status ?? 1;
}

function main(): number {
  const status = runShopifyBuild();
  if (status !== 0) {
    console.error(`shopify app build failed (exit ${status}).`);
    return status;
  }
  const sizes = listExtensions().flatMap(bundlesOf);
  const { lines, tooLarge } = sizeReport(sizes);
  for (const line of lines) console.log(line);
  if (tooLarge.length > 0) {
    console.error(`${tooLarge.length} bundle(s) or theme script(s) over their compressed limit (admin ${kilobytes(COMPRESSED_LIMIT_BYTES)}, storefront ${kilobytes(THEME_SCRIPT_LIMIT_BYTES)}).`);
    return 1;
  }
  console.log(`${sizes.length} bundle(s) and theme script(s) from ${listExtensions().length} extension(s), each under its compressed limit.`);
  return 0;
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) process.exit(main());
