import { describe, expect, it } from "vitest";
import { orderProblem } from "~/shopify/readiness-checks";
import { SERVICE_STATUS_LABELS } from "~/shipping/status";
import { exceptionAdvice, stageLabel } from "~/tracking/courier-progress";
import { ATTENTION_LABELS } from "./attention-kinds";
import { attentionInWords, exceptionAdviceInWords, stageInWords, type AttentionNote } from "./attention-words";

const DEVANAGARI = /\p{Script=Devanagari}/u;
const stage = (code: number, label: string | null = null) => ({ code, label });

/** Every note, with the English the Needs attention page and the extension API have always said for it. */
const NOTES: [AttentionNote, string, string][] = [
  [
    { code: "cancelled_after_pickup", courier: "Delhivery", awb: "AWB1", isReturn: false },
    "The order was cancelled after pickup: Delhivery already has the parcel (awb AWB1), so it cannot be cancelled with the courier.",
    "Arrange a return to origin with the courier, then dismiss",
  ],
  [
    { code: "cancelled_after_pickup", courier: null, awb: "AWB1", isReturn: true },
    "The return was cancelled or declined after The courier collected the parcel from the shopper (awb AWB1): it is on its way to your warehouse.",
    "Receive the parcel and decide with the shopper, or ask the courier to take it back to them; then dismiss",
  ],
  [{ code: "cancel_refused", awb: "AWB1", error: null }, "The order was cancelled, but the courier would not cancel awb AWB1.", "Cancel the shipment in the courier's panel, then dismiss"],
  [{ code: "cancel_refused", awb: "AWB1", error: "Already picked up" }, "Already picked up", "Cancel the shipment in the courier's panel, then dismiss"],
  [
    { code: "address_changed", awb: "AWB1" },
    "The shipping address was changed in Shopify after the order was booked (awb AWB1); the courier has the old one.",
    "Tell the courier the new address, or cancel and book again; then dismiss",
  ],
  [
    { code: "tracking_exception", courier: "Delhivery", awb: "AWB1", isReturn: false, stage: stage(12, "RTO Delivered"), since: "2026-01-05" },
    'Delhivery reports "RTO Delivered" for awb AWB1 (2026-01-05).',
    "Returned to your warehouse (RTO delivered): inspect the parcel, then refund or reship. Then dismiss.",
  ],
  [
    { code: "tracking_exception", courier: null, awb: "AWB1", isReturn: true, stage: stage(4), since: "2026-01-05" },
    `The courier reports "Pickup Exception" for the return's pickup (awb AWB1) (2026-01-05).`,
    "Pickup failed: the courier could not collect the return from the shopper. Ask the shopper to keep the parcel packed and their phone on; the courier tries again. Then dismiss.",
  ],
  [
    { code: "tracking_exception", courier: "Delhivery", awb: "AWB1", isReturn: false, stage: stage(5, "Bagged at hub"), since: "2026-01-05" },
    'Delhivery reports "Bagged at hub" for awb AWB1 (2026-01-05).',
    "Ask the courier what happened. Then dismiss.",
  ],
  [
    { code: "tracking_stalled", courier: "Delhivery", awb: "AWB1", isReturn: false, stage: stage(5), since: "2026-01-05" },
    'No new scan from Delhivery for awb AWB1 since 2026-01-05, while "In Transit": longer than such a stage usually lasts.',
    "Ask the courier where the parcel is, then dismiss.",
  ],
  [
    { code: "tracking_stalled", courier: "Delhivery", awb: "AWB1", isReturn: true, stage: stage(99), since: "2026-01-05" },
    `No new scan from Delhivery for the return's pickup (awb AWB1) since 2026-01-05, while "Status 99": longer than such a stage usually lasts.`,
    "Ask the courier where the returning parcel is, then dismiss.",
  ],
  [{ code: "tracking_stopped", awb: "AWB1", error: null }, "Tracking stopped. (awb AWB1)", "Check the awb with the courier; Sync now on the order starts tracking it again"],
  [{ code: "tracking_stopped", awb: "AWB1", error: "The courier does not know this awb." }, "The courier does not know this awb. (awb AWB1)", "Check the awb with the courier; Sync now on the order starts tracking it again"],
  [{ code: "booking_failed", isReturn: false, error: null }, "The booking failed.", "Book the order again"],
  [{ code: "booking_failed", isReturn: false, error: "Pincode not serviceable" }, "Pincode not serviceable", "Book the order again"],
  [{ code: "booking_failed", isReturn: true, error: null }, "The return's pickup could not be booked: the courier refused it.", "Book the pickup again from Returns or the order's Ship page"],
  [{ code: "booking_failed", isReturn: true, error: "No pickup slot" }, "The return's pickup could not be booked: No pickup slot", "Book the pickup again from Returns or the order's Ship page"],
  [{ code: "fulfillment_pending", isReturn: false, error: "Shopify is down" }, "Shopify is down", "Check the order in Shopify; Dakiya retries the fulfillment"],
  [{ code: "fulfillment_pending", isReturn: true, error: "Shopify is down" }, "Shopify is down", "Check the return in Shopify; Dakiya retries attaching the pickup's tracking"],
  [{ code: "held_by_rules", reason: null }, "Held for review.", "Review the order and ship it, or change the rules"],
  [{ code: "held_by_rules", reason: "Rule 1 'COD' → hold" }, "Rule 1 'COD' → hold", "Review the order and ship it, or change the rules"],
  [{ code: "auto_booking_failed", reason: null }, "The automatic booking failed.", "Ship the order by hand"],
  [{ code: "return_held", reason: null }, "The return's pickup waits for you.", "Book the pickup in Orders to ship → Returns"],
  [
    { code: "return_received", items: [{ title: "Kurta", quantity: 2 }, { title: "Dupatta", quantity: 1 }], recorded: true },
    "The return reached your warehouse: Kurta × 2, Dupatta × 1. Shopify has it recorded as your return setting says.",
    "Inspect the items, then mark the return inspected. Refund the shopper in Shopify if you accept it.",
  ],
  [{ code: "return_received", items: [], recorded: false }, "The return reached your warehouse: its items.", "Inspect the items, then mark the return inspected. Refund the shopper in Shopify if you accept it."],
  [
    { code: "tracking_paused", count: 1, error: null },
    "Tracking is paused for 1 shipment: the courier service refused the shop's account.",
    "Check your courier API keys in Settings. Dakiya tries again by itself and resumes as soon as the courier answers",
  ],
  [
    { code: "tracking_paused", count: 1200, error: "The courier service refused your API keys." },
    "Tracking is paused for 1200 shipments: The courier service refused your API keys.",
    "Check your courier API keys in Settings. Dakiya tries again by itself and resumes as soon as the courier answers",
  ],
];

describe("Needs attention in words", () => {
  it("says every entry in English as it always has", () => {
    for (const [note, message, action] of NOTES) expect(attentionInWords(note, "en")).toEqual({ message, action });
  });

  it("says every entry in Hindi, keeping what was stored as stored", () => {
    for (const [note] of NOTES) {
      const words = attentionInWords(note, "hi");
      expect(words.action).toMatch(DEVANAGARI);
      const stored = "error" in note ? note.error : "reason" in note ? note.reason : null;
      if (stored) expect(words.message).toContain(stored);
      else expect(words.message).toMatch(DEVANAGARI);
    }
    expect(attentionInWords(NOTES[5]![0], "hi").message).toBe("Delhivery ने AWB AWB1 के लिए “RTO डिलीवर हुआ” बताया है (2026-01-05)।");
    expect(attentionInWords(NOTES[7]![0], "hi").message).toContain("“Bagged at hub”");
  });

  it("names every entry kind it words", () => {
    expect(new Set(NOTES.map(([note]) => note.code))).toEqual(new Set(Object.keys(ATTENTION_LABELS).filter((kind) => !kind.endsWith("_problems"))));
  });

  it("says a courier's exception advice as the stage table does, for a parcel going out and for a return", () => {
    for (const code of [...Object.keys(SERVICE_STATUS_LABELS).map(Number), 99]) {
      for (const isReturn of [false, true]) {
        const advice = code in SERVICE_STATUS_LABELS ? exceptionAdvice(code as keyof typeof SERVICE_STATUS_LABELS, isReturn ? "return" : "forward") : null;
        expect(exceptionAdviceInWords(code, isReturn, "en")).toBe(advice ?? undefined);
        if (advice) expect(exceptionAdviceInWords(code, isReturn, "hi")).toMatch(DEVANAGARI);
      }
      expect(stageInWords(stage(code), "en")).toBe(stageLabel(code));
    }
  });

  it("passes readiness problems to the page's wording of them", () => {
    const problem = orderProblem("PINCODE_MISSING");
    const note: AttentionNote = { code: "order_problems", problems: [problem, orderProblem("NO_SHIPPING_ADDRESS")] };
    expect(attentionInWords(note, "en").message).toBe(`${problem.message} The order has no shipping address.`);
    expect(attentionInWords(note, "hi", () => ({ message: "संदेश", fix: "सुधार" }))).toEqual({ message: "संदेश संदेश", action: "सुधार सुधार" });
  });
});

describe("a shipment's stored error in a Needs attention entry", () => {
  const interrupted = { key: "activity.stored.interrupted" };
  const stopped = { key: "activity.stored.tracking.stopped", values: { reason: { key: "activity.stored.tracking.awbUnknown" } } };
  const notes: AttentionNote[] = [
    { code: "booking_failed", isReturn: false, error: "The booking was interrupted before it reached the courier. Book the order again.", errorWords: interrupted },
    { code: "booking_failed", isReturn: true, error: "The booking was interrupted before it reached the courier. Book the order again.", errorWords: interrupted },
    { code: "tracking_stopped", awb: "AWB1", error: "Tracking stopped: The courier does not know this awb.", errorWords: stopped },
    { code: "tracking_paused", count: 2, error: "The courier does not know this awb.", errorWords: { key: "activity.stored.tracking.awbUnknown" } },
    { code: "fulfillment_pending", isReturn: false, error: "Booked with awb AWB1, but Shopify refused the fulfillment: closed", errorWords: { key: "activity.stored.fulfillmentRefused", values: { awb: "AWB1", reason: "closed" } } },
    { code: "cancel_refused", awb: "AWB1", error: "The courier could not cancel awb AWB1: Not found", errorWords: { key: "activity.stored.cancelRefused", values: { awb: "AWB1", message: "Not found" } } },
  ];

  it("says the English as stored, whether or not the words are there", () => {
    for (const note of notes) {
      const { errorWords: _words, ...bare } = note as AttentionNote & { errorWords?: unknown };
      expect(attentionInWords(note, "en")).toEqual(attentionInWords(bare as AttentionNote, "en"));
      expect(attentionInWords(note, "en").message).toContain((note as { error: string }).error);
    }
  });

  it("says the stored error in Hindi from its words, and the English for a row stored before them", () => {
    for (const note of notes) {
      const said = attentionInWords(note, "hi").message;
      expect(said).toMatch(DEVANAGARI);
      expect(said).not.toContain((note as { error: string }).error);
    }
    const old: AttentionNote = { code: "booking_failed", isReturn: false, error: "The booking was interrupted before it reached the courier. Book the order again.", errorWords: null };
    expect(attentionInWords(old, "hi").message).toBe(old.error);
  });
});
