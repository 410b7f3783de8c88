import { describe, expect, it } from "vitest";
import { DEFAULT_RATE_CARDS } from "./rate-cards";
import { chargeableWeightKg, formatKg, quoteAll, quoteFor, type RouteAndParcel } from "./rates";
import { zoneBetween } from "./zones";

const parcel: RouteAndParcel = { shipmentType: "forward", paymentMode: "prepaid", pickup: 421302, delivery: 560038, length: 10, breadth: 10, height: 10, actualWeight: 0.4, amount: 1000 };
const delhivery = DEFAULT_RATE_CARDS[0]!;

describe("chargeable weight", () => {
  it.each([
    [{ length: 10, breadth: 10, height: 10, actualWeight: 0.4 }, 0.5],
    [{ length: 10, breadth: 10, height: 10, actualWeight: 0.5 }, 0.5],
    [{ length: 10, breadth: 10, height: 10, actualWeight: 0.51 }, 1],
    [{ length: 40, breadth: 30, height: 20, actualWeight: 1 }, 5], // volumetric 4.8 kg
    [{ length: 30, breadth: 25, height: 8, actualWeight: 0.9 }, 1.5], // volumetric 1.2 kg
  ])("%o → %s kg", (dims, expected) => {
    expect(chargeableWeightKg(dims)).toBe(expected);
  });

  it("prints as the spec's '<n> KG'", () => {
    expect(formatKg(1.5)).toBe("1.5 KG");
    expect(formatKg(2)).toBe("2 KG");
  });
});

describe("zones", () => {
  it.each([
    [400001, 400093, "A"], // Mumbai within the city
    [421302, 411001, "B"], // Bhiwandi to Pune, Maharashtra
    [110001, 560001, "C"], // Delhi to Bengaluru, metro to metro
    [421302, 560038, "D"], // Bhiwandi to Bengaluru
    [421302, 781001, "E"], // to Guwahati, North-East
    [110001, 190001, "E"], // to Srinagar, J&K
    [400001, 744101, "E"], // to Port Blair
  ])("%s → %s is zone %s", (from, to, zone) => {
    expect(zoneBetween(from, to)).toBe(zone);
  });
});

describe("quotes", () => {
  it("freight grows by slab and COD is the larger of fixed fee and percentage", () => {
    const light = quoteFor(delhivery, parcel)!;
    const heavy = quoteFor(delhivery, { ...parcel, actualWeight: 1.6 })!;
    expect(light.freight).toBe(52);
    expect(heavy.freight).toBe(52 + 3 * 46);
    expect(quoteFor(delhivery, { ...parcel, paymentMode: "cod", amount: 1000 })!.cod).toBe(35);
    expect(quoteFor(delhivery, { ...parcel, paymentMode: "cod", amount: 10_000 })!.cod).toBe(175);
    const cod = quoteFor(delhivery, { ...parcel, paymentMode: "cod", amount: 10_000 })!;
    expect(cod.total).toBe(cod.freight + cod.cod);
  });

  it("gives the four couriers distinct price and speed profiles", () => {
    const quotes = quoteAll(DEFAULT_RATE_CARDS, parcel);
    const cheapest = [...quotes].sort((a, b) => a.total - b.total)[0]!;
    const fastest = [...quotes].sort((a, b) => a.eddDays[1] - b.eddDays[1])[0]!;
    expect(cheapest.courierName).toBe("XpressBees");
    expect(fastest.courierName).toBe("Bluedart");
    expect(new Set(quotes.map((quote) => quote.total)).size).toBe(4);
  });
});
