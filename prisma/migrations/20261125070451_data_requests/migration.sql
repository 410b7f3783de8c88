-- CreateTable
CREATE TABLE "DataRequest" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL DEFAULT '',
    "orderGids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "requestedAt" TIMESTAMP(3) NOT NULL,
    "answeredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DataRequest_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "DataRequest_webhookId_key" ON "DataRequest"("webhookId");

-- CreateIndex
CREATE INDEX "DataRequest_shop_answeredAt_idx" ON "DataRequest"("shop", "answeredAt");

