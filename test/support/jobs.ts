import { createJobHandlers, defaultJobDeps, type JobDeps } from "~/workers/job-handlers.server";
import type { PgBoss } from "pg-boss";
import { jobQueue, runJob, stopJobQueue } from "~/jobs/job-queue.server";
import { QUEUE_NAMES, type QueueName } from "~/jobs/queues";

let madeHere: PgBoss | undefined;

/**
 * Empties every queue of this worker's database, so a test file sees only the jobs it causes, on a job queue that
 * checks its queues every second. A queue an earlier file in the same thread started another way (an enqueue, a
 * route) has the product's slower checks, which `jobQueue` would keep: it is stopped and started afresh.
 */
export async function resetJobs(): Promise<void> {
  const existing = globalThis.__dakiyaJobQueue ? await globalThis.__dakiyaJobQueue.catch(() => undefined) : undefined;
  if (existing && existing !== madeHere) await stopJobQueue();
  const boss = await jobQueue({ monitorSeconds: 1 });
  madeHere = boss;
  for (const queue of QUEUE_NAMES) await boss.deleteAllJobs(queue);
}

export interface JobRun {
  ran: number;
  failed: { queue: QueueName; message: string }[];
}

/**
 * Runs the jobs waiting in the given queues (by default also those not due yet: watchdogs, retries) once each,
 * through the real queue and the real handlers: fetched, run, completed or failed as a worker would.
 */
export async function runJobs(queues: readonly QueueName[] = QUEUE_NAMES, { includeDeferred = true, deps }: { includeDeferred?: boolean; deps?: Partial<JobDeps> } = {}): Promise<JobRun> {
  const boss = await jobQueue();
  const handlers = createJobHandlers({ ...defaultJobDeps, ...deps });
  const run: JobRun = { ran: 0, failed: [] };
  for (const queue of queues) {
    // The first fetch may take jobs not due yet; later ones only due jobs (those the run itself enqueued), so a
    // job that failed here and waits for its retry is not taken again.
    for (let pass = 0; ; pass += 1) {
      const jobs = await boss.fetch(queue, { batchSize: 500, ignoreStartAfter: includeDeferred && pass === 0 });
      if (jobs.length === 0) break;
      for (const job of jobs) {
        run.ran += 1;
        try {
          await runJob(queue, job, handlers);
          await boss.complete(queue, job.id);
        } catch (error) {
          run.failed.push({ queue, message: error instanceof Error ? error.message : String(error) });
          await boss.fail(queue, job.id, { message: error instanceof Error ? error.message : String(error) });
        }
      }
    }
  }
  return run;
}

export async function queuedJobs(queue: QueueName, shop: string) {
  const boss = await jobQueue();
  return boss.findJobs(queue, { data: { shop }, queued: true });
}
