import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { enqueue, jobQueue, stopJobQueue } from "~/jobs/job-queue.server";
import { QUEUE_NAMES, QUEUE_POLICIES, retryLimitOf, retryWindowOf } from "~/jobs/queues";
import { resetJobs } from "../support/jobs";
import { uniqueShop } from "../support/webhooks";

const HOUR = 3_600;

beforeAll(async () => {
  await resetJobs();
});
afterAll(async () => {
  await resetJobs();
});

/**
 * Fails one job of `queue` again and again, as a worker whose work keeps failing would, and adds up the waits pg-boss
 * sets before each retry: the time from the first failure to the last attempt, in seconds, and how many attempts.
 */
async function failUntilGivenUp(queue: "shipment-complete" | "order-cancelled", data: Parameters<typeof enqueue<typeof queue>>[1]) {
  const boss = await jobQueue();
  const id = (await enqueue(queue, data))!;
  let waited = 0;
  let attempts = 0;
  for (;;) {
    const [job] = await boss.fetch(queue, { ignoreStartAfter: true });
    expect(job?.id).toBe(id);
    attempts += 1;
    await boss.fail(queue, id, { message: "The courier could not be reached" });
    const [state] = await prisma.$queryRawUnsafe<{ state: string; wait: number }[]>(`SELECT state::text, EXTRACT(EPOCH FROM start_after - now())::float8 AS wait FROM pgboss.job WHERE id = $1::uuid`, id);
    if (state!.state === "failed") return { waited, attempts };
    waited += state!.wait;
  }
}

describe("retry windows", () => {
  it("retry a booking's completion for about a day and a cancellation for about two, as the README says", () => {
    expect(QUEUE_POLICIES["shipment-complete"].retryForSeconds).toBe(24 * HOUR);
    expect(QUEUE_POLICIES["order-cancelled"].retryForSeconds).toBe(48 * HOUR);
    for (const queue of QUEUE_NAMES) {
      const policy = QUEUE_POLICIES[queue];
      const window = retryWindowOf(policy);
      // Never shorter than the table says, and longer by at most the last wait and the jitter of the first ones.
      expect(window.shortest, queue).toBeGreaterThanOrEqual(policy.retryForSeconds);
      expect(window.longest, queue).toBeLessThanOrEqual(2 * policy.retryForSeconds + policy.retryDelayMax);
    }
    expect(retryWindowOf(QUEUE_POLICIES["shipment-complete"]).longest).toBeLessThan(26 * HOUR);
    expect(retryWindowOf(QUEUE_POLICIES["order-cancelled"]).longest).toBeLessThan(50 * HOUR);
  });

  it("gives queues created by an earlier version today's policy when the queue starts", async () => {
    const boss = await jobQueue();
    // As an earlier version left them: fewer retries, and no cap on the back-off.
    await boss.updateQueue("shipment-complete", { retryLimit: 12, retryBackoff: true, retryDelayMax: null as unknown as number });
    await boss.updateQueue("order-cancelled", { retryLimit: 14, retryBackoff: true, retryDelayMax: 60 });
    await stopJobQueue();

    const restarted = await jobQueue();
    for (const queue of QUEUE_NAMES) {
      const stored = await restarted.getQueue(queue);
      const policy = QUEUE_POLICIES[queue];
      expect(stored, queue).toMatchObject({ retryLimit: retryLimitOf(policy), retryDelay: policy.retryDelay, retryDelayMax: policy.retryDelayMax, retryBackoff: true, expireInSeconds: policy.expireInSeconds });
    }
  });

  it("keeps failing work retrying through pg-boss for the window the table gives, then gives up", async () => {
    const shop = uniqueShop();
    for (const [queue, data] of [
      ["shipment-complete", { shop, shipmentId: 4242 }],
      ["order-cancelled", { shop, orderGid: "gid://shopify/Order/4242" }],
    ] as const) {
      const policy = QUEUE_POLICIES[queue];
      const { waited, attempts } = await failUntilGivenUp(queue, data);
      expect(attempts, queue).toBe(retryLimitOf(policy) + 1);
      const window = retryWindowOf(policy);
      // A second of slack for the statements' own time.
      expect(waited, queue).toBeGreaterThanOrEqual(window.shortest - 1);
      expect(waited, queue).toBeLessThanOrEqual(window.longest + 1);
      expect(waited / HOUR, queue).toBeGreaterThanOrEqual(policy.retryForSeconds / HOUR);
    }
  });
});
