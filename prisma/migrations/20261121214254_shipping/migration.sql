-- CreateTable
CREATE TABLE "ShopSettings" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "courierApiKey" TEXT,
    "courierSecretCipher" TEXT,
    "courierEnvironment" TEXT NOT NULL DEFAULT 'test',
    "defaultWarehouseId" INTEGER,
    "locationWarehouses" TEXT NOT NULL DEFAULT '{}',
    "packageLength" INTEGER NOT NULL DEFAULT 20,
    "packageBreadth" INTEGER NOT NULL DEFAULT 15,
    "packageHeight" INTEGER NOT NULL DEFAULT 10,
    "defaultWeightKg" REAL NOT NULL DEFAULT 0.5,
    "packagePresets" TEXT NOT NULL DEFAULT '[]',
    "codTag" TEXT NOT NULL DEFAULT 'cod',
    "prepaidTag" TEXT NOT NULL DEFAULT 'prepaid',
    "notifyCustomer" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Shipment" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "shop" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "requestPayload" TEXT NOT NULL,
    "courierEnvironment" TEXT NOT NULL,
    "awb" TEXT,
    "courierId" INTEGER,
    "courierName" TEXT,
    "freightCharges" REAL,
    "codCharges" REAL,
    "totalCharges" REAL,
    "zone" TEXT,
    "edd" TEXT,
    "paymentMode" TEXT NOT NULL,
    "trackingUrl" TEXT,
    "warehouseId" INTEGER,
    "locationGid" TEXT,
    "fulfillmentGid" TEXT,
    "lastError" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "leaseUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "Shipment_shop_status_idx" ON "Shipment"("shop", "status");

-- CreateIndex
CREATE INDEX "Shipment_status_nextAttemptAt_idx" ON "Shipment"("status", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "Shipment_shop_orderGid_key" ON "Shipment"("shop", "orderGid");

