import type { ShopSettings } from "@prisma/client";
import prisma from "~/db.server";
import { ORDER_STAGE_ORDER, type OrderStage } from "~/orders/order-stage";
import type { DeliveryStage } from "~/shipments/delivery-stage";
import { dayIn, startOfDay } from "~/shop-time";
import { countOrderStages } from "~/orders/orders-overview.server";
import { countShipmentStages } from "~/shipments/shipments.server";
import { defaultWarehouseIdOf, usesSandbox } from "~/settings/shop-settings.server";
import { trackingLagOf } from "~/tracking/tracking-lag.server";

/** The shipment stages Home counts, in the order a merchant reads them; the rest are on the Shipments tabs. */
const HOME_SHIPMENT_STAGES: readonly DeliveryStage[] = ["awaiting_pickup", "in_transit", "out_for_delivery", "delivery_problem", "returning"];
const DELIVERED_DAYS = 7;

/** A count, named on the page by its key: a stage, or the shipments delivered in the last days. */
export interface HomeCount<Key extends string> {
  key: Key;
  count: number;
  /** The list this count counts. */
  url: string;
}

/**
 * What Home says: how many orders wait in each stage, where the shipments are, how far behind their tracking reads
 * are, the COD money out with couriers and collected in the last 7 days (days in the shop's time zone), each with the link to the list it counts; and, for
 * a new shop, the steps left to set up. Keys, not words: the page names each in the admin's language.
 */
export async function homeOverview(shop: string, settings: ShopSettings, { timeZone, now = new Date() }: { timeZone: string; now?: Date }) {
  const firstDay = dayIn(new Date(now.getTime() - (DELIVERED_DAYS - 1) * 86_400_000), timeZone);
  const since = startOfDay(firstDay, timeZone)!;
  const [orders, shipments, anyShipment, trackingLag] = await Promise.all([
    countOrderStages(shop, now),
    countShipmentStages(shop, since),
    prisma.shipment.findFirst({ where: { shop }, select: { id: true } }),
    trackingLagOf(shop, now),
  ]);
  const deliveredUrl = `/app/shipments?stage=delivered&deliveredFrom=${firstDay}`;
  const counts = {
    orders: ORDER_STAGE_ORDER.map((stage): HomeCount<OrderStage> => ({ key: stage, count: orders[stage], url: `/app/orders?stage=${stage}` })),
    shipments: [
      ...HOME_SHIPMENT_STAGES.map((stage): HomeCount<DeliveryStage | "delivered"> => ({ key: stage, count: shipments.byStage[stage], url: `/app/shipments?stage=${stage}` })),
      { key: "delivered" as const, count: shipments.deliveredSince, url: deliveredUrl },
    ],
    deliveredDays: DELIVERED_DAYS,
    cod: { outPaise: shipments.codOutPaise, outUrl: "/app/shipments?payment=cod_out", deliveredPaise: shipments.codDeliveredPaise, deliveredUrl: `${deliveredUrl}&payment=cod` },
    // How far behind the courier's tracking reads are: the parcels due for a read, and the oldest's wait.
    trackingLag,
  };
  const setup = [
    { key: "courier" as const, done: !usesSandbox(settings), url: "/app/settings" },
    { key: "warehouse" as const, done: defaultWarehouseIdOf(settings) !== null, url: "/app/settings" },
    { key: "rules" as const, done: settings.autoBooking || settings.bookingRules !== "[]", url: "/app/auto-booking" },
    { key: "first" as const, done: anyShipment !== null, url: "/app/orders" },
  ];
  return { counts, setup };
}
