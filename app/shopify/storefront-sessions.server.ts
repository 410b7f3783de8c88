import { AsyncLocalStorage } from "node:async_hooks";
import type { Session } from "@shopify/shopify-api";
import type { SessionStorage } from "@shopify/shopify-app-session-storage";

/**
 * Storefront requests (the app proxy) outnumber the admin's by orders of magnitude, and each one makes the Shopify
 * library read the shop's offline session from the database only to learn that the shop is installed: at storefront
 * load that read was the largest single cost of an estimate answered from memory. Inside `forStorefront`, a
 * shop's offline session is kept for a few seconds; everywhere else (the admin, webhooks, jobs) every read goes to
 * the database. A session stored or deleted by this process is forgotten at once; another process's uninstall
 * reaches this one's storefront answers within the time to live (an uninstall deletes the rows directly, so also
 * in this process: the shop's storefront answers stop within seconds, its admin and jobs at once).
 */
const storefrontScope = new AsyncLocalStorage<true>();

export const STOREFRONT_SESSION_TTL_MS = 5_000;
const MAX_CACHED = 10_000;

/** Runs `work` (the library's app proxy check) with offline sessions read through the short-lived cache. */
export function forStorefront<T>(work: () => Promise<T>): Promise<T> {
  return storefrontScope.run(true, work);
}

const isOfflineId = (id: string) => id.startsWith("offline_");

export function withStorefrontSessionCache(inner: SessionStorage, { ttlMs = STOREFRONT_SESSION_TTL_MS, now = () => Date.now() } = {}): SessionStorage {
  const cached = new Map<string, { session: Session | undefined; until: number }>();
  // One database read per shop at a time: when a shop's entry runs out, its shoppers' requests at that moment wait
  // for the same read instead of each making one (50 reads at once made the estimate's p99).
  const reading = new Map<string, Promise<Session | undefined>>();
  // Bumped when this process stores or deletes a session, so a read begun before it is not kept after it.
  const generations = new Map<string, number>();
  const forget = (id: string) => {
    cached.delete(id);
    reading.delete(id);
    generations.set(id, (generations.get(id) ?? 0) + 1);
    if (generations.size > MAX_CACHED) generations.delete(generations.keys().next().value!);
  };
  async function readAndKeep(id: string): Promise<Session | undefined> {
    const generation = generations.get(id);
    const session = await inner.loadSession(id);
    if (generations.get(id) === generation) {
      if (cached.size >= MAX_CACHED) cached.delete(cached.keys().next().value!);
      cached.delete(id);
      cached.set(id, { session, until: now() + ttlMs });
    }
    return session;
  }
  return {
    async loadSession(id) {
      if (!storefrontScope.getStore() || !isOfflineId(id)) return inner.loadSession(id);
      const hit = cached.get(id);
      if (hit && hit.until > now()) return hit.session;
      const joined = reading.get(id);
      if (joined) return joined;
      const read: Promise<Session | undefined> = readAndKeep(id).finally(() => {
        if (reading.get(id) === read) reading.delete(id);
      });
      reading.set(id, read);
      return read;
    },
    async storeSession(session) {
      forget(session.id);
      const stored = await inner.storeSession(session);
      forget(session.id);
      return stored;
    },
    // Forgotten before and after, as a store: a read begun while the row was being deleted is not kept either.
    async deleteSession(id) {
      forget(id);
      const deleted = await inner.deleteSession(id);
      forget(id);
      return deleted;
    },
    async deleteSessions(ids) {
      for (const id of ids) forget(id);
      const deleted = await inner.deleteSessions(ids);
      for (const id of ids) forget(id);
      return deleted;
    },
    findSessionsByShop: (shop) => inner.findSessionsByShop(shop),
  };
}
