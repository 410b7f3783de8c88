/**
 * What the courier service keeps of its accounts for a second, in this process: API clients whose secret the
 * database confirmed (credentials.server.ts) and an account's warehouses (shipment-service.server.ts). Every
 * request authenticates and every order needs its warehouse; kept, a busy account costs one lookup of each a
 * second instead of one per request (npm run bench, bench/findings.md).
 *
 * Accounts change only when this process or another one of the app opens one, brings its keys up to date or
 * erases it. This process then calls forgetAccounts(), and what it changed is read afresh at once; a change
 * made by another process is seen here within KEPT_FOR_MS.
 */
export const KEPT_FOR_MS = 1000;
// Each entry is an account that was used: a bound on memory that the sandbox's accounts never reach.
const MAX_KEPT = 10_000;
// Bumped by every forgetting: entries kept before it are stale, and a read under way meanwhile is not kept.
let generation = 0;

/** Everything kept about every account is read afresh. Call it after changing or deleting an account's rows. */
export function forgetAccounts(): void {
  generation += 1;
}

export interface AccountCache<K, V> {
  /** What is kept under `key`, while it is fresh. */
  kept(key: K): V | undefined;
  /**
   * Call before reading from the database; then keep what was read with the function it returns. What was
   * read is not kept if the accounts were forgotten meanwhile: it may be from before the change.
   */
  startRead(): (key: K, value: V) => void;
}

export function createAccountCache<K, V>(): AccountCache<K, V> {
  const entries = new Map<K, { value: V; until: number; generation: number }>();
  return {
    kept(key) {
      const entry = entries.get(key);
      return entry && entry.generation === generation && entry.until > Date.now() ? entry.value : undefined;
    },
    startRead() {
      const readAt = generation;
      return (key, value) => {
        if (readAt !== generation) return;
        entries.delete(key);
        if (entries.size >= MAX_KEPT) entries.delete(entries.keys().next().value!);
        entries.set(key, { value, until: Date.now() + KEPT_FOR_MS, generation: readAt });
      };
    },
  };
}
