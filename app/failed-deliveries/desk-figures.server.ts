import { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { FINAL_OUTCOMES, SHIPMENT_OUTCOME } from "~/shipments/lifecycle";

/**
 * The desk's headline, each figure for the last 30 days beside the 30 before them:
 *
 * - **Delivered in the end**: of the parcels whose first failed attempt fell in the window and that have reached an
 *   end since (delivered, or returning or back, lost, damaged, cancelled), the share delivered. Parcels still on
 *   their way are counted apart: they would make a recent window look worse than it is.
 * - **Median hours to a decision**: for each failed attempt in the window (a parcel attempted three times counts three
 *   times), the hours from the courier's attempt to the first decision for it — the merchant's, or a rule's (at once,
 *   or when its wait ended) — before the courier's next attempt; attempts not decided are left out, and counted.
 *
 * A window is [start, end): the last 30 days end now. Read from the courier's failed attempts as tracking stored them
 * (status 9) and the desk's history; no Shopify call.
 */

const DAY_MS = 86_400_000;
export const FIGURE_WINDOW_DAYS = 30;

export interface WindowFigures {
  /** Parcels whose first failed attempt fell in the window. */
  parcels: number;
  /** Of those, the ones that have reached an end, and the ones delivered. */
  settled: number;
  delivered: number;
  /** delivered / settled; null with nothing settled. */
  deliveredShare: number | null;
  /** Failed attempts in the window, and how many of them were decided. */
  attempts: number;
  decided: number;
  /** Null with nothing decided. */
  medianHours: number | null;
}

export interface DeskFigures {
  current: WindowFigures;
  previous: WindowFigures;
}

/** Where a parcel has reached an end for this figure: a return to origin started is its end as a delivery. */
const ENDED = [...FINAL_OUTCOMES.filter((outcome) => outcome !== "received"), SHIPMENT_OUTCOME.RTO_INITIATED];
const DECISIONS = ["decided", "rule_decided"];

type Window = "current" | "previous";

export async function deskFigures(shop: string, now = new Date()): Promise<DeskFigures> {
  const currentFrom = new Date(now.getTime() - FIGURE_WINDOW_DAYS * DAY_MS);
  const previousFrom = new Date(now.getTime() - 2 * FIGURE_WINDOW_DAYS * DAY_MS);
  const [parcels, attempts] = await Promise.all([
    prisma.$queryRaw<{ window: Window; parcels: number; settled: number; delivered: number }[]>`
      SELECT CASE WHEN first_at >= ${currentFrom} THEN 'current' ELSE 'previous' END AS "window",
             count(*)::int AS parcels,
             count(*) FILTER (WHERE outcome IN (${Prisma.join(ENDED)}))::int AS settled,
             count(*) FILTER (WHERE outcome = ${SHIPMENT_OUTCOME.DELIVERED})::int AS delivered
      FROM (
        SELECT s.id, s.outcome, min(t."happenedAt") AS first_at
        FROM "Shipment" s
        JOIN "TrackingEvent" t ON t."shipmentId" = s.id AND t.shop = s.shop AND t.code = 9
        WHERE s.shop = ${shop} AND s.direction = 'forward' AND s."deliveryAttempts" > 0
        GROUP BY s.id, s.outcome
        HAVING min(t."happenedAt") >= ${previousFrom} AND min(t."happenedAt") < ${now}
      ) failed
      GROUP BY 1`,
    prisma.$queryRaw<{ window: Window; attempts: number; decided: number; median: number | null }[]>`
      WITH attempts AS (
        SELECT t."shipmentId", t."happenedAt" AS at,
               lead(t."happenedAt") OVER (PARTITION BY t."shipmentId" ORDER BY t."happenedAt", t.id) AS next_at
        FROM "TrackingEvent" t
        JOIN "Shipment" s ON s.id = t."shipmentId" AND s.shop = t.shop
        WHERE t.shop = ${shop} AND t.code = 9 AND s.direction = 'forward' AND t."happenedAt" >= ${previousFrom}
      ), decided AS (
        SELECT a.at,
               (SELECT min(e.at) FROM "FailedDeliveryEvent" e JOIN "FailedDelivery" f ON f.id = e."failedDeliveryId"
                WHERE f."shipmentId" = a."shipmentId" AND f.shop = ${shop} AND e.transition IN (${Prisma.join(DECISIONS)})
                  AND e.at >= a.at AND (a.next_at IS NULL OR e.at < a.next_at)) AS decided_at
        FROM attempts a
        WHERE a.at < ${now}
      )
      SELECT CASE WHEN at >= ${currentFrom} THEN 'current' ELSE 'previous' END AS "window",
             count(*)::int AS attempts,
             count(decided_at)::int AS decided,
             (percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM decided_at - at) / 3600))::float8 AS median
      FROM decided
      GROUP BY 1`,
  ]);
  const figuresOf = (window: Window): WindowFigures => {
    const parcel = parcels.find((row) => row.window === window);
    const attempt = attempts.find((row) => row.window === window);
    const settled = parcel?.settled ?? 0;
    const delivered = parcel?.delivered ?? 0;
    return {
      parcels: parcel?.parcels ?? 0,
      settled,
      delivered,
      deliveredShare: settled > 0 ? delivered / settled : null,
      attempts: attempt?.attempts ?? 0,
      decided: attempt?.decided ?? 0,
      medianHours: attempt && attempt.decided > 0 && attempt.median !== null ? attempt.median : null,
    };
  };
  return { current: figuresOf("current"), previous: figuresOf("previous") };
}
