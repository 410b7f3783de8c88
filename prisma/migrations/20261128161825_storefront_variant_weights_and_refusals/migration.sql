-- CreateTable
CREATE TABLE "StorefrontVariantWeight" (
    "shop" TEXT NOT NULL,
    "variantGid" TEXT NOT NULL,
    "grams" INTEGER,
    "readAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StorefrontVariantWeight_pkey" PRIMARY KEY ("shop","variantGid")
);

-- CreateTable
CREATE TABLE "StorefrontRefusal" (
    "shop" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "trackingLookups" INTEGER NOT NULL DEFAULT 0,
    "estimates" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "StorefrontRefusal_pkey" PRIMARY KEY ("shop","hour")
);

