-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "awbUnknownCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "trackingError" TEXT,
ADD COLUMN     "trackingFailures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "trackingState" TEXT NOT NULL DEFAULT 'active';

-- CreateTable
CREATE TABLE "ShipmentEvent" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "shipmentId" INTEGER NOT NULL,
    "transition" TEXT NOT NULL,
    "fromState" TEXT,
    "toState" TEXT,
    "actorKind" TEXT NOT NULL,
    "actorName" TEXT NOT NULL,
    "reason" TEXT,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShipmentEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ShipmentEvent_shop_shipmentId_at_idx" ON "ShipmentEvent"("shop", "shipmentId", "at");

-- AddForeignKey
ALTER TABLE "ShipmentEvent" ADD CONSTRAINT "ShipmentEvent_shipmentId_fkey" FOREIGN KEY ("shipmentId") REFERENCES "Shipment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

