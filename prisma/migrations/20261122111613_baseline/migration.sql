-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "isOnline" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "expires" TIMESTAMP(3),
    "accessToken" TEXT NOT NULL,
    "userId" BIGINT,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "accountOwner" BOOLEAN NOT NULL DEFAULT false,
    "locale" TEXT,
    "collaborator" BOOLEAN DEFAULT false,
    "emailVerified" BOOLEAN DEFAULT false,
    "refreshToken" TEXT,
    "refreshTokenExpires" TIMESTAMP(3),

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiClient" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "apiKey" TEXT NOT NULL,
    "secretSalt" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "isSandbox" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ApiClient_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Warehouse" (
    "id" SERIAL NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Warehouse_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ServiceOrder" (
    "id" SERIAL NOT NULL,
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
    "actualWeight" DOUBLE PRECISION NOT NULL,
    "products" TEXT NOT NULL,
    "paymentMode" TEXT NOT NULL,
    "discount" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "shippingCharge" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "transactionCharge" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "giftwrapCharge" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "totalAmount" DOUBLE PRECISION NOT NULL,
    "ewaybillNo" TEXT NOT NULL DEFAULT '',
    "deliveryRemarks" TEXT NOT NULL DEFAULT '',
    "warehouseId" INTEGER NOT NULL,
    "logisticId" INTEGER NOT NULL,
    "logisticName" TEXT NOT NULL,
    "logisticMode" TEXT NOT NULL,
    "zone" TEXT NOT NULL,
    "chargeableWeight" DOUBLE PRECISION NOT NULL,
    "freightCharges" DOUBLE PRECISION NOT NULL,
    "codCharges" DOUBLE PRECISION NOT NULL,
    "totalCharges" DOUBLE PRECISION NOT NULL,
    "eddMinDays" INTEGER NOT NULL,
    "eddMaxDays" INTEGER NOT NULL,
    "trackingUrl" TEXT NOT NULL,
    "cancelledAt" TIMESTAMP(3),
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ServiceOrder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ServiceTrackingEvent" (
    "id" SERIAL NOT NULL,
    "orderId" INTEGER NOT NULL,
    "step" INTEGER NOT NULL,
    "code" INTEGER NOT NULL,
    "location" TEXT,
    "activity" TEXT NOT NULL,
    "happenedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ServiceTrackingEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShopSettings" (
    "shop" TEXT NOT NULL,
    "courierApiKey" TEXT,
    "courierSecretCipher" TEXT,
    "courierEnvironment" TEXT NOT NULL DEFAULT 'test',
    "defaultWarehouseId" INTEGER,
    "locationWarehouses" TEXT NOT NULL DEFAULT '{}',
    "packageLength" INTEGER NOT NULL DEFAULT 20,
    "packageBreadth" INTEGER NOT NULL DEFAULT 15,
    "packageHeight" INTEGER NOT NULL DEFAULT 10,
    "defaultWeightKg" DOUBLE PRECISION NOT NULL DEFAULT 0.5,
    "packagePresets" TEXT NOT NULL DEFAULT '[]',
    "codTag" TEXT NOT NULL DEFAULT 'cod',
    "prepaidTag" TEXT NOT NULL DEFAULT 'prepaid',
    "notifyCustomer" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShopSettings_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "Shipment" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "orderGid" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "requestPayload" TEXT NOT NULL,
    "courierEnvironment" TEXT NOT NULL,
    "awb" TEXT,
    "courierId" INTEGER,
    "courierName" TEXT,
    "freightPaise" INTEGER,
    "codPaise" INTEGER,
    "totalChargesPaise" INTEGER,
    "zone" TEXT,
    "edd" TEXT,
    "paymentMode" TEXT NOT NULL,
    "trackingUrl" TEXT,
    "warehouseId" INTEGER,
    "locationGid" TEXT,
    "fulfillmentGid" TEXT,
    "lastError" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "leaseUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Shipment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Session_shop_idx" ON "Session"("shop");

-- CreateIndex
CREATE INDEX "WebhookDelivery_shop_idx" ON "WebhookDelivery"("shop");

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

-- CreateIndex
CREATE INDEX "Shipment_shop_status_idx" ON "Shipment"("shop", "status");

-- CreateIndex
CREATE INDEX "Shipment_status_nextAttemptAt_idx" ON "Shipment"("status", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "Shipment_shop_orderGid_key" ON "Shipment"("shop", "orderGid");

-- AddForeignKey
ALTER TABLE "Warehouse" ADD CONSTRAINT "Warehouse_apiClientId_fkey" FOREIGN KEY ("apiClientId") REFERENCES "ApiClient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ServiceOrder" ADD CONSTRAINT "ServiceOrder_apiClientId_fkey" FOREIGN KEY ("apiClientId") REFERENCES "ApiClient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ServiceTrackingEvent" ADD CONSTRAINT "ServiceTrackingEvent_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "ServiceOrder"("id") ON DELETE CASCADE ON UPDATE CASCADE;

