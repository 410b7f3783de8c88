-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "autoBooking" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "bookingRules" TEXT NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "attention" TEXT,
ADD COLUMN     "attentionAt" TIMESTAMP(3),
ADD COLUMN     "cancelledAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "OrderRecord" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT NOT NULL DEFAULT '',
    "placedAt" TIMESTAMP(3),
    "shopifyUpdatedAt" TIMESTAMP(3),
    "readiness" TEXT NOT NULL DEFAULT 'unchecked',
    "problems" JSONB NOT NULL DEFAULT '[]',
    "paymentMode" TEXT,
    "weightGrams" INTEGER,
    "totalPaise" INTEGER,
    "destination" TEXT NOT NULL DEFAULT '',
    "pincode" TEXT,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "zone" TEXT,
    "quote" JSONB,
    "addressDigest" TEXT,
    "cancelledAt" TIMESTAMP(3),
    "decision" TEXT,
    "decisionReason" TEXT,
    "decidedAt" TIMESTAMP(3),
    "checkedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OrderRecord_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShopSync" (
    "shop" TEXT NOT NULL,
    "ordersSeenUntil" TIMESTAMP(3),
    "reconciledAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShopSync_pkey" PRIMARY KEY ("shop")
);

-- CreateIndex
CREATE INDEX "OrderRecord_shop_readiness_placedAt_idx" ON "OrderRecord"("shop", "readiness", "placedAt");

-- CreateIndex
CREATE UNIQUE INDEX "OrderRecord_shop_orderGid_key" ON "OrderRecord"("shop", "orderGid");

