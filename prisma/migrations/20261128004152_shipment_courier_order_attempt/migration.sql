-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "courierOrderAttempt" INTEGER NOT NULL DEFAULT 1;

