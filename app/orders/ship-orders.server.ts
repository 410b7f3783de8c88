import type { ShopSettings } from "@prisma/client";
import { decide } from "~/automation/rules";
import prisma from "~/db.server";
import { getShopSettings } from "~/settings/shop-settings.server";
import { bookingRulesOf } from "~/automation/booking-rules.server";
import { isLogisticId } from "~/shipping/contract";
import { ShopifyUnavailableError, type ShopAdmin } from "~/shopify/admin-graphql.server";
import { adminStrings, sayStored, type AdminLanguage } from "~/locales/admin-language";
import { bookOutcomeInWords } from "~/booking/book-outcome";
import { ruleFactsOf, storedFactsOf } from "~/automation/booking-facts";
import { bookOrder, prepareOrder, quoteOrder } from "~/orders/book-order.server";
import type { Shipment } from "@prisma/client";
import type { Actor } from "~/shipments/lifecycle";
import { getOrderRisk } from "~/cod/cod-risk.server";
import { askToConfirm, getConfirmation } from "~/cod/confirmation.server";
import { recordWaitingForShopper } from "~/orders/order-records.server";

/** Orders shipped in one request from a list or the bulk action: each is read, quoted and booked in turn. */
export const MAX_SHIPPED_AT_ONCE = 50;

export type ShipResultKind = "booked" | "held" | "already_booked" | "failed";

export interface ShipResult {
  orderGid: string;
  orderName: string;
  outcome: ShipResultKind;
  /** The order's awbs, parcel 1 first (comma-separated when it ships as several parcels). */
  awb: string | null;
  courierName: string | null;
  /** Why it was held or failed, or how it was booked: in the language asked for, a rule's and a stored reason as they are. */
  reason: string | null;
}

export interface ShipOptions {
  /** By the shop's rules (else its recommended courier), or always with the recommended, cheapest or fastest courier. */
  policy: "rules" | "recommended" | "cheapest" | "fastest";
  /** The language the reasons are put in: the admin's on its pages, English for the extensions. */
  language?: AdminLanguage;
  /** Who ships, for the shipments' history: the merchant on Orders to ship unless said. */
  actor?: Actor;
  /**
   * How an order's problems are said: their messages with the fixes (the merchant's screens), or their labels alone
   * (an answer kept outside the shop's screens, which must not quote the shopper's phone or address).
   */
  problems?: "fixes" | "labels";
}

const ORDERS_TO_SHIP: Actor = { kind: "merchant", name: "Orders to ship page" };

/**
 * Ships orders chosen by the merchant, one after another, through the same exactly-once booking as every other
 * path: by the shop's rules (a rule may hold an order) else the recommended courier, or the recommended courier
 * outright. Each order gets a result: booked (with its awb), held (with the rule's reason), already booked, or
 * failed (with what to fix). When Shopify stays busy, the orders not tried yet say so; the bookings made stand.
 */
export async function shipOrders(shop: string, admin: ShopAdmin, orderGids: readonly string[], options: ShipOptions): Promise<ShipResult[]> {
  const words = adminStrings(options.language ?? "en").outcomes.shipping;
  const settings = await getShopSettings(shop);
  const records = await prisma.orderRecord.findMany({ where: { shop, orderGid: { in: [...orderGids] } }, select: { orderGid: true, orderName: true, tags: true } });
  const nameOf = (orderGid: string) => records.find((record) => record.orderGid === orderGid)?.orderName || `Order ${orderGid.split("/").pop()}`;
  const results: ShipResult[] = [];
  let busy = false;
  for (const orderGid of orderGids.slice(0, MAX_SHIPPED_AT_ONCE)) {
    const base = { orderGid, orderName: nameOf(orderGid), awb: null, courierName: null };
    if (busy) {
      results.push({ ...base, outcome: "failed", reason: words.notTried });
      continue;
    }
    try {
      results.push(await shipOrder(shop, admin, orderGid, options, { settings, base }));
    } catch (error) {
      if (!(error instanceof ShopifyUnavailableError)) throw error;
      busy = true;
      results.push({ ...base, outcome: "failed", reason: words.notBooked });
    }
  }
  return results;
}

/**
 * Ships one order as `shipOrders` ships each (a Shopify Flow action ships one this way). Shopify busy past the waits
 * is thrown (ShopifyUnavailableError), for the caller to say so or try again later.
 */
export async function shipOrder(
  shop: string,
  admin: ShopAdmin,
  orderGid: string,
  { policy, language = "en", actor = ORDERS_TO_SHIP, problems = "fixes" }: ShipOptions,
  known: { settings?: ShopSettings; base?: Omit<ShipResult, "outcome" | "reason"> } = {},
): Promise<ShipResult> {
  const settings = known.settings ?? (await getShopSettings(shop));
  const rules = policy === "rules" ? bookingRulesOf(settings) : [];
  const base = known.base ?? { orderGid, orderName: `Order ${orderGid.split("/").pop()}`, awb: null, courierName: null };
  const words = adminStrings(language).outcomes;
  const prepared = await prepareOrder({ shop, admin }, { orderGid, settings });
  const { order } = prepared;
  const named = { ...base, orderName: order?.name ?? base.orderName };
  const quote = await quoteOrder({ shop, admin }, { orderGid, prepared });
  // Every parcel booked already (the order now reads as fulfilled in Shopify, or is being fulfilled).
  if (quote.kind === "already_booked") return { ...named, ...parcelsOf(quote.shipments), outcome: "already_booked", reason: quote.shipments.every((shipment) => shipment.awb) ? null : words.shipping.beingBooked };
  if (quote.kind !== "quoted") return { ...named, outcome: "failed", reason: bookOutcomeInWords(quote, { problems, language }) };
  const chosen = policy === "cheapest" ? "cheapest" : policy === "fastest" ? "fastest" : "recommended";
  let courierId = quote.rates.find((rate) => (chosen === "cheapest" ? rate.isCheapest : chosen === "fastest" ? rate.isFastest : rate.isRecommended))?.id;
  let reason = words.shipping[chosen];
  let ruleName: string | null = null;
  if (rules.length > 0) {
    const { fields } = quote.shipment;
    const [risk, confirmation] = await Promise.all([getOrderRisk(shop, orderGid), getConfirmation(shop, orderGid)]);
    const facts = { ...ruleFactsOf({ ...storedFactsOf(fields), pincode: fields.pincode, zone: quote.rates[0]?.zone ?? null, tags: order?.tags ?? [] })!, riskLevel: fields.payment_mode === "cod" ? (risk?.level ?? null) : null, shopperAsked: confirmation !== null };
    const decision = decide(rules, facts, quote.rates);
    // The rules' reason in the admin's language, from the words the order check would store with it.
    if (decision.kind === "hold") return { ...named, outcome: "held", reason: sayStored(language, decision.words, decision.reason) };
    if (decision.kind === "confirm") {
      // The rules ask the shopper first, as they do for a new order: the order waits for the answer.
      const asked = await askToConfirm({ shop, admin, now: () => new Date() }, orderGid, { kind: actor.kind === "rule" ? "flow" : "merchant", name: `${actor.name}, by ${decision.rule}` });
      if (asked.kind === "asked" || asked.kind === "already_asked") await recordWaitingForShopper(shop, orderGid, decision.words, new Date());
      return { ...named, outcome: "held", reason: sayStored(language, decision.words, decision.reason) };
    }
    courierId = decision.courierId;
    reason = sayStored(language, decision.words, decision.reason);
    ruleName = decision.rule;
  }
  if (courierId === undefined || !isLogisticId(courierId)) return { ...named, outcome: "failed", reason: words.booking.noCourier };
  const outcome = await bookOrder({ shop, admin, actor: { kind: actor.kind, name: ruleName ? `${actor.name}, by ${ruleName}` : actor.name } }, { orderGid, courierId, prepared, quoted: quote });
  if (outcome.kind === "booked" || outcome.kind === "already_booked") {
    const { shipments } = outcome;
    const waiting = shipments.find((shipment) => shipment.status !== "fulfilled");
    return {
      ...named,
      ...parcelsOf(shipments),
      outcome: outcome.kind,
      reason: outcome.kind === "already_booked" ? (shipments.every((shipment) => shipment.awb) ? null : words.shipping.beingBooked) : !waiting ? reason : waiting.lastError ? sayStored(language, waiting.lastErrorWords, waiting.lastError) : reason,
    };
  }
  // Some parcels booked, one not: the ones booked are said with why the other was not.
  return { ...named, ...parcelsOf(outcome.booked ?? []), outcome: "failed", reason: bookOutcomeInWords(outcome, { problems: outcome.kind === "problems" ? "labels" : problems, language }) };
}

/** The order's awbs and couriers, parcel 1 first: one of each for an order in one parcel. */
function parcelsOf(shipments: readonly Shipment[]): Pick<ShipResult, "awb" | "courierName"> {
  const awbs = shipments.flatMap((shipment) => (shipment.awb ? [shipment.awb] : []));
  const couriers = [...new Set(shipments.flatMap((shipment) => (shipment.courierName ? [shipment.courierName] : [])))];
  return { awb: awbs.length > 0 ? awbs.join(", ") : null, courierName: couriers.length > 0 ? couriers.join(", ") : null };
}
