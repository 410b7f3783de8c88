/**
 * Builds every extension in extensions/ with Shopify's own CLI (`shopify app build`, which needs neither a Partner
 * login nor the network) and checks what it wrote: Shopify refuses a deploy whose UI extension bundle is over 64 KB
 * compressed, so this prints every bundle's size and fails the build before that. The CLI also validates each
 * extension's configuration and the app's `shopify.app.toml` and `shopify.web.toml` as a deploy would.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export const COMPRESSED_LIMIT_BYTES = 64 * 1024;

export interface BundleSize {
  bundle: string;
  rawBytes: number;
  gzipBytes: number;
}

/** Every directory in extensions/ that holds a shopify.extension.toml. */
export function listExtensions(root = "extensions"): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(root, entry.name, "shopify.extension.toml")))
    .map((entry) => path.join(root, entry.name))
    .sort();
}

/** The JavaScript bundles the CLI wrote into an extension's dist/ (source maps and metafiles are not shipped). */
export function bundlesOf(directory: string): BundleSize[] {
  const dist = path.join(directory, "dist");
  if (!existsSync(dist)) return [];
  return readdirSync(dist)
    .filter((file) => file.endsWith(".js"))
    .sort()
    .map((file) => {
      const code = readFileSync(path.join(dist, file));
      return { bundle: path.join(dist, file), rawBytes: code.byteLength, gzipBytes: gzipSync(code).byteLength };
    });
}

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** One line per bundle, and the bundles over the limit. */
export function sizeReport(sizes: BundleSize[]): { lines: string[]; tooLarge: BundleSize[] } {
  const width = Math.max(0, ...sizes.map((size) => size.bundle.length));
  const tooLarge = sizes.filter((size) => size.gzipBytes > COMPRESSED_LIMIT_BYTES);
  const lines = sizes.map(
    (size) =>
      `${size.bundle.padEnd(width)}  ${kilobytes(size.rawBytes).padStart(9)} raw  ${kilobytes(size.gzipBytes).padStart(8)} gzip${size.gzipBytes > COMPRESSED_LIMIT_BYTES ? "  OVER THE 64 KB LIMIT" : ""}`,
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
    console.error(`${tooLarge.length} bundle(s) over Shopify's ${kilobytes(COMPRESSED_LIMIT_BYTES)} compressed limit.`);
    return 1;
  }
  console.log(`${sizes.length} bundle(s) from ${listExtensions().length} extension(s), each under ${kilobytes(COMPRESSED_LIMIT_BYTES)} compressed.`);
  return 0;
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) process.exit(main());
