import { performance } from "node:perf_hooks";
import * as hdr from "hdr-histogram-js";
import { Client, Pool } from "undici";
import { factoryFor, type RequestFactory, type RequestKind } from "./requests";

/**
 * The load generator: a process of its own (forked by bench/lib/load-client.ts), so the server under test does
 * not share its event loop with the client. Two models:
 *
 * - closed: `connections` loops, each on its own keep-alive connection, send a request, wait for the answer,
 *   send the next — the throughput the server sustains at that concurrency, and its latency there;
 * - open: requests are due at a fixed rate whatever the server does (as Shopify's deliveries are), over a pool
 *   of connections, and each latency is counted from when the request was due, not when it could be sent — so
 *   a server that falls behind shows its queue in the latency instead of slowing the generator down
 *   (coordinated omission, as wrk2 corrects it).
 *
 * Latencies go into an HDR histogram in microseconds; percentiles are read from it.
 */

export interface Target {
  origin: string;
  request: RequestKind;
  /** The number of the first request: numbers continue across runs of the same kind, so ids stay unique. */
  firstIndex: number;
}

export interface ClosedRun {
  model: "closed";
  target: Target;
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

export interface OpenRun {
  model: "open";
  target: Target;
  ratePerSecond: number;
  seconds: number;
  connections: number;
  /** Requests waiting or in flight beyond which the run is called off as overloaded. */
  maxOutstanding: number;
}

/** Sends given request numbers again (redeliveries), `connections` at a time. */
export interface ReplayRun {
  model: "replay";
  target: Target;
  indexes: number[];
  connections: number;
}

export type LoadRun = ClosedRun | OpenRun | ReplayRun;

export interface LoadSummary {
  /** Requests in the measured window (after warm-up). */
  requests: number;
  /** Of those, answered 2xx. */
  ok: number;
  seconds: number;
  /** 2xx answers per second over the measured window. */
  ratePerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Every answer by status (or network error code), warm-up included. */
  statuses: Record<string, number>;
  /** Requests sent in all, warm-up included: numbers firstIndex … firstIndex + sent - 1. */
  sent: number;
  /** Of those, answered 2xx. */
  okTotal: number;
  /** The first few non-2xx answers, cut short, to say what went wrong. */
  failures: string[];
  /** Open model only: the run was called off because too many requests were outstanding. */
  overloaded?: boolean;
}

const newHistogram = () => hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 300_000_000, numberOfSignificantValueDigits: 3 });

interface Tally {
  statuses: Record<string, number>;
  failures: string[];
  okTotal: number;
}

const CLIENT_OPTIONS = { pipelining: 1, keepAliveTimeout: 60_000, headersTimeout: 30_000, bodyTimeout: 30_000, connect: { timeout: 10_000 } } as const;

/** One request; the status (or error code) it ended with. */
async function send(dispatcher: Client | Pool, factory: RequestFactory, index: number, tally: Tally): Promise<boolean> {
  const built = factory(index);
  let status: string;
  let ok = false;
  try {
    const response = await dispatcher.request({ path: built.path, method: built.method, headers: built.headers, body: built.body });
    status = String(response.statusCode);
    ok = response.statusCode >= 200 && response.statusCode < 300;
    if (ok) await response.body.dump();
    else {
      const text = await response.body.text();
      if (tally.failures.length < 5) tally.failures.push(`${built.method} ${built.path} → ${status}: ${text.slice(0, 200)}`);
    }
  } catch (error) {
    status = (error as { code?: string }).code ?? (error as Error).name;
    if (tally.failures.length < 5) tally.failures.push(`${built.method} ${built.path} → ${status}`);
  }
  tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
  if (ok) tally.okTotal += 1;
  return ok;
}

function summarise(histogram: hdr.Histogram, requests: number, ok: number, seconds: number, sent: number, tally: Tally): LoadSummary {
  const ms = (percent: number) => (histogram.totalCount === 0 ? Number.NaN : histogram.getValueAtPercentile(percent) / 1000);
  return {
    requests,
    ok,
    seconds,
    ratePerSecond: ok / seconds,
    p50: ms(50),
    p90: ms(90),
    p99: ms(99),
    max: histogram.totalCount === 0 ? Number.NaN : histogram.maxValue / 1000,
    statuses: tally.statuses,
    sent,
    okTotal: tally.okTotal,
    failures: tally.failures,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function closed(run: ClosedRun): Promise<LoadSummary> {
  const factory = factoryFor(run.target.request);
  const histogram = newHistogram();
  const tally: Tally = { statuses: {}, failures: [], okTotal: 0 };
  const clients = Array.from({ length: run.connections }, () => new Client(run.target.origin, CLIENT_OPTIONS));
  let next = run.target.firstIndex;
  let measureFrom = Number.POSITIVE_INFINITY;
  let stopAt = Number.POSITIVE_INFINITY;
  let requests = 0;
  let ok = 0;
  const loops = clients.map(async (client) => {
    while (performance.now() < stopAt) {
      const index = next++;
      const started = performance.now();
      const succeeded = await send(client, factory, index, tally);
      if (started >= measureFrom && started < stopAt) {
        histogram.recordValue(Math.max(1, Math.round((performance.now() - started) * 1000)));
        requests += 1;
        if (succeeded) ok += 1;
      }
    }
  });
  await sleep(run.warmupSeconds * 1000);
  measureFrom = performance.now();
  await sleep(run.seconds * 1000);
  stopAt = performance.now();
  await Promise.all(loops);
  await Promise.all(clients.map((client) => client.close()));
  return summarise(histogram, requests, ok, (stopAt - measureFrom) / 1000, next - run.target.firstIndex, tally);
}

async function open(run: OpenRun): Promise<LoadSummary> {
  const factory = factoryFor(run.target.request);
  const histogram = newHistogram();
  const tally: Tally = { statuses: {}, failures: [], okTotal: 0 };
  const pool = new Pool(run.target.origin, { ...CLIENT_OPTIONS, connections: run.connections });
  const total = Math.round(run.ratePerSecond * run.seconds);
  const interval = 1000 / run.ratePerSecond;
  const start = performance.now() + 20;
  let issued = 0;
  let outstanding = 0;
  let ok = 0;
  let overloaded = false;
  const inFlight = new Set<Promise<void>>();
  while (issued < total && !overloaded) {
    const now = performance.now();
    while (issued < total && start + issued * interval <= now) {
      const due = start + issued * interval;
      const index = run.target.firstIndex + issued;
      issued += 1;
      outstanding += 1;
      const request = send(pool, factory, index, tally).then((succeeded) => {
        histogram.recordValue(Math.max(1, Math.round((performance.now() - due) * 1000)));
        if (succeeded) ok += 1;
        outstanding -= 1;
        inFlight.delete(request);
      });
      inFlight.add(request);
      if (outstanding > run.maxOutstanding) {
        overloaded = true;
        break;
      }
    }
    // The next request's due time, at timer resolution (about a millisecond); late ones go out together.
    await sleep(Math.max(0, Math.min(5, start + issued * interval - performance.now())));
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - start) / 1000;
  await pool.close();
  return { ...summarise(histogram, issued, ok, Math.max(seconds, run.seconds), issued, tally), overloaded };
}

async function replay(run: ReplayRun): Promise<LoadSummary> {
  const factory = factoryFor(run.target.request);
  const histogram = newHistogram();
  const tally: Tally = { statuses: {}, failures: [], okTotal: 0 };
  const pool = new Pool(run.target.origin, { ...CLIENT_OPTIONS, connections: run.connections });
  const queue = [...run.indexes];
  let ok = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: run.connections }, async () => {
      for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
        const sentAt = performance.now();
        if (await send(pool, factory, index, tally)) ok += 1;
        histogram.recordValue(Math.max(1, Math.round((performance.now() - sentAt) * 1000)));
      }
    }),
  );
  await pool.close();
  return summarise(histogram, run.indexes.length, ok, (performance.now() - started) / 1000, run.indexes.length, tally);
}

export type GeneratorMessage = { id: number; run: LoadRun };
export type GeneratorAnswer = { id: number; summary?: LoadSummary; error?: string };

process.on("message", (message: GeneratorMessage) => {
  const run = message.run;
  const work = run.model === "closed" ? closed(run) : run.model === "open" ? open(run) : replay(run);
  work.then(
    (summary) => process.send!({ id: message.id, summary } satisfies GeneratorAnswer),
    (error: Error) => process.send!({ id: message.id, error: error.stack ?? String(error) } satisfies GeneratorAnswer),
  );
});
process.on("disconnect", () => process.exit(0));
process.send?.({ id: 0 } satisfies GeneratorAnswer);
