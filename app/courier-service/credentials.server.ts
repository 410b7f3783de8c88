import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { ApiClient, PrismaClient } from "@prisma/client";

export function hashSecret(salt: string, secret: string): string {
  return createHmac("sha256", salt).update(secret, "utf8").digest("hex");
}

export function newSecretHash(secret: string): { secretSalt: string; secretHash: string } {
  const secretSalt = randomBytes(16).toString("hex");
  return { secretSalt, secretHash: hashSecret(secretSalt, secret) };
}

/** The API client owning this key pair, or null. Compared in constant time. */
export async function findApiClient(db: PrismaClient, apiKey: string, secretKey: string): Promise<ApiClient | null> {
  const client = await db.apiClient.findUnique({ where: { apiKey } });
  if (!client) return null;
  const expected = Buffer.from(client.secretHash, "hex");
  const given = Buffer.from(hashSecret(client.secretSalt, secretKey), "hex");
  return expected.length === given.length && timingSafeEqual(expected, given) ? client : null;
}
