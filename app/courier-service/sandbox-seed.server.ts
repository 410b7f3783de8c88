import type { ApiClient, PrismaClient } from "@prisma/client";
import { SANDBOX_PRIMARY_WAREHOUSE_ID, type CourierKeyPair } from "~/shipping/sandbox-accounts.server";
import { forgetAccounts } from "./account-cache.server";
import { newSecretHash } from "./credentials.server";

/** The shared sandbox account: the master pair itself (the README's curl session uses it). */
export const SHARED_SANDBOX_ACCOUNT = "Sandbox";

/** Real addresses of two fulfillment parks, so the sandbox's rates and zones are the real ones. */
export const SANDBOX_WAREHOUSES = [
  {
    number: SANDBOX_PRIMARY_WAREHOUSE_ID,
    warehouseName: "Bhiwandi Warehouse",
    companyName: "Dakiya Sandbox Traders",
    addressLine1: "Building A4, Indian Corporation Warehousing Park",
    addressLine2: "Mankoli Naka, Dapode Road",
    city: "Bhiwandi",
    state: "Maharashtra",
    pincode: 421302,
    mobile: "9820012345",
    email: "warehouse.bhiwandi@example.in",
    gstNumber: "27AAACD1234F1Z5",
    isPrimary: true,
  },
  {
    number: SANDBOX_PRIMARY_WAREHOUSE_ID + 1,
    warehouseName: "Gurugram Warehouse",
    companyName: "Dakiya Sandbox Traders",
    addressLine1: "Plot 52, Sector 37",
    addressLine2: "Pace City I",
    city: "Gurugram",
    state: "Haryana",
    pincode: 122001,
    mobile: "9810012345",
    email: "warehouse.gurugram@example.in",
    gstNumber: "06AAACD1234F1Z9",
    isPrimary: false,
  },
] as const;

/** A 32-bit key for the advisory lock that serialises opening one account. */
function lockKey(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash | 0;
}

/**
 * Opens (or brings up to date) a sandbox account named `account` with this key pair and its two warehouses.
 * Safe from several processes at once: one transaction under an advisory lock per account. A rotated master
 * pair reaches the same account, with its orders, under the new keys.
 */
export async function ensureSandboxAccount(db: PrismaClient, account: string, credentials: CourierKeyPair): Promise<ApiClient> {
  const opened = await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(4242001, ${lockKey(account)})`;
    const existing = await tx.apiClient.findFirst({ where: { isSandbox: true, name: account } });
    const keys = { apiKey: credentials.apiKey, ...newSecretHash(credentials.secretKey) };
    const client = existing
      ? await tx.apiClient.update({ where: { id: existing.id }, data: keys })
      : await tx.apiClient.create({ data: { name: account, isSandbox: true, ...keys } });
    await tx.warehouse.createMany({ data: SANDBOX_WAREHOUSES.map((warehouse) => ({ ...warehouse, apiClientId: client.id })), skipDuplicates: true });
    return client;
  });
  // The account's previous keys, if they changed, stop working at once.
  forgetAccounts();
  return opened;
}

/** The shared sandbox account, on the configured master pair (only that pair opens it). Returns its id. */
export async function ensureSandbox(db: PrismaClient, apiKey: string, secretKey: string): Promise<number> {
  return (await ensureSandboxAccount(db, SHARED_SANDBOX_ACCOUNT, { apiKey, secretKey })).id;
}
