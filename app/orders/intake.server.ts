import { enqueue } from "~/jobs/job-queue.server";
import { lastReconciledAt } from "./reconcile.server";

/**
 * Asks for a reconciliation of the shop's new and changed orders now (the job de-duplicates itself). With
 * `onlyIfNeverDone`, only for a shop never read yet — the first visit after install. Says whether the shop's
 * orders were ever read.
 */
export async function requestOrderReconcile(shop: string, { onlyIfNeverDone }: { onlyIfNeverDone: boolean }): Promise<{ neverDone: boolean }> {
  const neverDone = (await lastReconciledAt(shop)) === null;
  if (neverDone || !onlyIfNeverDone) await enqueue("orders-reconcile", { shop });
  return { neverDone };
}
