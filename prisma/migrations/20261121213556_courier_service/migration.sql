-- CreateTable
CREATE TABLE "ApiClient" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "apiKey" TEXT NOT NULL,
    "secretSalt" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "isSandbox" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Warehouse" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "apiClientId" INTEGER NOT NULL,
    "warehouseName" TEXT NOT NULL,
    "companyName" TEXT NOT NULL,
    "addressLine1" TEXT NOT NULL,
    "addressLine2" TEXT NOT NULL DEFAULT '',
    "city" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "pincode" INTEGER NOT NULL,
    "country" TEXT NOT NULL DEFAULT 'India',
    "mobile" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "gstNumber" TEXT NOT NULL DEFAULT '',
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "isPrimary" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Warehouse_apiClientId_fkey" FOREIGN KEY ("apiClientId") REFERENCES "ApiClient" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ServiceOrder" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "apiClientId" INTEGER NOT NULL,
    "orderId" TEXT NOT NULL,
    "awb" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "createResult" TEXT NOT NULL,
    "statusCode" INTEGER NOT NULL,
    "orderType" TEXT NOT NULL,
    "orderDate" TEXT NOT NULL,
    "customerName" TEXT NOT NULL,
    "customerEmail" TEXT NOT NULL DEFAULT '',
    "mobile" TEXT NOT NULL,
    "altMobile" TEXT NOT NULL DEFAULT '',
    "companyName" TEXT NOT NULL DEFAULT '',
    "gstNumber" TEXT NOT NULL DEFAULT '',
    "addressLine1" TEXT NOT NULL,
    "addressLine2" TEXT NOT NULL DEFAULT '',
    "city" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "pincode" INTEGER NOT NULL,
    "packageLength" INTEGER NOT NULL,
    "packageBreadth" INTEGER NOT NULL,
    "packageHeight" INTEGER NOT NULL,
    "actualWeight" REAL NOT NULL,
    "products" TEXT NOT NULL,
    "paymentMode" TEXT NOT NULL,
    "discount" REAL NOT NULL DEFAULT 0,
    "shippingCharge" REAL NOT NULL DEFAULT 0,
    "transactionCharge" REAL NOT NULL DEFAULT 0,
    "giftwrapCharge" REAL NOT NULL DEFAULT 0,
    "totalAmount" REAL NOT NULL,
    "ewaybillNo" TEXT NOT NULL DEFAULT '',
    "deliveryRemarks" TEXT NOT NULL DEFAULT '',
    "warehouseId" INTEGER NOT NULL,
    "logisticId" INTEGER NOT NULL,
    "logisticName" TEXT NOT NULL,
    "logisticMode" TEXT NOT NULL,
    "zone" TEXT NOT NULL,
    "chargeableWeight" REAL NOT NULL,
    "freightCharges" REAL NOT NULL,
    "codCharges" REAL NOT NULL,
    "totalCharges" REAL NOT NULL,
    "eddMinDays" INTEGER NOT NULL,
    "eddMaxDays" INTEGER NOT NULL,
    "trackingUrl" TEXT NOT NULL,
    "cancelledAt" DATETIME,
    "deliveredAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ServiceOrder_apiClientId_fkey" FOREIGN KEY ("apiClientId") REFERENCES "ApiClient" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ServiceTrackingEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "orderId" INTEGER NOT NULL,
    "step" INTEGER NOT NULL,
    "code" INTEGER NOT NULL,
    "location" TEXT,
    "activity" TEXT NOT NULL,
    "happenedAt" DATETIME NOT NULL,
    CONSTRAINT "ServiceTrackingEvent_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "ServiceOrder" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiClient_apiKey_key" ON "ApiClient"("apiKey");

-- CreateIndex
CREATE INDEX "Warehouse_apiClientId_idx" ON "Warehouse"("apiClientId");

-- CreateIndex
CREATE UNIQUE INDEX "ServiceOrder_awb_key" ON "ServiceOrder"("awb");

-- CreateIndex
CREATE UNIQUE INDEX "ServiceOrder_apiClientId_orderId_key" ON "ServiceOrder"("apiClientId", "orderId");

-- CreateIndex
CREATE UNIQUE INDEX "ServiceTrackingEvent_orderId_step_key" ON "ServiceTrackingEvent"("orderId", "step");

