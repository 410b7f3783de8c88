import { describe, expect, it } from "vitest";
import { ATTENTION_LABELS } from "~/attention/attention-kinds";
import { SERVICE_STATUS_LABELS } from "~/shipping/status";
import { actorInWords, eventInWords } from "./history-words";
import { SHIPMENT_STATUS_LABELS, SHIPMENT_STATUSES, TRANSITION_NAMES, transitionLabel } from "./lifecycle";

const DEVANAGARI = /\p{Script=Devanagari}/u;
const event = (transition: string, fromState: string | null = null, toState: string | null = null) => ({ transition, fromState, toState });

describe("a shipment's history in words", () => {
  it("says every transition by its name, in English as the transition table does and in Hindi", () => {
    for (const name of TRANSITION_NAMES) {
      expect(eventInWords(event(name), "en")).toBe(transitionLabel(name));
      expect(eventInWords(event(name), "hi")).toMatch(DEVANAGARI);
    }
    expect(eventInWords(event("retired_step"), "hi")).toBe("retired_step");
  });

  it("says the flag raised or cleared and the courier's stages moved between", () => {
    for (const [kind, label] of Object.entries(ATTENTION_LABELS)) {
      expect(eventInWords(event("attention_raised", null, kind), "en")).toBe(`Needs attention: ${label}`);
      expect(eventInWords(event("attention_cleared", kind, null), "en")).toBe(`Dealt with: ${label}`);
      expect(eventInWords(event("attention_raised", null, kind), "hi")).toMatch(/^ध्यान देना ज़रूरी: \p{Script=Devanagari}/u);
    }
    expect(eventInWords(event("courier_progress", "In Transit", "Out for Delivery"), "en")).toBe("Courier update: In Transit → Out for Delivery");
    expect(eventInWords(event("courier_progress", null, "Manifested"), "en")).toBe("Courier update: Manifested");
    expect(eventInWords(event("courier_progress", "In Transit", "Out for Delivery"), "hi")).toBe("कूरियर से अपडेट: रास्ते में → डिलीवरी के लिए निकला");
    // A stage the courier named in its own words stays in them.
    expect(eventInWords(event("courier_progress", "Bagged at hub", "RTO Delivered"), "hi")).toBe("कूरियर से अपडेट: Bagged at hub → RTO डिलीवर हुआ");
    for (const label of Object.values(SERVICE_STATUS_LABELS)) expect(eventInWords(event("courier_progress", null, label), "en")).toBe(`Courier update: ${label}`);
  });

  it("leaves the states a transition does not show out, as before", () => {
    for (const status of SHIPMENT_STATUSES) expect(eventInWords(event("booked", "booking", status), "en")).toBe("Booked with the courier");
    expect(eventInWords(event("tracking_paused", "active", "paused"), "en")).toBe("Tracking paused");
    expect(Object.keys(SHIPMENT_STATUS_LABELS)).toEqual(SHIPMENT_STATUSES);
  });

  it("says who did it, in English as before and in Hindi, keeping stored names", () => {
    const actors: [{ kind: string; name: string }, string, string | RegExp][] = [
      [{ kind: "rule", name: "Rule 1 'COD' → cheapest: Delhivery ₹60" }, "Rule 1 'COD' → cheapest: Delhivery ₹60", "Rule 1 'COD' → cheapest: Delhivery ₹60"],
      [{ kind: "rule", name: "Return rules" }, "Return rules", "रिटर्न के नियम"],
      [{ kind: "merchant", name: "Ship order page" }, "You, on the Ship order page", "आप, ऑर्डर भेजें पेज पर"],
      [{ kind: "merchant", name: "Orders to ship page" }, "You, on the Orders to ship page", "आप, भेजने के लिए ऑर्डर पेज पर"],
      [{ kind: "merchant", name: "Orders to ship page, by Rule 2 'Heavy'" }, "You, on the Orders to ship page, by Rule 2 'Heavy'", "आप, भेजने के लिए ऑर्डर पेज (Rule 2 'Heavy' के अनुसार) पर"],
      [{ kind: "merchant", name: "Needs attention page" }, "You, on the Needs attention page", DEVANAGARI],
      [{ kind: "merchant", name: "Shopify order page" }, "You, on the Shopify order page", DEVANAGARI],
      [{ kind: "merchant", name: "Returns" }, "You, on the Returns", DEVANAGARI],
      [{ kind: "merchant", name: "Dakiya app" }, "You, on the Dakiya app", DEVANAGARI],
      [{ kind: "merchant", name: "Some other screen" }, "You, on the Some other screen", "आप, Some other screen पर"],
      [{ kind: "webhook", name: "orders/cancelled" }, "Shopify (orders/cancelled)", "Shopify (orders/cancelled)"],
      [{ kind: "job", name: "tracking-sync" }, "Dakiya (tracking-sync)", "Dakiya (tracking-sync)"],
      [{ kind: "courier", name: "Delhivery" }, "Delhivery", "Delhivery"],
      [{ kind: "courier", name: "Courier" }, "Courier", "कूरियर"],
      [{ kind: "someone", name: "Support" }, "Support", "Support"],
    ];
    for (const [actor, english, hindi] of actors) {
      expect(actorInWords(actor, "en")).toBe(english);
      if (typeof hindi === "string") expect(actorInWords(actor, "hi")).toBe(hindi);
      else expect(actorInWords(actor, "hi")).toMatch(hindi);
    }
  });
});
