-- CreateTable
CREATE TABLE "FailedDelivery" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "shipmentId" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    "answer" TEXT,
    "answeredAt" TIMESTAMP(3),
    "answerCount" INTEGER NOT NULL DEFAULT 0,
    "answerLanguage" TEXT,
    "preferredDate" TEXT,
    "preferredSlot" TEXT,
    "phone" TEXT,
    "alternatePhone" TEXT,
    "addressLine" TEXT,
    "landmark" TEXT,
    "decision" TEXT,
    "decidedAt" TIMESTAMP(3),
    "remarks" TEXT,
    "handedOffAt" TIMESTAMP(3),
    "orderUpdatedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FailedDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FailedDeliveryEvent" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "failedDeliveryId" INTEGER NOT NULL,
    "transition" TEXT NOT NULL,
    "fromState" TEXT,
    "toState" TEXT,
    "actorKind" TEXT NOT NULL,
    "actorName" TEXT NOT NULL,
    "reason" TEXT,
    "reasonWords" JSONB,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FailedDeliveryEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FailedDeliverySettings" (
    "shop" TEXT NOT NULL,
    "returnAfterHours" INTEGER NOT NULL DEFAULT 24,
    "rules" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FailedDeliverySettings_pkey" PRIMARY KEY ("shop")
);

-- CreateIndex
CREATE UNIQUE INDEX "FailedDelivery_shipmentId_key" ON "FailedDelivery"("shipmentId");

-- CreateIndex
CREATE INDEX "FailedDelivery_shop_state_idx" ON "FailedDelivery"("shop", "state");

-- CreateIndex
CREATE INDEX "FailedDeliveryEvent_shop_failedDeliveryId_at_idx" ON "FailedDeliveryEvent"("shop", "failedDeliveryId", "at");

-- AddForeignKey
ALTER TABLE "FailedDelivery" ADD CONSTRAINT "FailedDelivery_shipmentId_fkey" FOREIGN KEY ("shipmentId") REFERENCES "Shipment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FailedDeliveryEvent" ADD CONSTRAINT "FailedDeliveryEvent_failedDeliveryId_fkey" FOREIGN KEY ("failedDeliveryId") REFERENCES "FailedDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

