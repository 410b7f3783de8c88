import { execFileSync } from "node:child_process";
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { loadConfig } from "../../app/config.server";
import { signSessionToken } from "../../store/auth";
import type { BenchContext } from "../lib/context";
import { fmtMs, fmtRate, section, verdict, type Section } from "../lib/results";
import { PLUS_PLAN, startStoreWorld } from "../lib/store-world";
import type { Measurement } from "./measurement";

/**
 * A COD remittance statement of 100,000 lines imported the way a merchant imports one: the CSV file streamed in a
 * chunked POST to the app's production server (`/app/cod/upload`, with the admin's session token), read as it
 * arrives, each line matched to its parcel and judged, all in one transaction. Beside it, the floor: the same file
 * read and parsed alone (the same CSV reader and row reading, from disk, in a fresh Node process). Memory is the app
 * process's peak resident memory above what it held just before each import — for a file of 10,000 lines and one of
 * 100,000: held to one batch, it does not grow with the file.
 */
const ID = "remittance-import";
const TITLE = "COD remittance statement: 100,000 lines imported in bounded memory";
const LINES = 100_000;
const SMALL = 10_000;
/** The app server answers a request whose body has not all arrived within 60 s with 408 (server/http.ts). */
const REQUEST_TIMEOUT_MS = 60_000;
const GROWTH_LIMIT_MB = 128;
/**
 * The app's JavaScript heap for this measurement. V8 lets garbage pile up while a heap has room, so an uncapped
 * process's peak memory says when its collector ran, not what the import holds. Capped at 160 MB — about 70 MB of it
 * the app's own at rest — an import that held the file's lines (about 1 KB each once read and judged: 100 MB for
 * 100,000) would run out of heap and fail.
 */
const HEAP_MB = 160;

interface ParseRun {
  rows: number;
  problems: number;
  ms: number;
  rowsPerSecond: number;
  memoryGrowthMb: number;
}

interface ImportRun {
  status: number;
  ms: number;
  summary: Record<string, number>;
  growthMb: number;
}

/** The kernel's figures for a process: resident now, and the peak since it was last reset. */
function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? NaN);
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
}

/** Resets the process's peak resident memory to what it holds now (Linux: clear_refs 5). */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
}

/** A statement as an aggregator's panel gives it: one line a parcel; every 1,000th short by ₹50, and 10 awbs nobody booked. */
function writeStatement(file: string, awbs: readonly string[], utr: string, unknownTag: string): void {
  const lines = ["AWB No,Order ID,COD Amount,UTR,Remittance Date"];
  awbs.forEach((awb, index) => lines.push(`${awb},${index + 1},${index % 1_000 === 999 ? "749.00" : "799.00"},${utr},20/11/2026`));
  for (let index = 0; index < 10; index += 1) lines.push(`X${unknownTag}${String(index).padStart(12, "0")},,499.00,${utr},20/11/2026`);
  writeFileSync(file, `${lines.join("\r\n")}\r\n`);
}

/** The file streamed to the app in a chunked POST, as a browser's upload arrives; the answer and the time it took. */
function upload(url: string, token: string, file: string): Promise<{ status: number; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const target = new URL(url);
    const request = httpRequest(
      { host: "127.0.0.1", port: target.port, path: `${target.pathname}${target.search}`, method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "text/csv", "Transfer-Encoding": "chunked" } },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body, ms: performance.now() - began }));
      },
    );
    request.on("error", reject);
    createReadStream(file, { highWaterMark: 64 * 1024 }).pipe(request);
  });
}

export const remittanceImport: Measurement = {
  id: ID,
  title: TITLE,
  async run(context: BenchContext): Promise<Section> {
    const result = section(
      ID,
      TITLE,
      `A shop with ${LINES.toLocaleString("en-US")} delivered cash-on-delivery parcels (seeded with SQL: what the import reads of them is the awb, the cash to collect and the delivery), and statements of their remittances as aggregators' panels give them (awb, order id, amount, UTR, date; every 1,000th line ₹50 short, 10 awbs nobody booked). Each is streamed from disk in a chunked POST to the production app's \`/app/cod/upload\` with the admin's session token (a store world: the app, one worker and the store simulator, on a scratch database): read as it arrives, 2,000 lines at a time matched to their parcels (by awb), judged and written, in one transaction. First ${SMALL.toLocaleString("en-US")} lines, then all ${LINES.toLocaleString("en-US")} (whose first ${SMALL.toLocaleString("en-US")} repeat the first file's: already imported). The app runs with its JavaScript heap capped at ${HEAP_MB} MB (\`--max-old-space-size\`): an import that held the file or its lines would run out of it and fail, where an uncapped process's peak memory would show only when its collector ran. Memory is also reported as the app process's peak resident memory (the kernel's VmHWM, reset just before each import) above what it held just before. The floor, in the same run: the same ${LINES.toLocaleString("en-US")}-line file read and parsed alone by the same code in a fresh Node process with the same heap. Marking orders paid in Shopify is off for the shop: that is the worker's and Shopify's budget, not the import.`,
    );
    const dir = mkdtempSync(path.join(os.tmpdir(), "dakiya-bench-remittance-"));
    const world = await startStoreWorld(context, { name: "remittance", throttle: PLUS_PLAN, appNodeOptions: `--max-old-space-size=${HEAP_MB}` });
    try {
      const shop = `bench-${context.runId}-remittance.myshopify.com`;
      await world.installShop(shop);
      await world.query(`INSERT INTO "ReconciliationSettings" (shop, "markPaidInShopify", "updatedAt") VALUES ($1, false, now())`, [shop]);
      context.log(`remittance: seeding ${LINES} delivered COD parcels`);
      await world.query(
        `INSERT INTO "Shipment" (shop, "orderGid", "orderName", status, "requestPayload", "courierEnvironment", "paymentMode", "cashToCollectPaise", awb, "courierName", outcome, "courierStatusCode", "deliveredAt", "updatedAt")
         SELECT $1, 'gid://shopify/Order/' || (900000000 + n), '#B' || n, 'fulfilled', '', 'test', 'cod', 79900, 'B' || $2 || lpad(n::text, 7, '0'), 'Delhivery', 'delivered', 8, now() - interval '3 days', now()
           FROM generate_series(1, $3::int) AS n`,
        [shop, context.runId, LINES],
      );
      const awbs = Array.from({ length: LINES }, (_, index) => `B${context.runId}${String(index + 1).padStart(7, "0")}`);
      const [small, large] = [path.join(dir, "small.csv"), path.join(dir, "large.csv")];
      writeStatement(small, awbs.slice(0, SMALL), `SBXBENCH${context.runId}`, "A");
      writeStatement(large, awbs, `SBXBENCH${context.runId}`, "B");

      const parse = JSON.parse(execFileSync(process.execPath, [`--max-old-space-size=${HEAP_MB}`, "--import", "tsx", path.resolve("bench/tools/parse-statement.ts"), large], { encoding: "utf8", timeout: 120_000 }).trim().split("\n").at(-1)!) as ParseRun;

      const token = signSessionToken((() => {
        const defaults = loadConfig({});
        return { apiKey: defaults.SHOPIFY_API_KEY, apiSecret: defaults.SHOPIFY_API_SECRET, scopes: defaults.SCOPES };
      })(), shop);
      const importOnce = async (file: string, name: string): Promise<ImportRun> => {
        const before = memoryOf(world.app.pid).rssMb;
        resetPeak(world.app.pid);
        const answer = await upload(`${world.app.url}/app/cod/upload?name=${name}`, token, file);
        const peak = memoryOf(world.app.pid).peakMb;
        // An answer that is not the import's JSON (a 408 for a body that did not all arrive in time) is reported as its status.
        const body = (() => {
          try {
            return JSON.parse(answer.body) as { summary?: Record<string, number> };
          } catch {
            return {};
          }
        })();
        return { status: answer.status, ms: answer.ms, summary: body.summary ?? {}, growthMb: peak - before };
      };
      context.log(`remittance: importing ${SMALL} lines`);
      const first = await importOnce(small, "small.csv");
      context.log(`remittance: importing ${LINES} lines`);
      const second = await importOnce(large, "large.csv");
      const lines = LINES + 10;
      const rate = (lines / second.ms) * 1000;
      const expected = { paid_in_full: LINES - SMALL - (LINES - SMALL) / 1_000, short: (LINES - SMALL) / 1_000, already_imported: SMALL, unknown_awb: 10 };
      const judged = second.status === 200 && Object.entries(expected).every(([name, count]) => second.summary[name] === count);
      const [stored] = await world.query<{ lines: number }>(`SELECT count(*)::int AS lines FROM "RemittanceLine" WHERE shop = $1`, [shop]);

      result.rows.push({
        name: `${LINES.toLocaleString("en-US")}-line statement (${(statSync(large).size / 1024 / 1024).toFixed(1)} MB) streamed, matched, judged and stored`,
        result: `${fmtRate(rate)} lines (${fmtMs(second.ms)} for ${lines.toLocaleString("en-US")})`,
        reference: `parsing the same file alone: ${fmtRate(parse.rowsPerSecond)} (${fmtMs(parse.ms)}); the import at ${((rate / parse.rowsPerSecond) * 100).toFixed(1)} % of it`,
        target: `within the server's ${REQUEST_TIMEOUT_MS / 1000} s request timeout; every line judged as written`,
        verdict: verdict(judged && second.ms < REQUEST_TIMEOUT_MS && stored!.lines === SMALL + 10 + lines),
      });
      result.rows.push({
        name: `the app's memory while importing, its JavaScript heap capped at ${HEAP_MB} MB`,
        result: `${second.status === 200 ? "imported" : `answered ${second.status}`}; peak resident memory ${second.growthMb.toFixed(0)} MB above what it held before`,
        reference: `${SMALL.toLocaleString("en-US")} lines: ${first.growthMb.toFixed(0)} MB; the parse alone (same heap) grew ${parse.memoryGrowthMb.toFixed(0)} MB`,
        target: `completes within the capped heap (the file's lines held would need about 100 MB more than it has), peak growth ≤ ${GROWTH_LIMIT_MB} MB`,
        verdict: verdict(first.status === 200 && second.status === 200 && second.growthMb <= GROWTH_LIMIT_MB),
      });
      result.details.push({
        title: "Verdicts of the 100,000-line statement",
        header: ["verdict", "lines", "expected"],
        rows: Object.entries(expected).map(([name, count]) => [name, String(second.summary[name] ?? 0), String(count)]),
      });
    } finally {
      await world.close();
      rmSync(dir, { recursive: true, force: true });
    }
    return result;
  },
};
