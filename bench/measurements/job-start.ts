import { performance } from "node:perf_hooks";
import pg from "pg";
import type { BenchContext } from "../lib/context";
import { fmtMs, latencyOf, section, verdict, type Section } from "../lib/results";
import type { Measurement } from "./measurement";

/**
 * Time from enqueue to the handler starting, on an idle worker: the real queue (app/jobs/job-queue.server.ts:
 * `enqueue`, `startWorkers`, the real `app-uninstalled` queue and its policy) in the bench's own process, with
 * the real handler wrapped so it notes when it starts (it then signs out a shop that has no sessions: a no-op).
 * One job at a time, each after an idle pause, so every job meets a worker that is waiting, not one that is busy.
 *
 * Runs before the app server starts: the app's own workers would otherwise take some of these jobs.
 */
const SAMPLES = 60;
const MAX_SECONDS = 60;
const TARGET_P99_MS = 1_000;

/** The floor: how long PostgreSQL takes to hand a NOTIFY to a LISTENing connection on this machine. */
async function notifyLatency(url: string, samples: number): Promise<number[]> {
  const listener = new pg.Client({ connectionString: url });
  const sender = new pg.Client({ connectionString: url });
  await Promise.all([listener.connect(), sender.connect()]);
  try {
    await listener.query("LISTEN dakiya_bench_floor");
    const times: number[] = [];
    for (let sample = 0; sample < samples; sample += 1) {
      const heard = new Promise<number>((resolve) => listener.once("notification", () => resolve(performance.now())));
      const sent = performance.now();
      await sender.query("NOTIFY dakiya_bench_floor");
      times.push((await heard) - sent);
    }
    return times;
  } finally {
    await Promise.all([listener.end(), sender.end()]);
  }
}

export const jobStart: Measurement = {
  id: "jobs",
  title: "Job start latency",
  async run(context: BenchContext): Promise<Section> {
    const result = section(
      "jobs",
      "Job start latency",
      `From calling \`enqueue\` to the handler starting, one job at a time on an idle worker (${SAMPLES} jobs, each after a random 100–300 ms pause): the real pg-boss queue of app/jobs/job-queue.server.ts on the \`app-uninstalled\` queue, started by \`startWorkers\` as the app starts it, with the real handler wrapped to note when it starts (it signs out a shop that has no sessions). The floor is a bare PostgreSQL NOTIFY reaching a LISTENing connection, the wake-up the queue's LISTEN/NOTIFY mode rides on; the limit is the worker's polling interval, what a job waits when no notification wakes the worker.`,
    );
    const { enqueue, startWorkers } = await import("../../app/jobs/job-queue.server");
    const { createJobHandlers } = await import("../../app/workers/job-handlers.server");
    const { stopBackgroundWork } = await import("../../server/background");

    const real = createJobHandlers();
    const started = new Map<string, (at: number) => void>();
    await startWorkers({
      handlers: {
        ...real,
        "app-uninstalled": async (data, job) => {
          started.get(data.shop)?.(performance.now());
          await real["app-uninstalled"](data, job);
        },
      },
      queues: ["app-uninstalled"],
    });
    // Let the worker reach its idle wait before the first job.
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const latencies: number[] = [];
    const enqueueCalls: number[] = [];
    let missed = 0;
    const deadline = performance.now() + MAX_SECONDS * 1000;
    try {
      for (let sample = 0; sample < SAMPLES && performance.now() < deadline; sample += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
        const shop = `bench-${context.runId}-job-${sample}.myshopify.com`;
        const began = new Promise<number>((resolve) => started.set(shop, resolve));
        const enqueuedAt = performance.now();
        await enqueue("app-uninstalled", { shop });
        enqueueCalls.push(performance.now() - enqueuedAt);
        const startedAt = await Promise.race([began, new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000))]);
        started.delete(shop);
        if (startedAt === null) missed += 1;
        else latencies.push(startedAt - enqueuedAt);
      }
    } finally {
      await stopBackgroundWork();
    }

    const floor = latencyOf(await notifyLatency(context.database.url, 100));
    const measured = latencyOf(latencies);
    const pass = missed === 0 && measured.p99 <= TARGET_P99_MS;
    result.rows.push({
      name: "enqueue → handler start, idle worker",
      result: `p50 ${fmtMs(measured.p50)}, p99 ${fmtMs(measured.p99)}, max ${fmtMs(measured.max)} (${latencies.length} jobs${missed ? `, ${missed} not started within 10 s` : ""})`,
      reference: `NOTIFY → LISTEN: p50 ${fmtMs(floor.p50)}, p99 ${fmtMs(floor.p99)}; polling limit 2 s`,
      target: `p99 ≤ ${fmtMs(TARGET_P99_MS)}`,
      verdict: verdict(pass),
    });
    const calls = latencyOf(enqueueCalls);
    result.notes.push(`The enqueue call itself (one INSERT and its commit): p50 ${fmtMs(calls.p50)}, p99 ${fmtMs(calls.p99)}.`);
    return result;
  },
};
