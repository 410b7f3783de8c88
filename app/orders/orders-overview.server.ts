import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import type { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { fromPaise } from "~/money";
import { problemsOf } from "~/orders/order-records.server";
import { ORDER_STAGE_ORDER, ORDER_STAGES, orderStageOf, type OrderStage } from "~/orders/order-stage";
import { READINESS } from "~/orders/readiness";
import type { MappedShipment, MappingProblem } from "~/shopify/order-mapping";
import type { OutcomeCode } from "~/booking/book-outcome";
import type { RankedRate } from "~/shipping/rate-ranking";
import { quoteOrder, type QuoteOutcome } from "~/orders/book-order.server";
import { legacyIdOf } from "~/booking/overrides";
import { shipmentForScreen, type ShipmentOnScreen } from "~/shipments/shipment-view";
import { listOrderRisks } from "~/cod/cod-risk.server";
import type { RiskLevel } from "~/automation/risk-levels";
import type { RiskFactor } from "~/cod/risk-score";

export interface OrderRow {
  id: string;
  legacyId: string;
  name: string;
  createdAt: string;
  /** City and PIN code; empty when the order has no shipping address. */
  destination: string;
  /** The shipping address's name, as Shopify gives it; empty when the order has none. */
  shopperName: string;
  paymentMode: string | null;
  weightKg: number | null;
  total: number | null;
  problems: MappingProblem[];
  shipmentStatus: string | null;
  awb: string | null;
  /** The automatic decision on the order, with its reason, when auto-booking is on. */
  decision: string | null;
  decisionReason: string | null;
  /** The reason's words (StoredWords), for the page to say it in the admin's language; null for a reason kept before them. */
  decisionWords: unknown;
  /** Ready, held, waiting for the shopper or needing a fix; null once booked. */
  stage: OrderStage | null;
  /** A cash-on-delivery order's RTO risk as scored, with its reasons (weightiest first); null when none was scored. */
  risk: { level: RiskLevel; score: number; factors: RiskFactor[] } | null;
}

const PAGE_SIZE = 20;
/** Orders listed to ship: placed within this long (the courier takes orders up to 7 days old; older ones say so). */
const LISTED_FOR_MS = 30 * 86_400_000;

/** The orders of a shop still to ship, as Dakiya last checked them. */
function toShipWhere(shop: string, now: Date): Prisma.OrderRecordWhereInput {
  return { shop, readiness: { in: [READINESS.READY, READINESS.PROBLEMS, READINESS.SHIPMENT] }, placedAt: { gte: new Date(now.getTime() - LISTED_FOR_MS) }, dismissedAt: null };
}

/** The orders in one stage (app/orders/order-stage.ts), read off the same table that names it. */
export function orderStageWhere(stage: OrderStage): Prisma.OrderRecordWhereInput {
  const definition = ORDER_STAGES[stage];
  const decisions = definition.decisions.filter((decision): decision is string => decision !== null);
  const takesNull = definition.decisions.includes(null) !== definition.decisionsExcluded;
  // SQL's NOT IN is unknown for a null decision: "no decision yet" is said on its own.
  const decided: Prisma.OrderRecordWhereInput = { OR: [definition.decisionsExcluded ? { decision: { notIn: decisions } } : { decision: { in: decisions } }, ...(takesNull ? [{ decision: null }] : [])] };
  return { readiness: { in: [...definition.readiness] }, ...decided };
}

export const MAX_ORDER_SEARCH_LENGTH = 100;

/** An order number, with or without its #. */
function orderSearchWhere(search: string): Prisma.OrderRecordWhereInput {
  const name = search.startsWith("#") ? search : `#${search}`;
  return { OR: [{ orderName: { equals: search, mode: "insensitive" } }, { orderName: { equals: name, mode: "insensitive" } }] };
}

/** How many orders still to ship are in each stage: Home's counts and the tabs' numbers. */
export async function countOrderStages(shop: string, now = new Date()): Promise<Record<OrderStage, number>> {
  const counts = await Promise.all(ORDER_STAGE_ORDER.map((stage) => prisma.orderRecord.count({ where: { AND: [toShipWhere(shop, now), orderStageWhere(stage)] } })));
  return Object.fromEntries(ORDER_STAGE_ORDER.map((stage, index) => [stage, counts[index]!])) as Record<OrderStage, number>;
}

const cursorOf = (record: { placedAt: Date | null; id: number }) => Buffer.from(JSON.stringify([record.placedAt?.toISOString() ?? null, record.id])).toString("base64url");

function afterCursor(after: string | null): Prisma.OrderRecordWhereInput {
  if (!after) return {};
  try {
    const [placedAt, id] = JSON.parse(Buffer.from(after, "base64url").toString()) as [string, number];
    const at = new Date(placedAt);
    if (Number.isNaN(at.getTime()) || !Number.isInteger(id)) return {};
    return { OR: [{ placedAt: { lt: at } }, { placedAt: at, id: { lt: id } }] };
  } catch {
    return {};
  }
}

/**
 * One page of orders still to ship, newest first, each ready or with what stops it, from the readiness Dakiya
 * stored when it checked each order (no Shopify call). Booked orders stay listed until their fulfillment is done.
 */
export async function listOrdersOverview(shop: string, { after, stage = null, search = null, now = new Date() }: { after: string | null; stage?: OrderStage | null; search?: string | null; now?: Date }) {
  const records = await prisma.orderRecord.findMany({
    where: { AND: [toShipWhere(shop, now), afterCursor(after), stage ? orderStageWhere(stage) : {}, search ? orderSearchWhere(search) : {}] },
    orderBy: [{ placedAt: "desc" }, { id: "desc" }],
    take: PAGE_SIZE + 1,
  });
  const page = records.slice(0, PAGE_SIZE);
  const orderGids = page.map((record) => record.orderGid);
  const [shipments, risks] = await Promise.all([prisma.shipment.findMany({ where: { shop, orderGid: { in: orderGids } } }), listOrderRisks(shop, orderGids)]);
  const rows: OrderRow[] = page
    .map((record) => ({ record, booked: shipments.find((candidate) => candidate.orderGid === record.orderGid) ?? null }))
    .map(({ record, booked }) => {
      const problems = problemsOf(record);
      return {
        id: record.orderGid,
        legacyId: legacyIdOf(record.orderGid),
        name: record.orderName,
        createdAt: (record.placedAt ?? record.createdAt).toISOString(),
        destination: record.destination,
        shopperName: record.shopperName,
        paymentMode: problems.some((problem) => problem.code === "PAYMENT_MODE_UNKNOWN") ? null : record.paymentMode,
        weightKg: record.weightGrams === null ? null : record.weightGrams / 1000,
        total: record.totalPaise === null ? null : fromPaise(record.totalPaise),
        problems,
        shipmentStatus: booked?.status ?? null,
        awb: booked?.awb ?? null,
        decision: record.decision,
        decisionReason: record.decisionReason,
        decisionWords: record.decisionWords,
        stage: booked ? null : orderStageOf(record),
        risk: ((risk) => (risk ? { level: risk.level, score: risk.score, factors: risk.factors } : null))(risks.get(record.orderGid)),
      };
    });
  return { rows, nextCursor: records.length > PAGE_SIZE ? cursorOf(page[page.length - 1]!) : null };
}

export const MAX_BULK_ORDERS = 10;

/** What the Compare page shows of an order: its name and where it goes, never the courier's body (the shopper's name, phone and address). */
export interface ComparedOrder {
  name: string;
  destination: string;
}

/** A quote as the Compare page shows it: an order booked already by its parcels as the screens show bookings, never the stored rows. */
export type ComparedOutcome =
  | { kind: "not_found" }
  | { kind: "problems"; order: ComparedOrder | null; problems: MappingProblem[] }
  | { kind: "quoted"; order: ComparedOrder; parcels: number; rates: RankedRate[] }
  | { kind: "unavailable"; order: ComparedOrder; message: string; code?: OutcomeCode }
  | { kind: "already_booked"; parcels: ShipmentOnScreen[] };

const comparedOrderOf = (shipment: MappedShipment): ComparedOrder => ({ name: `#${shipment.fields.order_id}`, destination: shipment.destination });

function forComparePage(outcome: QuoteOutcome): ComparedOutcome {
  switch (outcome.kind) {
    case "not_found":
      return outcome;
    case "problems":
      return { kind: "problems", order: outcome.shipment && comparedOrderOf(outcome.shipment), problems: outcome.problems };
    case "quoted":
      return { kind: "quoted", order: comparedOrderOf(outcome.shipment), parcels: outcome.parcels.length, rates: outcome.rates };
    case "unavailable":
      return { kind: "unavailable", order: comparedOrderOf(outcome.shipment), message: outcome.message, ...(outcome.code ? { code: outcome.code } : {}) };
    case "already_booked":
      return { kind: "already_booked", parcels: outcome.shipments.map(shipmentForScreen) };
  }
}

export async function compareOrders(shop: string, admin: ShopAdmin, orderGids: string[]): Promise<{ orderGid: string; outcome: ComparedOutcome }[]> {
  const results = [];
  for (const orderGid of orderGids.slice(0, MAX_BULK_ORDERS)) results.push({ orderGid, outcome: forComparePage(await quoteOrder({ shop, admin }, { orderGid })) });
  return results;
}
