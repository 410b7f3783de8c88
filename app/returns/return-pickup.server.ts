import type { Shipment, ShopSettings } from "@prisma/client";
import prisma from "~/db.server";
import { enqueue } from "~/jobs/job-queue.server";
import { bookShipment, quoteMapped, type BookingContext, type BookOutcome, type Completion, type DeliveryDeps, type QuoteOutcome, type Shippable, type ShipmentDestination, type ToSend } from "~/booking/book-shipment.server";
import { shopifyReason } from "~/booking/stored-sentences";
import { returnLabelUrl } from "~/documents/documents.server";
import { recordRoutingText } from "~/documents/document-changes.server";
import { courierClientFor, courierCredentialsOf, getShopSettings, toMappingSettings } from "~/settings/shop-settings.server";
import type { LogisticId } from "~/shipping/contract";
import { markFulfillmentRetrying, markReturnDispatched, noteFulfillment, TransitionRefusedError } from "~/shipments/shipment-changes.server";
import { attachReverseDelivery, getReturnForPickup } from "~/shopify/admin-returns.server";
import type { MappedShipment } from "~/shopify/order-mapping";
import type { ShopifyReturn } from "~/shopify/return-queries";
import { shopperTrackingUrl } from "~/storefront/storefront-settings.server";
import { DECISION } from "~/automation/decisions";
import { markPickupBooked, withdrawReturnDecision } from "./return-changes.server";
import { isStoppedReturn } from "./return-lifecycle";
import { toReverseCourierOrder, type MappedReturn } from "./return-mapping";
import { returnSettingsOf } from "./return-settings";

/**
 * A return's pickup, as the booking engine (app/booking/book-shipment.server.ts) books it: one thing to ship, keyed by
 * the Return (one pickup per return, its parcel 1), its fields the reverse mapping's (return-mapping.ts), read from
 * Shopify under its claim. Once booked the return is told (pickup booked), the label keeps the courier's routing, and
 * Shopify gets a reverse delivery with the awb, Dakiya's tracking link and the return label for the shopper.
 */

export interface PickupRequest {
  returnGid: string;
  /** The return as just read from Shopify, to save reading it again. */
  returnRead?: ShopifyReturn | null;
  /** The shop's settings as just read, likewise. */
  settings?: ShopSettings;
}

/** What to send the courier for a return's pickup, or why it cannot be booked. */
async function readPickup({ shop, admin, now = () => new Date() }: BookingContext, { returnGid, returnRead, settings: known }: PickupRequest): Promise<ToSend | { outcome: Extract<QuoteOutcome, { kind: "not_found" | "problems" }> }> {
  const settings = known ?? (await getShopSettings(shop));
  const ret = returnRead === undefined ? await getReturnForPickup(admin, returnGid) : returnRead;
  if (!ret) return { outcome: { kind: "not_found" } };
  const { shipment, problems } = toReverseCourierOrder(ret, { settings: toMappingSettings(settings), now: now() });
  const mapped = shipment as MappedShipment | null;
  if (!mapped || problems.length > 0) return { outcome: { kind: "problems", shipment: mapped, problems } };
  return { mapped, settings, client: courierClientFor(courierCredentialsOf(settings)) };
}

/** The reverse rates for a return's pickup, as it would be booked now. */
export async function quoteReturnPickup(context: BookingContext, request: PickupRequest): Promise<QuoteOutcome> {
  const read = await readPickup(context, request);
  if ("outcome" in read) return read.outcome;
  return quoteMapped(read.client, read.mapped);
}

/**
 * Books a return's pickup exactly once, with the courier named; the return read again under the claim (unless it was
 * read a moment ago, `returnRead`).
 */
export async function bookReturnPickup(context: BookingContext, request: PickupRequest & { courierId: LogisticId; quoted?: Extract<QuoteOutcome, { kind: "quoted" }> }): Promise<BookOutcome> {
  const pickup: Shippable = {
    key: { shop: context.shop, orderGid: request.returnGid, direction: "return" },
    destination: RETURN_PICKUPS,
    read: () => readPickup(context, request),
    fallsBackToRecommended: false,
    said: (outcome) => outcome,
    recorded: (mapped) => ({ direction: "return", returnOfOrderGid: (mapped as MappedReturn).orderGid }),
  };
  return bookShipment(context, pickup, request);
}

/** Where a return's pickup goes once booked, and who is told. */
export const RETURN_PICKUPS: ShipmentDestination = {
  async isCancelled({ shop, orderGid: returnGid }, db = prisma) {
    return isStoppedReturn((await db.returnRecord.findUnique({ where: { shop_returnGid: { shop, returnGid } }, select: { state: true } }))?.state ?? "");
  },
  // The return moves when the courier has its pickup, not before.
  claimed: async () => undefined,
  async notBooked(shipment, { interrupted }) {
    if (!interrupted) return;
    // An automatic booking interrupted before it reached the courier: the rules decide the return again.
    await prisma.$transaction(async (tx) => {
      if (await withdrawReturnDecision({ shop: shipment.shop, returnGid: shipment.orderGid }, DECISION.BOOKED, tx)) await enqueue("return-check", { shop: shipment.shop, returnGid: shipment.orderGid }, { tx });
    });
  },
  trackingUrl: (shipment, { awb, courierUrl }) => shopperTrackingUrl(shipment.shop, awb, courierUrl),
  async booked(shipment, { awb, courierName, routingText }, change) {
    await recordRoutingText(shipment.shop, shipment.id, routingText);
    await markPickupBooked({ shop: shipment.shop, returnGid: shipment.orderGid }, { courierName, awb }, change);
  },
  deliver: attachPickup,
};

/**
 * A booked return pickup reaches the shopper as a reverse delivery on the return, with the awb, Dakiya's tracking
 * link and the return label: the counterpart of a forward shipment's fulfillment, through the same statuses.
 */
async function attachPickup(shipment: Shipment, { admin, settings, change }: DeliveryDeps): Promise<Completion> {
  try {
    const outcome = await attachReverseDelivery(admin, {
      returnGid: shipment.orderGid,
      awb: shipment.awb!,
      trackingUrl: shipment.trackingUrl!,
      labelUrl: returnLabelUrl(shipment),
      notifyCustomer: returnSettingsOf(settings).notifyCustomer,
    });
    if (outcome.kind === "refused") {
      return { shipment: await markFulfillmentRetrying(shipment, { key: "activity.stored.reverseDeliveryRefused", values: { awb: shipment.awb!, reason: outcome.message } }, change()), retry: false };
    }
    await noteFulfillment(shipment, outcome.reverseDeliveryGid);
    return { shipment: await markReturnDispatched(shipment, outcome.reverseDeliveryGid, change()), retry: false };
  } catch (error) {
    if (error instanceof TransitionRefusedError) throw error;
    const waiting = await markFulfillmentRetrying(shipment, { key: "activity.stored.reverseDeliveryWaiting", values: { awb: shipment.awb!, reason: shopifyReason(error) } }, change());
    return { shipment: waiting, retry: true };
  }
}
