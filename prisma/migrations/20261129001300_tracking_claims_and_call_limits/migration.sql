-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "courierCallsAtOnce" INTEGER,
ADD COLUMN     "courierCallsPerSecond" INTEGER;

-- CreateIndex
CREATE INDEX "Shipment_shop_nextSyncAt_idx" ON "Shipment"("shop", "nextSyncAt");

