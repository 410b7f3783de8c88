import prisma from "~/db.server";
import { FINAL_OUTCOMES } from "~/shipments/lifecycle";

/**
 * How long Dakiya keeps the records that exist only to make something happen once, and deleting them after: without
 * it they grow with every webhook and every parcel for as long as the shop stays. The shop's business records — its
 * orders, shipments, their histories, returns, remittances — are kept until shop/redact (personal-data.server.ts).
 *
 * - A webhook delivery is kept to recognise Shopify delivering it again: Shopify retries a failed delivery 8 times
 *   over 4 hours, and the ten-minute reconciliation picks up whatever that missed. A week covers it many times.
 * - A Flow action run is kept to give Flow the same answer when it sends the run again (it does so within minutes of
 *   an unsure delivery). Thirty days.
 * - A Flow trigger's event is kept so the same event never fires twice: each stage once per parcel, whenever the
 *   courier reports it again. So it goes only once its parcel can move no more (a final outcome, or the parcel gone),
 *   and ninety days after it was recorded — by then an order's own events (its COD risk scored, its shopper's answer)
 *   are long decided, and the job that sent it long gone from the queue (thirty days).
 *
 * Each table is cleared in batches of at most `batch` rows a pass, so one pass holds no lock for long; `more` says a
 * batch was full and another pass should follow.
 */
export const KEPT_DAYS = { webhookDeliveries: 7, flowActionRuns: 30, flowTriggerEvents: 90 } as const;

/** Rows of one table a pass deletes at most. */
export const RETENTION_BATCH = 5_000;

const DAY_MS = 86_400_000;

export interface RetentionPass {
  webhookDeliveries: number;
  flowActionRuns: number;
  flowTriggerEvents: number;
  /** A table had more to delete than one batch: another pass should follow. */
  more: boolean;
}

/** One pass over a shop's records kept past their use: each table's oldest, at most `batch` rows of each. */
export async function deleteExpiredRecords(shop: string, now: Date, { batch = RETENTION_BATCH }: { batch?: number } = {}): Promise<RetentionPass> {
  const before = (days: number) => new Date(now.getTime() - days * DAY_MS);
  // The shop's own index (shop, receivedAt) finds them.
  const webhookDeliveries = await prisma.$executeRaw`
    DELETE FROM "WebhookDelivery" WHERE id IN (
      SELECT id FROM "WebhookDelivery" WHERE shop = ${shop} AND "receivedAt" < ${before(KEPT_DAYS.webhookDeliveries)} LIMIT ${batch}
    )`;
  const flowActionRuns = await prisma.$executeRaw`
    DELETE FROM "FlowActionRun" WHERE shop = ${shop} AND "actionRunId" IN (
      SELECT "actionRunId" FROM "FlowActionRun" WHERE shop = ${shop} AND "startedAt" < ${before(KEPT_DAYS.flowActionRuns)} LIMIT ${batch}
    )`;
  // A parcel still moving may report a stage again: its events stay, whatever their age.
  const flowTriggerEvents = await prisma.$executeRaw`
    DELETE FROM "FlowTriggerEvent" WHERE id IN (
      SELECT event.id FROM "FlowTriggerEvent" event
      WHERE event.shop = ${shop} AND event."createdAt" < ${before(KEPT_DAYS.flowTriggerEvents)}
        AND NOT EXISTS (
          SELECT 1 FROM "Shipment" parcel
          WHERE parcel.id = event."shipmentId" AND parcel.shop = event.shop AND parcel.outcome <> ALL(${[...FINAL_OUTCOMES]}::text[])
        )
      LIMIT ${batch}
    )`;
  const more = [webhookDeliveries, flowActionRuns, flowTriggerEvents].some((deleted) => deleted >= batch);
  return { webhookDeliveries, flowActionRuns, flowTriggerEvents, more };
}
