/**
 * An in-process cache for answers that are slow or costly to fetch and shared by many callers (the courier's quote
 * for a route, asked for by every shopper on that route). No I/O of its own: the loader and the clock are passed in.
 *
 * - bounded: at most `maxEntries`, the least recently used dropped first; and at most `maxPerPartition` of one
 *   partition (a shop's keys), which drops its own least recently used first — so one shop's flood of new keys
 *   pushes out its own answers, never the other shops';
 * - fresh for `freshMs`; after that the stale answer is served at once while one refresh runs behind it;
 * - concurrent misses of one key share one load (single flight);
 * - a refresh that fails keeps the last answer and is not tried again for `retryAfterMs`; a miss that fails is
 *   remembered as failed for as long, so a service that is down is not asked once per caller.
 */
export interface AnswerCacheOptions {
  maxEntries: number;
  /** A partition's share: at most this many of its keys (none: the whole cache). */
  maxPerPartition?: number;
  /** The partition of a key: what precedes its first `|` (the shop, in Dakiya's keys) unless said otherwise. */
  partitionOf?: (key: string) => string;
  freshMs: number;
  retryAfterMs: number;
  now?: () => number;
}

interface Entry<T> {
  value?: T;
  hasValue: boolean;
  freshUntil: number;
  /** After a failed load: not tried again before then. */
  retryAt: number;
  failure?: unknown;
}

export interface CacheAnswer<T> {
  value: T;
  /** False when the answer is older than `freshMs` (a refresh is under way or failed). */
  fresh: boolean;
}

const partitionByPrefix = (key: string) => {
  const bar = key.indexOf("|");
  return bar === -1 ? key : key.slice(0, bar);
};

export function createAnswerCache<T>(options: AnswerCacheOptions) {
  const now = options.now ?? Date.now;
  const partitionOf = options.partitionOf ?? partitionByPrefix;
  const maxPerPartition = options.maxPerPartition ?? options.maxEntries;
  const entries = new Map<string, Entry<T>>();
  /** Each partition's keys, in the same least-recently-used-first order as `entries`. */
  const partitions = new Map<string, Set<string>>();
  const inFlight = new Map<string, Promise<T>>();
  let loads = 0;

  function drop(key: string) {
    entries.delete(key);
    const partition = partitionOf(key);
    const keys = partitions.get(partition);
    keys?.delete(key);
    if (keys?.size === 0) partitions.delete(partition);
  }

  /** Re-inserting moves the key to the young end of the Maps' order: eviction takes from the old end. */
  function remember(key: string, entry: Entry<T>) {
    drop(key);
    entries.set(key, entry);
    const partition = partitionOf(key);
    let keys = partitions.get(partition);
    if (!keys) partitions.set(partition, (keys = new Set()));
    keys.add(key);
    while (keys.size > maxPerPartition) drop(keys.values().next().value!);
    while (entries.size > options.maxEntries) drop(entries.keys().next().value!);
  }

  function load(key: string, loader: () => Promise<T>): Promise<T> {
    const running = inFlight.get(key);
    if (running) return running;
    loads += 1;
    const loading = (async () => {
      try {
        const value = await loader();
        remember(key, { value, hasValue: true, freshUntil: now() + options.freshMs, retryAt: 0 });
        return value;
      } catch (failure) {
        const previous = entries.get(key);
        const retryAt = now() + options.retryAfterMs;
        if (previous?.hasValue) remember(key, { ...previous, retryAt });
        else remember(key, { hasValue: false, freshUntil: 0, retryAt, failure });
        throw failure;
      } finally {
        inFlight.delete(key);
      }
    })();
    inFlight.set(key, loading);
    return loading;
  }

  return {
    /**
     * The answer for `key`: cached when there is one (stale answers too, refreshed behind), else loaded once however
     * many callers ask at the same time. Throws the load's failure when there is no answer to fall back on.
     */
    async get(key: string, loader: () => Promise<T>): Promise<CacheAnswer<T>> {
      const entry = entries.get(key);
      const at = now();
      if (entry?.hasValue) {
        remember(key, entry);
        const fresh = at < entry.freshUntil;
        if (!fresh && at >= entry.retryAt) load(key, loader).catch(() => undefined);
        return { value: entry.value as T, fresh };
      }
      if (entry && at < entry.retryAt) throw entry.failure;
      return { value: await load(key, loader), fresh: true };
    },
    /**
     * Whether `key` has an answer, a load under way or a recent failure: whether `get` would answer without a new
     * load. What a caller with a budget for loads checks first.
     */
    has(key: string): boolean {
      const entry = entries.get(key);
      return inFlight.has(key) || Boolean(entry && (entry.hasValue || now() < entry.retryAt));
    },
    /** Forgets every answer whose key starts with `prefix` (a shop's, when its settings change). */
    forget(prefix: string) {
      for (const key of [...entries.keys()]) if (key.startsWith(prefix)) drop(key);
    },
    /** Forgets every answer. */
    clear() {
      entries.clear();
      partitions.clear();
    },
    get size() {
      return entries.size;
    },
    /** Loads started, for tests and the bench: how often the slow path ran. */
    get loads() {
      return loads;
    },
  };
}

export type AnswerCache<T> = ReturnType<typeof createAnswerCache<T>>;
