import { Session } from "@shopify/shopify-api";
import { describe, expect, it } from "vitest";
import { forStorefront, withStorefrontSessionCache } from "./storefront-sessions.server";

/** The library's storage as an in-memory table that counts its reads. */
function memoryStorage() {
  const rows = new Map<string, Session>();
  const storage = {
    reads: 0,
    rows,
    async loadSession(id: string) {
      storage.reads += 1;
      return rows.get(id);
    },
    async storeSession(session: Session) {
      rows.set(session.id, session);
      return true;
    },
    async deleteSession(id: string) {
      rows.delete(id);
      return true;
    },
    async deleteSessions(ids: string[]) {
      for (const id of ids) rows.delete(id);
      return true;
    },
    async findSessionsByShop(shop: string) {
      return [...rows.values()].filter((session) => session.shop === shop);
    },
  };
  return storage;
}

const SHOP = "chai-point.myshopify.com";
const offline = (token: string) => new Session({ id: `offline_${SHOP}`, shop: SHOP, state: "", isOnline: false, accessToken: token });

describe("offline sessions read for the storefront", () => {
  it("are read once per time to live inside the storefront's scope, and every time elsewhere", async () => {
    const inner = memoryStorage();
    let clock = 0;
    const storage = withStorefrontSessionCache(inner, { ttlMs: 5_000, now: () => clock });
    await inner.storeSession(offline("a"));
    for (let request = 0; request < 10; request += 1) expect((await forStorefront(() => storage.loadSession(`offline_${SHOP}`)))?.accessToken).toBe("a");
    expect(inner.reads).toBe(1);
    // The admin, webhooks and jobs read the database each time.
    await storage.loadSession(`offline_${SHOP}`);
    await storage.loadSession(`offline_${SHOP}`);
    expect(inner.reads).toBe(3);
    clock = 5_001;
    await forStorefront(() => storage.loadSession(`offline_${SHOP}`));
    expect(inner.reads).toBe(4);
  });

  it("keeps a shop with no session unknown for the time to live too (an unknown shop's flood costs one read)", async () => {
    const inner = memoryStorage();
    const storage = withStorefrontSessionCache(inner, { now: () => 0 });
    for (let request = 0; request < 5; request += 1) expect(await forStorefront(() => storage.loadSession("offline_unknown.myshopify.com"))).toBeUndefined();
    expect(inner.reads).toBe(1);
  });

  it("forgets a session this process stores or deletes, so an install or an uninstall here shows at once", async () => {
    const inner = memoryStorage();
    const storage = withStorefrontSessionCache(inner, { now: () => 0 });
    const load = () => forStorefront(() => storage.loadSession(`offline_${SHOP}`));
    expect(await load()).toBeUndefined();
    await storage.storeSession(offline("a"));
    expect((await load())?.accessToken).toBe("a");
    await storage.storeSession(offline("b"));
    expect((await load())?.accessToken).toBe("b");
    await storage.deleteSession(`offline_${SHOP}`);
    expect(await load()).toBeUndefined();
    await storage.storeSession(offline("c"));
    await storage.deleteSessions([`offline_${SHOP}`]);
    expect(await load()).toBeUndefined();
  });

  it("never keeps online sessions", async () => {
    const inner = memoryStorage();
    const storage = withStorefrontSessionCache(inner, { now: () => 0 });
    await forStorefront(() => storage.loadSession(`${SHOP}_42`));
    await forStorefront(() => storage.loadSession(`${SHOP}_42`));
    expect(inner.reads).toBe(2);
  });
});

describe("offline sessions read for the storefront, at once", () => {
  /** A storage whose reads wait until released, to hold many requests inside one read. */
  function slowStorage() {
    const inner = memoryStorage();
    const waiting: (() => void)[] = [];
    const loadSession = inner.loadSession;
    inner.loadSession = async (id: string) => {
      const session = await loadSession(id);
      await new Promise<void>((resolve) => waiting.push(resolve));
      return session;
    };
    return { inner, release: () => waiting.splice(0).forEach((resolve) => resolve()) };
  }

  it("makes one database read for a shop's shoppers arriving together when its entry has run out", async () => {
    const { inner, release } = slowStorage();
    await inner.storeSession(offline("a"));
    const storage = withStorefrontSessionCache(inner, { now: () => 0 });
    const loads = Array.from({ length: 50 }, () => forStorefront(() => storage.loadSession(`offline_${SHOP}`)));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    expect((await Promise.all(loads)).map((session) => session?.accessToken)).toEqual(Array(50).fill("a"));
    expect(inner.reads).toBe(1);
  });

  it("does not keep a read begun before this process stored a new session", async () => {
    const { inner, release } = slowStorage();
    await inner.storeSession(offline("a"));
    const storage = withStorefrontSessionCache(inner, { now: () => 0 });
    const before = forStorefront(() => storage.loadSession(`offline_${SHOP}`));
    await new Promise((resolve) => setImmediate(resolve));
    await storage.storeSession(offline("b"));
    release();
    expect((await before)?.accessToken).toBe("a");
    const after = forStorefront(() => storage.loadSession(`offline_${SHOP}`));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    expect((await after)?.accessToken).toBe("b");
    expect(inner.reads).toBe(2);
  });

  it("does not keep a read that met the row while this process was deleting it", async () => {
    const { inner, release } = slowStorage();
    await inner.storeSession(offline("a"));
    const storage = withStorefrontSessionCache(inner, { now: () => 0 });
    // The delete has begun (its first forget done) when a shopper's read starts and finds the row still there.
    let finishDelete!: () => void;
    const innerDelete = inner.deleteSession;
    inner.deleteSession = async (id: string) => {
      await new Promise<void>((resolve) => (finishDelete = resolve));
      return innerDelete(id);
    };
    const deleting = storage.deleteSession(`offline_${SHOP}`);
    const during = forStorefront(() => storage.loadSession(`offline_${SHOP}`));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    expect((await during)?.accessToken).toBe("a");
    finishDelete();
    await deleting;
    const after = forStorefront(() => storage.loadSession(`offline_${SHOP}`));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    expect(await after).toBeUndefined();
  });
});
