import { existsSync, readFileSync } from "node:fs";

/**
 * The production build (`npm run build`: Remix, the precompressed assets, the extensions' bundles), which the process
 * and browser tests run. `npm test` builds while the other tests run (scripts/test.ts): it names a file in
 * DAKIYA_BUILD_DONE_FILE that it writes once the build is over, with "ok" or what failed, and these tests wait for it.
 * Run on their own (a file from an editor), they take the build already in the checkout.
 */
export async function productionBuild(): Promise<void> {
  const done = process.env.DAKIYA_BUILD_DONE_FILE;
  if (!done) {
    if (!existsSync("build/index.js")) throw new Error("These tests run the production build: npm run build first");
    return;
  }
  for (;;) {
    if (existsSync(done)) {
      const outcome = readFileSync(done, "utf8").trim();
      if (outcome !== "ok") throw new Error(`The production build failed, so this test cannot run: ${outcome}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
