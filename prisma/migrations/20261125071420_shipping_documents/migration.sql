-- CreateTable
CREATE TABLE "ShipmentDocument" (
    "shipmentId" INTEGER NOT NULL,
    "shop" TEXT NOT NULL,
    "routingText" TEXT,
    "labelFirstPrintedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShipmentDocument_pkey" PRIMARY KEY ("shipmentId")
);

-- CreateTable
CREATE TABLE "Manifest" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "warehouseId" INTEGER NOT NULL,
    "courierName" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Manifest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ManifestShipment" (
    "manifestId" INTEGER NOT NULL,
    "shipmentId" INTEGER NOT NULL,
    "shop" TEXT NOT NULL,

    CONSTRAINT "ManifestShipment_pkey" PRIMARY KEY ("manifestId","shipmentId")
);

-- CreateTable
CREATE TABLE "ShopDocumentSettings" (
    "shop" TEXT NOT NULL,
    "labelLayout" TEXT NOT NULL DEFAULT 'thermal_4x6',
    "shopName" TEXT NOT NULL DEFAULT '',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShopDocumentSettings_pkey" PRIMARY KEY ("shop")
);

-- CreateIndex
CREATE INDEX "ShipmentDocument_shop_labelFirstPrintedAt_idx" ON "ShipmentDocument"("shop", "labelFirstPrintedAt");

-- CreateIndex
CREATE INDEX "Manifest_shop_createdAt_idx" ON "Manifest"("shop", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Manifest_shop_number_key" ON "Manifest"("shop", "number");

-- CreateIndex
CREATE UNIQUE INDEX "ManifestShipment_shipmentId_key" ON "ManifestShipment"("shipmentId");

-- CreateIndex
CREATE INDEX "ManifestShipment_shop_idx" ON "ManifestShipment"("shop");

-- AddForeignKey
ALTER TABLE "ManifestShipment" ADD CONSTRAINT "ManifestShipment_manifestId_fkey" FOREIGN KEY ("manifestId") REFERENCES "Manifest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

