import { Prisma, type FailedDelivery } from "@prisma/client";
import prisma from "~/db.server";
import { enqueue } from "~/jobs/job-queue.server";
import type { Sentence } from "~/locales/admin-language";
import { words } from "~/locales/admin-language";
import { SHIPMENT_OUTCOME } from "~/shipments/lifecycle";
import { reasonColumns, REDACTED } from "~/stored-sentences.server";
import { allowsDesk, COURIER_DECISIONS, DESK_TRANSITIONS, stateAfter, type DeskActor, type DeskDecision, type DeskTransitionName, type DeskTransitionRule, type FailedDeliveryState } from "./failed-delivery-lifecycle";
import { ANSWERS_PER_ATTEMPT, REMARKS_LIMIT, type ShopperAnswerInput } from "./shopper-answer";
import type { DeskRule } from "./desk-rules";

/**
 * The one module that writes the failed-delivery desk's tables (`FailedDelivery` and its history,
 * `FailedDeliveryEvent`): every change is one of the named transitions of `failed-delivery-lifecycle.ts`, refused
 * unless the table allows it from where the row is now, and written in one transaction with the history row that
 * records it. A test (`app/table-owners.test.ts`) fails when any other file writes either table.
 *
 * A row stands for the parcel's latest failed attempt: it is made the first time the desk acts on the parcel (the
 * shopper answers, the merchant or a rule decides) and opened again, answer and decision cleared, when the courier's
 * next attempt fails too. The shipment's own outcome (`delivery_attempted`) says whether the parcel is in a failed
 * attempt now; this module never moves the shipment. History reasons never carry the shopper's phone or address.
 */

export interface DeskChange {
  actor: DeskActor;
  at: Date;
}

type Client = Prisma.TransactionClient;

interface ShipmentFacts {
  id: number;
  shop: string;
  outcome: string;
  deliveryAttempts: number;
}

async function recordEvent(tx: Client, row: Pick<FailedDelivery, "id" | "shop">, transition: DeskTransitionName, moved: { from: string | null; to: string | null }, reason: Sentence | null | undefined, { actor, at }: DeskChange) {
  if (!DESK_TRANSITIONS[transition].recorded) return;
  await tx.failedDeliveryEvent.create({ data: { shop: row.shop, failedDeliveryId: row.id, transition, fromState: moved.from, toState: moved.to, actorKind: actor.kind, actorName: actor.name.slice(0, 200), ...reasonColumns(reason), at } });
}

/** What a new attempt clears: the last attempt's answer and decision. */
const CLEARED = {
  answer: null,
  answeredAt: null,
  answerCount: 0,
  answerLanguage: null,
  preferredDate: null,
  preferredSlot: null,
  phone: null,
  alternatePhone: null,
  addressLine: null,
  landmark: null,
  decision: null,
  decidedAt: null,
  remarks: null,
  handedOffAt: null,
  orderUpdatedAt: null,
  rule: null,
  waitUntil: null,
  waitOtherwise: null,
} satisfies Prisma.FailedDeliveryUncheckedUpdateInput;

/** A decision ends a rule's wait for the shopper. */
const NO_WAIT = { waitUntil: null, waitOtherwise: null } satisfies Prisma.FailedDeliveryUncheckedUpdateInput;

/**
 * The parcel's desk row for its latest failed attempt, locked for the transaction: made on the parcel's first time
 * on the desk, opened again for a later attempt. Null when the shipment is not the shop's, or is not in a failed
 * attempt now (the courier has it out again, delivered it, or is returning it): nothing is written then.
 */
async function lockedRow(tx: Client, ref: { shop: string; shipmentId: number }, change: DeskChange): Promise<{ row: FailedDelivery; shipment: ShipmentFacts } | null> {
  const [shipment] = await tx.$queryRaw<ShipmentFacts[]>`SELECT id, shop, outcome, "deliveryAttempts" FROM "Shipment" WHERE id = ${ref.shipmentId} AND shop = ${ref.shop} AND direction = 'forward' FOR SHARE`;
  if (!shipment || shipment.deliveryAttempts === 0 || shipment.outcome !== SHIPMENT_OUTCOME.DELIVERY_ATTEMPTED) return null;
  // Two first answers at once: one inserts, the other finds its row.
  const created = await tx.failedDelivery.createManyAndReturn({ data: [{ shop: ref.shop, shipmentId: shipment.id, attempt: shipment.deliveryAttempts, state: "open" }], skipDuplicates: true });
  if (created[0]) await recordEvent(tx, created[0], "opened", { from: null, to: "open" }, words("failedDeliveries.history.attempt", { attempt: shipment.deliveryAttempts }), change);
  const [locked] = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM "FailedDelivery" WHERE "shipmentId" = ${shipment.id} AND shop = ${ref.shop} FOR UPDATE`;
  let row = await tx.failedDelivery.findUniqueOrThrow({ where: { id: locked!.id } });
  if (row.attempt < shipment.deliveryAttempts) {
    const from = row.state;
    row = await tx.failedDelivery.update({ where: { id: row.id }, data: { ...CLEARED, attempt: shipment.deliveryAttempts, state: "open" } });
    await recordEvent(tx, row, "reopened", { from, to: "open" }, words("failedDeliveries.history.attempt", { attempt: shipment.deliveryAttempts }), change);
  }
  return { row, shipment };
}

/** Moves a locked row by a transition the table allows from its state, with its history row. Null when refused. */
async function move(tx: Client, row: FailedDelivery, transition: DeskTransitionName, change: DeskChange, { data = {}, reason }: { data?: Prisma.FailedDeliveryUncheckedUpdateInput; reason?: Sentence | null } = {}): Promise<FailedDelivery | null> {
  if (!allowsDesk(transition, row.state)) return null;
  const rule: DeskTransitionRule = DESK_TRANSITIONS[transition];
  const to = stateAfter(transition, row.state as FailedDeliveryState);
  const moved = await tx.failedDelivery.update({ where: { id: row.id }, data: { ...data, state: to } });
  await recordEvent(tx, row, transition, rule.to ? { from: row.state, to } : { from: null, to: null }, reason, change);
  return moved;
}

// ─── The shopper's answer ─────────────────────────────────────────────────────────────────────────────────────────

export type AnswerOutcome =
  | { kind: "recorded"; row: FailedDelivery }
  /** The parcel is not in a failed attempt (delivered, returning, out again). */
  | { kind: "not_failed" }
  /** The seller already handed the instructions to the courier: the answer would reach nobody. */
  | { kind: "handed_off" }
  /** This attempt had its answers. */
  | { kind: "limited" };

/**
 * The shopper's answer for the parcel's latest failed attempt, as the tracking page took it from the holder of the
 * parcel's link: kept with the shopper's language, counted (at most `ANSWERS_PER_ATTEMPT` for one attempt), and
 * recorded in the history by its kind and day — never the phone or the address.
 */
export async function recordShopperAnswer(ref: { shop: string; shipmentId: number }, input: ShopperAnswerInput, language: string, change: DeskChange): Promise<AnswerOutcome> {
  return prisma.$transaction(async (tx) => {
    const found = await lockedRow(tx, ref, change);
    if (!found) return { kind: "not_failed" };
    const { row } = found;
    if (row.state === "handed_off") return { kind: "handed_off" };
    if (row.answerCount >= ANSWERS_PER_ATTEMPT) return { kind: "limited" };
    const reason =
      input.answer === "cancel"
        ? words("failedDeliveries.history.answerCancel")
        : words("failedDeliveries.history.answerAgain", { date: input.preferredDate ?? "", slot: input.preferredSlot ?? "", corrected: [input.phone || input.alternatePhone ? "phone" : null, input.addressLine ? "address" : null, input.landmark ? "landmark" : null].filter(Boolean).join(", ") || "-" });
    const moved = await move(tx, row, "shopper_answered", change, {
      data: { ...input, answeredAt: change.at, answerCount: { increment: 1 }, answerLanguage: language === "hi" ? "hi" : "en" },
      reason,
    });
    if (!moved) return { kind: "handed_off" };
    // A corrected phone, address line or landmark goes onto the Shopify order too, for the record: a job of its own
    // (Shopify may be slow or down), committed with the answer so it is neither lost nor made for nothing.
    if (correctsContact(input)) await enqueue("failed-delivery-order-note", { shop: ref.shop, shipmentId: ref.shipmentId }, { tx });
    // A rule waiting for this answer decides by it now: deliver again is a re-attempt, no longer wanted a return.
    if (row.state === "waiting" && row.rule) {
      const decision: DeskDecision = input.answer === "deliver_again" ? "reattempt" : "rto";
      const decided = await move(tx, moved, "rule_decided", { actor: { kind: "rule", name: row.rule }, at: change.at }, {
        data: { decision, decidedAt: change.at, remarks: null, handedOffAt: null, ...NO_WAIT },
        reason: words("failedDeliveries.history.rule.answered", { rule: row.rule, decision: words(`failedDeliveries.history.decision.${decision}`) }),
      });
      return { kind: "recorded", row: decided ?? moved };
    }
    return { kind: "recorded", row: moved };
  });
}

/** The shopper corrected how the courier reaches them: a phone, the address line or a landmark. */
export const correctsContact = (input: Pick<ShopperAnswerInput, "answer" | "phone" | "alternatePhone" | "addressLine" | "landmark">): boolean =>
  input.answer === "deliver_again" && Boolean(input.phone || input.alternatePhone || input.addressLine || input.landmark);

// ─── The merchant's decision ──────────────────────────────────────────────────────────────────────────────────────

export interface DecisionResult {
  decided: number[];
  /** Shipments not decided: not the shop's, never failed, or no longer in a failed attempt. */
  refused: number[];
}

/**
 * The merchant's (or a rule's) decision for each parcel's latest failed attempt, each in a transaction of its own: a
 * parcel the courier has moved on since (out again, delivered, returning) is refused, and the rest decided. A
 * decision for the courier (re-attempt, return) waits for the day's NDR instructions; deciding again before or after
 * they went out hands the new one off with the next.
 */
export async function decideFailedDeliveries(shop: string, shipmentIds: readonly number[], decision: DeskDecision, remarks: string | null, change: DeskChange): Promise<DecisionResult> {
  const result: DecisionResult = { decided: [], refused: [] };
  const note = remarks ? remarks.slice(0, REMARKS_LIMIT) : null;
  for (const shipmentId of new Set(shipmentIds)) {
    const moved = await prisma.$transaction(async (tx) => {
      const found = await lockedRow(tx, { shop, shipmentId }, change);
      if (!found) return null;
      // The merchant's decision is theirs: no rule is named for it, and a rule's wait ends.
      return move(tx, found.row, "decided", change, { data: { decision, decidedAt: change.at, remarks: note, handedOffAt: null, rule: null, ...NO_WAIT }, reason: words(`failedDeliveries.history.decision.${decision}`) });
    });
    (moved ? result.decided : result.refused).push(shipmentId);
  }
  return result;
}

// ─── The shop's rules ─────────────────────────────────────────────────────────────────────────────────────────────

export type RuleOutcome =
  | { kind: "decided"; decision: DeskDecision }
  | { kind: "waiting"; until: Date }
  /** Checked, and no rule acted: none matched, or the shopper or the merchant came first. */
  | { kind: "checked" }
  /** Checked before, or the parcel is not in this attempt any more: nothing written. */
  | { kind: "not_applied" };

/**
 * A failed attempt decided by the shop's first matching rule (`matched`; null when none matches), once: the desk's row
 * for the attempt is locked and keeps the attempt its rules were checked for (`ruleAttempt`), so the same tracking
 * entry read again, or two workers checking at once, find it checked and write nothing. A rule decides an open row
 * (`rule_decided`), or waits for the shopper (`rule_waiting`, and the job at `waitUntil` that ends the wait, committed
 * with it); a waiting rule whose shopper answered already decides by the answer. A row the merchant decided first is
 * left as it is.
 */
export async function applyRuleToAttempt(ref: { shop: string; shipmentId: number }, attempt: number, matched: { rule: DeskRule; waitUntil: Date } | null, change: DeskChange): Promise<RuleOutcome> {
  return prisma.$transaction(async (tx) => {
    const found = await lockedRow(tx, ref, change);
    if (!found || found.row.attempt !== attempt || found.row.ruleAttempt === attempt) return { kind: "not_applied" };
    const { row } = found;
    const rule = matched?.rule;
    const ruleChange = rule ? { actor: { kind: "rule" as const, name: rule.name }, at: change.at } : change;
    const decide = async (by: DeskRule, decision: DeskDecision, reason: "decided" | "answered"): Promise<RuleOutcome> => {
      await move(tx, row, "rule_decided", ruleChange, {
        data: { decision, decidedAt: change.at, remarks: null, handedOffAt: null, rule: by.name, ruleAttempt: attempt, ...NO_WAIT },
        reason: words(`failedDeliveries.history.rule.${reason}`, { rule: by.name, decision: words(`failedDeliveries.history.decision.${decision}`) }),
      });
      return { kind: "decided", decision };
    };
    if (rule && row.state === "open" && rule.action !== "wait") return decide(rule, rule.action, "decided");
    if (rule && row.state === "open") {
      const otherwise = rule.otherwise ?? "reattempt";
      await move(tx, row, "rule_waiting", ruleChange, {
        data: { rule: rule.name, ruleAttempt: attempt, waitUntil: matched.waitUntil, waitOtherwise: otherwise },
        reason: words("failedDeliveries.history.rule.waiting", { rule: rule.name, otherwise: words(`failedDeliveries.history.decision.${otherwise}`) }),
      });
      await enqueue("failed-delivery-wait", { shop: ref.shop, shipmentId: ref.shipmentId }, { tx, startAfter: matched.waitUntil });
      return { kind: "waiting", until: matched.waitUntil };
    }
    // The shopper answered before the rules were checked: a rule that would have waited for it decides by it.
    if (rule?.action === "wait" && row.state === "answered" && (row.answer === "deliver_again" || row.answer === "cancel")) return decide(rule, row.answer === "deliver_again" ? "reattempt" : "rto", "answered");
    await move(tx, row, "rules_checked", change, { data: { ruleAttempt: attempt }, reason: words(rule ? "failedDeliveries.history.rule.cameFirst" : "failedDeliveries.history.rule.noneMatched") });
    return { kind: "checked" };
  });
}

export type WaitOutcome = { kind: "decided"; decision: DeskDecision } | { kind: "later"; at: Date } | { kind: "over" };

/**
 * The `failed-delivery-wait` job: a rule still waiting for the shopper's answer for the parcel's current attempt when
 * its time has run out decides by its fallback. Not yet run out (a later attempt waits longer): `later`. Answered,
 * decided by the merchant, or the courier moved the parcel on: `over`, and nothing is written.
 */
export async function endRuleWait(ref: { shop: string; shipmentId: number }, now: Date): Promise<WaitOutcome> {
  return prisma.$transaction(async (tx) => {
    // The shipment before the desk's row, as every change of the desk locks them.
    const [shipment] = await tx.$queryRaw<ShipmentFacts[]>`SELECT id, shop, outcome, "deliveryAttempts" FROM "Shipment" WHERE id = ${ref.shipmentId} AND shop = ${ref.shop} FOR SHARE`;
    if (!shipment || shipment.outcome !== SHIPMENT_OUTCOME.DELIVERY_ATTEMPTED) return { kind: "over" };
    const [row] = await tx.$queryRaw<FailedDelivery[]>`SELECT * FROM "FailedDelivery" WHERE "shipmentId" = ${shipment.id} AND shop = ${ref.shop} AND attempt = ${shipment.deliveryAttempts} FOR UPDATE`;
    if (!row || row.state !== "waiting" || !row.rule) return { kind: "over" };
    if (row.waitUntil && row.waitUntil.getTime() > now.getTime()) return { kind: "later", at: row.waitUntil };
    const decision: DeskDecision = row.waitOtherwise === "rto" ? "rto" : "reattempt";
    const moved = await move(tx, row, "rule_decided", { actor: { kind: "rule", name: row.rule }, at: now }, {
      data: { decision, decidedAt: now, remarks: null, handedOffAt: null, ...NO_WAIT },
      reason: words("failedDeliveries.history.rule.noAnswer", { rule: row.rule, decision: words(`failedDeliveries.history.decision.${decision}`) }),
    });
    return moved ? { kind: "decided", decision } : { kind: "over" };
  });
}

// ─── Handing off ──────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The rows of the day's NDR instructions marked handed off, in the transaction that read them: only those still
 * decided for the courier, so a decision changed (or handed off by another download) meanwhile waits for the next
 * instructions. The ids handed off now.
 */
export async function markHandedOff(tx: Client, shop: string, rowIds: readonly number[], via: "csv" | "email", change: DeskChange): Promise<Set<number>> {
  const handed = new Set<number>();
  if (rowIds.length === 0) return handed;
  const rows = await tx.$queryRaw<FailedDelivery[]>`SELECT * FROM "FailedDelivery" WHERE shop = ${shop} AND id IN (${Prisma.join([...rowIds])}) AND state = 'decided' AND decision IN (${Prisma.join([...COURIER_DECISIONS])}) FOR UPDATE`;
  for (const row of rows) {
    if (await move(tx, row, "handed_off", change, { data: { handedOffAt: change.at }, reason: words(`failedDeliveries.history.handedOff.${via}`) })) handed.add(row.id);
  }
  return handed;
}

/** The shopper's corrected contact is on the Shopify order now (orderUpdate): noted once per answer. */
export async function noteOrderUpdated(ref: { shop: string; id: number }, answeredAt: Date, change: DeskChange): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM "FailedDelivery" WHERE id = ${ref.id} AND shop = ${ref.shop} AND "answeredAt" = ${answeredAt} AND ("orderUpdatedAt" IS NULL OR "orderUpdatedAt" < "answeredAt") FOR UPDATE`;
    if (!locked) return false;
    const row = await tx.failedDelivery.findUniqueOrThrow({ where: { id: locked.id } });
    return (await move(tx, row, "order_updated", change, { data: { orderUpdatedAt: change.at } })) !== null;
  });
}

// ─── Erasure ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** customers/redact: the shopper's phone, address and landmark out of their parcels' desk rows; the history stays. */
export async function redactFailedDeliveriesOf(tx: Client, shop: string, shipmentIds: readonly number[], change: DeskChange): Promise<void> {
  if (shipmentIds.length === 0) return;
  const rows = await tx.failedDelivery.findMany({ where: { shop, shipmentId: { in: [...shipmentIds] } } });
  for (const row of rows) {
    const personal = { phone: row.phone, alternatePhone: row.alternatePhone, addressLine: row.addressLine, landmark: row.landmark, remarks: row.remarks };
    const data = Object.fromEntries(Object.entries(personal).map(([column, value]) => [column, value === null ? null : REDACTED]));
    await move(tx, row, "redacted", change, { data });
  }
}

/** shop/redact: every desk row of the shop and its history. */
export async function eraseShopFailedDeliveries(tx: Client, shop: string): Promise<void> {
  await tx.failedDeliveryEvent.deleteMany({ where: { shop } });
  await tx.failedDelivery.deleteMany({ where: { shop } });
  await tx.failedDeliverySettings.deleteMany({ where: { shop } });
}
