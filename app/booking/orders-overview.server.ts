import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import prisma from "~/db.server";
import { getShopSettings, toMappingSettings } from "~/settings/shop-settings.server";
import { isLogisticId } from "~/shipping/contract";
import { ShopifyUnavailableError } from "~/shopify/admin-graphql.server";
import { listOrdersToShip } from "~/shopify/admin-orders.server";
import { toCourierOrder, type MappingProblem } from "~/shopify/order-mapping";
import { bookOrder, quoteOrder, type BookOutcome, type QuoteOutcome } from "./book-order.server";
import { legacyIdOf } from "./overrides";

export interface OrderRow {
  id: string;
  legacyId: string;
  name: string;
  createdAt: string;
  destination: string;
  paymentMode: string | null;
  weightKg: number | null;
  total: number;
  problems: MappingProblem[];
  shipmentStatus: string | null;
  awb: string | null;
}

/** One page of orders still to ship, each with what stops it from shipping, if anything. */
export async function listOrdersOverview(shop: string, admin: ShopAdmin, { after, now = new Date() }: { after: string | null; now?: Date }) {
  const [settings, page] = await Promise.all([getShopSettings(shop), listOrdersToShip(admin, after)]);
  const mapping = toMappingSettings(settings);
  const shipments = await prisma.shipment.findMany({ where: { shop, orderGid: { in: page.orders.map((order) => order.id) } } });
  const rows: OrderRow[] = page.orders.map((order) => {
    const { shipment, problems } = toCourierOrder(order, { settings: mapping, now });
    const booked = shipments.find((candidate) => candidate.orderGid === order.id);
    return {
      id: order.id,
      legacyId: order.legacyResourceId ?? legacyIdOf(order.id),
      name: order.name,
      createdAt: order.createdAt,
      destination: shipment?.destination || [order.shippingAddress?.city, order.shippingAddress?.countryCodeV2].filter(Boolean).join(", ") || "No address",
      paymentMode: problems.some((problem) => problem.code === "PAYMENT_MODE_UNKNOWN") ? null : (shipment?.fields.payment_mode ?? null),
      weightKg: shipment?.fields.package_weight ?? null,
      total: Number(order.currentTotalPriceSet.shopMoney.amount),
      problems,
      shipmentStatus: booked?.status ?? null,
      awb: booked?.awb ?? null,
    };
  });
  return { rows, nextCursor: page.nextCursor };
}

export const MAX_BULK_ORDERS = 10;

export async function compareOrders(shop: string, admin: ShopAdmin, orderGids: string[]): Promise<{ orderGid: string; outcome: QuoteOutcome }[]> {
  const results = [];
  for (const orderGid of orderGids.slice(0, MAX_BULK_ORDERS)) results.push({ orderGid, outcome: await quoteOrder({ shop, admin }, orderGid) });
  return results;
}

/** Books each order with its recommended courier, one after another. */
export type BulkBookOutcome = BookOutcome | QuoteOutcome | { kind: "shopify_busy"; message: string };

/**
 * Books each order with its recommended courier, one after another. When Shopify stays busy, the orders not
 * yet tried are reported as such rather than failing the whole batch: the bookings made stand.
 */
export async function bookRecommended(shop: string, admin: ShopAdmin, orderGids: string[]): Promise<{ orderGid: string; outcome: BulkBookOutcome }[]> {
  const results: { orderGid: string; outcome: BulkBookOutcome }[] = [];
  let busy: ShopifyUnavailableError | null = null;
  for (const orderGid of orderGids.slice(0, MAX_BULK_ORDERS)) {
    if (busy) {
      results.push({ orderGid, outcome: { kind: "shopify_busy", message: "not tried: Shopify is busy, try again in a minute" } });
      continue;
    }
    try {
      const quote = await quoteOrder({ shop, admin }, orderGid);
      const recommended = quote.kind === "quoted" ? quote.rates.find((rate) => rate.isRecommended) : undefined;
      results.push({ orderGid, outcome: recommended && isLogisticId(recommended.id) ? await bookOrder({ shop, admin }, { orderGid, courierId: recommended.id }) : quote });
    } catch (error) {
      if (!(error instanceof ShopifyUnavailableError)) throw error;
      busy = error;
      results.push({ orderGid, outcome: { kind: "shopify_busy", message: "not booked: Shopify is busy, try again in a minute" } });
    }
  }
  return results;
}
