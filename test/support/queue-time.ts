import type pg from "pg";

/*
 * Time passing in the job queue, sooner. A process-level test proves that work a fault interrupted is retried, and by
 * whom; how long the queue waits before it does (15 s and more for a retry, 20 s of silence before a job counts as
 * abandoned) is tested in app/jobs against the queues' own table. These make those waits end now.
 */

/** Jobs waiting for their retry are due now. */
export async function retriesDueNow(db: pg.Client): Promise<void> {
  await db.query(`UPDATE pgboss.job SET start_after = now() WHERE state = 'retry' AND start_after > now()`);
}

/**
 * The jobs running now have stopped proving they are alive, as the jobs of a killed process have: the next check
 * for abandoned work (every 15 s in each process) retries them. Call it only when no live worker runs a job.
 */
export async function runningJobsAbandoned(db: pg.Client): Promise<number> {
  const { rowCount } = await db.query(`UPDATE pgboss.job SET heartbeat_on = now() - interval '1 hour' WHERE state = 'active' AND heartbeat_seconds IS NOT NULL`);
  return rowCount ?? 0;
}

/** Every job of the same work (queue and key) as a failed one, in the order they were created: what a failing test prints. */
export async function failedWorkHistory(db: pg.Client): Promise<string> {
  const { rows } = await db.query(
    `SELECT same.name, same.singleton_key, same.state, same.retry_count, same.retry_limit, same.created_on, same.started_on, same.completed_on, same.heartbeat_on, same.output
       FROM pgboss.job same WHERE EXISTS (SELECT 1 FROM pgboss.job failed WHERE failed.state = 'failed' AND failed.name = same.name AND failed.singleton_key = same.singleton_key)
      ORDER BY same.name, same.singleton_key, same.created_on`,
  );
  return rows.length === 0 ? "no job failed" : JSON.stringify(rows, null, 1);
}
