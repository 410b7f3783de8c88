-- AlterTable
ALTER TABLE "StorefrontSettings" ADD COLUMN     "primaryDomainHost" TEXT;

