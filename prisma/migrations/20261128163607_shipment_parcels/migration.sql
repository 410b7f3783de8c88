-- DropIndex
DROP INDEX "Shipment_shop_orderGid_key";

-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "fulfillmentOrderGid" TEXT,
ADD COLUMN     "locationName" TEXT,
ADD COLUMN     "parcel" INTEGER NOT NULL DEFAULT 1;

-- CreateIndex
CREATE UNIQUE INDEX "Shipment_shop_orderGid_parcel_key" ON "Shipment"("shop", "orderGid", "parcel");

-- CreateIndex
CREATE UNIQUE INDEX "Shipment_shop_fulfillmentOrderGid_key" ON "Shipment"("shop", "fulfillmentOrderGid");

