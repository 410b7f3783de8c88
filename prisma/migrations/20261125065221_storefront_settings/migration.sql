-- CreateTable
CREATE TABLE "StorefrontSettings" (
    "shop" TEXT NOT NULL,
    "estimateEnabled" BOOLEAN NOT NULL DEFAULT false,
    "handlingDays" INTEGER NOT NULL DEFAULT 1,
    "cutoffMinutes" INTEGER NOT NULL DEFAULT 840,
    "closedWeekdays" INTEGER[] DEFAULT ARRAY[0]::INTEGER[],
    "closedDates" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "showCod" BOOLEAN NOT NULL DEFAULT true,
    "codMaxPaise" INTEGER,
    "defaultWeightGrams" INTEGER NOT NULL DEFAULT 500,
    "trackOnShopDomain" BOOLEAN NOT NULL DEFAULT false,
    "proxyPathPrefix" TEXT,
    "proxyPathSeenAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StorefrontSettings_pkey" PRIMARY KEY ("shop")
);

