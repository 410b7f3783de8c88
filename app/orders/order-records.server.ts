import { ruleFactsOf } from "~/booking/booking-facts";
import { createHash } from "node:crypto";
import { Prisma, type OrderRecord } from "@prisma/client";
import { englishOf, type StoredWords } from "~/locales/admin-language";
import prisma from "~/db.server";
import type { OrderFacts } from "~/automation/rules";
import type { CourierOrderFields, MappingProblem } from "~/shopify/order-mapping";
import { DECISION, READINESS, type QuoteSummary } from "./readiness";

/** One order's stored readiness: what an order check found, written in one upsert. */
export type ReadinessUpdate = Partial<Pick<OrderRecord, "orderName" | "placedAt" | "shopifyUpdatedAt" | "readiness" | "paymentMode" | "weightGrams" | "totalPaise" | "destination" | "shopperName" | "pincode" | "tags" | "zone" | "addressDigest" | "checkedAt">> & {
  problems?: MappingProblem[];
  quote?: QuoteSummary | null;
};

function toData(update: ReadinessUpdate): Prisma.OrderRecordUncheckedUpdateInput {
  const { problems, quote, ...rest } = update;
  return {
    ...rest,
    ...(problems ? { problems: problems as unknown as Prisma.InputJsonValue } : {}),
    ...(quote !== undefined ? { quote: (quote ?? null) as unknown as Prisma.InputJsonValue } : {}),
  };
}

export async function saveReadiness(shop: string, orderGid: string, update: ReadinessUpdate): Promise<OrderRecord> {
  const data = toData(update);
  return prisma.orderRecord.upsert({
    where: { shop_orderGid: { shop, orderGid } },
    create: { ...(data as Omit<Prisma.OrderRecordUncheckedCreateInput, "shop" | "orderGid">), shop, orderGid },
    update: data,
  });
}

export async function getOrderRecord(shop: string, orderGid: string): Promise<OrderRecord | null> {
  return prisma.orderRecord.findUnique({ where: { shop_orderGid: { shop, orderGid } } });
}

// Marks an order cancelled, once, in one statement: also an order Dakiya has not read yet (its orders/cancelled came first).
const CANCEL_ORDER_SQL = `
  INSERT INTO "OrderRecord" AS record ("shop", "orderGid", "cancelledAt", "readiness", "updatedAt")
  VALUES ($1, $2, $3::timestamp(3), '${READINESS.CANCELLED}', $4::timestamp(3))
  ON CONFLICT ("shop", "orderGid") DO UPDATE SET "cancelledAt" = EXCLUDED."cancelledAt", "readiness" = EXCLUDED."readiness", "updatedAt" = EXCLUDED."updatedAt"
  WHERE record."cancelledAt" IS NULL`;

interface Cancellation {
  shop: string;
  orderGid: string;
  at: Date;
}

// Times as UTC ISO strings, as Prisma writes them into TIMESTAMP(3) columns.
const cancellationParams = ({ shop, orderGid, at }: Cancellation) => [shop, orderGid, at.toISOString(), new Date().toISOString()];

/**
 * Records that the order was cancelled, as Shopify says — before anything else is done about it, so that from this
 * moment no booking of it starts (app/booking/book-order.server.ts checks this record when it claims an order).
 * Returns true when the cancellation is news.
 */
export async function recordCancellation(shop: string, orderGid: string, at: Date): Promise<boolean> {
  return (await prisma.$executeRawUnsafe(CANCEL_ORDER_SQL, ...cancellationParams({ shop, orderGid, at }))) === 1;
}

/** Records what the rules decided and why: its words (decisionWords) for the admin's language, and their English as the reason. */
export async function recordDecision(shop: string, orderGid: string, decision: { kind: string; words: StoredWords }, at: Date): Promise<void> {
  await prisma.orderRecord.update({
    where: { shop_orderGid: { shop, orderGid } },
    data: { decision: decision.kind, decisionReason: englishOf(decision.words), decisionWords: decision.words as unknown as Prisma.InputJsonValue, decidedAt: at },
  });
}

/**
 * The order is held for review from outside Dakiya's rules (a Shopify Flow workflow): the decision is recorded as
 * a rule's hold is, also on an order Dakiya has not checked yet, so auto-booking leaves it to the merchant.
 */
export async function recordHeldForReview(shop: string, orderGid: string, words: StoredWords, at: Date): Promise<void> {
  const decision = { decision: DECISION.HELD, decisionReason: englishOf(words), decisionWords: words as unknown as Prisma.InputJsonValue, decidedAt: at };
  await prisma.orderRecord.upsert({ where: { shop_orderGid: { shop, orderGid } }, create: { shop, orderGid, ...decision }, update: decision });
}

/** Takes back a decision of the given kind, if it is still the order's. */
export async function withdrawDecision(shop: string, orderGid: string, kind: string): Promise<void> {
  await prisma.orderRecord.updateMany({ where: { shop, orderGid, decision: kind }, data: { decision: null, decisionReason: null, decisionWords: Prisma.DbNull, decidedAt: null } });
}

/**
 * A digest of where and to whom a parcel goes, from the courier order's fields: compared between the booked body
 * and a fresh read, it tells an address edited after booking.
 */
export function addressDigestOf(fields: Partial<Pick<CourierOrderFields, "name" | "mobile" | "address_line_1" | "address_line_2" | "city" | "state" | "pincode">>): string {
  const parts = [fields.name, fields.mobile, fields.address_line_1, fields.address_line_2, fields.city, fields.state, fields.pincode];
  return createHash("sha256")
    .update(parts.map((part) => String(part ?? "").trim().toLowerCase().replace(/\s+/g, " ")).join("|"))
    .digest("hex")
    .slice(0, 32);
}

/** What the rules see of a stored order; null while it is not ready. */
export function factsOf(record: OrderRecord): OrderFacts | null {
  return record.readiness === READINESS.READY ? ruleFactsOf(record) : null;
}

export const problemsOf = (record: Pick<OrderRecord, "problems">): MappingProblem[] => (Array.isArray(record.problems) ? (record.problems as unknown as MappingProblem[]) : []);
export const quoteOf = (record: Pick<OrderRecord, "quote">): QuoteSummary | null => (record.quote as unknown as QuoteSummary | null) ?? null;

/** The most recent orders of a shop that a rule could apply to, for the rules' preview. */
export async function listRecentOrderRecords(shop: string, take = 50): Promise<OrderRecord[]> {
  return prisma.orderRecord.findMany({ where: { shop, readiness: { in: [READINESS.READY, READINESS.PROBLEMS, READINESS.SHIPMENT] } }, orderBy: { placedAt: "desc" }, take });
}

/**
 * Sets an unbooked order aside: one that will never ship through Dakiya leaves Orders to ship and Needs attention.
 * Returns null when there is no such order still to ship, or it is already set aside.
 */
export async function dismissOrder(shop: string, orderGid: string, at: Date): Promise<{ orderName: string } | null> {
  const { count } = await prisma.orderRecord.updateMany({
    where: { shop, orderGid, dismissedAt: null, readiness: { in: [READINESS.READY, READINESS.PROBLEMS] } },
    data: { dismissedAt: at },
  });
  if (count !== 1) return null;
  const record = await prisma.orderRecord.findUniqueOrThrow({ where: { shop_orderGid: { shop, orderGid } }, select: { orderName: true } });
  return { orderName: record.orderName || "The order" };
}

/** Takes a dismissal back (the toast's Undo): the order is listed again as it was. */
export async function restoreDismissedOrder(shop: string, orderGid: string): Promise<boolean> {
  const { count } = await prisma.orderRecord.updateMany({ where: { shop, orderGid, dismissedAt: { not: null } }, data: { dismissedAt: null } });
  return count === 1;
}

/** Of these orders, those placed before `before`, and how many of them were cancelled: a shopper's earlier orders. */
export async function countEarlierOrders(shop: string, orderGids: readonly string[], { before }: { before: Date }): Promise<{ orderGids: string[]; cancelled: number }> {
  if (orderGids.length === 0) return { orderGids: [], cancelled: 0 };
  const earlier = await prisma.orderRecord.findMany({ where: { shop, orderGid: { in: [...orderGids] }, placedAt: { lt: before } }, select: { orderGid: true, cancelledAt: true } });
  return { orderGids: earlier.map((record) => record.orderGid), cancelled: earlier.filter((record) => record.cancelledAt !== null).length };
}

/**
 * The shop's usual order of a payment mode placed since `since` (the median value, paise), when it has at least
 * `atLeast` of them; null otherwise.
 */
export async function usualOrderValue(shop: string, { paymentMode, since, atLeast }: { paymentMode: "cod" | "prepaid"; since: Date; atLeast: number }): Promise<number | null> {
  const [row] = await prisma.$queryRaw<{ median: number | null; orders: number }[]>`
    SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY "totalPaise") AS median, count(*)::int AS orders
      FROM "OrderRecord"
     WHERE shop = ${shop} AND "paymentMode" = ${paymentMode} AND "placedAt" >= ${since} AND "totalPaise" IS NOT NULL`;
  return row && row.orders >= atLeast && row.median !== null ? Number(row.median) : null;
}
