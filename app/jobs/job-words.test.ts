import { describe, expect, it } from "vitest";
import { jobLabelInWords, jobSubjectInWords } from "./job-words";
import { QUEUE_NAMES, QUEUE_POLICIES } from "./queues";

const DEVANAGARI = /\p{Script=Devanagari}/u;

describe("background work in words", () => {
  it("names every queue's work in English as its policy does, and in Hindi", () => {
    for (const queue of QUEUE_NAMES) {
      expect(jobLabelInWords(queue, "en")).toBe(QUEUE_POLICIES[queue].label);
      expect(jobLabelInWords(queue, "hi")).toMatch(DEVANAGARI);
    }
    expect(jobLabelInWords("retired-queue", "hi")).toBe("retired-queue");
  });

  it("says what the work acted on", () => {
    expect(jobSubjectInWords({ kind: "shipment", id: 42 }, "en")).toBe("shipment 42");
    expect(jobSubjectInWords({ kind: "order", id: "1001" }, "en")).toBe("order 1001");
    expect(jobSubjectInWords({ kind: "shop" }, "en")).toBe("the shop");
    expect(jobSubjectInWords({ kind: "shipment", id: 42 }, "hi")).toBe("शिपमेंट 42");
    expect(jobSubjectInWords({ kind: "order", id: "1001" }, "hi")).toBe("ऑर्डर 1001");
    expect(jobSubjectInWords({ kind: "shop" }, "hi")).toMatch(DEVANAGARI);
  });
});
