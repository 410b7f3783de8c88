-- AlterTable
ALTER TABLE "DataRequest" ADD COLUMN     "ordersByPhoneOrEmail" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "CodSettings" (
    "shop" TEXT NOT NULL,
    "confirmHours" INTEGER NOT NULL DEFAULT 48,
    "onSilence" TEXT NOT NULL DEFAULT 'remind',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CodSettings_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "ShopperKey" (
    "shop" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShopperKey_pkey" PRIMARY KEY ("shop","orderGid","kind")
);

-- CreateTable
CREATE TABLE "CodRisk" (
    "shop" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT NOT NULL DEFAULT '',
    "level" TEXT NOT NULL,
    "score" INTEGER NOT NULL,
    "factors" JSONB NOT NULL DEFAULT '[]',
    "addressDigest" TEXT,
    "scoredAt" TIMESTAMP(3) NOT NULL,
    "assessedLevel" TEXT,
    "assessedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CodRisk_pkey" PRIMARY KEY ("shop","orderGid")
);

-- CreateTable
CREATE TABLE "CodConfirmation" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT NOT NULL DEFAULT '',
    "state" TEXT NOT NULL,
    "onSilence" TEXT NOT NULL,
    "language" TEXT NOT NULL DEFAULT 'en',
    "canPayOnline" BOOLEAN NOT NULL DEFAULT false,
    "askedAt" TIMESTAMP(3) NOT NULL,
    "deadlineAt" TIMESTAMP(3) NOT NULL,
    "linkExpiresAt" TIMESTAMP(3) NOT NULL,
    "remindedAt" TIMESTAMP(3),
    "answeredAt" TIMESTAMP(3),
    "correction" JSONB,
    "holdIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "heldAt" TIMESTAMP(3),
    "releasedAt" TIMESTAMP(3),
    "linkWrittenAt" TIMESTAMP(3),
    "invoiceSentAt" TIMESTAMP(3),
    "reminderSentAt" TIMESTAMP(3),
    "cancelledInShopifyAt" TIMESTAMP(3),
    "submissions" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CodConfirmation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CodEvent" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "step" TEXT NOT NULL,
    "actorKind" TEXT NOT NULL,
    "actorName" TEXT NOT NULL,
    "words" JSONB,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CodEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ShopperKey_shop_key_idx" ON "ShopperKey"("shop", "key");

-- CreateIndex
CREATE INDEX "CodRisk_shop_scoredAt_idx" ON "CodRisk"("shop", "scoredAt");

-- CreateIndex
CREATE INDEX "CodConfirmation_shop_state_idx" ON "CodConfirmation"("shop", "state");

-- CreateIndex
CREATE UNIQUE INDEX "CodConfirmation_shop_orderGid_key" ON "CodConfirmation"("shop", "orderGid");

-- CreateIndex
CREATE INDEX "CodEvent_shop_orderGid_at_idx" ON "CodEvent"("shop", "orderGid", "at");

