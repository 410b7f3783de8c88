import { ruleFactsOf } from "~/automation/booking-facts";
import { enqueue } from "~/jobs/job-queue.server";
import { createHash } from "node:crypto";
import { Prisma, type OrderRecord } from "@prisma/client";
import { englishOf, type StoredWords } from "~/locales/admin-language";
import prisma from "~/db.server";
import type { OrderFacts } from "~/automation/rules";
import type { CourierOrderFields, MappingProblem } from "~/shopify/order-mapping";
import { DECISION, READINESS } from "./readiness";
import type { QuoteSummary } from "~/booking/quote-summary";

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
 * moment no booking of it starts (app/orders/book-order.server.ts checks this record when it claims an order).
 * Returns true when the cancellation is news.
 */
export async function recordCancellation(shop: string, orderGid: string, at: Date, db: Pick<Prisma.TransactionClient, "$executeRawUnsafe"> = prisma): Promise<boolean> {
  return (await db.$executeRawUnsafe(CANCEL_ORDER_SQL, ...cancellationParams({ shop, orderGid, at }))) === 1;
}

/** Records what the rules decided and why: its words (decisionWords) for the admin's language, and their English as the reason. */
export async function recordDecision(shop: string, orderGid: string, decision: { kind: string; words: StoredWords }, at: Date): Promise<void> {
  await prisma.orderRecord.update({
    where: { shop_orderGid: { shop, orderGid } },
    data: { decision: decision.kind, decisionReason: englishOf(decision.words), decisionWords: decision.words as unknown as Prisma.InputJsonValue, decidedAt: at },
  });
}

/**
 * The order waits for its shopper's answer (the rules, the merchant or a Flow workflow asked): recorded only while
 * Dakiya's confirmation still holds the order. Asking may have ended at once — Shopify refused the hold, or the order
 * is gone — and handed the order back to the rules; a decision written after that would stand for good, and
 * auto-booking would wait on a shopper nobody asked.
 */
export async function recordWaitingForShopper(shop: string, orderGid: string, words: StoredWords, at: Date): Promise<boolean> {
  const written = await prisma.$executeRaw`
    UPDATE "OrderRecord" SET decision = ${DECISION.CONFIRMING}, "decisionReason" = ${englishOf(words)}, "decisionWords" = ${JSON.stringify(words)}::jsonb, "decidedAt" = ${at}
     WHERE shop = ${shop} AND "orderGid" = ${orderGid}
       AND EXISTS (SELECT 1 FROM "CodConfirmation" confirmation WHERE confirmation.shop = ${shop} AND confirmation."orderGid" = ${orderGid} AND confirmation."releasedAt" IS NULL)`;
  return written === 1;
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

// ─── An order's readiness, as its parcels' bookings move (told by the booking engine through ORDER_PARCELS) ────────

type OrderKey = { shop: string; orderGid: string };
type Records = Pick<Prisma.TransactionClient, "orderRecord">;

/** Seen cancelled (orders/cancelled records it before anything else): never booked from then on. */
export async function isOrderCancelled({ shop, orderGid }: OrderKey, db: Records = prisma): Promise<boolean> {
  return Boolean((await db.orderRecord.findUnique({ where: { shop_orderGid: { shop, orderGid } }, select: { cancelledAt: true } }))?.cancelledAt);
}

/** A parcel of the order is being booked: the lists that read its stored readiness show it booked. */
export async function orderBooked(tx: Records, { shop, orderGid }: OrderKey): Promise<void> {
  await tx.orderRecord.updateMany({ where: { shop, orderGid, readiness: { not: READINESS.CANCELLED } }, data: { readiness: READINESS.SHIPMENT } });
}

/** A booking that did not happen: the order is ready to ship again, in the lists that read its stored readiness. */
export async function orderFreeAgain({ shop, orderGid }: OrderKey): Promise<void> {
  await prisma.orderRecord.updateMany({ where: { shop, orderGid, readiness: READINESS.SHIPMENT }, data: { readiness: READINESS.READY } });
}

/** A parcel is left to book (the merchant booked one of several, or one was refused): the order stays to ship. */
export async function orderStillToShip({ shop, orderGid }: OrderKey): Promise<void> {
  await prisma.orderRecord.updateMany({ where: { shop, orderGid, readiness: { in: [READINESS.SHIPMENT, READINESS.FULFILLED] } }, data: { readiness: READINESS.READY } });
}

/** Every parcel Dakiya holds of the order is fulfilled: so is the order (only a booking under way becomes fulfilled). */
export async function parcelsAllFulfilled({ shop, orderGid }: OrderKey): Promise<void> {
  await prisma.orderRecord.updateMany({ where: { shop, orderGid, readiness: READINESS.SHIPMENT }, data: { readiness: READINESS.FULFILLED } });
}

/**
 * An automatic booking whose worker died before it reached the courier: the rules' decision is taken back and the
 * order checked again, in one transaction, so the rules book it afresh through a new claim.
 */
export async function orderBookingInterrupted({ shop, orderGid }: OrderKey): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const { count } = await tx.orderRecord.updateMany({
      where: { shop, orderGid, decision: DECISION.BOOKED, cancelledAt: null },
      data: { decision: null, decisionReason: null, decisionWords: Prisma.DbNull, decidedAt: null },
    });
    if (count === 1) await enqueue("order-check", { shop, orderGid }, { tx });
  });
}
