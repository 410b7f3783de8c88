import { createReadStream } from "node:fs";
import { performance } from "node:perf_hooks";
import { csvRecordBatches } from "../../app/csv";
import { rowReaderOf, readRemittanceRow, isRowProblem, STATEMENT_LIMITS } from "../../app/reconciliation/statement-rows";
import { chooseMapping } from "../../app/reconciliation/statement-columns";

/**
 * The floor of the remittance import: a statement file read and parsed alone — the same CSV reader and row reading
 * the import uses, streamed from disk in the same 2,000-row batches, with nothing matched or written. Run in a fresh
 * Node process: `npx tsx bench/tools/parse-statement.ts <file>`; prints one JSON line (rows, ms, rows a second, the
 * process's peak memory growth).
 */
const file = process.argv[2];
if (!file) throw new Error("usage: parse-statement.ts <statement.csv>");
const resident = () => process.memoryUsage().rss;
const before = resident();
let peak = before;
const began = performance.now();
let rows = 0;
let problems = 0;
let reader: ReturnType<typeof rowReaderOf> | null = null;
const limits = { maxRecords: STATEMENT_LIMITS.maxRows + 1, maxFields: STATEMENT_LIMITS.maxFields, maxFieldLength: STATEMENT_LIMITS.maxFieldLength };
for await (const batch of csvRecordBatches(createReadStream(file, { highWaterMark: 64 * 1024 }), { batchSize: 2_000, limits })) {
  let records = batch;
  if (!reader) {
    const headers = batch[0]!.fields;
    reader = rowReaderOf("remittance", headers, chooseMapping("remittance", headers, {}));
    records = batch.slice(1);
  }
  for (const record of records) {
    if (isRowProblem(readRemittanceRow(reader, record))) problems += 1;
    else rows += 1;
  }
  peak = Math.max(peak, resident());
}
const ms = performance.now() - began;
console.log(JSON.stringify({ rows, problems, ms, rowsPerSecond: (rows / ms) * 1000, memoryGrowthMb: (peak - before) / 1024 / 1024 }));
