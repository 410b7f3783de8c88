-- A return's life as one state of its own (app/returns/return-lifecycle.ts), in place of Shopify's status as last
-- read, the orders' readiness words and a cancellation time; and its history, as a shipment's.
ALTER TABLE "ReturnRecord" ADD COLUMN "state" TEXT NOT NULL DEFAULT 'requested';

-- CreateTable
CREATE TABLE "ReturnEvent" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "returnRecordId" INTEGER NOT NULL,
    "transition" TEXT NOT NULL,
    "fromState" TEXT,
    "toState" TEXT,
    "actorKind" TEXT NOT NULL,
    "actorName" TEXT NOT NULL,
    "reason" TEXT,
    "reasonWords" JSONB,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReturnEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ReturnEvent_shop_returnRecordId_at_idx" ON "ReturnEvent"("shop", "returnRecordId", "at");

-- AddForeignKey
ALTER TABLE "ReturnEvent" ADD CONSTRAINT "ReturnEvent_returnRecordId_fkey" FOREIGN KEY ("returnRecordId") REFERENCES "ReturnRecord"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Each return recorded before takes the state its record and its pickup say it is in: declined or cancelled first,
-- then how far it came back (inspected, recorded in Shopify, received), then closed, then where its pickup is (the
-- courier has it; collected from the shopper), then waiting for approval, held by the rules, or to book.
UPDATE "ReturnRecord" r SET "state" = CASE
    WHEN r."status" = 'DECLINED' THEN 'declined'
    WHEN r."status" = 'CANCELED' OR r."cancelledAt" IS NOT NULL THEN 'cancelled'
    WHEN r."inspectedAt" IS NOT NULL THEN 'inspected'
    WHEN r."processedAt" IS NOT NULL THEN 'processed'
    WHEN r."receivedAt" IS NOT NULL THEN 'received'
    WHEN r."status" = 'CLOSED' THEN 'closed'
    WHEN pickup.outcome IN ('picked_up', 'delivery_attempted') THEN 'picked_up'
    WHEN pickup.id IS NOT NULL THEN 'pickup_booked'
    WHEN r."status" = 'REQUESTED' THEN 'requested'
    WHEN r."decision" IN ('held', 'failed') THEN 'held'
    ELSE 'approved'
  END
FROM "ReturnRecord" r2
LEFT JOIN LATERAL (
  SELECT s.id, s.outcome FROM "Shipment" s
  WHERE s.shop = r2.shop AND s."orderGid" = r2."returnGid" AND s.awb IS NOT NULL AND s.status IN ('booked_unfulfilled', 'return_in_transit')
  ORDER BY s.parcel LIMIT 1
) pickup ON true
WHERE r2.id = r.id;

-- Every return starts its history with the state it was carried over in.
INSERT INTO "ReturnEvent" (shop, "returnRecordId", transition, "fromState", "toState", "actorKind", "actorName", reason, "reasonWords", at)
SELECT shop, id, "state", NULL, "state", 'job', 'upgrade', 'Recorded as it stood before returns kept a history.', '{"key": "activity.stored.returns.carriedOver"}'::jsonb, "updatedAt"
FROM "ReturnRecord";

-- DropIndex
DROP INDEX "ReturnRecord_shop_readiness_idx";

ALTER TABLE "ReturnRecord" DROP COLUMN "cancelledAt",
DROP COLUMN "readiness",
DROP COLUMN "status";

-- CreateIndex
CREATE INDEX "ReturnRecord_shop_state_idx" ON "ReturnRecord"("shop", "state");
