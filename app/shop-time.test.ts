import { describe, expect, it } from "vitest";
import { dayIn, startOfDay, startOfNextDay } from "./shop-time";

describe("days in the shop's time zone", () => {
  it("begins an Indian day at 18:30 UTC the day before", () => {
    expect(startOfDay("2026-11-25", "Asia/Kolkata")!.toISOString()).toBe("2026-11-24T18:30:00.000Z");
    expect(startOfNextDay("2026-11-25", "Asia/Kolkata")!.toISOString()).toBe("2026-11-25T18:30:00.000Z");
    // A scan at 04:00 IST is that day, not UTC's day before.
    expect(dayIn(new Date("2026-11-24T22:30:00Z"), "Asia/Kolkata")).toBe("2026-11-25");
  });

  it("follows a zone across its change of time, and refuses days that do not exist", () => {
    expect(startOfDay("2026-03-08", "America/New_York")!.toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(startOfNextDay("2026-03-08", "America/New_York")!.toISOString()).toBe("2026-03-09T04:00:00.000Z");
    expect(startOfDay("2026-02-30", "Asia/Kolkata")).toBeNull();
    expect(startOfDay("25/11/2026", "Asia/Kolkata")).toBeNull();
  });
});
