/**
 * `npm test`: the whole check (the GraphQL types, TypeScript, lint, every GraphQL document against Shopify's schema,
 * the production build, and every test) in as little wall time as the machine's cores allow, then how long each
 * step took and which test files were slowest.
 *
 * The steps are independent, so they run side by side: the GraphQL types and the static checks one after another in
 * one lane, the build in another, and the tests from the start in a third. The tests that run the
 * production build (processes, browsers) wait for it (test/support/production-build.ts): this script writes
 * DAKIYA_BUILD_DONE_FILE when the build is over. The run fails if any step fails; every step runs to its end, so one
 * run says everything that is wrong.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

interface Step {
  name: string;
  command: string[];
  /** Printed as it runs (the tests); the other steps' output is printed whole once they end, so lines never interleave. */
  live?: boolean;
  env?: Record<string, string>;
}

interface Outcome {
  name: string;
  ok: boolean;
  seconds: number;
  output: string;
}

const began = performance.now();
const elapsed = () => ((performance.now() - began) / 1000).toFixed(1);

function run(step: Step): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(step.command[0]!, step.command.slice(1), { env: { ...process.env, ...step.env }, stdio: ["ignore", step.live ? "inherit" : "pipe", step.live ? "inherit" : "pipe"] });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => {
      const outcome = { name: step.name, ok: code === 0, seconds: (performance.now() - started) / 1000, output };
      if (!step.live) {
        process.stdout.write(`\n[${elapsed()} s] ${outcome.ok ? "✓" : "✗"} ${step.name} (${outcome.seconds.toFixed(1)} s)\n`);
        if (!outcome.ok || output.trim()) process.stdout.write(output.endsWith("\n") ? output : `${output}\n`);
      }
      resolve(outcome);
    });
  });
}

/** Steps one after another; the lane goes on past a failure, so every step reports. */
async function lane(steps: Step[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const step of steps) outcomes.push(await run(step));
  return outcomes;
}

const npm = (script: string, name = script): Step => ({ name, command: ["npm", "run", "--silent", script] });
const scratch = mkdtempSync(path.join(os.tmpdir(), "dakiya-test-"));
const buildDone = path.join(scratch, "build-done");
/**
 * Node keeps the code it compiled for a file here and the next process that loads the same file takes it from there
 * (Node 22's compile cache): the suite starts the app, the worker and the demo about thirty times, and vitest a
 * process for each browser and process test, each loading the same packages.
 */
process.env.NODE_COMPILE_CACHE ??= path.join(scratch, "node-compile-cache");
// Kept after the run (test-results/ is ignored by git): every file's start and end, for a closer look at where the time went.
const report = path.resolve("test-results", "vitest-report.json");

const [checks, build, tests] = await Promise.all([
  // The GraphQL types are declarations (app/types/*.d.ts) only the typecheck reads: the build and the tests need not wait for them.
  lane([
    npm("graphql:codegen", "GraphQL types (graphql:codegen)"),
    npm("typecheck", "TypeScript, the app and the extensions (typecheck)"),
    npm("lint", "Lint (eslint, dependency-cruiser)"),
    npm("graphql:validate", "GraphQL documents against Shopify's 2026-10 schema (graphql:validate)"),
  ]),
  (async () => {
    const built = await run(npm("build", "Production build (remix, assets, extensions)"));
    writeFileSync(buildDone, built.ok ? "ok" : `npm run build failed:\n${built.output.slice(-2000)}`);
    return built;
  })(),
  run({
    name: "Tests (vitest)",
    live: true,
    command: ["npx", "vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
    env: { DAKIYA_BUILD_DONE_FILE: buildDone },
  }),
]);

const outcomes = [...checks, build, tests];
console.log(`\nnpm test took ${elapsed()} s in all, the steps side by side:`);
for (const outcome of outcomes) console.log(`  ${outcome.ok ? "✓" : "✗"} ${outcome.seconds.toFixed(1).padStart(6)} s  ${outcome.name}`);
printSlowest(report);
rmSync(scratch, { recursive: true, force: true });
const failed = outcomes.filter((outcome) => !outcome.ok);
if (failed.length > 0) console.log(`\n✗ ${failed.map((outcome) => outcome.name).join("; ")} failed.`);
process.exit(failed.length > 0 ? 1 : 0);

/** The test count and the slowest files, from vitest's JSON report: where to look to keep the suite fast. */
function printSlowest(file: string): void {
  let results: { numTotalTests: number; numPassedTests: number; testResults: { name: string; startTime: number; endTime: number; assertionResults: unknown[] }[] };
  try {
    results = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return;
  }
  const root = process.cwd();
  const files = results.testResults.map((result) => ({ file: path.relative(root, result.name), seconds: (result.endTime - result.startTime) / 1000, tests: result.assertionResults.length })).sort((a, b) => b.seconds - a.seconds);
  console.log(`\n${results.numPassedTests} of ${results.numTotalTests} tests passed, in ${files.length} files. The slowest files:`);
  for (const { file: name, seconds, tests } of files.slice(0, 15)) console.log(`  ${seconds.toFixed(1).padStart(6)} s  ${name} (${tests} tests)`);
}
