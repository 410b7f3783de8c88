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
  /** Returns worth this much or more (paise) wait for the merchant whatever the rule says. */
  holdFromPaise: number | null;
  /** Returns picked up from a PIN code starting with one of these wait for the merchant. */
  holdPincodes: string[];
}

export function returnSettingsOf(settings: {
  returnRule: string;
  returnCourierId: number | null;
  returnNotifyCustomer: boolean;
  returnDisposition: string;
  returnHoldFromPaise: number | null;
  returnHoldPincodes: string;
}): ReturnSettings {
  return {
    rule: (RETURN_RULES as readonly string[]).includes(settings.returnRule) ? (settings.returnRule as ReturnRule) : "hold",
    courierId: settings.returnCourierId,
    notifyCustomer: settings.returnNotifyCustomer,
    disposition: settings.returnDisposition === "restock" ? "restock" : "inspect",
    holdFromPaise: settings.returnHoldFromPaise,
    holdPincodes: pincodePrefixesOf(settings.returnHoldPincodes),
  };
}

/** "400, 560 " → ["400", "560"]: the PIN code prefixes a return rule holds. */
export const pincodePrefixesOf = (text: string): string[] => [...new Set(text.split(",").map((prefix) => prefix.trim()).filter(Boolean))];

/** What the return rules look at: the returning items' value and the PIN code the pickup is from. */
export interface ReturnFacts {
  totalPaise: number;
  pincode: string;
}

export type ReturnDecision = { kind: "book"; courierId: number; courierName: string; reason: string } | { kind: "hold"; reason: string };

const rupees = (paise: number) => `₹${(paise / 100).toLocaleString("en-IN", { maximumFractionDigits: 2 })}`;

export function decideReturnPickup(settings: Pick<ReturnSettings, "rule" | "courierId" | "holdFromPaise" | "holdPincodes">, rates: readonly RankedRate[], facts: ReturnFacts): ReturnDecision {
  if (settings.holdFromPaise !== null && facts.totalPaise >= settings.holdFromPaise) {
    return { kind: "hold", reason: `The return is worth ${rupees(facts.totalPaise)}: your return rules hold returns of ${rupees(settings.holdFromPaise)} or more for you to book.` };
  }
  const prefix = settings.holdPincodes.find((candidate) => facts.pincode.startsWith(candidate));
  if (prefix) return { kind: "hold", reason: `The pickup is from a PIN code starting ${prefix}: your return rules hold those for you to book.` };
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
