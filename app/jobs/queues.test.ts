import { describe, expect, it } from "vitest";
import { idleLookSecondsOf, QUEUE_NAMES, QUEUE_POLICIES } from "./queues";

describe("how often an idle worker looks for work it was not woken for", () => {
  it("looks at the tracking sweep as often as shipments can fall due, and never less often than a quiet queue", () => {
    const sweep = QUEUE_POLICIES["tracking-sweep"];
    // The demo's two-second tracking: a sweep brought forward to the next due shipment runs within two seconds.
    expect(idleLookSecondsOf(sweep, 2)).toBe(2);
    // Production's ten minutes: the quiet queues' fifteen seconds, as before.
    expect(idleLookSecondsOf(sweep, 600)).toBe(15);
    expect(idleLookSecondsOf(sweep, 1)).toBe(1);
  });

  it("keeps every other queue at its busy or quiet pace, whatever the tracking interval", () => {
    for (const queue of QUEUE_NAMES.filter((name) => name !== "tracking-sweep")) {
      const policy = QUEUE_POLICIES[queue];
      expect(idleLookSecondsOf(policy, 2), queue).toBe(policy.busy ? 0.5 : 15);
    }
  });
});
