-- DropIndex
DROP INDEX "WebhookDelivery_shop_idx";

-- DropIndex
DROP INDEX "Shipment_status_nextAttemptAt_idx";

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "problem" TEXT,
ADD COLUMN     "triggeredAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Shipment" DROP COLUMN "attempts",
DROP COLUMN "leaseUntil",
DROP COLUMN "nextAttemptAt";

-- CreateIndex
CREATE INDEX "WebhookDelivery_shop_receivedAt_idx" ON "WebhookDelivery"("shop", "receivedAt");

