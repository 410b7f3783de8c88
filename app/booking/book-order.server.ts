import { Prisma, type Shipment, type ShopSettings } from "@prisma/client";
import type { AdminApiContext } from "@shopify/shopify-app-remix/server";
import prisma from "~/db.server";
import {
  courierClientFor,
  courierCredentialsOf,
  getShopSettings,
  sandboxOrderIdPrefix,
  toMappingSettings,
  usesSandbox,
} from "~/settings/shop-settings.server";
import { CourierError, type CourierClient } from "~/shipping/client.server";
import type { CreateOrderInput, Warehouse } from "~/shipping/contract";
import { toPaise } from "~/money";
import { rankRates, type RankedRate } from "~/shipping/rate-ranking";
import { getOrderForBooking } from "~/shopify/admin-orders.server";
import { fulfilWithTracking, markOrderBooked } from "~/shopify/fulfillments.server";
import { toCourierOrder, type MappedShipment, type MappingProblem, type ShipmentOverrides } from "~/shopify/order-mapping";

export const SHIPMENT_STATUS = {
  BOOKING: "booking",
  BOOKED_UNFULFILLED: "booked_unfulfilled",
  FULFILLED: "fulfilled",
  FAILED: "failed",
} as const;

const LEASE_MS = 60_000;
/** A booking left in `booking` this long was interrupted (crash, timeout) and is resumed by the retry job. */
export const STALE_BOOKING_MS = 2 * 60_000;

export type QuoteOutcome =
  | { kind: "not_found" }
  | { kind: "problems"; shipment: MappedShipment | null; problems: MappingProblem[] }
  | { kind: "quoted"; shipment: MappedShipment; warehouse: Warehouse; rates: RankedRate[] }
  | { kind: "unavailable"; shipment: MappedShipment; message: string };

export type BookOutcome =
  | QuoteOutcome
  | { kind: "already_booked"; shipment: Shipment }
  | { kind: "refused"; message: string; fieldErrors: { field: string; message: string }[] }
  | { kind: "booked"; shipment: Shipment };

function problem(code: MappingProblem["code"], message: string, fix: string): MappingProblem {
  return { code, message, fix };
}

interface Context {
  shop: string;
  admin: AdminApiContext;
  now?: () => Date;
}

async function prepare({ shop, admin, now = () => new Date() }: Context, orderGid: string, overrides: ShipmentOverrides) {
  const settings = await getShopSettings(shop);
  const order = await getOrderForBooking(admin, orderGid);
  if (!order) return { settings, outcome: { kind: "not_found" } as const };
  const { shipment, problems } = toCourierOrder(order, toMappingSettings(settings), now(), overrides);
  if (shipment && shipment.fields.warehouse_id === undefined) {
    problems.push(problem("NO_WAREHOUSE", "No pickup warehouse is set for this order's location.", "Choose a pickup warehouse in Dakiya's Settings."));
  }
  if (!shipment || problems.length > 0) return { settings, outcome: { kind: "problems", shipment, problems } as const };
  return { settings, shipment, client: courierClientFor(courierCredentialsOf(settings)) };
}

/** The rates every courier offers for an order as it would be booked now. */
export async function quoteOrder(context: Context, orderGid: string, overrides: ShipmentOverrides = {}): Promise<QuoteOutcome> {
  const prepared = await prepare(context, orderGid, overrides);
  if (!prepared.shipment) return prepared.outcome;
  return quoteMapped(prepared.client, prepared.shipment);
}

async function quoteMapped(client: CourierClient, shipment: MappedShipment): Promise<QuoteOutcome> {
  try {
    const warehouse = await client.getWarehouse(shipment.fields.warehouse_id!);
    const rates = await client.calculateRate({
      shipment_type: "forward",
      payment_mode: shipment.fields.payment_mode,
      pickup: warehouse.pincode,
      delivery: shipment.fields.pincode,
      length: shipment.fields.package_length,
      breadth: shipment.fields.package_breadth,
      height: shipment.fields.package_height,
      actual_weight: shipment.fields.package_weight,
      amount: shipment.fields.total_amount,
    });
    return { kind: "quoted", shipment, warehouse, rates: rankRates(rates.logistics) };
  } catch (error) {
    if (!(error instanceof CourierError)) throw error;
    if (error.kind === "not_found") {
      return { kind: "problems", shipment, problems: [problem("NO_WAREHOUSE", `Warehouse ${shipment.fields.warehouse_id} does not exist in your courier account.`, "Choose another pickup warehouse in Settings.")] };
    }
    return { kind: "unavailable", shipment, message: courierMessage(error) };
  }
}

export function courierMessage(error: CourierError): string {
  if (error.kind === "unauthorized") return "The courier service refused your API keys. Check them in Settings.";
  if (error.kind === "unavailable") return "The courier service did not answer. Try again in a minute.";
  if (error.fieldErrors.length > 0) return error.fieldErrors.map((fieldError) => fieldError.message).join("; ");
  return error.message;
}

function serviceOrderId(settings: ShopSettings, shop: string, orderId: string): string {
  return usesSandbox(settings) ? `${sandboxOrderIdPrefix(shop)}${orderId}` : orderId;
}

const isUniqueViolation = (error: unknown) => error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";

/**
 * Books one order with one courier, exactly once. The Shipment row is claimed in state `booking`
 * under the unique (shop, orderGid) before Shopify or the courier is called, so double clicks,
 * concurrent requests and a webhook racing the UI all meet the same row and only one goes on. The
 * body sent is stored with the row before it is sent, so any retry resends it verbatim and the
 * service replays the same awb.
 */
export async function bookOrder(context: Context, orderGid: string, courierId: number, overrides: ShipmentOverrides = {}): Promise<BookOutcome> {
  const { shop } = context;
  const now = context.now ?? (() => new Date());
  const claim = await claimShipment(shop, orderGid);
  if (claim.kind === "taken") return { kind: "already_booked", shipment: claim.shipment };
  const release = (outcome: BookOutcome): Promise<BookOutcome> => releaseClaim(claim.shipment, claim.isNew).then(() => outcome);

  let prepared;
  try {
    prepared = await prepare(context, orderGid, overrides);
  } catch (error) {
    await releaseClaim(claim.shipment, claim.isNew);
    throw error;
  }
  if (!prepared.shipment) return release(prepared.outcome);
  const { settings, shipment: mapped, client } = prepared;
  const quote = await quoteMapped(client, mapped);
  if (quote.kind !== "quoted") return release(quote);
  const rate = quote.rates.find((candidate) => candidate.id === courierId);
  if (!rate) return release({ kind: "refused", message: "That courier does not serve this route; choose another.", fieldErrors: [] });

  const payload: CreateOrderInput = { ...mapped.fields, order_id: serviceOrderId(settings, shop, mapped.fields.order_id), logistic_id: courierId as 1 };
  const ready = await prisma.shipment.update({
    where: { id: claim.shipment.id },
    data: {
      requestPayload: JSON.stringify(payload),
      courierEnvironment: client.environment,
      orderName: `#${mapped.fields.order_id}`,
      courierId,
      courierName: rate.name,
      freightPaise: toPaise(rate.freight_charges),
      codPaise: toPaise(rate.cod_charges),
      totalChargesPaise: toPaise(rate.total_charges),
      zone: rate.zone,
      edd: rate.edd,
      paymentMode: mapped.fields.payment_mode,
      warehouseId: mapped.fields.warehouse_id ?? null,
      locationGid: mapped.locationGid,
    },
  });

  const sent = await sendBooking(ready, client, now);
  if (sent.status === SHIPMENT_STATUS.FAILED) return { kind: "refused", message: sent.lastError ?? "The courier refused the booking.", fieldErrors: [] };
  if (sent.status !== SHIPMENT_STATUS.BOOKED_UNFULFILLED) return { kind: "booked", shipment: sent };
  return { kind: "booked", shipment: await completeFulfilment(sent, context.admin, settings.notifyCustomer, now) };
}

type Claim = { kind: "claimed"; shipment: Shipment; isNew: boolean } | { kind: "taken"; shipment: Shipment };

/** The order's Shipment row in state `booking`, or the row someone else holds. A failed booking may be claimed again. */
async function claimShipment(shop: string, orderGid: string): Promise<Claim> {
  const fresh = { status: SHIPMENT_STATUS.BOOKING, requestPayload: "", lastError: null, attempts: 1, nextAttemptAt: null };
  const existing = await prisma.shipment.findUnique({ where: { shop_orderGid: { shop, orderGid } } });
  if (existing) {
    const { count } = await prisma.shipment.updateMany({ where: { id: existing.id, status: SHIPMENT_STATUS.FAILED }, data: fresh });
    const current = await prisma.shipment.findUniqueOrThrow({ where: { id: existing.id } });
    return count === 1 ? { kind: "claimed", shipment: current, isNew: false } : { kind: "taken", shipment: current };
  }
  try {
    const created = await prisma.shipment.create({
      data: { shop, orderGid, orderName: "", courierEnvironment: "", paymentMode: "", ...fresh },
    });
    return { kind: "claimed", shipment: created, isNew: true };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return { kind: "taken", shipment: await prisma.shipment.findUniqueOrThrow({ where: { shop_orderGid: { shop, orderGid } } }) };
  }
}

/** Nothing was sent to the courier: the order is free to be booked again. */
async function releaseClaim(shipment: Shipment, isNew: boolean): Promise<void> {
  if (isNew) await prisma.shipment.delete({ where: { id: shipment.id } });
  else await prisma.shipment.update({ where: { id: shipment.id }, data: { status: SHIPMENT_STATUS.FAILED } });
}

const backoff = (attempts: number, now: Date) => new Date(now.getTime() + Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1)));

/** Sends the stored body; a courier that cannot be reached leaves the row in `booking` for the retry job. */
export async function sendBooking(shipment: Shipment, client: CourierClient, now: () => Date): Promise<Shipment> {
  try {
    const created = await client.createOrder(JSON.parse(shipment.requestPayload) as CreateOrderInput);
    return prisma.shipment.update({
      where: { id: shipment.id },
      data: { status: SHIPMENT_STATUS.BOOKED_UNFULFILLED, awb: created.awb, courierName: created.logistic, trackingUrl: created.tracking_url, lastError: null, nextAttemptAt: null },
    });
  } catch (error) {
    if (!(error instanceof CourierError)) throw error;
    if (error.retryable) {
      return prisma.shipment.update({
        where: { id: shipment.id },
        data: { lastError: `${courierMessage(error)} Dakiya will retry the booking automatically.`, nextAttemptAt: backoff(shipment.attempts, now()) },
      });
    }
    return prisma.shipment.update({ where: { id: shipment.id }, data: { status: SHIPMENT_STATUS.FAILED, lastError: courierMessage(error) } });
  }
}

/**
 * Fulfils the Shopify order of a booked shipment, under a lease so two workers cannot both call
 * fulfillmentCreate. Shopify failing (throttled, down) leaves the shipment `booked_unfulfilled`
 * with its awb and a time for the next attempt; the awb is never lost.
 */
export async function completeFulfilment(shipment: Shipment, admin: AdminApiContext, notifyCustomer: boolean, now: () => Date): Promise<Shipment> {
  const leaseStart = now();
  const { count } = await prisma.shipment.updateMany({
    where: { id: shipment.id, status: SHIPMENT_STATUS.BOOKED_UNFULFILLED, OR: [{ leaseUntil: null }, { leaseUntil: { lt: leaseStart } }] },
    data: { leaseUntil: new Date(leaseStart.getTime() + LEASE_MS) },
  });
  if (count === 0) return prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });

  const tracked = {
    orderGid: shipment.orderGid,
    awb: shipment.awb!,
    courierName: shipment.courierName!,
    trackingUrl: shipment.trackingUrl!,
    locationGid: shipment.locationGid,
    notifyCustomer,
  };
  try {
    const outcome = await fulfilWithTracking(admin, tracked);
    if (outcome.kind === "refused") {
      return prisma.shipment.update({
        where: { id: shipment.id },
        data: { lastError: `Booked, but Shopify refused the fulfillment: ${outcome.message}`, leaseUntil: null, attempts: { increment: 1 }, nextAttemptAt: backoff(shipment.attempts + 4, now()) },
      });
    }
    await prisma.shipment.update({ where: { id: shipment.id }, data: { fulfillmentGid: outcome.fulfillmentGid } });
    await markOrderBooked(admin, tracked);
    return prisma.shipment.update({
      where: { id: shipment.id },
      data: { status: SHIPMENT_STATUS.FULFILLED, lastError: null, leaseUntil: null, nextAttemptAt: null },
    });
  } catch (error) {
    return prisma.shipment.update({
      where: { id: shipment.id },
      data: {
        lastError: `Booked with awb ${shipment.awb}, but Shopify did not take the fulfillment yet (${error instanceof Error ? error.message.slice(0, 200) : "unknown error"}). Dakiya will retry automatically.`,
        leaseUntil: null,
        attempts: { increment: 1 },
        nextAttemptAt: backoff(shipment.attempts, now()),
      },
    });
  }
}
