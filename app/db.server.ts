import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import pg from "pg";
import { getConfig } from "./config.server";

declare global {
  // Remix's dev server re-evaluates modules, and the server process loads app modules both from the build and
  // from source (its workers): one client per process keeps the connection pool bounded.
  var __dakiyaPrisma: PrismaClient | undefined;
  var __dakiyaPool: pg.Pool | undefined;
}

/**
 * The database of this process. DATABASE_URL is set in the environment before this module is imported, by
 * whoever started the process: server/database.ts (the configured PostgreSQL, or the embedded one it starts)
 * or the test set-up — so it is read from the environment, not from the configuration parsed at start.
 */
export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start Dakiya with `npm start` (or `npm run demo`), which starts the embedded PostgreSQL when none is configured");
  return url;
}

// How long a connection above what the traffic needs stays open. pg's default, 10 s, closes connections between
// bursts of webhooks and opens them again in the next burst, each a new server process and a SCRAM handshake,
// stalling requests by up to a quarter of a second (npm run bench, open model). A pool of at most
// DATABASE_POOL_SIZE connections can keep them for minutes.
const IDLE_CONNECTION_MS = 5 * 60_000;

/**
 * Keeps a pool's connections from ending the process when PostgreSQL drops them (a restart, a failover, an idle
 * timeout, `pg_terminate_backend`). pg emits 'error' on a connection that dies, and an 'error' nobody listens to
 * is an uncaught exception: the pool listens to its idle connections only, and not at all to one checked out — a
 * webhook's open transaction, a held advisory lock. A listener on every connection for its whole life, and one on
 * the pool, turn that into a log line; the statement in flight, if any, rejects with the same error and fails only
 * the request or job it served, and the pool opens a new connection for the next one.
 */
export function survivingLostConnections<P extends pg.Pool>(pool: P, name: string): P {
  pool.on("connect", (client) => {
    client.on("error", (error: Error & { code?: string }) => console.warn(`PostgreSQL connection (${name}) lost${error.code ? ` (${error.code})` : ""}: ${error.message}`));
  });
  // An idle connection's error reaches the pool too; the connection's own listener has reported it.
  pool.on("error", () => undefined);
  return handingBackLostConnections(pool);
}

/**
 * A connection checked out of the pool goes back to it, to be discarded, the moment PostgreSQL drops it. The pool
 * counts a checked-out connection until its holder releases it, and Prisma's interactive transactions release theirs
 * only after a ROLLBACK or COMMIT that succeeds: on a dropped connection that statement fails, the release is never
 * reached, and the pool is one connection smaller for good. After DATABASE_POOL_SIZE such drops (a failover during
 * a busy minute) every query of the process, /healthz's too, would wait forever. The holder's own release later is
 * then a no-op rather than pg-pool's double-release error.
 *
 * A COMMIT or ROLLBACK that fails on a connection still up (a serialization failure, a deferred constraint) would keep
 * its place the same way; Dakiya uses neither, so only the lost connection is handled.
 *
 * Only `connect()` without a callback is wrapped: pg-pool's own `query()` takes the callback form and releases with
 * the statement's error itself.
 */
function handingBackLostConnections<P extends pg.Pool>(pool: P): P {
  const checkOut = pool.connect.bind(pool) as (callback?: unknown) => Promise<pg.PoolClient> | undefined;
  const connect = (callback?: unknown) => {
    if (callback) return checkOut(callback);
    return checkOut()!.then((client) => {
      const release = client.release;
      let handedBack = false;
      const lost = () => {
        handedBack = true;
        release(new Error("PostgreSQL dropped the connection"));
      };
      client.once("end", lost);
      // After the pool took it back, the holder's release is expected; any other second release is still pg-pool's error.
      client.release = (error?: Error | boolean) => {
        if (handedBack) return;
        client.removeListener("end", lost);
        release(error);
      };
      return client;
    });
  };
  pool.connect = connect as P["connect"];
  return pool;
}

/**
 * The process's connections to PostgreSQL, shared by Prisma and the few statements on a hot path that go to
 * PostgreSQL directly (a webhook's claim: Prisma's client costs more CPU than the rest of the acknowledgement,
 * see webhooks.server.ts). One pool, so DATABASE_POOL_SIZE still bounds the process.
 *
 * Its connections pipeline (node-postgres' `pipeline`): statements queued on one connection together go out
 * without waiting for each other's answers, which is how a webhook's transaction takes two round trips instead of
 * four. Code that awaits each statement before the next, as Prisma does, behaves as on any connection.
 */
export function databasePool(): pg.Pool {
  // After prisma.$disconnect() has ended it (tests, shutdown), a later caller gets a new one.
  if (!globalThis.__dakiyaPool || globalThis.__dakiyaPool.ended)
    globalThis.__dakiyaPool = survivingLostConnections(
      new pg.Pool({ connectionString: databaseUrl(), max: getConfig().DATABASE_POOL_SIZE, idleTimeoutMillis: IDLE_CONNECTION_MS, application_name: "dakiya", pipeline: true }),
      "app",
    );
  return globalThis.__dakiyaPool;
}

function createPrismaClient(): PrismaClient {
  // prisma.$disconnect() ends the shared pool, as it ended the pool Prisma made itself.
  const adapter = new PrismaPg(databasePool(), { disposeExternalPool: true });
  return new PrismaClient({ adapter });
}

const prisma = globalThis.__dakiyaPrisma ?? createPrismaClient();
globalThis.__dakiyaPrisma = prisma;

export default prisma;
