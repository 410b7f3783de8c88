/**
 * What a measurement hands back: rows that each put a figure beside the floor or limit measured in the same
 * run and the target it must meet, plus detail tables and notes. The report writer (report.ts) turns a list of
 * sections into the console table and docs/BENCHMARKS.md; measurements never format the report themselves.
 */

export type Verdict = "PASS" | "FAIL" | "INFO";

export interface Row {
  /** What was measured, e.g. "orders/create at 10 connections". */
  name: string;
  /** The figure, formatted: "812/s, p50 4.1 ms, p99 11.9 ms". */
  result: string;
  /** The floor or limit beside it, measured in the same run: "bare route 3,120/s (26 %)". */
  reference: string;
  /** The target in words: "≥ 500/s, p99 ≤ 25 ms". */
  target: string;
  verdict: Verdict;
}

export interface DetailTable {
  title: string;
  header: string[];
  rows: string[][];
}

export interface Section {
  id: string;
  title: string;
  /** One paragraph: what is measured and how. */
  method: string;
  rows: Row[];
  details: DetailTable[];
  notes: string[];
}

export function section(id: string, title: string, method: string): Section {
  return { id, title, method, rows: [], details: [], notes: [] };
}

export const verdict = (pass: boolean): Verdict => (pass ? "PASS" : "FAIL");

/** A latency summary in milliseconds from a load run or a list of samples. */
export interface Latency {
  p50: number;
  p75?: number;
  p90?: number;
  p99: number;
  max: number;
}

const grouped = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

export const fmtRate = (perSecond: number) => `${grouped.format(perSecond)}/s`;

export function fmtMs(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

export const fmtPercent = (fraction: number) => `${(fraction * 100).toFixed(0)} %`;

/** Percentile by nearest rank over a small list of samples (jobs, page loads); load runs use a histogram. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function latencyOf(samples: number[]): Latency {
  return { p50: percentile(samples, 50), p75: percentile(samples, 75), p90: percentile(samples, 90), p99: percentile(samples, 99), max: Math.max(...samples) };
}

/** One row of a "cost per request" table: a load run's figures and the CPU it cost the server per request. */
export function costRow(name: string, run: { ratePerSecond: number; p50: number; p99: number; cpu: { node: number; postgres: number | null } }): string[] {
  return [
    name,
    fmtRate(run.ratePerSecond),
    fmtMs(run.p50),
    fmtMs(run.p99),
    `${run.cpu.node.toFixed(2)} ms`,
    run.cpu.postgres === null ? "—" : `${run.cpu.postgres.toFixed(2)} ms`,
    run.cpu.node > 0 ? fmtRate(1000 / run.cpu.node) : "—",
  ];
}

export const COST_HEADER = ["run", "rate", "p50", "p99", "app CPU / request", "PostgreSQL CPU / request", "one core's worth of app CPU"];
export const COST_NOTE =
  "CPU per request is measured from /proc over the whole run (warm-up included) for the app server's Node process and the bench's PostgreSQL; it does not depend on what else shares the machine. \"One core's worth\" is 1,000 ms divided by the app's CPU per request: the rate at which the app's single event loop would be saturated.";
