import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { ApiClient, PrismaClient } from "@prisma/client";

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
 * API clients whose secret the database confirmed in the last second, by key: every request authenticates, and
 * the lookup was the one query of a quote and one of an order's round trips (npm run bench, bench/findings.md).
 * Only a successful check is kept, so a guesser cannot fill it, and the secret is still checked against the kept
 * hash on every request; a secret that does not match it is looked up afresh, in case it is a new one.
 *
 * When credentials stop being valid in this process (an account erased, a sandbox account's keys rewritten:
 * forgetApiClients), they stop working at once. Changed by another process of the app, they keep working here
 * for at most TRUSTED_FOR_MS.
 */
export const TRUSTED_FOR_MS = 1000;
// Each entry is an account that authenticated: a bound on memory, never reached by the sandbox's accounts.
const MAX_TRUSTED = 10_000;
const trusted = new Map<string, { client: ApiClient; until: number }>();
// Bumped by every forgetting, so a lookup that was under way meanwhile does not put back what it read before.
let generation = 0;

/** The API client owning this key pair, or null. Compared in constant time. */
export async function findApiClient(db: PrismaClient, apiKey: string, secretKey: string): Promise<ApiClient | null> {
  const kept = trusted.get(apiKey);
  if (kept && kept.until > Date.now() && secretMatches(kept.client, secretKey)) return kept.client;
  const readAt = generation;
  const client = await db.apiClient.findUnique({ where: { apiKey } });
  if (!client || !secretMatches(client, secretKey)) return null;
  if (readAt === generation) {
    trusted.delete(apiKey);
    if (trusted.size >= MAX_TRUSTED) trusted.delete(trusted.keys().next().value!);
    trusted.set(apiKey, { client, until: Date.now() + TRUSTED_FOR_MS });
  }
  return client;
}

/** Every kept API client is looked up again: called after this process changes or deletes credentials. */
export function forgetApiClients(): void {
  generation += 1;
  trusted.clear();
}
