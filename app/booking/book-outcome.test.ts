import { describe, expect, it } from "vitest";
import { adminStrings } from "~/locales/admin-language";
import { orderProblem } from "~/shopify/readiness-checks";
import { bookOutcomeInWords, outcomeForWords, outcomeMessage, type OutcomeCode, type OutcomeForWords } from "./book-outcome";

const DEVANAGARI = /[\u0900-\u097F]/;

/** Each outcome Dakiya words, with the English every screen, record and the extensions have read for it. */
const WORDED: [OutcomeForWords, string][] = [
  [{ kind: "not_found" }, "The order no longer exists in Shopify."],
  [{ kind: "cancelled" }, "The order was cancelled."],
  [{ kind: "quoted" }, "No courier serves this route."],
  [{ kind: "booked" }, "The booking did not go through."],
  [{ kind: "refused", code: "courier_not_on_route", message: "" }, "That courier does not serve this route; choose another."],
  [{ kind: "unavailable", code: "keys_refused", message: "" }, "The courier service refused your API keys. Check them in Settings."],
  [{ kind: "unavailable", code: "no_answer", message: "" }, "The courier service did not answer. Try again in a minute."],
  [{ kind: "refused", code: "booking_refused", message: "" }, "The courier refused the booking."],
];

describe("a booking's outcome in words", () => {
  it("says every outcome in English as before, and in Hindi", () => {
    for (const [outcome, english] of WORDED) {
      expect(bookOutcomeInWords(outcome)).toBe(english);
      expect(bookOutcomeInWords(outcome, { language: "en" })).toBe(english);
      expect(bookOutcomeInWords(outcome, { language: "hi" })).toMatch(DEVANAGARI);
    }
  });

  it("gives each code its English as the outcome's message", () => {
    const codes: OutcomeCode[] = ["courier_not_on_route", "keys_refused", "no_answer", "booking_refused"];
    for (const code of codes) expect(outcomeMessage(code)).toBe(bookOutcomeInWords({ kind: "refused", code, message: "" }));
  });

  it("shows the courier service's own words, which carry no code, as they are in either language", () => {
    const said: OutcomeForWords = { kind: "refused", message: "pincode: not serviceable" };
    expect(bookOutcomeInWords(said, { language: "en" })).toBe("pincode: not serviceable");
    expect(bookOutcomeInWords(said, { language: "hi" })).toBe("pincode: not serviceable");
  });

  it("names problems by their labels in the language, the English as the catalogue's", () => {
    const problems: OutcomeForWords = { kind: "problems", problems: [orderProblem("PINCODE_INVALID", "5600"), orderProblem("ORDER_TOO_OLD", 9)] };
    expect(bookOutcomeInWords(problems, { problems: "labels" })).toBe("PIN code not 6 digits, Older than 7 days");
    expect(bookOutcomeInWords(problems, { problems: "labels", language: "hi" })).toBe("पिनकोड 6 अंकों का नहीं, 7 दिन से पुराना");
    expect(bookOutcomeInWords(problems, { problems: "fixes", language: "hi" })).toMatch(DEVANAGARI);
    expect(bookOutcomeInWords(problems, { problems: "fixes" })).toBe(
      'The PIN code "5600" is not 6 digits. Correct the PIN code in the shipping address (6 digits, e.g. 560066). The order was placed 9 days ago; the courier only takes orders from the last 7 days. Ship it another way, or create a fresh order for it in Shopify.',
    );
  });

  it("keeps of an outcome only what its words are made from", () => {
    const shipment = { id: 1 } as never;
    expect(outcomeForWords({ kind: "booked", shipment, shipments: [shipment] })).toEqual({ kind: "booked" });
    expect(outcomeForWords({ kind: "unavailable", shipment, code: "no_answer", message: "m" })).toEqual({ kind: "unavailable", code: "no_answer", message: "m" });
    expect(outcomeForWords({ kind: "refused", message: "m", fieldErrors: [] })).toEqual({ kind: "refused", message: "m" });
  });
});

describe("the bulk booking's and a return pickup's words", () => {
  it("are in English as before, and each in Hindi", () => {
    const [en, hi] = [adminStrings("en").outcomes, adminStrings("hi").outcomes];
    expect(en.shipping).toEqual({
      notTried: "Not tried: Shopify is busy, try again in a minute.",
      notBooked: "Not booked: Shopify is busy, try again in a minute.",
      beingBooked: "Being booked right now.",
      recommended: "Recommended courier",
      cheapest: "Cheapest courier",
      fastest: "Fastest courier",
    });
    expect(en.pickup).toEqual({
      whichReturn: "Say which return to book (a Shopify return id).",
      notSeen: "Dakiya has not seen this return yet: check for new orders and returns, then try again.",
      cancelled: "This return was declined or cancelled in Shopify: nothing to pick up.",
      chooseCourier: "Choose one of the couriers offered.",
      booked: "Pickup booked with {courier}, awb {awb}.",
      alreadyBooked: "This return's pickup is already booked.",
      alreadyBookedAwb: "This return's pickup is already booked (awb {awb}).",
    });
    for (const words of [hi.shipping, hi.pickup]) for (const text of Object.values(words)) expect(text).toMatch(DEVANAGARI);
    expect(hi.pickup.booked).toContain("{courier}");
    expect(hi.pickup.booked).toContain("{awb}");
    expect(hi.pickup.alreadyBookedAwb).toContain("{awb}");
  });
});
