-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN     "dismissedAt" TIMESTAMP(3),
ADD COLUMN     "shopperName" TEXT NOT NULL DEFAULT '';
