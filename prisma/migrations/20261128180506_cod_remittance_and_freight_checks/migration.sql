-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "cashToCollectPaise" INTEGER,
ADD COLUMN     "packageName" TEXT,
ADD COLUMN     "quotedWeightGrams" INTEGER;

-- CreateTable
CREATE TABLE "ReconciliationSettings" (
    "shop" TEXT NOT NULL,
    "expectedRemittanceDays" INTEGER NOT NULL DEFAULT 10,
    "markPaidInShopify" BOOLEAN NOT NULL DEFAULT true,
    "remittanceColumns" JSONB,
    "invoiceColumns" JSONB,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReconciliationSettings_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "CourierStatement" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "lineCount" INTEGER NOT NULL,
    "summary" JSONB NOT NULL,
    "importedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CourierStatement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RemittanceLine" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "statementId" INTEGER NOT NULL,
    "row" INTEGER NOT NULL,
    "awb" TEXT NOT NULL,
    "orderRef" TEXT NOT NULL,
    "amountPaise" INTEGER NOT NULL,
    "reference" TEXT NOT NULL,
    "remittedOn" TIMESTAMP(3),
    "shipmentId" INTEGER,
    "orderGid" TEXT,
    "matchedBy" TEXT,
    "verdict" TEXT NOT NULL,
    "expectedPaise" INTEGER,
    "remittedBeforePaise" INTEGER,
    "differencePaise" INTEGER,

    CONSTRAINT "RemittanceLine_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FreightCharge" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "statementId" INTEGER NOT NULL,
    "row" INTEGER NOT NULL,
    "awb" TEXT NOT NULL,
    "chargedWeightGrams" INTEGER NOT NULL,
    "chargedPaise" INTEGER NOT NULL,
    "chargedOn" TIMESTAMP(3),
    "shipmentId" INTEGER,
    "orderGid" TEXT,
    "courierName" TEXT,
    "verdict" TEXT NOT NULL,
    "declaredWeightGrams" INTEGER,
    "volumetricWeightGrams" INTEGER,
    "quotedWeightGrams" INTEGER,
    "quotedPaise" INTEGER,
    "extraWeightGrams" INTEGER,
    "extraPaise" INTEGER,

    CONSTRAINT "FreightCharge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PackingPhoto" (
    "shop" TEXT NOT NULL,
    "shipmentId" INTEGER NOT NULL,
    "contentType" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "uploadedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PackingPhoto_pkey" PRIMARY KEY ("shop","shipmentId")
);

-- CreateTable
CREATE TABLE "ShopifyCodPayment" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "shipmentId" INTEGER NOT NULL,
    "orderGid" TEXT NOT NULL,
    "parcelName" TEXT NOT NULL,
    "amountPaise" INTEGER NOT NULL,
    "reference" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "method" TEXT,
    "detail" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settledAt" TIMESTAMP(3),

    CONSTRAINT "ShopifyCodPayment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CourierStatement_shop_kind_importedAt_idx" ON "CourierStatement"("shop", "kind", "importedAt");

-- CreateIndex
CREATE UNIQUE INDEX "CourierStatement_shop_kind_sha256_key" ON "CourierStatement"("shop", "kind", "sha256");

-- CreateIndex
CREATE INDEX "RemittanceLine_shop_shipmentId_idx" ON "RemittanceLine"("shop", "shipmentId");

-- CreateIndex
CREATE INDEX "RemittanceLine_shop_awb_idx" ON "RemittanceLine"("shop", "awb");

-- CreateIndex
CREATE UNIQUE INDEX "RemittanceLine_statementId_row_key" ON "RemittanceLine"("statementId", "row");

-- CreateIndex
CREATE INDEX "FreightCharge_shop_shipmentId_idx" ON "FreightCharge"("shop", "shipmentId");

-- CreateIndex
CREATE INDEX "FreightCharge_shop_verdict_idx" ON "FreightCharge"("shop", "verdict");

-- CreateIndex
CREATE INDEX "FreightCharge_shop_awb_idx" ON "FreightCharge"("shop", "awb");

-- CreateIndex
CREATE UNIQUE INDEX "FreightCharge_statementId_row_key" ON "FreightCharge"("statementId", "row");

-- CreateIndex
CREATE INDEX "ShopifyCodPayment_shop_state_idx" ON "ShopifyCodPayment"("shop", "state");

-- CreateIndex
CREATE INDEX "ShopifyCodPayment_shop_orderGid_idx" ON "ShopifyCodPayment"("shop", "orderGid");

-- CreateIndex
CREATE UNIQUE INDEX "ShopifyCodPayment_shop_shipmentId_key" ON "ShopifyCodPayment"("shop", "shipmentId");

-- CreateIndex
CREATE INDEX "Shipment_shop_deliveredAt_idx" ON "Shipment"("shop", "deliveredAt");

-- CreateIndex
CREATE INDEX "Shipment_shop_orderName_idx" ON "Shipment"("shop", "orderName");

-- AddForeignKey
ALTER TABLE "RemittanceLine" ADD CONSTRAINT "RemittanceLine_statementId_fkey" FOREIGN KEY ("statementId") REFERENCES "CourierStatement"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FreightCharge" ADD CONSTRAINT "FreightCharge_statementId_fkey" FOREIGN KEY ("statementId") REFERENCES "CourierStatement"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Bookings made before this kept what the parcel collects only in the body sent to the courier: the COD ledger
-- reads it from there once. Their quoted weight and box were not kept (the freight check says so for them).
UPDATE "Shipment"
   SET "cashToCollectPaise" = round(("requestPayload"::jsonb ->> 'total_amount')::numeric * 100)::integer
 WHERE "paymentMode" = 'cod'
   AND "direction" = 'forward'
   AND "requestPayload" LIKE '{%'
   AND ("requestPayload"::jsonb ->> 'total_amount') ~ '^[0-9]+(\.[0-9]+)?$';
