-- CreateTable
CREATE TABLE "TrackingPageSettings" (
    "shop" TEXT NOT NULL,
    "logoUrl" TEXT,
    "contactEmail" TEXT,
    "contactPhone" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TrackingPageSettings_pkey" PRIMARY KEY ("shop")
);

