-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "returnCourierId" INTEGER,
ADD COLUMN     "returnDisposition" TEXT NOT NULL DEFAULT 'inspect',
ADD COLUMN     "returnHoldFromPaise" INTEGER,
ADD COLUMN     "returnHoldPincodes" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "returnNotifyCustomer" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "returnRule" TEXT NOT NULL DEFAULT 'hold';

-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "direction" TEXT NOT NULL DEFAULT 'forward',
ADD COLUMN     "returnOfOrderGid" TEXT;

-- CreateTable
CREATE TABLE "ReturnRecord" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "returnGid" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "returnName" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL,
    "readiness" TEXT NOT NULL DEFAULT 'unchecked',
    "problems" JSONB NOT NULL DEFAULT '[]',
    "weightGrams" INTEGER,
    "totalPaise" INTEGER,
    "pincode" TEXT,
    "reasons" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "decision" TEXT,
    "decisionReason" TEXT,
    "decidedAt" TIMESTAMP(3),
    "cancelledAt" TIMESTAMP(3),
    "requestedAt" TIMESTAMP(3),
    "checkedAt" TIMESTAMP(3),
    "receivedAt" TIMESTAMP(3),
    "processedAt" TIMESTAMP(3),
    "inspectedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReturnRecord_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ReturnRecord_shop_readiness_idx" ON "ReturnRecord"("shop", "readiness");

-- CreateIndex
CREATE UNIQUE INDEX "ReturnRecord_shop_returnGid_key" ON "ReturnRecord"("shop", "returnGid");

