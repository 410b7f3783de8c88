import type { PrismaClient } from "@prisma/client";
import { newSecretHash } from "./credentials.server";

/** The sandbox's warehouses always have these ids, so a shop on the sandbox can quote at once. */
export const SANDBOX_PRIMARY_WAREHOUSE_ID = 1;

/** Real addresses of two fulfilment parks, so the sandbox's rates and zones are the real ones. */
export const SANDBOX_WAREHOUSES = [
  {
    warehouseName: "Bhiwandi Fulfilment Centre",
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
    warehouseName: "Gurugram Fulfilment Centre",
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

/**
 * Makes the sandbox client match the configured key pair (only that pair is accepted) and gives it
 * its warehouses once. Safe to run at every start and from several processes.
 */
export async function ensureSandbox(db: PrismaClient, apiKey: string, secretKey: string): Promise<number> {
  const credentials = { apiKey, ...newSecretHash(secretKey) };
  // One transaction under an advisory lock: two processes starting together cannot both create the client.
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(4242001)`;
    const existing = await tx.apiClient.findFirst({ where: { isSandbox: true } });
    const client = existing
      ? await tx.apiClient.update({ where: { id: existing.id }, data: credentials })
      : await tx.apiClient.create({ data: { name: "Sandbox", isSandbox: true, ...credentials } });
    if ((await tx.warehouse.count({ where: { apiClientId: client.id } })) === 0) {
      const taken = (await tx.warehouse.count({ where: { id: { in: [1, 2] } } })) > 0;
      await tx.warehouse.createMany({
        data: SANDBOX_WAREHOUSES.map((warehouse, index) => ({ ...warehouse, ...(taken ? {} : { id: SANDBOX_PRIMARY_WAREHOUSE_ID + index }), apiClientId: client.id })),
      });
    }
    return client.id;
  });
}
