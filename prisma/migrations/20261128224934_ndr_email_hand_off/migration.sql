-- CreateTable
CREATE TABLE "NdrEmailSettings" (
    "shop" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "sendHour" INTEGER NOT NULL,
    "timeZone" TEXT NOT NULL,
    "smtpHost" TEXT NOT NULL,
    "smtpPort" INTEGER NOT NULL,
    "smtpSecurity" TEXT NOT NULL,
    "smtpUser" TEXT NOT NULL,
    "smtpPasswordCipher" TEXT NOT NULL,
    "fromAddress" TEXT NOT NULL,
    "checkedAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "NdrEmailSettings_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "NdrEmailDispatch" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastAttemptAt" TIMESTAMP(3),
    "lastError" TEXT,
    "lastErrorKind" TEXT,
    "sentAt" TIMESTAMP(3),
    "handedOff" INTEGER NOT NULL DEFAULT 0,
    "messageId" TEXT,

    CONSTRAINT "NdrEmailDispatch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "NdrEmailDispatch_shop_day_key" ON "NdrEmailDispatch"("shop", "day");

