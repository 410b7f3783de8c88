/**
 * `npm run build`'s step for the processes an operator starts: `npm start` (server/start.ts), `npm run worker`
 * (server/worker.ts) and `npm run demo` (store/demo.ts), bundled into JavaScript in build/processes/ that Node runs as
 * it is. Run through a TypeScript loader, each start spent about as long loading its modules as serving took to
 * begin: every import passed the loader's hooks, on a thread of their own. Packages stay in node_modules, imported
 * as they are; only the project's own modules are bundled.
 *
 * A module imported with `await import()` stays a module of its own (a chunk), loaded only then, packages and all:
 * the entries rely on that order (the database opened before the app's modules read DATABASE_URL; the demo's fetch
 * redirect installed before Shopify's library keeps `fetch`). One bundle would import every package first.
 */
import { rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { build, type Plugin } from "esbuild";

export const SERVER_ENTRIES = { start: "server/start.ts", worker: "server/worker.ts", demo: "store/demo.ts" } as const;
export const PROCESSES_DIR = "build/processes";
const OUT_DIR = path.resolve(PROCESSES_DIR);

/** How Node runs one of the bundled processes: its file, with stack traces that name the TypeScript source. */
export const processArguments = (entry: keyof typeof SERVER_ENTRIES): string[] => ["--enable-source-maps", `${PROCESSES_DIR}/${entry}.js`];

/**
 * A module that reads a file beside itself (the Admin API schema, the local admin's scripts) keeps finding it there:
 * its `import.meta.url` stays its own source file's address, taken relative to the bundle, so a checkout moved
 * elsewhere still works. Only the project's modules pass here: packages are external.
 */
const ownModuleAddress: Plugin = {
  name: "own-module-address",
  setup(builder) {
    builder.onLoad({ filter: /\.tsx?$/ }, async ({ path: file }) => {
      const source = await readFile(file, "utf8");
      if (!source.includes("import.meta.url")) return undefined;
      const fromBundle = path.relative(OUT_DIR, file).split(path.sep).join("/");
      return { contents: source.replaceAll("import.meta.url", `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`), loader: file.endsWith("x") ? "tsx" : "ts" };
    });
  },
};

/** Bundles every entry into build/processes/ and says how many files and bytes came out. */
export async function buildServer(): Promise<void> {
  const started = performance.now();
  rmSync(OUT_DIR, { recursive: true, force: true });
  const result = await build({
    entryPoints: SERVER_ENTRIES,
    outdir: OUT_DIR,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    // Chunks beside the entries, in the one directory the module addresses above are taken from.
    splitting: true,
    target: "node22",
    sourcemap: "linked",
    alias: { "~": path.resolve("app") },
    plugins: [ownModuleAddress],
    logLevel: "warning",
    metafile: true,
  });
  const scripts = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith(".js"));
  const kilobytes = Math.round(scripts.reduce((sum, [, output]) => sum + output.bytes, 0) / 1024);
  console.log(`Bundled ${Object.values(SERVER_ENTRIES).join(", ")} into ${PROCESSES_DIR}/ in ${Math.round(performance.now() - started)} ms: ${scripts.length} files, ${kilobytes.toLocaleString("en-IN")} KB.`);
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) await buildServer();
