-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "courierStatusAt" TIMESTAMP(3),
ADD COLUMN     "courierStatusCode" INTEGER,
ADD COLUMN     "courierStatusLabel" TEXT,
ADD COLUMN     "deliveredAt" TIMESTAMP(3),
ADD COLUMN     "estimatedDeliveryAt" TIMESTAMP(3),
ADD COLUMN     "lastScanAt" TIMESTAMP(3),
ADD COLUMN     "nextSyncAt" TIMESTAMP(3),
ADD COLUMN     "syncedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "TrackingEvent" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "shipmentId" INTEGER NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "code" INTEGER NOT NULL,
    "label" TEXT NOT NULL,
    "activity" TEXT NOT NULL,
    "location" TEXT,
    "happenedAt" TIMESTAMP(3) NOT NULL,
    "postedAt" TIMESTAMP(3),
    "shopifyEventGid" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TrackingEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TrackingEvent_shop_shipmentId_happenedAt_idx" ON "TrackingEvent"("shop", "shipmentId", "happenedAt");

-- CreateIndex
CREATE UNIQUE INDEX "TrackingEvent_shipmentId_fingerprint_key" ON "TrackingEvent"("shipmentId", "fingerprint");

-- CreateIndex
CREATE INDEX "Shipment_nextSyncAt_idx" ON "Shipment"("nextSyncAt");

-- CreateIndex
CREATE INDEX "Shipment_awb_idx" ON "Shipment"("awb");

-- AddForeignKey
ALTER TABLE "TrackingEvent" ADD CONSTRAINT "TrackingEvent_shipmentId_fkey" FOREIGN KEY ("shipmentId") REFERENCES "Shipment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

