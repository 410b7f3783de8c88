import { statSync } from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The order test files start in, so the two cores finish together: the longest first, the short ones filling the
 * end. vitest orders by the durations it cached on this machine; a fresh checkout has none, and its fallback (larger
 * files first) would leave an end-to-end file starting last, alone on a core for a minute. Here, on a fresh checkout,
 * the process and browser tests (test/e2e) go first, the heaviest named first, then every other file by size; once
 * vitest has durations of its own, they decide.
 */
const HEAVIEST_FIRST = ["journey", "shop-pages", "admin-shell", "shutdown", "lost-connections", "scale-out", "production-server", "parcel-crash", "cod-confirmation", "tracking-page"];

function weight(file: string): number {
  const name = path.basename(file).replace(/\.test\.tsx?$/, "");
  if (file.includes(`${path.sep}test${path.sep}e2e${path.sep}`)) {
    const rank = HEAVIEST_FIRST.indexOf(name);
    return 2_000_000 - (rank === -1 ? HEAVIEST_FIRST.length : rank);
  }
  return statSync(file).size;
}

export default class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cached = files.every((spec) => this.ctx.cache.getFileTestResults(`${spec.project.name}:${path.relative(this.ctx.config.root, spec.moduleId)}`));
    if (cached) return super.sort(files);
    return [...files].sort((a, b) => weight(b.moduleId) - weight(a.moduleId));
  }
}
