import { describe, expect, it } from "vitest";
import { CourierPace, forEachAtOnce } from "./courier-pace";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a courier account's pace", () => {
  it("keeps no more calls in flight than the account allows, and runs that many together", async () => {
    const pace = new CourierPace({ atOnce: 3, perSecond: 10_000 });
    let inFlight = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 12 }, () =>
        pace.run(async () => {
          inFlight += 1;
          most = Math.max(most, inFlight);
          await pause(5);
          inFlight -= 1;
        }),
      ),
    );
    expect(most).toBe(3);
  });

  it("begins calls no faster than the account's rate once its burst is spent", async () => {
    let now = 0;
    const pace = new CourierPace({ atOnce: 2, perSecond: 10 }, () => now);
    const begun: number[] = [];
    // The clock stands still: every wait the pace asks for is the spacing it keeps.
    const waits = Array.from({ length: 5 }, () => pace.reserveStart());
    begun.push(...waits);
    expect(begun).toEqual([0, 0, 100, 200, 300]);
    now = 1_000;
    // After a quiet spell the burst is there again.
    expect(pace.reserveStart()).toBe(0);
  });

  it("runs every item at most so many at once, and after a failure begins no more but lets the begun ones finish", async () => {
    const finished: number[] = [];
    const failing = forEachAtOnce([1, 2, 3, 4, 5, 6], 2, async (item) => {
      await pause(item === 2 ? 20 : 1);
      if (item === 1) throw new Error("item 1 failed");
      finished.push(item);
    });
    await expect(failing).rejects.toThrow("item 1 failed");
    // Item 2 was begun beside item 1 and finished; nothing after them was begun.
    expect(finished).toEqual([2]);
  });
});
