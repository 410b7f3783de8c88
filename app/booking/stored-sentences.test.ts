import { describe, expect, it } from "vitest";
import { englishOf, sayStored, type StoredWords } from "~/locales/admin-language";
import { orderProblem } from "~/shopify/readiness-checks";
import type { Sentence } from "~/locales/admin-language";
import { bookOutcomeInWords, type OutcomeForWords } from "./book-outcome";
import { listWords as listOf } from "~/locales/admin-language";
import { courierChoiceWords, courierSentence, outcomeLabelSentence, shopifyReason } from "./stored-sentences";

const DEVANAGARI = /[\u0900-\u097F]/;
const english = (sentence: Sentence) => (typeof sentence === "string" ? sentence : englishOf(sentence));
const hindi = (sentence: Sentence) => sayStored("hi", sentence, english(sentence));

const SHOPIFY_MESSAGE = "Fulfillment order 123 has an unfulfillable status= closed.";
const COURIER_MESSAGE = "pincode: Delivery pincode 999999 is not serviceable";

/** Every sentence a shipment stores as words, with the English it has always been stored as (the literals of before). */
const STORED: [string, StoredWords, string][] = [
  ["booking interrupted", { key: "activity.stored.interrupted" }, "The booking was interrupted before it reached the courier. Book the order again."],
  [
    "order number taken at the courier",
    { key: "activity.stored.orderIdTaken", values: { sent: "1001", next: "1001-2" } },
    `The courier account already has an order numbered 1001 (booked on the courier's panel, or cancelled there), so nothing was booked. Book again to send this order as 1001-2.`,
  ],
  ["retrying, Dakiya's words", { key: "activity.stored.willRetry", values: { message: { key: "outcomes.booking.noAnswer" } } }, "The courier service did not answer. Try again in a minute. Dakiya will retry the booking automatically."],
  ["retrying, the courier's words", { key: "activity.stored.willRetry", values: { message: COURIER_MESSAGE } }, `${COURIER_MESSAGE} Dakiya will retry the booking automatically.`],
  ["fulfillment refused", { key: "activity.stored.fulfillmentRefused", values: { awb: "AWB1", reason: SHOPIFY_MESSAGE } }, `Booked with awb AWB1, but Shopify refused the fulfillment: ${SHOPIFY_MESSAGE}`],
  [
    "fulfillment waiting",
    { key: "activity.stored.fulfillmentWaiting", values: { awb: "AWB1", reason: { key: "activity.stored.shopifyThrottling" } } },
    "Booked with awb AWB1, but Shopify did not take the fulfillment yet (Shopify is throttling requests). Dakiya will retry automatically.",
  ],
  ["reverse delivery refused", { key: "activity.stored.reverseDeliveryRefused", values: { awb: "AWB2", reason: SHOPIFY_MESSAGE } }, `Booked with awb AWB2, but Shopify refused the reverse delivery: ${SHOPIFY_MESSAGE}`],
  [
    "reverse delivery waiting",
    { key: "activity.stored.reverseDeliveryWaiting", values: { awb: "AWB2", reason: { key: "activity.stored.shopifyNoAnswer" } } },
    "Booked with awb AWB2, but Shopify did not take the reverse delivery yet (Shopify did not answer). Dakiya will retry automatically.",
  ],
  ["order unreadable", { key: "activity.stored.orderUnreadable" }, "The order could not be read from Shopify."],
  ["booked with", { key: "activity.stored.bookedWith", values: { courier: "Delhivery", awb: "AWB3" } }, "Delhivery, awb AWB3"],
  ["order cancelled", { key: "activity.stored.cancellations.order" }, "The order was cancelled in Shopify."],
  ["return declined", { key: "activity.stored.cancellations.returnDeclined" }, "The return was declined in Shopify."],
  ["return cancelled", { key: "activity.stored.cancellations.returnCancelled" }, "The return was cancelled in Shopify."],
  ["order cancelled before booking", { key: "activity.stored.cancelledBeforeBooking.order" }, `${"The order was cancelled in Shopify.".replace(/\.$/, "")} before it was booked.`],
  ["return declined before booking", { key: "activity.stored.cancelledBeforeBooking.returnDeclined" }, `${"The return was declined in Shopify.".replace(/\.$/, "")} before it was booked.`],
  ["return cancelled before booking", { key: "activity.stored.cancelledBeforeBooking.returnCancelled" }, `${"The return was cancelled in Shopify.".replace(/\.$/, "")} before it was booked.`],
  ["cancel refused", { key: "activity.stored.cancelRefused", values: { awb: "AWB4", message: { key: "outcomes.booking.keysRefused" } } }, "The courier could not cancel awb AWB4: The courier service refused your API keys. Check them in Settings."],
  ["tracking: keys refused", { key: "outcomes.booking.keysRefused" }, "The courier service refused your API keys. Check them in Settings."],
  ["tracking: a web page", { key: "activity.stored.tracking.notJson" }, "The courier service answered with a web page instead of its data (maintenance, or a wrong address)."],
  ["tracking: awb unknown", { key: "activity.stored.tracking.awbUnknown" }, "The courier does not know this awb."],
  ["tracking: no answer", { key: "activity.stored.tracking.noAnswer" }, "The courier service did not answer for this shipment."],
  ["tracking: unreadable", { key: "activity.stored.tracking.unreadable", values: { message: "bad JSON" } }, "The courier's answer could not be read: bad JSON"],
  ["tracking stopped", { key: "activity.stored.tracking.stopped", values: { reason: { key: "activity.stored.tracking.awbUnknown" } } }, "Tracking stopped: The courier does not know this awb."],
  ["synced by hand", { key: "activity.stored.tracking.syncedByHand" }, "Synced by hand"],
  ["the courier answers again", { key: "activity.stored.tracking.courierAnswers" }, "The courier answers again"],
  ["manifest", { key: "activity.stored.manifest", values: { number: 1 } }, "Manifest 1"],
];

describe("a shipment's stored sentences as words", () => {
  it.each(STORED)("%s: the same English as before, and Hindi", (_name, words, before) => {
    expect(englishOf(words)).toBe(before);
    expect(sayStored("en", words, "fallback")).toBe(before);
    const said = sayStored("hi", words, "fallback");
    expect(said).not.toBe("fallback");
    expect(said).toMatch(DEVANAGARI);
  });

  it("keeps the courier's and Shopify's own text unchanged inside the Hindi", () => {
    expect(hindi({ key: "activity.stored.fulfillmentRefused", values: { awb: "AWB1", reason: SHOPIFY_MESSAGE } })).toContain(SHOPIFY_MESSAGE);
    expect(hindi({ key: "activity.stored.willRetry", values: { message: COURIER_MESSAGE } })).toContain(COURIER_MESSAGE);
  });

  it("says a courier choice as the history always did", () => {
    expect(englishOf(courierChoiceWords("Delhivery", 98))).toBe("Delhivery ₹98");
    expect(englishOf(courierChoiceWords("Xpressbees", 1234.5))).toBe(`Xpressbees ₹${(1234.5).toLocaleString("en-IN", { maximumFractionDigits: 2 })}`);
    expect(sayStored("hi", courierChoiceWords("Delhivery", 98), "")).toBe("Delhivery ₹98");
  });

  it("keeps a courier's whole message as said, with no words", () => {
    expect(courierSentence({ message: COURIER_MESSAGE })).toBe(COURIER_MESSAGE);
    expect(english(courierSentence({ message: "", code: "no_answer" }))).toBe("The courier service did not answer. Try again in a minute.");
    expect(hindi(courierSentence({ message: "", code: "no_answer" }))).toMatch(DEVANAGARI);
  });

  it("says why Shopify did not take a fulfillment as before", () => {
    expect(english(shopifyReason(new Error("Throttled")))).toBe("Shopify is throttling requests");
    expect(english(shopifyReason(new Error("HTTP 503 Service Unavailable")))).toBe("Shopify did not answer");
    expect(english(shopifyReason(new Error("")))).toBe("unknown error");
    expect(shopifyReason(new Error("x".repeat(200)))).toBe("x".repeat(120));
    expect(hindi(shopifyReason(new Error("Throttled")))).toMatch(DEVANAGARI);
  });

  it("says a released claim's reason as bookOutcomeInWords does with labels, in both languages", () => {
    const outcomes: OutcomeForWords[] = [
      { kind: "problems", problems: [orderProblem("NO_WAREHOUSE")] },
      { kind: "problems", problems: [orderProblem("NO_WAREHOUSE"), orderProblem("NO_COURIER", { city: "Pune", from: "411001", to: "110001" })] },
      { kind: "not_found" },
      { kind: "cancelled" },
      { kind: "quoted" },
      { kind: "unavailable", message: "", code: "no_answer" },
      { kind: "refused", message: COURIER_MESSAGE },
      { kind: "booked" },
    ];
    for (const outcome of outcomes) {
      const sentence = outcomeLabelSentence(outcome);
      expect(english(sentence)).toBe(bookOutcomeInWords(outcome, { problems: "labels" }));
      expect(hindi(sentence)).toBe(bookOutcomeInWords(outcome, { problems: "labels", language: "hi" }));
    }
  });

  it("lists several sentences as one, comma by comma", () => {
    expect(listOf([])).toBe("");
    expect(listOf(["a"])).toBe("a");
    expect(englishOf(listOf(["a", "b", { key: "activity.stored.orderUnreadable" }]) as StoredWords)).toBe("a, b, The order could not be read from Shopify.");
  });
});
