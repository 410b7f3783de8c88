import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { ApiClient, PrismaClient } from "@prisma/client";
import { createAccountCache } from "./account-cache.server";

export function hashSecret(salt: string, secret: string): string {
  return createHmac("sha256", salt).update(secret, "utf8").digest("hex");
}

export function newSecretHash(secret: string): { secretSalt: string; secretHash: string } {
  const secretSalt = randomBytes(16).toString("hex");
  return { secretSalt, secretHash: hashSecret(secretSalt, secret) };
}

function secretMatches(client: ApiClient, secretKey: string): boolean {
  const expected = Buffer.from(client.secretHash, "hex");
  const given = Buffer.from(hashSecret(client.secretSalt, secretKey), "hex");
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * API clients whose secret the database confirmed, by key, kept for a second (account-cache.server.ts). Only a
 * successful check is kept, so a guesser cannot fill it, and the secret is still checked against the kept hash
 * on every request; a secret that does not match it is looked up afresh, in case it is a new one.
 */
const confirmedClients = createAccountCache<string, ApiClient>();

/** The API client owning this key pair, or null. Compared in constant time. */
export async function findApiClient(db: PrismaClient, apiKey: string, secretKey: string): Promise<ApiClient | null> {
  const kept = confirmedClients.kept(apiKey);
  if (kept && secretMatches(kept, secretKey)) return kept;
  const keep = confirmedClients.startRead();
  const client = await db.apiClient.findUnique({ where: { apiKey } });
  if (!client || !secretMatches(client, secretKey)) return null;
  keep(apiKey, client);
  return client;
}
