import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { survivingLostConnections } from "~/db.server";

/**
 * PostgreSQL drops a connection that a transaction holds (a failover, a restart, `pg_terminate_backend`): the
 * transaction fails, and its connection's place in the pool is free again at once. With a pool of two, five such
 * drops in a row leave a pool that still answers.
 */
const POOL_SIZE = 2;
const DROPS = 5;

let admin: pg.Client;
/** Clients and pools opened here, closed after; a pool that lost its connections for good cannot end, and is left to the exit. */
const prismas: PrismaClient[] = [];
const endablePools: pg.Pool[] = [];

beforeAll(async () => {
  admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  for (const prisma of prismas) await prisma.$disconnect();
  for (const pool of endablePools) await pool.end();
  await admin.end();
});

function prismaOn(pool: pg.Pool): PrismaClient {
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  prismas.push(prisma);
  return prisma;
}

function newPool({ max = POOL_SIZE, endable = true } = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max, pipeline: true, application_name: "dropped-connections-test" });
  if (endable) endablePools.push(pool);
  return pool;
}

/** A transaction whose own connection PostgreSQL drops halfway through; what it failed with. */
function transactionDropped(prisma: PrismaClient): Promise<string> {
  return prisma
    .$transaction(async (tx) => {
      const [own] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      await admin.query("SELECT pg_terminate_backend($1)", [own!.pid]);
      // The connection's end reaches the client after the server has closed it.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.$queryRaw`SELECT 1`;
    })
    .then(
      () => "",
      (error: Error) => error.message,
    );
}

/** The query's answer, or "no answer" when it waits longer than `ms` (for a connection that never comes back). */
const answerWithin = <T>(query: Promise<T>, ms: number) => Promise.race([query, new Promise<"no answer">((resolve) => setTimeout(() => resolve("no answer"), ms).unref())]);

describe("a connection PostgreSQL drops under a transaction", () => {
  it("fails that transaction alone, and its place in the pool is free again: the pool answers after more drops than it has connections", async () => {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const pool = survivingLostConnections(newPool(), "test");
    const prisma = prismaOn(pool);
    for (let drop = 0; drop < DROPS; drop += 1) expect(await transactionDropped(prisma)).toMatch(/terminat|not queryable|connection/i);

    expect(await answerWithin(prisma.$queryRaw<{ one: number }[]>`SELECT 1 AS one`, 5_000)).toEqual([{ one: 1 }]);
    expect(pool.waitingCount).toBe(0);
    // Each drop is one line in the log, naming the pool.
    expect(warned.mock.calls.flat().join("\n")).toMatch(/PostgreSQL connection \(test\) lost/);
    // And a transaction on a healthy connection still commits.
    expect(await prisma.$transaction(async (tx) => tx.$queryRaw<{ two: number }[]>`SELECT 2 AS two`)).toEqual([{ two: 2 }]);
  });

  it("takes a dropped connection back before its holder releases it, and the holder's release after is harmless", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    // One connection: while the holder has not released it, the pool answers only if it took the connection back.
    const pool = survivingLostConnections(newPool({ max: 1 }), "test");
    const client = await pool.connect();
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    await admin.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
    await expect(client.query("SELECT 1")).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pool.totalCount).toBe(0);
    expect((await answerWithin(pool.query("SELECT 3 AS three"), 5_000)) as pg.QueryResult).toMatchObject({ rows: [{ three: 3 }] });
    expect(() => client.release(new Error("broken"))).not.toThrow();
  });

  it("without it, Prisma's transactions keep every dropped connection's place and the pool stops answering: why it is there", async () => {
    const pool = newPool({ endable: false });
    pool.on("error", () => undefined);
    pool.on("connect", (client) => client.on("error", () => undefined));
    const prisma = prismaOn(pool);
    for (let drop = 0; drop < POOL_SIZE; drop += 1) await transactionDropped(prisma);
    expect(await answerWithin(prisma.$queryRaw`SELECT 1`, 1_000)).toBe("no answer");
    expect(pool.totalCount - pool.idleCount).toBe(POOL_SIZE);
  });
});
