import { describe, expect, it } from "vitest";
import { createAnswerCache } from "./answer-cache";

function clock(start = 1_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

const deferred = <T>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};

describe("answer cache", () => {
  it("makes one load for 100 concurrent misses of one key", async () => {
    const cache = createAnswerCache<number>({ maxEntries: 10, freshMs: 1_000, retryAfterMs: 1_000 });
    const load = deferred<number>();
    let calls = 0;
    const answers = Promise.all(Array.from({ length: 100 }, () => cache.get("route", () => ((calls += 1), load.promise))));
    load.resolve(42);
    expect((await answers).map((answer) => answer.value)).toEqual(Array(100).fill(42));
    expect(calls).toBe(1);
  });

  it("stays within its bound over 10,000 keys, dropping the least recently used", async () => {
    const cache = createAnswerCache<string>({ maxEntries: 500, freshMs: 60_000, retryAfterMs: 1_000 });
    await cache.get("kept", async () => "kept");
    for (let pin = 100_000; pin < 110_000; pin += 1) {
      await cache.get(String(pin), async () => String(pin));
      if (pin % 100 === 0) await cache.get("kept", async () => "reloaded");
      expect(cache.size).toBeLessThanOrEqual(500);
    }
    expect((await cache.get("kept", async () => "reloaded")).value).toBe("kept");
    expect((await cache.get("100000", async () => "reloaded")).value).toBe("reloaded");
  });

  it("serves a stale answer at once and refreshes it behind, once", async () => {
    const time = clock();
    const cache = createAnswerCache<string>({ maxEntries: 10, freshMs: 1_000, retryAfterMs: 1_000, now: time.now });
    await cache.get("route", async () => "old");
    time.advance(1_001);
    const refresh = deferred<string>();
    let calls = 0;
    const loader = () => ((calls += 1), refresh.promise);
    expect(await cache.get("route", loader)).toEqual({ value: "old", fresh: false });
    expect(await cache.get("route", loader)).toEqual({ value: "old", fresh: false });
    refresh.resolve("new");
    await refresh.promise;
    await new Promise((resolve) => setImmediate(resolve));
    expect(await cache.get("route", loader)).toEqual({ value: "new", fresh: true });
    expect(calls).toBe(1);
  });

  it("keeps the last answer when a refresh fails, and waits before trying again", async () => {
    const time = clock();
    const cache = createAnswerCache<string>({ maxEntries: 10, freshMs: 1_000, retryAfterMs: 5_000, now: time.now });
    await cache.get("route", async () => "last");
    time.advance(2_000);
    let calls = 0;
    const failing = async () => {
      calls += 1;
      throw new Error("courier down");
    };
    expect((await cache.get("route", failing)).value).toBe("last");
    await new Promise((resolve) => setImmediate(resolve));
    expect((await cache.get("route", failing)).value).toBe("last");
    expect(calls).toBe(1);
    time.advance(5_000);
    expect((await cache.get("route", failing)).value).toBe("last");
    expect(calls).toBe(2);
  });

  it("remembers a failed miss for the retry window instead of asking again per caller", async () => {
    const time = clock();
    const cache = createAnswerCache<string>({ maxEntries: 10, freshMs: 1_000, retryAfterMs: 5_000, now: time.now });
    let calls = 0;
    const failing = async () => {
      calls += 1;
      throw new Error("courier down");
    };
    await expect(cache.get("route", failing)).rejects.toThrow("courier down");
    await expect(cache.get("route", failing)).rejects.toThrow("courier down");
    expect(calls).toBe(1);
    time.advance(5_000);
    expect((await cache.get("route", async () => "back")).value).toBe("back");
  });

  it("keeps each shop its share: one shop's flood of new keys pushes out its own answers, never another shop's", async () => {
    const cache = createAnswerCache<string>({ maxEntries: 300, maxPerPartition: 100, freshMs: 60_000, retryAfterMs: 1_000 });
    for (const shop of ["quiet-a", "quiet-b"]) for (let pin = 0; pin < 50; pin += 1) await cache.get(`${shop}|${pin}`, async () => `${shop} ${pin}`);
    for (let pin = 0; pin < 1_000; pin += 1) {
      await cache.get(`flood|${pin}`, async () => "flood");
      expect(cache.size).toBeLessThanOrEqual(200);
    }
    let reloads = 0;
    for (const shop of ["quiet-a", "quiet-b"]) for (let pin = 0; pin < 50; pin += 1) await cache.get(`${shop}|${pin}`, async () => ((reloads += 1), "reloaded"));
    expect(reloads).toBe(0);
    // The flooding shop keeps its latest 100.
    expect(cache.has("flood|999")).toBe(true);
    expect(cache.has("flood|899")).toBe(false);
  });
});
