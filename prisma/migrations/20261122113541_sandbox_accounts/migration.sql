-- Warehouses are numbered per account (every sandbox account has its warehouses 1 and 2). Existing warehouses
-- keep the id their account already knows as their number.
DROP INDEX "Warehouse_apiClientId_idx";
ALTER TABLE "Warehouse" ADD COLUMN "number" INTEGER;
UPDATE "Warehouse" SET "number" = "id";
ALTER TABLE "Warehouse" ALTER COLUMN "number" SET NOT NULL;
CREATE UNIQUE INDEX "Warehouse_apiClientId_number_key" ON "Warehouse"("apiClientId", "number");

-- The service's money in integer paise, converted in place (rupees with at most two decimals).
ALTER TABLE "ServiceOrder" RENAME COLUMN "discount" TO "discountPaise";
ALTER TABLE "ServiceOrder" ALTER COLUMN "discountPaise" DROP DEFAULT, ALTER COLUMN "discountPaise" TYPE INTEGER USING round("discountPaise" * 100), ALTER COLUMN "discountPaise" SET DEFAULT 0;
ALTER TABLE "ServiceOrder" RENAME COLUMN "shippingCharge" TO "shippingChargePaise";
ALTER TABLE "ServiceOrder" ALTER COLUMN "shippingChargePaise" DROP DEFAULT, ALTER COLUMN "shippingChargePaise" TYPE INTEGER USING round("shippingChargePaise" * 100), ALTER COLUMN "shippingChargePaise" SET DEFAULT 0;
ALTER TABLE "ServiceOrder" RENAME COLUMN "transactionCharge" TO "transactionChargePaise";
ALTER TABLE "ServiceOrder" ALTER COLUMN "transactionChargePaise" DROP DEFAULT, ALTER COLUMN "transactionChargePaise" TYPE INTEGER USING round("transactionChargePaise" * 100), ALTER COLUMN "transactionChargePaise" SET DEFAULT 0;
ALTER TABLE "ServiceOrder" RENAME COLUMN "giftwrapCharge" TO "giftwrapChargePaise";
ALTER TABLE "ServiceOrder" ALTER COLUMN "giftwrapChargePaise" DROP DEFAULT, ALTER COLUMN "giftwrapChargePaise" TYPE INTEGER USING round("giftwrapChargePaise" * 100), ALTER COLUMN "giftwrapChargePaise" SET DEFAULT 0;
ALTER TABLE "ServiceOrder" RENAME COLUMN "totalAmount" TO "totalAmountPaise";
ALTER TABLE "ServiceOrder" ALTER COLUMN "totalAmountPaise" TYPE INTEGER USING round("totalAmountPaise" * 100);
ALTER TABLE "ServiceOrder" RENAME COLUMN "freightCharges" TO "freightPaise";
ALTER TABLE "ServiceOrder" ALTER COLUMN "freightPaise" TYPE INTEGER USING round("freightPaise" * 100);
ALTER TABLE "ServiceOrder" RENAME COLUMN "codCharges" TO "codPaise";
ALTER TABLE "ServiceOrder" ALTER COLUMN "codPaise" TYPE INTEGER USING round("codPaise" * 100);
ALTER TABLE "ServiceOrder" RENAME COLUMN "totalCharges" TO "totalChargesPaise";
ALTER TABLE "ServiceOrder" ALTER COLUMN "totalChargesPaise" TYPE INTEGER USING round("totalChargesPaise" * 100);
