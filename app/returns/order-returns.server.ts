import prisma from "~/db.server";
import { quoteReturnPickup } from "./return-pickup.server";
import { outcomeForWords, type OutcomeForWords } from "~/booking/book-outcome";
import { getShopSettings, toMappingSettings } from "~/settings/shop-settings.server";
import { shipmentStatusLabel } from "~/shipments/lifecycle";
import type { RankedRate } from "~/shipping/rate-ranking";
import { isSafeTrackingUrl } from "~/shipping/tracking-url";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { getReturnForPickup } from "~/shopify/admin-returns.server";
import { toReverseCourierOrder } from "./return-mapping";
import { listReturnHistories, type ReturnHistoryEntry } from "./return-history.server";
import { RETURN_STATE } from "./return-lifecycle";

/** A return as the Ship order page shows it beside the order's own shipment: nothing of the shopper's address. */
export interface OrderReturnSection {
  returnGid: string;
  returnName: string;
  /** Shopify's return status, read now: REQUESTED, OPEN, CLOSED. */
  status: string;
  /** Where the return is in Dakiya (app/returns/return-lifecycle.ts), and its history, oldest first. */
  state: string;
  history: ReturnHistoryEntry[];
  items: { title: string; sku: string | null; quantity: number }[];
  reasons: string[];
  /** `status` is the pickup shipment's status, for the page to name in the admin's language. */
  pickup: { awb: string | null; courierName: string | null; status: string; statusLabel: string; trackingUrl: string | null } | null;
  /** What the return rules decided, and why. */
  decisionReason: string | null;
  /** The reason's words (StoredWords), for the page to say it in the admin's language; null for a reason kept before them. */
  decisionWords: unknown;
  /** Reverse rates, quoted now for an open return with no pickup booked: each books through the Returns booking path. */
  rates: RankedRate[];
  /**
   * Why there are no rates to book: the return's problems, or the courier service not answering. The page words it in
   * the admin's language (bookOutcomeInWords, with the fixes).
   */
  note: OutcomeForWords | null;
  /** A requested return: its pickup can be booked once the merchant approves it in Shopify. */
  awaitingApproval: boolean;
}

/**
 * The open, requested or closed returns Dakiya recorded for an order, each read fresh from Shopify (its items and
 * status) and, when its pickup is still to book, quoted as a reverse shipment. Declined and cancelled returns are left
 * out: nothing will come back.
 */
export async function listOrderReturns(shop: string, admin: ShopAdmin, orderGid: string, now: () => Date = () => new Date()): Promise<OrderReturnSection[]> {
  const records = await prisma.returnRecord.findMany({ where: { shop, orderGid, state: { notIn: [RETURN_STATE.DECLINED, RETURN_STATE.CANCELLED] } }, orderBy: { id: "asc" }, take: 5 });
  if (records.length === 0) return [];
  const [settings, histories] = await Promise.all([getShopSettings(shop), listReturnHistories(shop, records.map((record) => record.returnGid))]);
  const pickups = await prisma.shipment.findMany({ where: { shop, orderGid: { in: records.map((record) => record.returnGid) }, status: { not: "failed" } } });
  const sections: OrderReturnSection[] = [];
  for (const record of records) {
    const ret = await getReturnForPickup(admin, record.returnGid);
    if (!ret || ret.status === "DECLINED" || ret.status === "CANCELED") continue;
    const { shipment: mapped } = toReverseCourierOrder(ret, { settings: toMappingSettings(settings), now: now() });
    const pickup = pickups.find((candidate) => candidate.orderGid === record.returnGid) ?? null;
    const section: OrderReturnSection = {
      returnGid: record.returnGid,
      returnName: ret.name,
      status: ret.status,
      state: record.state,
      history: histories.get(record.returnGid) ?? [],
      items: mapped?.items ?? [],
      reasons: mapped?.reasonWords.filter((word) => !/^[a-z0-9-]+$/.test(word)) ?? [],
      pickup: pickup
        ? { awb: pickup.awb, courierName: pickup.courierName, status: pickup.status, statusLabel: shipmentStatusLabel(pickup.status).label, trackingUrl: pickup.trackingUrl && isSafeTrackingUrl(pickup.trackingUrl) ? pickup.trackingUrl : null }
        : null,
      decisionReason: record.decisionReason,
      decisionWords: record.decisionWords,
      rates: [],
      note: null,
      awaitingApproval: !pickup && ret.status === "REQUESTED",
    };
    if (!pickup && ret.status === "OPEN") {
      const quote = await quoteReturnPickup({ shop, admin, now }, { returnGid: record.returnGid, returnRead: ret, settings });
      if (quote.kind === "quoted") section.rates = quote.rates;
      else section.note = outcomeForWords(quote);
    }
    sections.push(section);
  }
  return sections;
}
