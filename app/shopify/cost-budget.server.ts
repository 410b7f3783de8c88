/**
 * One limiter per shop for every Admin API call this process makes, in requests and in jobs: Shopify's
 * leaky bucket, mirrored from the `throttleStatus` every answer carries (points available now, the bucket's size
 * and its restore rate) rather than from fixed numbers. A call waits until the bucket holds what it will cost, so
 * a burst of work is paced instead of being throttled; calls of one shop are admitted in order. Other processes
 * spend from the same bucket at Shopify, so the mirror is corrected by every answer (and a THROTTLED answer is
 * still waited out by admin-graphql.server.ts).
 */

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

interface Bucket {
  available: number;
  maximum: number;
  restoreRate: number;
  /** When `available` was last known, ms. */
  at: number;
  /** Calls of this shop waiting to be admitted, in order. */
  line: Promise<void>;
  /**
   * Points admitted to calls not answered yet. Shopify's answer to one call says what was left when it was
   * served, before calls still on their way arrived: those are taken off again, so the mirror never runs ahead.
   */
  inFlight: number;
}

declare global {
  var __dakiyaCostBuckets: Map<string, Bucket> | undefined;
  var __dakiyaQueryCosts: Map<string, number> | undefined;
}

// Until Shopify has answered once: the smallest bucket seen in the wild (1,000 points, 50 a second).
const UNKNOWN: ThrottleStatus = { maximumAvailable: 1_000, currentlyAvailable: 1_000, restoreRate: 50 };
// A query not seen yet is assumed to cost this much; after one answer, its requested cost is known.
const DEFAULT_COST = 100;

const buckets = () => (globalThis.__dakiyaCostBuckets ??= new Map());
const queryCosts = () => (globalThis.__dakiyaQueryCosts ??= new Map());

function bucketOf(shop: string): Bucket {
  let bucket = buckets().get(shop);
  if (!bucket) {
    bucket = { available: UNKNOWN.currentlyAvailable, maximum: UNKNOWN.maximumAvailable, restoreRate: UNKNOWN.restoreRate, at: Date.now(), line: Promise.resolve(), inFlight: 0 };
    buckets().set(shop, bucket);
  }
  return bucket;
}

function refill(bucket: Bucket, now: number): void {
  bucket.available = Math.min(bucket.maximum, bucket.available + ((now - bucket.at) / 1000) * bucket.restoreRate);
  bucket.at = now;
}

/** What a query is expected to cost: its requested cost last time, or a default. */
export function expectedCost(query: string): number {
  return queryCosts().get(query) ?? DEFAULT_COST;
}

/**
 * Waits until the shop's bucket holds `cost` points, then spends them. Calls of one shop are admitted in the
 * order they asked; other shops' calls are not held up by this one's wait.
 */
export function spend(shop: string, cost: number): Promise<number> {
  const bucket = bucketOf(shop);
  const admitted = bucket.line.then(async () => {
    const needed = Math.min(cost, bucket.maximum);
    refill(bucket, Date.now());
    if (bucket.available < needed) {
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(((needed - bucket.available) / bucket.restoreRate) * 1000)));
      refill(bucket, Date.now());
    }
    bucket.available -= needed;
    bucket.inFlight += needed;
    return needed;
  });
  bucket.line = admitted.then(
    () => undefined,
    () => undefined,
  );
  return admitted;
}

/** Corrects the mirror from what Shopify reported with an answer (or a THROTTLED refusal). */
export function observe(shop: string, query: string, cost: { requestedQueryCost?: number; throttleStatus?: ThrottleStatus } | undefined, admitted = 0): void {
  const bucket = bucketOf(shop);
  bucket.inFlight = Math.max(0, bucket.inFlight - admitted);
  if (!cost) return;
  if (typeof cost.requestedQueryCost === "number") queryCosts().set(query, cost.requestedQueryCost);
  const status = cost.throttleStatus;
  if (!status) return;
  bucket.maximum = status.maximumAvailable;
  bucket.restoreRate = status.restoreRate > 0 ? status.restoreRate : bucket.restoreRate;
  bucket.available = Math.min(status.currentlyAvailable, bucket.maximum) - bucket.inFlight;
  bucket.at = Date.now();
}

/** What the limiter believes of a shop's bucket now (for tests and the benchmark). */
export function budgetOf(shop: string): ThrottleStatus {
  const bucket = bucketOf(shop);
  refill(bucket, Date.now());
  return { maximumAvailable: bucket.maximum, currentlyAvailable: Math.floor(bucket.available), restoreRate: bucket.restoreRate };
}
