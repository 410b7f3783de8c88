import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Sandbox accounts: the embedded courier sandbox gives every tenant of the app (a shop, named by an opaque
 * account string) an account of its own, so tenants never share order ids or warehouses and one tenant's data
 * can be erased without touching another's. An account's credentials are derived from the sandbox's master
 * pair (SANDBOX_API_KEY / SANDBOX_SECRET_KEY), so neither side stores them: the key is `<master key>.<account>`
 * and the secret an HMAC of that key with the master secret. Both the app (to call) and the service (to check
 * and to open the account on first use) derive them here. Nothing in it knows what an account stands for.
 */

export interface CourierKeyPair {
  apiKey: string;
  secretKey: string;
}

/**
 * What the embedded sandbox lets one account do at once and a second: the pace the app reads a sandbox account's
 * tracking at, as it would read a real aggregator's published limits.
 */
export const SANDBOX_CALL_LIMITS = { atOnce: 8, perSecond: 400 } as const;

/** Every sandbox account has these warehouses: 1 (the primary) and 2. */
export const SANDBOX_PRIMARY_WAREHOUSE_ID = 1;
export const SANDBOX_WAREHOUSE_IDS: readonly number[] = [SANDBOX_PRIMARY_WAREHOUSE_ID, 2];

const ACCOUNT = /^[a-z0-9][a-z0-9.-]{0,200}$/;

export function sandboxAccountSecret(masterSecret: string, apiKey: string): string {
  return createHmac("sha256", masterSecret).update(`dakiya-sandbox-account:${apiKey}`, "utf8").digest("base64url");
}

export function sandboxAccountCredentials(master: CourierKeyPair, account: string): CourierKeyPair {
  const apiKey = `${master.apiKey}.${account.toLowerCase()}`;
  return { apiKey, secretKey: sandboxAccountSecret(master.secretKey, apiKey) };
}

/** The account an API key names, when it is a sandbox account key of this master key; otherwise null. */
export function sandboxAccountOf(masterKey: string, apiKey: string): string | null {
  if (!apiKey.startsWith(`${masterKey}.`)) return null;
  const account = apiKey.slice(masterKey.length + 1);
  return ACCOUNT.test(account) ? account : null;
}

/** Whether a secret is the one derived for this sandbox account key; constant time. */
export function isSandboxAccountSecret(master: CourierKeyPair, apiKey: string, secretKey: string): boolean {
  const expected = Buffer.from(sandboxAccountSecret(master.secretKey, apiKey));
  const given = Buffer.from(secretKey);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
