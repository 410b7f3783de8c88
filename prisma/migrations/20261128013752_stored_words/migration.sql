-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN     "decisionWords" JSONB;

-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "lastErrorWords" JSONB,
ADD COLUMN     "trackingErrorWords" JSONB;

-- AlterTable
ALTER TABLE "ReturnRecord" ADD COLUMN     "decisionWords" JSONB;

-- AlterTable
ALTER TABLE "ShipmentEvent" ADD COLUMN     "reasonWords" JSONB;

