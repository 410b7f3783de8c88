import pg from "pg";
import { databaseUrl, survivingLostConnections } from "./db.server";

/**
 * Mutual exclusion across every Dakiya process on the database: PostgreSQL session advisory locks. A lock is
 * held on a connection of its own for as long as the work runs, and a process that dies drops its connection
 * and with it the lock — no lease to expire, nothing left locked by a crash.
 */

declare global {
  var __dakiyaLockPool: pg.Pool | undefined;
}

function lockPool(): pg.Pool {
  globalThis.__dakiyaLockPool ??= survivingLostConnections(new pg.Pool({ connectionString: databaseUrl(), max: 20, application_name: "dakiya-locks", idleTimeoutMillis: 10_000 }), "locks");
  return globalThis.__dakiyaLockPool;
}

/** What is locked: a space per kind of thing, and the thing's id. */
export const LOCK_SPACE = {
  SHIPMENT: 4201,
  SHOP_TRACKING: 4202,
  /** An order's fulfillment orders while booking splits them in Shopify. */
  ORDER: 4203,
  /** An order's parcel claims, one at a time (a transaction lock, held to the claim's commit). */
  ORDER_PARCELS: 4204,
  /** A shop's courier statements, imported one at a time (a transaction lock, held to the import's commit). */
  STATEMENTS: 4205,
  /** An order's payments recorded in Shopify, one at a time. */
  ORDER_PAYMENT: 4206,
} as const;

export class LockBusyError extends Error {
  override name = "LockBusyError";
}

/**
 * Runs `work` holding the lock, or throws LockBusyError at once when another process or request holds it
 * (`wait: false`), or waits for it (`wait: true`).
 */
export async function withAdvisoryLock<T>(space: number, id: number, work: () => Promise<T>, { wait = false } = {}): Promise<T> {
  const client = await lockPool().connect();
  // A connection in doubt is discarded rather than reused: ending its session releases whatever it held.
  let discard = true;
  try {
    if (wait) await client.query("SELECT pg_advisory_lock($1, $2)", [space, id]);
    else {
      const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS locked", [space, id]);
      if (!rows[0]!.locked) {
        discard = false;
        throw new LockBusyError(`Lock ${space}/${id} is held elsewhere`);
      }
    }
    try {
      return await work();
    } finally {
      await client.query("SELECT pg_advisory_unlock($1, $2)", [space, id]).then(
        () => (discard = false),
        () => undefined,
      );
    }
  } finally {
    client.release(discard);
  }
}

/** Hashes a text key (a shop domain, an order GID) into the int4 PostgreSQL's two-key advisory locks take. */
export function lockIdOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index += 1) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  return hash | 0;
}

export async function closeLocks(): Promise<void> {
  const pool = globalThis.__dakiyaLockPool;
  globalThis.__dakiyaLockPool = undefined;
  await pool?.end();
}
