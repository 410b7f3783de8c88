-- AlterTable
ALTER TABLE "TrackingEvent" ADD COLUMN     "postAttemptedAt" TIMESTAMP(3);


-- An entry still unposted may have been sent by an attempt that stopped before recording it (before this column,
-- no attempt was marked): each is read against the fulfillment's events once more before it is posted.
UPDATE "TrackingEvent" SET "postAttemptedAt" = "createdAt" WHERE "postedAt" IS NULL;
