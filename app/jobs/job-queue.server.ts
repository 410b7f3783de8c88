import { createHash } from "node:crypto";
import { semaphore } from "~/concurrency";
import type { PoolClient } from "pg";
import { fromPrisma, PgBoss, type Db, type Job } from "pg-boss";
import { getConfig } from "~/config.server";
import { databaseUrl } from "~/db.server";
import { BUSY_QUEUE_JOBS_AT_ONCE, idleLookSecondsOf, JOB_SCHEMAS, jobKey, QUEUE_NAMES, QUEUE_POLICIES, retryLimitOf, SCHEDULES, shopOf, type JobData, type QueueName } from "./queues";
import { jobSubjectInWords, type JobSubject } from "./job-words";

/**
 * Dakiya's background work runs on pg-boss, a job queue in PostgreSQL (docs/ARCHITECTURE.md says why this one):
 * jobs survive restarts, are shared by every app and worker process on the database, are retried with
 * exponential back-off, and a job whose worker died (its heartbeat stopped) is retried by another.
 */

declare global {
  // One queue per process, whether loaded from the build or from source.
  var __dakiyaJobQueue: Promise<PgBoss> | undefined;
}

// How often a running job proves its worker is alive, and how often that is checked: a worker killed mid-job
// has its job retried by another within about a minute.
const HEARTBEAT_SECONDS = 20;
const MONITOR_SECONDS = 15;
// A live job's proof is written four times per HEARTBEAT_SECONDS rather than pg-boss's two: one write lost to a
// dropped connection (a database failover) is made up before the job counts as abandoned and is retried beside itself.
const HEARTBEAT_REFRESH_SECONDS = HEARTBEAT_SECONDS / 4;
/**
 * Jobs of one shop running at once, across every worker: a shop with a burst of 200 new orders (which mostly
 * wait for its Shopify cost budget) takes three workers' slots, and other shops' jobs run beside it.
 */
export const JOBS_PER_SHOP = 3;

export interface JobQueueOptions {
  /** Seconds between checks for lost and expired jobs. */
  monitorSeconds?: number;
}

async function createQueue(options: JobQueueOptions): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: databaseUrl(),
    schema: "pgboss",
    max: 4,
    application_name: "dakiya-jobs",
    useListenNotify: true,
    monitorIntervalSeconds: options.monitorSeconds ?? MONITOR_SECONDS,
    superviseIntervalSeconds: options.monitorSeconds ?? MONITOR_SECONDS,
    // How often each queue's backlog is read, which is what lets a worker run a backlog without pausing (below).
    queueCacheIntervalSeconds: options.monitorSeconds ?? MONITOR_SECONDS,
    registerInstance: false,
    openTelemetry: { enabled: false },
  });
  // pg-boss reports its own trouble (a lost connection, a slow query) as events; without a listener Node throws.
  boss.on("error", (error) => console.error(`Job queue: ${error.message}`));
  await boss.start({ attempts: 3 });
  for (const name of QUEUE_NAMES) {
    const policy = QUEUE_POLICIES[name];
    const behaviour = {
      retryLimit: retryLimitOf(policy),
      retryDelay: policy.retryDelay,
      retryDelayMax: policy.retryDelayMax,
      retryBackoff: true,
      expireInSeconds: policy.expireInSeconds,
      heartbeatSeconds: HEARTBEAT_SECONDS,
      // Failed jobs stay visible (and retryable) in the admin for a month.
      deleteAfterSeconds: 30 * 86_400,
    } as const;
    // A queue an earlier version created takes today's policy: every new job gets it (a job keeps what it was sent with).
    if (await boss.getQueue(name)) await boss.updateQueue(name, behaviour);
    else await boss.createQueue(name, { ...behaviour, policy: "stately", notify: true });
  }
  return boss;
}

/** The process's job queue, started on first use (schema installed, queues declared); no workers yet. */
export function jobQueue(options: JobQueueOptions = {}): Promise<PgBoss> {
  globalThis.__dakiyaJobQueue ??= createQueue(options).catch((error) => {
    globalThis.__dakiyaJobQueue = undefined;
    throw error;
  });
  return globalThis.__dakiyaJobQueue;
}

const stableKey = (key: string) => (key.length <= 200 ? key : `sha256:${createHash("sha256").update(key).digest("hex")}`);

export interface EnqueueOptions {
  /** Not before this time. */
  startAfter?: Date;
  /** A Prisma interactive transaction: the job is enqueued if, and only if, the transaction commits. */
  tx?: Parameters<typeof fromPrisma>[0];
  /** A pg connection inside a transaction (BEGIN sent or queued), for callers on the pool directly: the same, without Prisma. */
  client?: PoolClient;
  /**
   * At most one job of this key in each window of this many seconds, across every process (pg-boss's singleton
   * slots): a later one in the same window is not enqueued (null).
   */
  atMostEverySeconds?: number;
}

// pg-boss writes the same INSERT for every job of a queue: prepared once per connection under a name of its own, so
// PostgreSQL parses and plans it once rather than for every webhook (npm run bench).
// A name is the text's hash, so one text can never be prepared under two names or two texts under one.
const statementNames = new Map<string, string>();
const statementNameOf = (text: string) => {
  let name = statementNames.get(text);
  if (name === undefined) {
    // One text per queue; a bound all the same, should a later pg-boss write values into its text.
    if (statementNames.size >= 256) statementNames.clear();
    statementNames.set(text, (name = `pgboss-${createHash("sha256").update(text).digest("hex").slice(0, 24)}`));
  }
  return name;
};

/** pg-boss's way to run its statements on the caller's connection. */
const onClient = (client: PoolClient): Db => ({ executeSql: (text, values) => client.query({ name: statementNameOf(text), text, values: values as unknown[] }) });

/**
 * Enqueues work, unless the same work (same queue and key) is already waiting: then nothing happens and null is
 * returned. With `tx`, the job commits or rolls back with the caller's own writes.
 */
export async function enqueue<Q extends QueueName>(queue: Q, data: JobData<Q>, options: EnqueueOptions = {}): Promise<string | null> {
  const parsed = JOB_SCHEMAS[queue].parse(data) as JobData<Q>;
  const boss = await jobQueue();
  const shop = shopOf(parsed);
  return boss.send(queue, parsed, {
    singletonKey: stableKey(jobKey(queue, parsed)),
    ...(shop ? { group: { id: shop } } : {}),
    ...(options.startAfter ? { startAfter: options.startAfter } : {}),
    ...(options.atMostEverySeconds ? { singletonSeconds: options.atMostEverySeconds } : {}),
    ...(options.tx ? { db: fromPrisma(options.tx) as Db } : {}),
    ...(options.client ? { db: onClient(options.client) } : {}),
  });
}

export interface JobContext {
  jobId: string;
  /** 0 on the first attempt. */
  retryCount: number;
  /** Aborted when the job expires or the worker stops. */
  signal: AbortSignal;
}

export type JobHandler<Q extends QueueName> = (data: JobData<Q>, context: JobContext) => Promise<void>;
export type JobHandlers = { [Q in QueueName]: JobHandler<Q> };

/** Runs one job's handler with its data checked against the queue's schema (a job is JSON from the database). */
export async function runJob<Q extends QueueName>(queue: Q, job: Pick<Job<unknown>, "id" | "data" | "retryCount" | "signal">, handlers: JobHandlers): Promise<void> {
  const data = JOB_SCHEMAS[queue].parse(job.data) as JobData<Q>;
  await (handlers[queue] as JobHandler<Q>)(data, { jobId: job.id, retryCount: job.retryCount, signal: job.signal });
}

export interface WorkerOptions {
  handlers: JobHandlers;
  /** Jobs at once in this process; WORKER_CONCURRENCY by default. */
  concurrency?: number;
  queues?: readonly QueueName[];
}

/** Starts this process's workers on every queue (or the given ones). */
export async function startWorkers({ handlers, concurrency = getConfig().WORKER_CONCURRENCY, queues = QUEUE_NAMES }: WorkerOptions): Promise<void> {
  const boss = await jobQueue();
  // WORKER_CONCURRENCY jobs at once in this process, whatever their queue.
  const slot = semaphore(() => concurrency);
  const { TRACKING_SYNC_SECONDS } = getConfig();
  for (const queue of queues) {
    const policy = QUEUE_POLICIES[queue];
    // A worker that finished a job looks for the next after the polling interval (pg-boss has no "more is ready"
    // signal when a shop's cap, not an empty queue, held jobs back): short for busy queues. An idle worker is
    // woken by NOTIFY the moment a job is enqueued, and finds a job put off to later at its next look.
    const idleLookSeconds = idleLookSecondsOf(policy, TRACKING_SYNC_SECONDS);
    await boss.work(
      queue,
      {
        batchSize: 1,
        localConcurrency: policy.busy ? Math.max(1, Math.min(concurrency, BUSY_QUEUE_JOBS_AT_ONCE)) : 1,
        pollingIntervalSeconds: Math.min(idleLookSeconds, 2),
        notifyPollingIntervalSeconds: idleLookSeconds,
        groupConcurrency: JOBS_PER_SHOP,
        heartbeatRefreshSeconds: HEARTBEAT_REFRESH_SECONDS,
        // After each job a worker otherwise waits for the next NOTIFY or its polling interval: a backlog left when
        // the NOTIFYs stop (the end of a burst of webhooks) ran a few jobs per interval. With jobs waiting, it
        // fetches again at once.
        burstWhenReadyExceeds: 1,
      },
      ([job]) => slot(() => runJob(queue, job!, handlers)),
    );
  }
  for (const [queue, cron] of Object.entries(SCHEDULES) as [QueueName, string][]) {
    if (queues.includes(queue)) await boss.schedule(queue, cron, {});
  }
}

/** Stops this process's workers (letting running jobs finish, up to `timeoutMs`) and closes the queue. */
export async function stopJobQueue(timeoutMs = 20_000): Promise<void> {
  const pending = globalThis.__dakiyaJobQueue;
  if (!pending) return;
  globalThis.__dakiyaJobQueue = undefined;
  const boss = await pending.catch(() => null);
  await boss?.stop({ graceful: true, timeout: timeoutMs, close: true });
}

export interface FailedJob {
  id: string;
  queue: QueueName;
  label: string;
  /** What the job acted on, e.g. "shipment 42". */
  subject: string;
  /** The same, for the page to say in the admin's language. */
  about: JobSubject;
  reason: string;
  failedAt: string;
  attempts: number;
}

/** What pg-boss keeps of a failure: the handler's error, or its own words under `value` (a job that timed out or fell silent). */
type FailedJobOutput = { message?: string; value?: { message?: string } };

const subjectOf = (data: Record<string, unknown>): JobSubject =>
  typeof data.shipmentId === "number" ? { kind: "shipment", id: data.shipmentId } : typeof data.orderGid === "string" ? { kind: "order", id: data.orderGid.split("/").pop() ?? "" } : { kind: "shop" };

/**
 * A shop's background work that failed for good (its retries exhausted): the dead-letter state the admin shows
 * under "Background work that needs you". Read from pg-boss's job table by state and shop, which its indexes
 * serve, rather than by scanning every job's data.
 *
 * A failed job whose same work (same queue and key) is waiting, retrying, running, or was done after it failed needs
 * nobody: that work is under way or done. It happens when Shopify delivers a webhook again while the first job of it
 * is retrying: a queue holds one retrying job per key, so when the second one's try also fails it cannot wait beside
 * the first and is failed at once.
 */
export async function listFailedJobs(shop: string, limit = 50): Promise<FailedJob[]> {
  const boss = await jobQueue();
  const { rows } = await boss.getDb().executeSql(
    `SELECT id, name, data, output, completed_on, retry_count FROM pgboss.job failed
      WHERE name = ANY($1::text[]) AND state = 'failed' AND data->>'shop' = $2
        AND NOT EXISTS (
          SELECT 1 FROM pgboss.job same
           WHERE same.name = failed.name AND same.singleton_key = failed.singleton_key AND same.id <> failed.id
             AND (same.state IN ('created', 'retry', 'active') OR (same.state = 'completed' AND same.completed_on >= failed.completed_on)))
      ORDER BY completed_on DESC LIMIT $3`,
    [QUEUE_NAMES, shop, limit],
  );
  return rows.map((row: { id: string; name: QueueName; data: Record<string, unknown>; output: FailedJobOutput | null; completed_on: Date; retry_count: number }) => ({
    id: row.id,
    queue: row.name,
    label: QUEUE_POLICIES[row.name]?.label ?? row.name,
    subject: jobSubjectInWords(subjectOf(row.data), "en"),
    about: subjectOf(row.data),
    reason: (row.output?.message ?? row.output?.value?.message ?? "It failed without a reason").slice(0, 300),
    failedAt: new Date(row.completed_on).toISOString(),
    attempts: row.retry_count + 1,
  }));
}

/**
 * Every job of a shop that is not running, gone: waiting, retrying, failed or done (shop/redact). A job running now
 * (the erasure itself among them) ends as it would; what it writes afterwards belongs to a shop with no data left.
 */
export async function forgetJobsOf(shop: string): Promise<number> {
  const boss = await jobQueue();
  const { rows } = await boss.getDb().executeSql(
    `WITH gone AS (DELETE FROM pgboss.job WHERE name = ANY($1::text[]) AND data->>'shop' = $2 AND state <> 'active' RETURNING 1)
     SELECT count(*)::int AS jobs FROM gone`,
    // The erasure at the sandbox outlives the shop's other work: it is what is left of the shop's erasure.
    [QUEUE_NAMES.filter((queue) => queue !== "sandbox-erase"), shop],
  );
  return (rows[0] as { jobs: number }).jobs;
}

/**
 * What the queue stored of the work on some of a shop's orders, returns and shipments (customers/redact): a failed
 * job's error, which may quote what the courier or Shopify refused (an address, a phone). The job itself stays, as
 * its data holds only ids. Returns how many jobs were cleared.
 */
export async function forgetJobOutputsOf(shop: string, { orderGids, returnGids = [], shipmentIds }: { orderGids: readonly string[]; returnGids?: readonly string[]; shipmentIds: readonly number[] }): Promise<number> {
  const boss = await jobQueue();
  const { rows } = await boss.getDb().executeSql(
    `WITH cleared AS (
       UPDATE pgboss.job SET output = NULL
        WHERE name = ANY($1::text[]) AND data->>'shop' = $2 AND output IS NOT NULL
          AND (data->>'orderGid' = ANY($3::text[]) OR data->>'returnGid' = ANY($4::text[]) OR data->>'shipmentId' = ANY($5::text[]))
       RETURNING 1)
     SELECT count(*)::int AS jobs FROM cleared`,
    [QUEUE_NAMES, shop, orderGids, returnGids, shipmentIds.map(String)],
  );
  return (rows[0] as { jobs: number }).jobs;
}

/**
 * What the queue stored of the work on some of a shop's orders, returns and shipments (a failed try's error), for a
 * customer's data request: the same jobs `forgetJobOutputsOf` clears.
 */
export async function jobOutputsOf(shop: string, { orderGids, returnGids, shipmentIds }: { orderGids: readonly string[]; returnGids: readonly string[]; shipmentIds: readonly number[] }): Promise<{ queue: string; state: string; output: unknown }[]> {
  const boss = await jobQueue();
  const { rows } = await boss.getDb().executeSql(
    `SELECT name, state, output FROM pgboss.job
      WHERE name = ANY($1::text[]) AND data->>'shop' = $2 AND output IS NOT NULL
        AND (data->>'orderGid' = ANY($3::text[]) OR data->>'returnGid' = ANY($4::text[]) OR data->>'shipmentId' = ANY($5::text[]))
      ORDER BY created_on`,
    [QUEUE_NAMES, shop, orderGids, returnGids, shipmentIds.map(String)],
  );
  return rows.map((row: { name: string; state: string; output: unknown }) => ({ queue: row.name, state: row.state, output: row.output }));
}

/** Puts one of the shop's failed jobs back in its queue; false when it is not the shop's or not failed. */
export async function retryFailedJob(shop: string, queue: string, id: string): Promise<boolean> {
  if (!(QUEUE_NAMES as string[]).includes(queue) || !/^[0-9a-f-]{36}$/.test(id)) return false;
  const boss = await jobQueue();
  const [job] = await boss.findJobs(queue, { id });
  if (!job || job.state !== "failed" || (job.data as { shop?: string }).shop !== shop) return false;
  await boss.retry(queue, id);
  const [after] = await boss.findJobs(queue, { id });
  return after?.state === "retry" || after?.state === "created";
}
