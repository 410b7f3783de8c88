import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The folder layering of app/ (.dependency-cruiser.cjs, docs/ARCHITECTURE.md "Layers"), as `npm run lint` checks it:
 * the app's imports run one way, and an import planted against the layers fails the lint.
 */
const ROOT = path.resolve(__dirname, "..");
const CONFIG = path.join(ROOT, ".dependency-cruiser.cjs");
const DEPCRUISE = path.join(ROOT, "node_modules", ".bin", "depcruise");

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** depcruise as `npm run lint` runs it, on `dir`'s app/: its violations. */
function violationsIn(dir: string): Violation[] {
  let output: string;
  try {
    output = execFileSync(DEPCRUISE, ["--config", CONFIG, "--output-type", "json", "app"], { cwd: dir, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    // A violation makes depcruise exit non-zero, as the lint fails; its report is on stdout all the same.
    output = (error as { stdout: string }).stdout;
  }
  return (JSON.parse(output) as { summary: { violations: Violation[] } }).summary.violations;
}

/** A tree of its own with app/ files of these paths and sources (relative imports only), and a tsconfig to read. */
const scratch = mkdtempSync(path.join(os.tmpdir(), "dakiya-layers-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let trees = 0;
function treeOf(files: Record<string, string>): string {
  const dir = path.join(scratch, String((trees += 1)));
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), source);
  }
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "ESNext", moduleResolution: "Bundler", strict: true } }));
  return dir;
}

/** The domain's folders (and modules at app/'s root), layer by layer, as the configuration places them. */
const placedInLayers = (createRequire(import.meta.url)(CONFIG) as { domainLayers: string[][] }).domainLayers.flat();

describe("the folder layering of app/", () => {
  it("holds for the app as it is: no import runs back up a layer, or across one", () => {
    expect(violationsIn(ROOT)).toEqual([]);
  }, 60_000);

  it("fails the lint on an import planted up the layers, or across one, and lets one down through", () => {
    const planted = treeOf({
      // A vocabulary's folder reaching up into a service that uses it.
      "app/booking/engine.ts": 'import { ready } from "../orders/check";\nexport const engine = ready;\n',
      "app/orders/check.ts": "export const ready = true;\n",
      // Two folders of one layer knowing each other.
      "app/privacy/erase.ts": 'import { counts } from "../home/counts";\nexport const erase = counts;\n',
      "app/home/counts.ts": "export const counts = 1;\n",
      // Down the layers: the orders' check of a shipment's lifecycle.
      "app/orders/lifecycle-user.ts": 'import { lifecycle } from "../shipments/lifecycle";\nexport const user = lifecycle;\n',
      "app/shipments/lifecycle.ts": "export const lifecycle = 1;\n",
    });
    expect(violationsIn(planted).map(({ rule, from, to }) => `${rule.name}: ${from} → ${to}`).sort()).toEqual([
      "domain-layers: booking: app/booking/engine.ts → app/orders/check.ts",
      "domain-layers: privacy: app/privacy/erase.ts → app/home/counts.ts",
    ]);
  }, 60_000);

  it("places every folder of the domain in a layer", () => {
    const outsideTheDomain = ["components", "courier-service", "jobs", "locales", "routes", "security", "shipping", "shopify", "styles", "types", "workers"];
    const folders = readdirSync(path.join(ROOT, "app"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !outsideTheDomain.includes(entry.name))
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !placedInLayers.includes(folder))).toEqual([]);
    expect(placedInLayers).toEqual(expect.arrayContaining(["shipments", "booking", "automation", "returns", "orders", "attention"]));
  });
});
