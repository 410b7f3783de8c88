import { describe, expect, it } from "vitest";
import { advanceSteps, firstStep, stepsDue, type ShipmentRoute } from "./tracking-clock";

describe("sandbox clock", () => {
  const route: ShipmentRoute = { awb: "12345678901234", originCity: "Bhiwandi", destinationCity: "Bengaluru", transitHours: 66 };
  const start = firstStep(route, new Date("2026-03-10T00:00:00Z"));

  it("tells the same story for the same awb, and a final one in time", () => {
    const later = new Date("2026-04-10T00:00:00Z");
    const story = stepsDue(route, start, later);
    expect(stepsDue(route, start, later)).toEqual(story);
    expect([8, 12, 14, 15]).toContain(story.at(-1)!.code);
    expect(stepsDue(route, start, new Date("2026-03-10T03:59:00Z"))).toEqual([]);
    expect(stepsDue(route, start, new Date("2026-03-10T04:00:00Z")).map((step) => step.code)).toEqual([3]);
  });

  it("stamps advanced steps in order, after the last one", () => {
    const steps = advanceSteps(route, { last: start, now: new Date("2026-03-09T00:00:00Z"), to: 8 });
    expect(steps.map((step) => step.code)).toEqual([3, 5, 6, 7, 8]);
    for (const step of steps) expect(step.happenedAt.getTime()).toBeGreaterThan(start.happenedAt.getTime());
  });
});
