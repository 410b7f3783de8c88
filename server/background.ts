import { createJobHandlers } from "../app/workers/job-handlers.server";
import { startWorkers, stopJobQueue } from "../app/jobs/job-queue.server";
import { closeLocks } from "../app/locks.server";
import { closeStorefrontListeners } from "~/settings/settings-changes.server";

/** Starts this process's job workers (the app process by default, or `npm run worker`). */
export async function startBackgroundWork(concurrency: number): Promise<void> {
  await startWorkers({ handlers: createJobHandlers(), concurrency });
}

/** Lets running jobs finish (a job cut short is retried elsewhere), then closes the queue and the database pools. */
export async function stopBackgroundWork(): Promise<void> {
  await stopJobQueue();
  await closeLocks();
  await closeStorefrontListeners();
  const { default: prisma } = await import("../app/db.server");
  await prisma.$disconnect();
}
