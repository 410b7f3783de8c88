-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "deliveryAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "outcome" TEXT NOT NULL DEFAULT 'awaiting_pickup';

-- CreateIndex
CREATE INDEX "Shipment_shop_outcome_idx" ON "Shipment"("shop", "outcome");


-- Shipments booked before outcomes were states: each takes the outcome its courier's latest stage reports
-- (app/shipments/lifecycle.ts, outcomeOfCode), by its direction; a pickup exception is still awaiting pickup and a
-- misroute still in transit.
UPDATE "Shipment" SET "outcome" = CASE
    WHEN "courierStatusCode" IN (5, 6, 13) THEN CASE WHEN "direction" = 'return' THEN 'picked_up' ELSE 'in_transit' END
    WHEN "courierStatusCode" = 7 THEN CASE WHEN "direction" = 'return' THEN 'picked_up' ELSE 'out_for_delivery' END
    WHEN "courierStatusCode" = 8 THEN CASE WHEN "direction" = 'return' THEN 'received' ELSE 'delivered' END
    WHEN "courierStatusCode" = 9 THEN 'delivery_attempted'
    WHEN "courierStatusCode" = 10 THEN 'cancelled'
    WHEN "courierStatusCode" = 11 THEN 'rto_initiated'
    WHEN "courierStatusCode" = 12 THEN 'rto_delivered'
    WHEN "courierStatusCode" = 14 THEN 'lost'
    WHEN "courierStatusCode" = 15 THEN 'damaged'
    ELSE 'awaiting_pickup'
  END
WHERE "courierStatusCode" IS NOT NULL;

-- Each attempt the courier reported so far, counted from its stored tracking entries.
UPDATE "Shipment" s SET "deliveryAttempts" = attempts.count
FROM (SELECT "shipmentId", count(*) AS count FROM "TrackingEvent" WHERE code = 9 GROUP BY "shipmentId") attempts
WHERE attempts."shipmentId" = s.id;

-- A booking cancelled in Shopify before anything reached the courier was recorded as a failed booking: it is
-- cancelled, with its history row saying so.
WITH before AS (
  SELECT id, shop, "lastError", "lastErrorWords", "updatedAt" FROM "Shipment"
  WHERE "status" = 'failed' AND "lastErrorWords"->>'key' LIKE 'activity.stored.cancelledBeforeBooking.%'
), cancelled AS (
  UPDATE "Shipment" s SET "status" = 'cancelled', "cancelledAt" = COALESCE(s."cancelledAt", s."updatedAt"), "lastError" = NULL, "lastErrorWords" = NULL
  FROM before WHERE s.id = before.id
  RETURNING s.id
)
INSERT INTO "ShipmentEvent" (shop, "shipmentId", transition, "fromState", "toState", "actorKind", "actorName", reason, "reasonWords", at)
SELECT shop, id, 'cancelled_before_booking', 'failed', 'cancelled', 'job', 'upgrade', "lastError", "lastErrorWords", "updatedAt" FROM before WHERE id IN (SELECT id FROM cancelled);
