-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN     "customerGid" TEXT;

-- CreateTable
CREATE TABLE "FlowTriggerUse" (
    "shop" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "noticedAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FlowTriggerUse_pkey" PRIMARY KEY ("shop","trigger")
);

-- CreateTable
CREATE TABLE "FlowTriggerEvent" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "eventKey" TEXT NOT NULL,
    "orderGid" TEXT,
    "shipmentId" INTEGER,
    "payload" JSONB,
    "sentAt" TIMESTAMP(3),
    "refusedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FlowTriggerEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FlowActionRun" (
    "shop" TEXT NOT NULL,
    "actionRunId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "orderGid" TEXT,
    "state" TEXT NOT NULL,
    "status" INTEGER,
    "answer" JSONB,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "FlowActionRun_pkey" PRIMARY KEY ("shop","actionRunId")
);

-- CreateIndex
CREATE INDEX "FlowTriggerEvent_shop_orderGid_idx" ON "FlowTriggerEvent"("shop", "orderGid");

-- CreateIndex
CREATE UNIQUE INDEX "FlowTriggerEvent_shop_trigger_eventKey_key" ON "FlowTriggerEvent"("shop", "trigger", "eventKey");

