import { randomUUID } from "node:crypto";
import { inspect } from "node:util";
import type { ApiClient, PrismaClient } from "@prisma/client";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import prisma, { databasePool } from "~/db.server";
import { createAuthFailureLimiter } from "~/courier-service/auth-failure-limiter.server";
import { createServiceHandler, describeFailure } from "~/courier-service/http.server";
import { DEFAULT_RATE_CARDS } from "~/courier-service/rate-cards";
import { KEPT_FOR_MS } from "~/courier-service/account-cache.server";
import { newSecretHash } from "~/courier-service/credentials.server";
import { ensureSandbox, ensureSandboxAccount } from "~/courier-service/sandbox-seed.server";
import { SANDBOX_PRIMARY_WAREHOUSE_ID } from "~/shipping/sandbox-accounts.server";
import { createShipmentService } from "~/courier-service/shipment-service.server";
import { serveFetch } from "../../store/serve-fetch";
import { SANDBOX_KEY, SANDBOX_SECRET } from "../support/courier-service";
import { sampleOrder } from "../support/orders";

beforeAll(async () => {
  await ensureSandbox(prisma, SANDBOX_KEY, SANDBOX_SECRET);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Everything written to the console while `work` runs, as the console would print it. */
async function consoleOutput(work: () => Promise<unknown>): Promise<string> {
  const lines: string[] = [];
  const capture = (...args: unknown[]) => {
    lines.push(args.map((arg) => (typeof arg === "string" ? arg : inspect(arg, { depth: Infinity }))).join(" "));
  };
  for (const method of ["error", "warn", "log", "info", "debug"] as const) vi.spyOn(console, method).mockImplementation(capture);
  await work();
  return lines.join("\n");
}

/**
 * Runs `work` while the database refuses every new order the way PostgreSQL refuses a row: with an error whose
 * detail quotes the whole row, the shopper's name, phone and address included. A CHECK constraint on the
 * worker's own database, dropped afterwards.
 */
async function whileOrdersAreRefused<T>(work: () => Promise<T>): Promise<T> {
  await prisma.$executeRawUnsafe(`ALTER TABLE "ServiceOrder" ADD CONSTRAINT "test_refuses_orders" CHECK (false) NOT VALID`);
  try {
    return await work();
  } finally {
    await prisma.$executeRawUnsafe(`ALTER TABLE "ServiceOrder" DROP CONSTRAINT "test_refuses_orders"`);
  }
}

type CredentialLookup = ReturnType<typeof prisma.apiClient.findUnique>;

/** The real database, with each credential lookup (by key) made through `around`. */
function withCredentialLookups(around: (lookup: () => CredentialLookup) => Promise<Awaited<CredentialLookup>>): PrismaClient {
  return new Proxy(prisma, {
    get(target, property, receiver) {
      const delegate = Reflect.get(target, property, receiver);
      if (property !== "apiClient") return delegate;
      return new Proxy(delegate, {
        get: (clients, method, clientsReceiver) =>
          method === "findUnique"
            ? (args: Parameters<typeof prisma.apiClient.findUnique>[0]) => around(() => clients.findUnique(args))
            : Reflect.get(clients, method, clientsReceiver),
      });
    },
  });
}

describe("an unexpected failure", () => {
  const shopper = {
    name: "Meenakshi Sundaravalli Iyengar",
    mobile: "9876501234",
    alt_mobile: "9123409876",
    email: "meenakshi.iyengar@example.in",
    company_name: "Iyengar Silks",
    address_line_1: "Flat 7B, Lotus Residency, 14th Main Road",
    address_line_2: "Behind Kamakshi Temple",
    delivery_remarks: "Ring twice, ask for Meenakshi",
  };

  it("is logged with the operation and the kind of error, never the shopper's details or the secret", async () => {
    const service = createShipmentService({ db: prisma, pool: databasePool(), now: () => new Date(), rateCards: DEFAULT_RATE_CARDS });
    const client = await prisma.apiClient.findUniqueOrThrow({ where: { apiKey: SANDBOX_KEY } });
    // The premise: the database's own error carries the personal data.
    const raw = await whileOrdersAreRefused(() => service.createOrder(client, sampleOrder(shopper)).catch((error: unknown) => error));
    expect(inspect(raw)).toContain(shopper.name);

    const server = await serveFetch(createServiceHandler({ db: prisma, service, ready: async () => undefined }));
    try {
      let answer: Response | undefined;
      const output = await whileOrdersAreRefused(() =>
        consoleOutput(async () => {
          answer = await fetch(`${server.url}/v1/create-order`, {
            method: "POST",
            headers: { "X-Api-Key": SANDBOX_KEY, "X-Secret-Key": SANDBOX_SECRET, "Content-Type": "application/json" },
            body: JSON.stringify(sampleOrder(shopper)),
          });
        }),
      );
      expect(answer!.status).toBe(500);
      const body = await answer!.text();

      expect(output).toContain("create-order");
      expect(output).toContain("DatabaseError");
      for (const [field, value] of Object.entries({ ...shopper, secret: SANDBOX_SECRET, mobile_digits: "98765 01234" })) {
        expect(output, field).not.toContain(value);
        expect(body, field).not.toContain(value);
      }
      for (const fragment of ["Meenakshi", "Lotus Residency", "9876501234", "example.in"]) expect(output).not.toContain(fragment);
      // The answer and the log share a reference, so a client's report finds its log line.
      const reference = /reference ([\w-]+)/.exec(JSON.parse(body).message)?.[1];
      expect(reference).toBeDefined();
      expect(output).toContain(reference);
    } finally {
      await server.close();
    }
  });

  it("is described by its class, code and frames, never by its message", () => {
    const syntax = (() => {
      try {
        JSON.parse('{"name":"Meenakshi Sundaravalli Iyengar"');
      } catch (error) {
        return error;
      }
    })();
    const described = describeFailure(syntax);
    expect(described.errorClass).toBe("SyntaxError");
    expect(described.at.length).toBeGreaterThan(0);
    expect(inspect(described)).not.toContain("Meenakshi");

    const unique = Object.assign(new Error("Unique constraint failed for Meenakshi"), { code: "P2002" });
    expect(describeFailure(unique)).toMatchObject({ errorClass: "Error", code: "P2002" });
    expect(inspect(describeFailure(unique))).not.toContain("Meenakshi");
    expect(describeFailure({ name: "Meenakshi" })).toEqual({ errorClass: "object", at: [] });
  });
});

describe("failed authentication", () => {
  const WRONG_SECRET = "not-the-secret";
  type Attempt = { apiKey?: string; secretKey?: string; address?: string; forwardedFor?: string };

  /** The real database, with every credential lookup taking 50 ms, so concurrent guesses overlap. */
  const slowCredentialLookups = withCredentialLookups(async (lookup) => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    return lookup();
  });

  /** The service on a clock the test moves; the caller's address is the one each attempt names. */
  async function startGuardedService(options: { trustForwardedFor?: boolean; addressFromTest?: boolean; db?: PrismaClient } = {}) {
    let clock = new Date("2026-03-10T03:30:00Z");
    const service = createShipmentService({ db: prisma, pool: databasePool(), now: () => new Date(), rateCards: DEFAULT_RATE_CARDS });
    const server = await serveFetch(
      createServiceHandler({
        db: options.db ?? prisma,
        service,
        ready: async () => undefined,
        authFailureLimiter: createAuthFailureLimiter({ now: () => clock }),
        trustForwardedFor: options.trustForwardedFor,
        ...(options.addressFromTest === false ? {} : { clientAddressOf: (request: Request) => request.headers.get("x-test-address") ?? undefined }),
      }),
    );
    const attempt = ({ apiKey = SANDBOX_KEY, secretKey = SANDBOX_SECRET, address = "203.0.113.7", forwardedFor }: Attempt = {}) =>
      fetch(`${server.url}/v1/get-warehouse/${SANDBOX_PRIMARY_WAREHOUSE_ID}`, {
        headers: {
          "X-Api-Key": apiKey,
          "X-Secret-Key": secretKey,
          "X-Test-Address": address,
          ...(forwardedFor ? { "X-Forwarded-For": forwardedFor } : {}),
        },
      });
    return {
      attempt,
      /** Sends the attempts in concurrent batches, as a guesser would, and counts the answers by status. */
      async hammer(attempts: Attempt[], batch = 100) {
        const statuses: Record<number, number> = {};
        const retryAfters: number[] = [];
        for (let start = 0; start < attempts.length; start += batch) {
          const answers = await Promise.all(attempts.slice(start, start + batch).map((one) => attempt(one)));
          for (const answer of answers) {
            statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
            if (answer.status === 429) retryAfters.push(Number(answer.headers.get("retry-after")));
            await answer.arrayBuffer();
          }
        }
        return { statuses, retryAfters };
      },
      advance(seconds: number) {
        clock = new Date(clock.getTime() + seconds * 1000);
      },
      close: server.close,
    };
  }

  const times = (count: number, attempt: Attempt | ((index: number) => Attempt)): Attempt[] =>
    Array.from({ length: count }, (_, index) => (typeof attempt === "function" ? attempt(index) : attempt));

  it("checks only 10 wrong secrets per key from one address a minute; the rest are 429 with Retry-After, however fast they come", async () => {
    const guarded = await startGuardedService();
    try {
      const { statuses, retryAfters } = await guarded.hammer(times(2000, { secretKey: WRONG_SECRET }));
      expect(statuses).toEqual({ 401: 10, 429: 1990 });
      expect(Math.min(...retryAfters)).toBeGreaterThanOrEqual(1);
      expect(Math.max(...retryAfters)).toBeLessThanOrEqual(60);

      const refused = await guarded.attempt({ secretKey: WRONG_SECRET });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("60");
      expect(await refused.json()).toMatchObject({ success: false, message: expect.stringMatching(/60 seconds/), errors: expect.any(Array) });
    } finally {
      await guarded.close();
    }
    // 2,000 requests: seconds on a quiet machine, near half a minute on two busy cores.
  }, 90_000);

  it("counts concurrent guesses one by one, even while their lookups overlap", async () => {
    const guarded = await startGuardedService({ db: slowCredentialLookups });
    try {
      expect((await guarded.hammer(times(100, { secretKey: WRONG_SECRET }))).statuses).toEqual({ 401: 10, 429: 90 });
    } finally {
      await guarded.close();
    }
  });

  it("refuses even the right secret from an address where its key is blocked, so the answer never tells a guesser when it is right", async () => {
    const guarded = await startGuardedService();
    const guesser = { address: "198.51.100.9" };
    try {
      await guarded.hammer(times(10, { ...guesser, secretKey: WRONG_SECRET }));
      expect((await guarded.attempt(guesser)).status).toBe(429);
      guarded.advance(59);
      const almost = await guarded.attempt(guesser);
      expect(almost.status).toBe(429);
      expect(almost.headers.get("retry-after")).toBe("1");
      guarded.advance(1);
      expect((await guarded.attempt(guesser)).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it("never locks a key's owner out: a stranger who knows the key and guesses its secret blocks only their own address", async () => {
    const guarded = await startGuardedService();
    const owner = { address: "203.0.113.7" };
    const stranger = { address: "198.51.100.66" };
    try {
      // The owner has never signed in before the attack, so nothing exempts them: only the count per address keeps them in.
      const attack = guarded.hammer(times(300, { ...stranger, secretKey: WRONG_SECRET }), 30);
      const work = guarded.hammer(times(30, owner), 3);
      const [attacked, served] = await Promise.all([attack, work]);
      expect(attacked.statuses).toEqual({ 401: 10, 429: 290 });
      expect(served.statuses).toEqual({ 200: 30 });
      expect((await guarded.attempt(stranger)).status).toBe(429);

      // The owner's own mistakes are still theirs to count, and do not free the stranger.
      expect((await guarded.hammer(times(10, { ...owner, secretKey: WRONG_SECRET }), 1)).statuses).toEqual({ 401: 10 });
      expect((await guarded.attempt(owner)).status).toBe(429);
      expect((await guarded.attempt({ address: "192.0.2.44" })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it("keeps a valid client working from the same address while an attacker hammers another key", async () => {
    const guarded = await startGuardedService();
    try {
      const attack = guarded.hammer(times(500, { apiKey: "someone_elses_key", secretKey: WRONG_SECRET }), 50);
      const honest = guarded.hammer(times(50, {}), 5);
      const [attacked, served] = await Promise.all([attack, honest]);
      expect(attacked.statuses).toEqual({ 401: 10, 429: 490 });
      expect(served.statuses).toEqual({ 200: 50 });
    } finally {
      await guarded.close();
    }
  });

  it("blocks an address spraying many keys after 30 failures, except keys that already signed in from it; other addresses are untouched", async () => {
    const guarded = await startGuardedService();
    try {
      expect((await guarded.attempt()).status).toBe(200);
      const sprayed = await guarded.hammer(times(100, (index) => ({ apiKey: `guessed_key_${index}`, secretKey: WRONG_SECRET })), 20);
      expect(sprayed.statuses).toEqual({ 401: 30, 429: 70 });

      expect((await guarded.attempt()).status).toBe(200);
      expect((await guarded.attempt({ apiKey: "guessed_key_fresh", secretKey: WRONG_SECRET })).status).toBe(429);
      expect((await guarded.attempt({ apiKey: "guessed_key_fresh", secretKey: WRONG_SECRET, address: "198.51.100.2" })).status).toBe(401);
      expect((await guarded.attempt({ address: "198.51.100.2" })).status).toBe(200);

      guarded.advance(60);
      expect((await guarded.attempt({ apiKey: "guessed_key_fresh", secretKey: WRONG_SECRET })).status).toBe(401);
    } finally {
      await guarded.close();
    }
  });

  it("never counts a successful request", async () => {
    const guarded = await startGuardedService();
    try {
      expect((await guarded.hammer(times(100, {}), 20)).statuses).toEqual({ 200: 100 });
      expect((await guarded.hammer(times(10, { secretKey: WRONG_SECRET }), 1)).statuses).toEqual({ 401: 10 });
      expect((await guarded.attempt({ secretKey: WRONG_SECRET })).status).toBe(429);
    } finally {
      await guarded.close();
    }
  });

  it("counts a request with missing credentials against its address", async () => {
    const guarded = await startGuardedService();
    try {
      const { statuses } = await guarded.hammer(times(40, (index) => ({ apiKey: `k${index}`, secretKey: "" })), 10);
      expect(statuses).toEqual({ 401: 30, 429: 10 });
    } finally {
      await guarded.close();
    }
  });

  it("takes the caller's address from X-Forwarded-For only when told the app is behind a trusted proxy", async () => {
    const spray = (forwardedFor: (index: number) => string) =>
      times(40, (index) => ({ apiKey: `guessed_key_${index}`, secretKey: WRONG_SECRET, forwardedFor: forwardedFor(index) }));

    const untrusting = await startGuardedService({ addressFromTest: false });
    try {
      // Every caller is the same "unknown" address: a header anyone can write does not spread the count.
      expect((await untrusting.hammer(spray((index) => `192.0.2.${index}`), 10)).statuses).toEqual({ 401: 30, 429: 10 });
    } finally {
      await untrusting.close();
    }

    const behindProxy = await startGuardedService({ addressFromTest: false, trustForwardedFor: true });
    try {
      expect((await behindProxy.hammer(spray(() => "203.0.113.7, 10.0.0.1"), 10)).statuses).toEqual({ 401: 30, 429: 10 });
      expect((await behindProxy.attempt({ apiKey: "another_guess", secretKey: WRONG_SECRET, forwardedFor: "198.51.100.2, 10.0.0.1" })).status).toBe(401);
    } finally {
      await behindProxy.close();
    }
  });
});

describe("credentials kept for a second", () => {
  /** The real database, counting the credential lookups. */
  function countingCredentialLookups() {
    const counted = { lookups: 0 };
    const db = withCredentialLookups((lookup) => {
      counted.lookups += 1;
      return lookup();
    });
    return { db, counted };
  }

  type StoredAccount = { account: ApiClient; keys: { apiKey: string; secretKey: string }; status: (secretKey?: string) => Promise<number>; createOrder: () => Promise<number> };
  /** Runs `work` against the service on its own account of stored keys, as a real aggregator keeps them (no sandbox master pair). */
  async function withStoredAccount(work: (running: StoredAccount) => Promise<void>, db: PrismaClient = prisma) {
    const keys = { apiKey: `stored-${randomUUID()}`, secretKey: `secret-${randomUUID()}` };
    const account = await ensureSandboxAccount(prisma, `stored-${randomUUID()}`, keys);
    const service = createShipmentService({ db: prisma, pool: databasePool(), now: () => new Date(), rateCards: DEFAULT_RATE_CARDS });
    const server = await serveFetch(createServiceHandler({ db, service, ready: async () => undefined }));
    const status = async (secretKey = keys.secretKey) =>
      (await fetch(`${server.url}/v1/get-warehouse/${SANDBOX_PRIMARY_WAREHOUSE_ID}`, { headers: { "X-Api-Key": keys.apiKey, "X-Secret-Key": secretKey } })).status;
    const createOrder = async () =>
      (
        await fetch(`${server.url}/v1/create-order`, {
          method: "POST",
          headers: { "X-Api-Key": keys.apiKey, "X-Secret-Key": keys.secretKey, "Content-Type": "application/json" },
          body: JSON.stringify(sampleOrder({ order_id: `kept-${randomUUID().slice(0, 8)}` })),
        })
      ).status;
    try {
      await work({ account, keys, status, createOrder });
    } finally {
      await server.close();
    }
  }
  const aSecondLater = () => new Promise((resolve) => setTimeout(resolve, KEPT_FOR_MS + 50));

  it("looks a checked key up once a second, and every other secret afresh", async () => {
    const { db, counted } = countingCredentialLookups();
    await withStoredAccount(async ({ status }) => {
      expect([await status(), await status(), await status()]).toEqual([200, 200, 200]);
      expect(counted.lookups).toBe(1);
      expect(await status("not-the-secret")).toBe(401);
      expect(counted.lookups).toBe(2);
      await aSecondLater();
      expect(await status()).toBe(200);
      expect(counted.lookups).toBe(3);
    }, db);
  });

  it("stops taking a secret changed by another process within a second", async () => {
    await withStoredAccount(async ({ account, status }) => {
      expect(await status()).toBe(200);
      // Another process of the app rewrites the account's secret: this one cannot know until its entry expires.
      await prisma.apiClient.update({ where: { id: account.id }, data: newSecretHash("the new secret") });
      await aSecondLater();
      expect(await status()).toBe(401);
      expect(await status("the new secret")).toBe(200);
    });
  });

  it("does not keep what a lookup read before this process rewrote the keys", async () => {
    // The lookup reads the row, then its answer is held back until the keys have been rewritten.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let hold = false;
    const db = withCredentialLookups(async (lookup) => {
      const row = await lookup();
      if (hold) await held;
      return row;
    });
    await withStoredAccount(async ({ account, keys, status }) => {
      hold = true;
      const before = status();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await ensureSandboxAccount(prisma, account.name, { apiKey: keys.apiKey, secretKey: "rotated" });
      hold = false;
      release();
      // Valid when it was read; not kept for the next request.
      expect(await before).toBe(200);
      expect(await status()).toBe(401);
    }, db);
  });

  it("refuses the keys of an account another process erased, 401 and not a failure, within the second they are kept", async () => {
    await withStoredAccount(async ({ account, createOrder }) => {
      expect(await createOrder()).toBe(200);
      await prisma.apiClient.delete({ where: { id: account.id } });
      expect(await createOrder()).toBe(401);
    });
  });

  it("stops taking an account's old keys at once when this process rewrites them", async () => {
    await withStoredAccount(async ({ account, keys, status }) => {
      expect(await status()).toBe(200);
      await ensureSandboxAccount(prisma, account.name, { apiKey: keys.apiKey, secretKey: "rotated" });
      expect(await status()).toBe(401);
      expect(await status("rotated")).toBe(200);
    });
  });
});
