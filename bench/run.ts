import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { buildServer, PROCESSES_DIR, SERVER_ENTRIES } from "../scripts/build-server";
import { createContext } from "./lib/context";
import { openBenchDatabase } from "./lib/database";
import { describeMachine } from "./lib/machine";
import { consoleTable, readFindings, readPreviousSummary, writeReport, type Report } from "./lib/report";
import { section, type Section } from "./lib/results";
import { MEASUREMENTS, PLANNED } from "./measurements";

/**
 * `npm run bench`: starts what it measures (PostgreSQL, the production server, the load generator, the demo and
 * a browser), runs every measurement in bench/measurements/, prints the summary and writes docs/BENCHMARKS.md.
 * Loopback only, bounded in time (a hard stop at 30 minutes) and count.
 *
 *   npm run bench                           everything, writes docs/BENCHMARKS.md
 *   npm run bench -- --only webhooks,courier  some measurements (ids in bench/measurements/); prints only, unless --write
 *   npm run bench -- --seconds 10           seconds per closed-model run (default 6, after 2 s of warm-up)
 *   npm run bench -- --no-write             print only
 *   npm run bench -- --only tracking-sync --report /tmp/tracking.md   also the whole report (every detail table) to
 *                                           that file, not docs/BENCHMARKS.md: the console's table cuts long figures
 *   npm run bench -- --only booking-budget --full   the full counts (1,000 bookings, 10,000
 *                                           tracked shipments, then 100,000 across 100 shops, 200 new orders): longer
 *                                           than 30 minutes, so the hard stop is an hour; prints only, unless --write
 *   BENCH_CPU_PROF=1 npm run bench -- …      the app server writes a CPU profile to bench-profiles/ (open in Chrome's DevTools)
 *   BENCH_APP_ENV='DATABASE_POOL_SIZE=20'   extra environment for the app server, to try a setting
 *   BENCH_APP_NODE_ARGS=--trace-gc          extra node arguments for the app server (its output is kept for a failure's report)
 *   DATABASE_URL=postgresql://…             benchmark that PostgreSQL instead of an embedded one (migrated, left running)
 */
const HARD_STOP_MS = 30 * 60_000;
// --full books 1,000 orders at the Standard plan's budget, which alone takes about ten minutes.
const FULL_HARD_STOP_MS = 60 * 60_000;

function parseArgs(argv: string[]) {
  const options = { only: null as string[] | null, seconds: 6, write: null as boolean | null, full: false, reportFile: null as string | null };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg === "--only") options.only = (argv[++index] ?? "").split(",").filter(Boolean);
    else if (arg === "--seconds") options.seconds = Math.max(2, Math.min(30, Number(argv[++index])));
    else if (arg === "--no-write") options.write = false;
    else if (arg === "--write") options.write = true;
    else if (arg === "--full") options.full = true;
    else if (arg === "--report") {
      options.reportFile = argv[++index] ?? "";
      if (!options.reportFile || options.reportFile.startsWith("--")) throw new Error("--report needs a file to write the report to");
    }
    else throw new Error(`Unknown argument ${arg}; see bench/run.ts`);
  }
  const known = new Set(MEASUREMENTS.map((measurement) => measurement.id));
  const unknown = options.only?.filter((id) => !known.has(id)) ?? [];
  if (unknown.length > 0) throw new Error(`No measurement ${unknown.join(", ")}; there are ${[...known].join(", ")}`);
  // A partial run, or one at other counts than the default, prints; it overwrites the report only when asked to.
  return { ...options, write: options.write ?? (options.only === null && !options.full) };
}

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** The production build of the app and its server processes as they are now: built again when a source is newer. */
async function ensureBuild(): Promise<void> {
  const outputs = ["build/index.js", ...Object.keys(SERVER_ENTRIES).map((name) => `${PROCESSES_DIR}/${name}.js`)];
  const built = Math.min(...outputs.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
  if (built > Math.max(newestIn("app"), newestIn("server"), newestIn("store"), statSync("remix.config.js").mtimeMs)) return;
  console.log("Building the app (remix build) and its server processes: the build is missing or older than its sources");
  execFileSync(path.resolve("node_modules/.bin/remix"), ["build"], { stdio: "inherit" });
  await buildServer();
}

const args = process.argv.slice(2);
const options = parseArgs(args);
const command = `${process.env.DATABASE_URL ? "DATABASE_URL=… " : ""}${process.env.BENCH_CPU_PROF ? "BENCH_CPU_PROF=1 " : ""}${process.env.BENCH_APP_ENV ? `BENCH_APP_ENV='${process.env.BENCH_APP_ENV}' ` : ""}npm run bench${args.length > 0 ? ` -- ${args.join(" ")}` : ""}`;
const startedAt = new Date();
const began = performance.now();

await ensureBuild();
const scratch = mkdtempSync(path.join(os.tmpdir(), "dakiya-bench-"));
console.log(`Scratch directory ${scratch}`);
const database = await openBenchDatabase(scratch);
// The measurements that run in this process (the job queue) load app modules, which read DATABASE_URL.
process.env.DATABASE_URL = database.url;
const runId = startedAt.getTime().toString(36);
const profiles = path.resolve("bench-profiles");
const appEnv = Object.fromEntries((process.env.BENCH_APP_ENV ?? "").split(/\s+/).filter(Boolean).map((pair) => pair.split("=", 2) as [string, string]));
const context = createContext({
  database,
  scratch,
  runId,
  durations: { seconds: options.seconds, warmupSeconds: 2 },
  full: options.full,
  appNodeOptions: process.env.BENCH_CPU_PROF ? `--cpu-prof --cpu-prof-dir=${profiles}` : undefined,
  appNodeArgs: (process.env.BENCH_APP_NODE_ARGS ?? "").split(/\s+/).filter(Boolean),
  appEnv,
});

let cleaned: Promise<void> | undefined;
const cleanUp = () =>
  (cleaned ??= (async () => {
    await context.close().catch((error: Error) => console.error(`Stopping the servers: ${error.message}`));
    await database.close().catch((error: Error) => console.error(`Stopping PostgreSQL: ${error.message}`));
    rmSync(scratch, { recursive: true, force: true });
  })());
const hardStopMs = options.full ? FULL_HARD_STOP_MS : HARD_STOP_MS;
setTimeout(() => {
  console.error(`The bench ran over ${hardStopMs / 60_000} minutes: stopping.`);
  void cleanUp().finally(() => process.exit(1));
}, hardStopMs).unref();
process.on("SIGINT", () => void cleanUp().finally(() => process.exit(130)));

const machine = describeMachine(database);
const sections: Section[] = [];
try {
  for (const measurement of MEASUREMENTS) {
    if (options.only && !options.only.includes(measurement.id)) continue;
    console.log(`\n${measurement.title}`);
    try {
      sections.push(await measurement.run(context));
    } catch (error) {
      // One broken measurement is reported as such; the others still run.
      const failed = section(measurement.id, measurement.title, "The measurement did not finish.");
      failed.rows.push({ name: "the measurement itself", result: `error: ${(error as Error).message.split("\n")[0]}`, reference: "—", target: "finishes", verdict: "FAIL" });
      failed.notes.push(`\`\`\`\n${((error as Error).stack ?? String(error)).slice(0, 2000)}\n\`\`\``);
      sections.push(failed);
      console.error(error);
    }
  }
} finally {
  await cleanUp();
}

const report: Report = {
  command,
  startedAt,
  seconds: (performance.now() - began) / 1000,
  machine,
  sections,
  planned: PLANNED.map(({ title, what }) => ({ title, what })),
  findings: readFindings(path.resolve("bench/findings.md")),
  previous: readPreviousSummary(path.resolve("docs/BENCHMARKS.md")),
};
console.log(`\n${consoleTable(report)}`);
if (options.write) {
  writeReport(report, path.resolve("docs/BENCHMARKS.md"));
  console.log("Wrote docs/BENCHMARKS.md");
}
if (options.reportFile) {
  writeReport(report, path.resolve(options.reportFile));
  console.log(`Wrote the report to ${options.reportFile}`);
}
if (process.env.BENCH_CPU_PROF) console.log(`CPU profiles of the app server: ${profiles}`);
process.exit(0);
