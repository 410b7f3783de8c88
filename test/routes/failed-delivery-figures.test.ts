import { describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { deskFigures } from "~/failed-deliveries/desk-figures.server";
import { uniqueShop } from "../support/webhooks";

/**
 * The failed-delivery desk's headline on rows across both windows and just outside them: the share of failed-delivery
 * parcels delivered in the end (by the window of their first failed attempt, of those that reached an end), and the
 * median hours from each failed attempt to its first decision (the merchant's or a rule's, before the next attempt),
 * for the last 30 days beside the 30 before. Rows at 29.9 and 30.1 days ago, at 61 days ago, of another shop, and an
 * attempt left undecided before the next each move a figure if a window, the median, the attempt's decision or the
 * shop were wrong.
 */
const NOW = new Date("2026-11-28T12:00:00Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

interface Attempt {
  at: Date;
  /** Hours after the attempt of each decision recorded for it (the first one counts). */
  decisions?: number[];
  transition?: "decided" | "rule_decided";
}

let order = 0;
async function parcel(shop: string, outcome: string, attempts: Attempt[]) {
  order += 1;
  const shipment = await prisma.shipment.create({
    data: { shop, orderGid: `gid://shopify/Order/${9_000 + order}`, orderName: `#${9_000 + order}`, status: "fulfilled", requestPayload: "{}", courierEnvironment: "sandbox", paymentMode: "cod", outcome, deliveryAttempts: attempts.length },
  });
  const row = await prisma.failedDelivery.create({ data: { shop, shipmentId: shipment.id, attempt: attempts.length, state: "decided" } });
  for (const [index, attempt] of attempts.entries()) {
    await prisma.trackingEvent.create({ data: { shop, shipmentId: shipment.id, fingerprint: `attempt-${index}`, code: 9, label: "Undelivered", activity: "Delivery attempted: consignee not available", happenedAt: attempt.at } });
    for (const hours of attempt.decisions ?? []) {
      await prisma.failedDeliveryEvent.create({ data: { shop, failedDeliveryId: row.id, transition: attempt.transition ?? "decided", fromState: "open", toState: "decided", actorKind: "merchant", actorName: "Failed-delivery desk", at: new Date(attempt.at.getTime() + hours * HOUR) } });
    }
  }
  // What the desk records that is not a decision (the shopper's answer, the hand-off) moves no figure.
  await prisma.failedDeliveryEvent.create({ data: { shop, failedDeliveryId: row.id, transition: "shopper_answered", fromState: "open", toState: "answered", actorKind: "shopper", actorName: "Tracking link", at: attempts[0]!.at } });
}

describe("the failed-delivery desk's figures", () => {
  it("counts the share delivered in the end and the median hours to a decision for the last 30 days and the 30 before", async () => {
    const shop = uniqueShop("desk-figures");
    // The last 30 days: first attempts 2, 10, 29.9, 1 and 5 days ago.
    await parcel(shop, "delivered", [{ at: ago(2), decisions: [1] }]);
    await parcel(shop, "rto_delivered", [{ at: ago(10), decisions: [3], transition: "rule_decided" }]);
    await parcel(shop, "delivered", [{ at: ago(29.9), decisions: [10] }]);
    await parcel(shop, "delivery_attempted", [{ at: ago(1) }]);
    // Decided in half an hour, then decided again (the first decision counts); the next attempt decided in 20 hours.
    await parcel(shop, "delivered", [
      { at: ago(5), decisions: [0.5, 5] },
      { at: ago(4), decisions: [20] },
    ]);
    // An attempt nobody decided before the courier's next one: the next one's decision is not its.
    await parcel(shop, "lost", [{ at: ago(8) }, { at: ago(7), decisions: [7] }]);
    // The 30 days before: first attempts 30.1, 40, 50 and 59 days ago.
    await parcel(shop, "delivered", [{ at: ago(30.1), decisions: [2] }]);
    await parcel(shop, "rto_initiated", [{ at: ago(40), decisions: [4], transition: "rule_decided" }]);
    await parcel(shop, "rto_delivered", [{ at: ago(50), decisions: [6] }]);
    await parcel(shop, "delivered", [{ at: ago(59), decisions: [30] }]);
    // First attempt in the window before, the second in the last 30 days: the parcel counts once, in the window before;
    // each attempt's decision in its own window.
    await parcel(shop, "delivered", [
      { at: ago(35), decisions: [8] },
      { at: ago(20), decisions: [5] },
    ]);
    // Outside both windows, and another shop's: nothing.
    await parcel(shop, "rto_delivered", [{ at: ago(61), decisions: [100] }]);
    await parcel(uniqueShop("desk-figures-other"), "rto_delivered", [{ at: ago(3), decisions: [50] }]);

    expect(await deskFigures(shop, NOW)).toEqual({
      // Delivered: 3 of the 5 that reached an end (one is still in its failed attempt, one was lost). Decisions in 0.5,
      // 1, 3, 5, 7, 10 and 20 hours: the median is 5; the attempts a day and eight days ago are not decided.
      current: { parcels: 6, settled: 5, delivered: 3, deliveredShare: 0.6, attempts: 9, decided: 7, medianHours: 5 },
      // Delivered: 3 of 5. Decisions in 2, 4, 6, 8 and 30 hours: the median is 6.
      previous: { parcels: 5, settled: 5, delivered: 3, deliveredShare: 0.6, attempts: 5, decided: 5, medianHours: 6 },
    });
  });

  it("says nothing rather than zero for a shop without failed deliveries", async () => {
    const empty = { parcels: 0, settled: 0, delivered: 0, deliveredShare: null, attempts: 0, decided: 0, medianHours: null };
    expect(await deskFigures(uniqueShop("desk-figures-none"), NOW)).toEqual({ current: empty, previous: empty });
  });
});
