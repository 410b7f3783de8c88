import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadRateCards } from "./embedded.server";
import { DEFAULT_RATE_CARDS } from "./rate-cards";
import { quoteAll } from "./rates";

const dir = mkdtempSync(path.join(os.tmpdir(), "rate-cards-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, content: unknown) => {
  const file = path.join(dir, name);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
};

describe("configurable rate cards", () => {
  it("uses the defaults when no file is configured", () => {
    expect(loadRateCards(undefined)).toBe(DEFAULT_RATE_CARDS);
  });

  it("renames and reprices couriers from a file", () => {
    const custom = DEFAULT_RATE_CARDS.map((card) => (card.id === 4 ? { ...card, name: "Ekart", zones: { ...card.zones, D: { base: 10, additional: 5, edd: [6, 9] } } } : card));
    const cards = loadRateCards(write("custom.json", custom));
    const quotes = quoteAll(cards, { shipmentType: "forward", paymentMode: "prepaid", pickup: 421302, delivery: 560038, length: 10, breadth: 10, height: 10, actualWeight: 0.5, amount: 100 });
    expect(quotes.find((quote) => quote.courierId === 4)).toMatchObject({ courierName: "Ekart", total: 10, eddDays: [6, 9] });
  });

  it("refuses a file that is not JSON or not four valid couriers, naming the problem", () => {
    expect(() => loadRateCards(write("broken.json", "{nope"))).toThrowError(/cannot be read as JSON/);
    expect(() => loadRateCards(write("three.json", DEFAULT_RATE_CARDS.slice(0, 3)))).toThrowError(/not a valid rate card list/);
    const noAwb = DEFAULT_RATE_CARDS.map((card) => ({ ...card, trackingUrl: "https://example.in/track" }));
    expect(() => loadRateCards(write("no-awb.json", noAwb))).toThrowError(/0\.trackingUrl/);
  });

  it("refuses a tracking address that is not a web address, so the service never hands one out", () => {
    for (const trackingUrl of ["javascript:alert('{awb}')", "data:text/html,<b>{awb}</b>", "http://track.example.in/{awb}", "{awb}"]) {
      const cards = DEFAULT_RATE_CARDS.map((card) => (card.id === 2 ? { ...card, trackingUrl } : card));
      expect(() => loadRateCards(write("unsafe.json", cards)), trackingUrl).toThrowError(/1\.trackingUrl: .*https/);
    }
  });

  it("takes a loopback http tracking address, as a local sandbox serves", () => {
    const cards = DEFAULT_RATE_CARDS.map((card) => ({ ...card, trackingUrl: "http://localhost:3000/track/{awb}" }));
    expect(loadRateCards(write("local.json", cards))[0]!.trackingUrl).toBe("http://localhost:3000/track/{awb}");
  });
});
