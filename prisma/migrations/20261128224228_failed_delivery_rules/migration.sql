-- AlterTable
ALTER TABLE "FailedDelivery" ADD COLUMN     "rule" TEXT,
ADD COLUMN     "ruleAttempt" INTEGER,
ADD COLUMN     "waitOtherwise" TEXT,
ADD COLUMN     "waitUntil" TIMESTAMP(3);

