import type { RankedRate } from "../shipping/rate-ranking";

/**
 * The merchant's return settings and what they decide. Pure: shared by the Settings section, the return-check job
 * and their tests.
 *
 * - hold: every pickup waits for the merchant's click (the default: a return costs the merchant a reverse freight);
 * - cheapest: the cheapest courier offering the reverse pickup is booked at once;
 * - courier: the named courier is booked when it offers the pickup, else the return waits with that reason.
 */
export const RETURN_RULES = ["hold", "cheapest", "courier"] as const;
export type ReturnRule = (typeof RETURN_RULES)[number];

export const RETURN_DISPOSITIONS = ["inspect", "restock"] as const;
/** What Dakiya records in Shopify for items that came back: left for inspection, or restocked at the location. */
export type ReturnDisposition = (typeof RETURN_DISPOSITIONS)[number];

export interface ReturnSettings {
  rule: ReturnRule;
  courierId: number | null;
  notifyCustomer: boolean;
  disposition: ReturnDisposition;
}

export function returnSettingsOf(settings: { returnRule: string; returnCourierId: number | null; returnNotifyCustomer: boolean; returnDisposition: string }): ReturnSettings {
  return {
    rule: (RETURN_RULES as readonly string[]).includes(settings.returnRule) ? (settings.returnRule as ReturnRule) : "hold",
    courierId: settings.returnCourierId,
    notifyCustomer: settings.returnNotifyCustomer,
    disposition: settings.returnDisposition === "restock" ? "restock" : "inspect",
  };
}

export type ReturnDecision = { kind: "book"; courierId: number; courierName: string; reason: string } | { kind: "hold"; reason: string };

export function decideReturnPickup(settings: Pick<ReturnSettings, "rule" | "courierId">, rates: readonly RankedRate[]): ReturnDecision {
  if (settings.rule === "hold") return { kind: "hold", reason: "Your return setting holds every pickup for you to book." };
  if (rates.length === 0) return { kind: "hold", reason: "No courier offers this pickup." };
  if (settings.rule === "courier") {
    const named = rates.find((rate) => rate.id === settings.courierId);
    if (!named) return { kind: "hold", reason: "The courier your return setting names does not offer this pickup: choose one." };
    return { kind: "book", courierId: named.id, courierName: named.name, reason: `Return setting: always ${named.name}` };
  }
  const cheapest = [...rates].sort((a, b) => a.total_charges - b.total_charges || a.id - b.id)[0]!;
  return { kind: "book", courierId: cheapest.id, courierName: cheapest.name, reason: `Return setting: the cheapest courier (${cheapest.name})` };
}
