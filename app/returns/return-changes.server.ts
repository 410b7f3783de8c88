import { Prisma, type ReturnRecord } from "@prisma/client";
import prisma from "~/db.server";
import { englishOf, type Sentence, type StoredWords } from "~/locales/admin-language";
import type { MappingProblem } from "~/shopify/order-mapping";
import type { Actor } from "~/shipments/lifecycle";
import { reasonColumns, reasonWithoutQuotes, REDACTED, REDACTED_PROBLEM } from "~/stored-sentences.server";
import { allowsReturn, RETURN_TRANSITIONS, transitionForShopifyStatus, type ReturnState, type ReturnTransitionName, type ReturnTransitionRule } from "./return-lifecycle";

/**
 * The one module that writes the return tables (`ReturnRecord` and its history, `ReturnEvent`): every change to a
 * return is one of the named transitions of `return-lifecycle.ts`, refused unless the table allows it from where the
 * row is now, and written in one transaction with the history row that records it (time, transition, from, to, who,
 * why). A test (`app/table-owners.test.ts`) fails when any other file writes either table.
 *
 * Reasons are in the merchant's words; the words a reason quotes (a courier's refusal, the shopper's note) are taken
 * out by customers/redact, which keeps the history.
 */

export interface ReturnChange {
  actor: Actor;
  at: Date;
}

/** A return as the transitions find it: every write is scoped by the shop. */
export interface ReturnRef {
  shop: string;
  returnGid: string;
}

type Client = Prisma.TransactionClient;

interface Move {
  /** The other columns the transition writes. */
  data?: Prisma.ReturnRecordUncheckedUpdateInput;
  reason?: Sentence | null;
}

async function recordEvent(tx: Client, record: Pick<ReturnRecord, "id" | "shop">, transition: ReturnTransitionName, { from, to }: { from: string | null; to: string | null }, reason: Sentence | null | undefined, { actor, at }: ReturnChange) {
  if (!RETURN_TRANSITIONS[transition].recorded) return;
  await tx.returnEvent.create({ data: { shop: record.shop, returnRecordId: record.id, transition, fromState: from, toState: to, actorKind: actor.kind, actorName: actor.name.slice(0, 200), ...reasonColumns(reason), at } });
}

/** Locks the return's row for the transaction; null when Dakiya has not recorded it. */
async function locked(tx: Client, { shop, returnGid }: ReturnRef): Promise<ReturnRecord | null> {
  const [row] = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM "ReturnRecord" WHERE shop = ${shop} AND "returnGid" = ${returnGid} FOR UPDATE`;
  return row ? tx.returnRecord.findUnique({ where: { id: row.id } }) : null;
}

/** Moves a locked return by a transition the table allows from its state, with its history row. Null when refused. */
async function move(tx: Client, record: ReturnRecord, transition: ReturnTransitionName, change: ReturnChange, { data = {}, reason }: Move = {}): Promise<ReturnRecord | null> {
  if (!allowsReturn(transition, record.state)) return null;
  const rule: ReturnTransitionRule = RETURN_TRANSITIONS[transition];
  const moved = await tx.returnRecord.update({ where: { id: record.id }, data: { ...data, ...(rule.to ? { state: rule.to } : {}) } });
  await recordEvent(tx, record, transition, { from: rule.to ? record.state : null, to: rule.to ?? null }, reason, change);
  return moved;
}

/** Applies one transition to a recorded return in a transaction of its own (the caller's, when given). */
async function apply(ref: ReturnRef, transition: ReturnTransitionName, change: ReturnChange, options: Move = {}, tx?: Client): Promise<ReturnRecord | null> {
  const run = async (db: Client) => {
    const record = await locked(db, ref);
    return record ? move(db, record, transition, change, options) : null;
  };
  return tx ? run(tx) : prisma.$transaction(run);
}

// ─── Seen in Shopify ──────────────────────────────────────────────────────────────────────────────────────────────

/** What a return check read of a return (Shopify, and its reverse mapping). */
export interface ReturnFactsRead {
  orderGid: string;
  returnName: string;
  problems: MappingProblem[];
  weightGrams: number | null;
  totalPaise: number | null;
  pincode: string | null;
  /** Every word the return rules match on: Shopify's reason handle and name, the shopper's note. */
  reasons: string[];
  requestedAt: Date;
}

/**
 * A return as Shopify has it now (a returns/* webhook's check, the reconciliation): recorded the first time it is seen,
 * in the state Shopify's status says (requested, approved, declined, cancelled, closed) with its first history row;
 * afterwards its facts refreshed and moved where Shopify's status leads and the table allows (approved after it was
 * requested, declined, cancelled, closed); a status that leads nowhere from where it is (closed while its pickup is on
 * its way) moves nothing. Concurrent checks of one return meet one row.
 */
export async function recordReturnSeen(ref: ReturnRef, { facts, shopifyStatus }: { facts: ReturnFactsRead; shopifyStatus: string }, change: ReturnChange): Promise<ReturnRecord> {
  const data = { ...facts, problems: facts.problems as unknown as Prisma.InputJsonValue, checkedAt: change.at };
  return prisma.$transaction(async (tx) => {
    const first = transitionForShopifyStatus(shopifyStatus, null)!;
    const [created] = await tx.returnRecord.createManyAndReturn({ data: [{ ...ref, ...data, state: (RETURN_TRANSITIONS[first] as ReturnTransitionRule).to! }], skipDuplicates: true });
    if (created) {
      await recordEvent(tx, created, first, { from: null, to: created.state }, null, change);
      return created;
    }
    const record = (await locked(tx, ref))!;
    const transition = transitionForShopifyStatus(shopifyStatus, record.state as ReturnState);
    const moved = transition ? await move(tx, record, transition, change, { data }) : null;
    return moved ?? tx.returnRecord.update({ where: { id: record.id }, data });
  });
}

/** Shopify no longer returns it (its order deleted): closed, saying so. */
export async function markReturnGone(ref: ReturnRef, change: ReturnChange): Promise<ReturnRecord | null> {
  return apply(ref, "closed", change, { data: { checkedAt: change.at }, reason: { key: "activity.stored.returns.gone" } });
}

// ─── The return rules ─────────────────────────────────────────────────────────────────────────────────────────────

/**
 * What the return rules decided and why (booked, held, problems, failed), its English derived from its words. A hold,
 * and a booking of theirs that failed, leave the pickup to the merchant: the return is held, with the reason.
 */
export async function recordReturnDecision(ref: ReturnRef, decision: { kind: string; words: StoredWords }, change: ReturnChange): Promise<void> {
  const data = { decision: decision.kind, decisionReason: englishOf(decision.words), decisionWords: decision.words as unknown as Prisma.InputJsonValue, decidedAt: change.at };
  await prisma.$transaction(async (tx) => {
    const record = await locked(tx, ref);
    if (!record) return;
    const holds = decision.kind === "held" || decision.kind === "failed";
    if (!(holds && (await move(tx, record, "held", change, { data, reason: decision.words })))) await tx.returnRecord.update({ where: { id: record.id }, data });
  });
}

/**
 * The rules' decision to book, taken back when its booking stopped before it reached the courier (its worker died):
 * the next check decides afresh. False when the decision is no longer that one, or the return was stopped since.
 */
export async function withdrawReturnDecision(ref: ReturnRef, kind: string, tx: Client = prisma): Promise<boolean> {
  const { count } = await tx.returnRecord.updateMany({
    where: { ...ref, decision: kind, state: { notIn: ["declined", "cancelled"] } },
    data: { decision: null, decisionReason: null, decisionWords: Prisma.DbNull, decidedAt: null },
  });
  return count === 1;
}

// ─── The pickup ───────────────────────────────────────────────────────────────────────────────────────────────────

/** The courier has the pickup booked (its awb): whoever booked it is its history's actor. */
export async function markPickupBooked(ref: ReturnRef, booked: { courierName: string; awb: string }, change: ReturnChange): Promise<ReturnRecord | null> {
  return apply(ref, "pickup_booked", change, { reason: { key: "activity.stored.bookedWith", values: { courier: booked.courierName, awb: booked.awb } } });
}

/** The courier collected it from the shopper. */
export async function markPickedUp(ref: ReturnRef, change: ReturnChange): Promise<ReturnRecord | null> {
  return apply(ref, "picked_up", change);
}

/** It reached the warehouse (when the courier says it did). */
export async function markReturnReceived(ref: ReturnRef, receivedAt: Date, change: ReturnChange): Promise<ReturnRecord | null> {
  return apply(ref, "received", change, { data: { receivedAt } });
}

/** Shopify has its items recorded as the return setting says: restocked, or left for inspection. */
export async function markReturnProcessed(ref: ReturnRef, disposition: "restock" | "inspect", change: ReturnChange): Promise<ReturnRecord | null> {
  return apply(ref, "processed", change, { data: { processedAt: change.at }, reason: { key: `activity.stored.returns.processed.${disposition}` } });
}

/** The merchant inspected what came back ("Return received: inspect it" goes). False when it had not arrived, or was inspected already. */
export async function markReturnInspected(ref: ReturnRef, change: ReturnChange): Promise<boolean> {
  return (await apply(ref, "inspected", change, { data: { inspectedAt: change.at } })) !== null;
}

// ─── Privacy ──────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * customers/redact, in the caller's transaction: the returns of these orders keep what kind their problems and the
 * rules' reason were but not their words (they may quote the pickup address, the phone or the shopper's note), their
 * reason words go, and their history's reasons lose the words they quote; each records its redaction. Returns them.
 */
export async function redactReturnsOf(tx: Client, shop: string, orderGids: readonly string[], change: ReturnChange): Promise<ReturnRecord[]> {
  const returns = await tx.returnRecord.findMany({ where: { shop, orderGid: { in: [...orderGids] } } });
  for (const record of returns) {
    const problems = (Array.isArray(record.problems) ? (record.problems as unknown as MappingProblem[]) : []).map((problem) => ({ code: problem.code, ...REDACTED_PROBLEM }));
    await move(tx, record, "redacted", change, { data: { problems: problems as unknown as Prisma.InputJsonValue, reasons: [], decisionReason: record.decisionReason === null ? null : REDACTED, decisionWords: Prisma.DbNull } });
    for (const event of await tx.returnEvent.findMany({ where: { shop, returnRecordId: record.id, reason: { not: null } }, select: { id: true, reason: true, reasonWords: true } })) {
      const without = reasonWithoutQuotes(event);
      if (without) await tx.returnEvent.update({ where: { id: event.id }, data: without });
    }
  }
  return returns;
}

/** shop/redact, in the caller's transaction: the shop's returns and their history. */
export async function eraseShopReturns(tx: Client, shop: string): Promise<void> {
  await tx.returnEvent.deleteMany({ where: { shop } });
  await tx.returnRecord.deleteMany({ where: { shop } });
}
