import type { Page } from "playwright-core";

/** Lighthouse's mobile profile slows the CPU 4×, which makes the phone it stands for of a machine it considers normal. */
export const DEFAULT_SLOWDOWN = 4;

/**
 * The CPU slowdown that makes this machine the phone Lighthouse's mobile profile stands for, from Lighthouse's
 * benchmark index of it, as Lighthouse's throttling docs calibrate it (its CPU throttling calculator: 4× at an index
 * of about 1,530, 2× at 800, 1× at 150), and never more than the profile's own 4×. On a slow machine the default 4×
 * stands for a slower phone than Lighthouse means, and multiplies the machine's own jitter into the measurement.
 */
export function calibratedSlowdown(benchmarkIndex: number): number {
  if (!Number.isFinite(benchmarkIndex)) return DEFAULT_SLOWDOWN;
  const slowdown = benchmarkIndex >= 1300 ? 3 + (benchmarkIndex - 1300) / 233 : benchmarkIndex >= 800 ? 2 + (benchmarkIndex - 800) / 500 : 1 + (benchmarkIndex - 150) / 650;
  return Math.min(DEFAULT_SLOWDOWN, Math.max(1, slowdown));
}

/**
 * Lighthouse's benchmark index of this machine, measured in the given page by Lighthouse's own page function (about
 * a second of string building and array copying): the median of `runs`, as it moves with what shares the cores.
 */
export async function benchmarkIndexIn(page: Page, runs = 3): Promise<number> {
  const { pageFunctions } = await import("lighthouse/core/lib/page-functions.js");
  const indexes: number[] = [];
  for (let run = 0; run < runs; run += 1) indexes.push(await page.evaluate(pageFunctions.computeBenchmarkIndex));
  return indexes.sort((a, b) => a - b)[Math.floor(indexes.length / 2)]!;
}
