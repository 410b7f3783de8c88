import { Prisma, type CodConfirmation } from "@prisma/client";
import prisma from "~/db.server";
import { getConfig } from "~/config.server";
import { fireFlowTrigger } from "~/flow/flow-triggers.server";
import { orderIdOf } from "~/flow/flow-triggers";
import { enqueue } from "~/jobs/job-queue.server";
import { LOCK_SPACE, lockIdOf } from "~/locks.server";
import { words, type StoredWords } from "~/locales/admin-language";
import { DECISION } from "~/automation/decisions";
import { holdsBooking as shipmentHoldsBooking, isShipmentStatus } from "~/shipments/lifecycle";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { cancelOrderForShopper, correctOrderDelivery, getOrderDelivery, getOrderRiskFacts, sendOrderInvoice, writeConfirmationLink, type DeliveryCorrection } from "~/shopify/cod-orders.server";
import { HOLD_HANDLES, holdOrder, releaseOrderHolds } from "~/shopify/fulfillment-holds.server";
import { formatShopTime } from "~/shop-time";
import { getPublicSeller } from "~/tracking/seller.server";
import { formatRupees, type Language } from "~/tracking/tracking-locale";
import { assessInShopify } from "./cod-risk.server";
import { recordCodStep, type CodActor, type CodStep } from "./cod-history.server";
import { getCodSettings } from "./cod-settings.server";
import { confirmationPath, signConfirmationToken, verifyConfirmationToken } from "./confirmation-links.server";
import { canMove, CONFIRMATION_STATE, deadlineOf, isOpen, lastAnswerMoment, type ConfirmationMove, type ConfirmationState, type SilenceAction } from "./confirmation-lifecycle";
import { shopperMessage, type ShopperCorrection } from "./confirmation-form";

/**
 * Asking the shopper of a cash-on-delivery order to confirm it before it ships (app/cod/confirmation-lifecycle.ts has
 * the states):
 *
 * - **Ask** (the rules' "ask the shopper to confirm", the merchant on the order's page, a Flow workflow): the
 *   confirmation is recorded in the transaction that also takes the order's claim lock — so no booking starts after
 *   it, and none is asked once a booking has — with the job that finishes it: a `dakiya-cod-confirm` fulfillment hold
 *   on the order in Shopify (nobody ships it by mistake there either), the shopper's link in an app metafield,
 *   Dakiya's PENDING risk assessment, and the job that acts at the deadline.
 * - **Answer** (the shopper on the link, a few hundred bytes, never a Shopify call on their request): recorded at
 *   once under the row's lock — confirm, correct the address or phone, cancel, or pay online — and carried out in
 *   Shopify by the `cod-confirmation` job: the corrected address written with `orderUpdate`, the order cancelled
 *   (restocked, nothing refunded), Shopify's invoice e-mailed, the hold released. A release hands the order back to
 *   the rules (a fresh order check), which book it.
 * - **Silence** past the deadline (the `cod-deadline` job) does what the merchant chose: remind once (Shopify's
 *   invoice e-mail with the link, and a second deadline), book as if confirmed, or cancel. Every deadline ends before
 *   the courier's 7-day window for the order.
 *
 * Every step lands in the order's history (cod-history.server.ts), and the shopper's answers reach Shopify Flow as
 * "COD confirmation answered". A step whose Shopify call fails is retried by its job; each step is idempotent.
 */

export interface ConfirmationContext {
  shop: string;
  admin: ShopAdmin;
  now: () => Date;
}

type Client = Prisma.TransactionClient;

const TRANSACTION = { maxWait: 15_000, timeout: 15_000 };

/** The job of a confirmation's pending Shopify work; `reason` names it in the history. */
const JOB: CodActor = { kind: "job", name: "cod-confirmation" };
const DEADLINE_JOB: CodActor = { kind: "job", name: "cod-deadline" };
export const SHOPPER: CodActor = { kind: "shopper", name: "the confirmation link" };

/** The order as Dakiya last checked it (its record, which app/orders/ keeps). */
const orderRecordOf = (shop: string, orderGid: string) => prisma.orderRecord.findUnique({ where: { shop_orderGid: { shop, orderGid } } });

// ─── The shopper's link ─────────────────────────────────────────────────────────────────────────────────────────────

/** Where the shopper opens their link: the shop's own domain (through the app proxy) once Shopify told Dakiya its proxy path, else the app. */
export async function confirmationUrlOf(confirmation: Pick<CodConfirmation, "id" | "shop" | "linkExpiresAt">): Promise<string> {
  const token = signConfirmationToken({ confirmationId: confirmation.id, expiresAt: confirmation.linkExpiresAt });
  const storefront = await prisma.storefrontSettings.findUnique({ where: { shop: confirmation.shop }, select: { proxyPathPrefix: true, primaryDomainHost: true } });
  if (storefront?.proxyPathPrefix) return `https://${storefront.primaryDomainHost ?? confirmation.shop}${storefront.proxyPathPrefix}${confirmationPath(token)}`;
  return `${getConfig().SHOPIFY_APP_URL}${confirmationPath(token)}`;
}

export const languageOfLocale = (locale: string | null | undefined): Language => ((locale ?? "").trim().toLowerCase().startsWith("hi") ? "hi" : "en");

// ─── Asking ──────────────────────────────────────────────────────────────────────────────────────────────────────────

export type AskOutcome =
  | { kind: "asked"; confirmation: CodConfirmation }
  | { kind: "already_asked"; confirmation: CodConfirmation }
  /** Not an order Dakiya has checked, or not cash on delivery, or cancelled, or booked already. */
  | { kind: "not_checked" }
  | { kind: "not_cod" }
  | { kind: "cancelled" }
  | { kind: "booked" }
  /** Too close to the courier's 7-day window for the shopper to answer and the order still ship. */
  | { kind: "too_late" };

/**
 * Asks the shopper of a checked cash-on-delivery order to confirm it. The Shopify side is done at once when Shopify
 * answers, else by the job (the confirmation holds the order's bookings meanwhile).
 */
export async function askToConfirm(context: ConfirmationContext, orderGid: string, actor: CodActor): Promise<AskOutcome> {
  const { shop, now } = context;
  const record = await orderRecordOf(shop, orderGid);
  if (!record?.placedAt || record.readiness === "unchecked") return { kind: "not_checked" };
  if (record.cancelledAt) return { kind: "cancelled" };
  if (record.paymentMode !== "cod") return { kind: "not_cod" };
  const known = await prisma.codConfirmation.findUnique({ where: { shop_orderGid: { shop, orderGid } } });
  if (known) return { kind: "already_asked", confirmation: known };
  const at = now();
  if (lastAnswerMoment(record.placedAt).getTime() < at.getTime() + 2 * 3_600_000) return { kind: "too_late" };

  const [settings, facts] = await Promise.all([getCodSettings(shop), getOrderRiskFacts(context.admin, orderGid)]);
  const deadlineAt = deadlineOf({ at, hours: settings.confirmHours, placedAt: record.placedAt });
  // A link outlives the first deadline when a reminder may follow: it carries the last moment any answer can count.
  const linkExpiresAt = settings.onSilence === "remind" ? deadlineOf({ at: deadlineAt, hours: settings.confirmHours, placedAt: record.placedAt }) : deadlineAt;
  const outcome = await prisma.$transaction(async (tx): Promise<AskOutcome> => {
    // The order's claims take this lock too: a booking and an ask of one order never cross.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_SPACE.ORDER_PARCELS}::int, ${lockIdOf(`${shop}|${orderGid}`)}::int)`;
    const shipments = await tx.shipment.findMany({ where: { shop, orderGid }, select: { status: true } });
    if (shipments.some((shipment) => isShipmentStatus(shipment.status) && shipmentHoldsBooking(shipment.status))) return { kind: "booked" };
    if ((await tx.orderRecord.findUnique({ where: { shop_orderGid: { shop, orderGid } }, select: { cancelledAt: true } }))?.cancelledAt) return { kind: "cancelled" };
    const [created] = await tx.codConfirmation.createManyAndReturn({
      data: [{ shop, orderGid, orderName: record.orderName, state: CONFIRMATION_STATE.ASKING, onSilence: settings.onSilence, language: languageOfLocale(facts?.customerLocale), canPayOnline: facts?.hasEmail ?? false, askedAt: at, deadlineAt, linkExpiresAt }],
      skipDuplicates: true,
    });
    if (!created) return { kind: "already_asked", confirmation: await tx.codConfirmation.findUniqueOrThrow({ where: { shop_orderGid: { shop, orderGid } } }) };
    await recordCodStep(tx, { shop, orderGid }, "asked", actor, at, words("cod.history.asked", { deadline: formatShopTime(deadlineAt) }));
    await enqueue("cod-confirmation", { shop, orderGid }, { tx });
    await enqueue("cod-deadline", { shop, orderGid }, { tx, startAfter: deadlineAt });
    return { kind: "asked", confirmation: created };
  }, TRANSACTION);
  if (outcome.kind !== "asked") return outcome;
  try {
    await carryOnConfirmation(context, orderGid);
  } catch (error) {
    // Shopify busy, or anything else: the job enqueued with the confirmation carries it on.
    console.warn(`Asking the shopper of ${orderGid} (${shop}) to confirm continues in the background: ${error instanceof Error ? error.name : "error"}`);
  }
  return { kind: "asked", confirmation: await prisma.codConfirmation.findUniqueOrThrow({ where: { id: outcome.confirmation.id } }) };
}

// ─── Moving a confirmation ───────────────────────────────────────────────────────────────────────────────────────────

/**
 * Moves a confirmation through `move` under its row's lock, in one transaction with whatever else the move records
 * (`also`) and the job that carries its Shopify side out. Null when the move is not allowed from where it is now.
 */
async function move(
  id: number,
  name: ConfirmationMove,
  { data = {}, step, actor, at, said, also }: { data?: Prisma.CodConfirmationUncheckedUpdateInput; step: CodStep; actor: CodActor; at: Date; said?: StoredWords; also?: (tx: Client, row: CodConfirmation) => Promise<void> },
): Promise<CodConfirmation | null> {
  return prisma.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ state: string }[]>`SELECT state FROM "CodConfirmation" WHERE id = ${id} FOR UPDATE`;
    if (!locked || !canMove(name, locked.state)) return null;
    const row = await tx.codConfirmation.update({ where: { id }, data: { ...data, state: moveTarget(name) } });
    await recordCodStep(tx, row, step, actor, at, said);
    await also?.(tx, row);
    await enqueue("cod-confirmation", { shop: row.shop, orderGid: row.orderGid }, { tx });
    return row;
  }, TRANSACTION);
}

const TARGETS: Readonly<Record<ConfirmationMove, ConfirmationState>> = {
  asked: "asked",
  reminded: "reminded",
  confirm: "confirmed",
  correct: "corrected",
  cancel: "cancelled",
  pay_online: "awaiting_payment",
  paid: "paid_online",
  expire: "expired",
  withdraw: "withdrawn",
};
const moveTarget = (name: ConfirmationMove) => TARGETS[name];

/** The shopper's answer, as the page parsed it. */
export type ShopperAnswerInput = { answer: "confirm" | "cancel" | "pay_online" } | { answer: "correct"; correction: ShopperCorrection };

export type AnswerOutcome = { kind: "answered"; confirmation: CodConfirmation } | { kind: "not_open"; confirmation: CodConfirmation } | { kind: "cannot_pay_online"; confirmation: CodConfirmation } | { kind: "not_found" };

/** A link passed around takes at most this many answers, refused ones included (each is a few rows and a job). */
export const MAX_SUBMISSIONS = 20;

/** Counts one answer sent on a confirmation's link; false once the link has taken its share. */
export async function takeSubmission(confirmationId: number): Promise<boolean> {
  const { count } = await prisma.codConfirmation.updateMany({ where: { id: confirmationId, submissions: { lt: MAX_SUBMISSIONS } }, data: { submissions: { increment: 1 } } });
  return count === 1;
}

/**
 * The shopper's answer on their link: recorded now, carried out in Shopify by the job. `shop` is the shop the request
 * came through (the app proxy's signed shop), when it came through one: another shop's confirmation is not found.
 */
export async function answerConfirmation(confirmationId: number, input: ShopperAnswerInput, { shop, now }: { shop: string | null; now: Date }): Promise<AnswerOutcome> {
  const found = await prisma.codConfirmation.findUnique({ where: { id: confirmationId } });
  if (!found || (shop !== null && found.shop !== shop)) return { kind: "not_found" };
  if (!isOpen(found.state)) return { kind: "not_open", confirmation: found };
  if (input.answer === "pay_online" && !found.canPayOnline) return { kind: "cannot_pay_online", confirmation: found };
  const ref = { shop: found.shop, orderGid: found.orderGid };
  let moved: CodConfirmation | null;
  switch (input.answer) {
    case "confirm":
      moved = await move(found.id, "confirm", { data: { answeredAt: now }, step: "confirmed", actor: SHOPPER, at: now });
      break;
    case "correct":
      moved = await move(found.id, "correct", {
        data: { answeredAt: now, correction: correctionOf(input.correction) as unknown as Prisma.InputJsonValue },
        step: "corrected",
        actor: SHOPPER,
        at: now,
        said: words(input.correction.address ? (input.correction.phone ? "cod.history.correctedBoth" : "cod.history.correctedAddress") : "cod.history.correctedPhone"),
      });
      break;
    case "cancel":
      // The order is recorded cancelled before anything else, as orders/cancelled is: no booking starts from now.
      moved = await move(found.id, "cancel", { data: { answeredAt: now }, step: "cancelled", actor: SHOPPER, at: now, also: async (tx) => void (await cancelledHere(tx, ref, now)) });
      break;
    case "pay_online":
      moved = await move(found.id, "pay_online", { data: { answeredAt: now }, step: "chose_online", actor: SHOPPER, at: now });
      break;
  }
  if (!moved) return { kind: "not_open", confirmation: (await prisma.codConfirmation.findUnique({ where: { id: found.id } }))! };
  return { kind: "answered", confirmation: moved };
}

/** The correction as the job writes it to Shopify: only what the shopper gave. */
function correctionOf(correction: ShopperCorrection) {
  return { address: correction.address, phone: correction.phone };
}

async function cancelledHere(tx: Client, { shop, orderGid }: { shop: string; orderGid: string }, at: Date): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO "OrderRecord" AS record ("shop", "orderGid", "cancelledAt", "readiness", "updatedAt")
    VALUES (${shop}, ${orderGid}, ${at}, 'cancelled', ${at})
    ON CONFLICT ("shop", "orderGid") DO UPDATE SET "cancelledAt" = EXCLUDED."cancelledAt", "readiness" = 'cancelled', "updatedAt" = EXCLUDED."updatedAt"
    WHERE record."cancelledAt" IS NULL`;
}

/** The merchant stops waiting for the shopper (the order's page, or the hold released in Shopify): the hold goes and the rules decide. */
export async function withdrawConfirmation(shop: string, orderGid: string, actor: CodActor, at: Date): Promise<CodConfirmation | null> {
  const found = await prisma.codConfirmation.findUnique({ where: { shop_orderGid: { shop, orderGid } } });
  if (!found) return null;
  return move(found.id, "withdraw", { step: "withdrawn", actor, at });
}

/**
 * The order reads as paid in Shopify while its shopper was asked (they paid the invoice, or the merchant marked it
 * paid): it ships prepaid. Called by the order check.
 */
export async function noteOrderPaid(shop: string, orderGid: string, at: Date): Promise<boolean> {
  const found = await prisma.codConfirmation.findUnique({ where: { shop_orderGid: { shop, orderGid } } });
  if (!found || !isOpen(found.state)) return false;
  return (await move(found.id, "paid", { step: "paid_online", actor: { kind: "shopper", name: "Shopify's payment" }, at })) !== null;
}

// ─── Silence ─────────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * What the deadline did. `expired` with `heldForMerchant`: reminded once and still silent, the order waits for the
 * merchant, in these words (the caller records the decision on the order).
 */
export type DeadlineOutcome = { kind: "not_due" | "answered" | "reminded" } | { kind: "expired"; heldForMerchant: StoredWords | null };

/**
 * The `cod-deadline` job: at the deadline, an unanswered confirmation does what the shop chose for silence. A shopper
 * who chose to pay online may have paid just before it, and the order's check that notes the payment (orders/paid's)
 * may not have run yet — it reads and quotes the order first, and waits for a courier that is down: Shopify is asked
 * (`paidInShopify`) before such an order is cancelled or held as unanswered.
 */
export async function runConfirmationDeadline({ shop, now, paidInShopify }: Pick<ConfirmationContext, "shop" | "now"> & { paidInShopify?: (orderGid: string) => Promise<boolean> }, orderGid: string): Promise<DeadlineOutcome> {
  const found = await prisma.codConfirmation.findUnique({ where: { shop_orderGid: { shop, orderGid } } });
  if (!found || !isOpen(found.state)) return { kind: "answered" };
  const at = now();
  if (found.deadlineAt.getTime() > at.getTime()) {
    await enqueue("cod-deadline", { shop, orderGid }, { startAfter: found.deadlineAt });
    return { kind: "not_due" };
  }
  if (found.state === CONFIRMATION_STATE.AWAITING_PAYMENT && paidInShopify && (await paidInShopify(orderGid))) {
    // Paid: the order's check books it as prepaid.
    if (await noteOrderPaid(shop, orderGid, at)) await enqueue("order-check", { shop, orderGid });
    return { kind: "answered" };
  }
  const silence = found.onSilence as SilenceAction;
  if (silence === "remind" && found.remindedAt === null && found.state !== CONFIRMATION_STATE.AWAITING_PAYMENT && found.linkExpiresAt.getTime() > at.getTime() + 3_600_000) {
    const deadlineAt = found.linkExpiresAt;
    const reminded = await move(found.id, "reminded", {
      data: { remindedAt: at, deadlineAt },
      step: "reminded",
      actor: DEADLINE_JOB,
      at,
      said: words("cod.history.reminded", { deadline: formatShopTime(deadlineAt) }),
      also: async (tx) => void (await enqueue("cod-deadline", { shop, orderGid }, { tx, startAfter: deadlineAt })),
    });
    return { kind: reminded ? "reminded" : "answered" };
  }
  const expired = await move(found.id, "expire", {
    step: "expired",
    actor: DEADLINE_JOB,
    at,
    said: words(silence === "book" ? "cod.history.expiredBook" : silence === "cancel" ? "cod.history.expiredCancel" : "cod.history.expiredHold"),
    also: async (tx, row) => {
      if (silence === "cancel") await cancelledHere(tx, row, at);
    },
  });
  if (!expired) return { kind: "answered" };
  // Reminded once and still silent: the merchant decides. The hold stays until they stop waiting.
  return { kind: "expired", heldForMerchant: silence === "remind" ? words("decisions.noAnswerHeld", { deadline: formatShopTime(found.deadlineAt) }) : null };
}

// ─── The Shopify side ────────────────────────────────────────────────────────────────────────────────────────────────

export type CarryOnOutcome = "nothing_to_do" | "done" | "retry";

const ANSWERS_TO_FLOW: Partial<Record<ConfirmationState, string>> = { confirmed: "confirmed", corrected: "corrected", paid_online: "paid online", cancelled: "declined" };

/**
 * The `cod-confirmation` job: does in Shopify what the confirmation's state still needs, each part once — put the
 * hold and write the link (asking), e-mail the invoice (paying online) or the reminder, write the correction, cancel
 * the order, release the hold and hand the order back to the rules; and tells Shopify the risk assessment as it now
 * stands. Throws while Shopify is busy (the job retries); a refusal of Shopify's is recorded in the history.
 */
export async function carryOnConfirmation(context: ConfirmationContext, orderGid: string): Promise<CarryOnOutcome> {
  const { shop, admin, now } = context;
  let row = await prisma.codConfirmation.findUnique({ where: { shop_orderGid: { shop, orderGid } } });
  if (!row) return "nothing_to_do";
  const ref = { shop, orderGid };
  const seller = await getPublicSeller(shop);

  if (row.heldAt === null && row.releasedAt === null && row.state !== CONFIRMATION_STATE.CANCELLED) {
    const held = await holdOrder(admin, orderGid, { handle: HOLD_HANDLES.codConfirmation, reason: "OTHER", reasonNotes: "Waiting for the shopper to confirm cash on delivery (Dakiya)" });
    if (held.kind !== "held") {
      // Nothing can be held (shipped or closed meanwhile, or Shopify refused): nobody waits on the shopper.
      await prisma.$transaction(async (tx) => {
        await tx.codConfirmation.updateMany({ where: { id: row!.id, releasedAt: null }, data: { state: CONFIRMATION_STATE.WITHDRAWN, releasedAt: now() } });
        await recordCodStep(tx, ref, "withdrawn", JOB, now(), words("cod.history.notHeld", { why: held.kind === "refused" ? held.message : held.kind === "not_found" ? "the order is not in Shopify" : "nothing of the order is left to ship" }));
        await tx.orderRecord.updateMany({ where: { shop, orderGid, decision: DECISION.CONFIRMING }, data: { decision: null, decisionReason: null, decisionWords: Prisma.DbNull, decidedAt: null } });
        await enqueue("order-check", { shop, orderGid }, { tx });
      });
      return "done";
    }
    row = await prisma.codConfirmation.update({ where: { id: row.id }, data: { heldAt: now(), holdIds: held.holdIds } });
  }
  const link = await confirmationUrlOf(row);
  if (row.linkWrittenAt === null && row.releasedAt === null) {
    const written = await writeConfirmationLink(admin, orderGid, link);
    if (written.ok) row = await prisma.codConfirmation.update({ where: { id: row.id }, data: { linkWrittenAt: now() } });
  }
  if (row.state === CONFIRMATION_STATE.ASKING) {
    row = (await prisma.codConfirmation.updateMany({ where: { id: row.id, state: CONFIRMATION_STATE.ASKING }, data: { state: CONFIRMATION_STATE.ASKED } })).count === 1 ? await prisma.codConfirmation.findUniqueOrThrow({ where: { id: row.id } }) : row;
  }

  const record = await orderRecordOf(shop, orderGid);
  const message = (kind: "reminder" | "invoice") =>
    shopperMessage(kind, row!.language as Language, { shop: seller.name, order: row!.orderName, amount: formatRupees(record?.totalPaise ?? 0), link });
  if (row.state === CONFIRMATION_STATE.REMINDED && row.reminderSentAt === null) {
    const sent = row.canPayOnline ? await sendOrderInvoice(admin, orderGid, message("reminder")) : { ok: false as const, message: "the order has no e-mail address" };
    await prisma.$transaction(async (tx) => {
      await tx.codConfirmation.update({ where: { id: row!.id }, data: { reminderSentAt: now() } });
      await recordCodStep(tx, ref, "reminded", JOB, now(), sent.ok ? words("cod.history.reminderSent") : words("cod.history.reminderNotSent", { why: sent.message }));
    });
  }
  if (row.state === CONFIRMATION_STATE.AWAITING_PAYMENT && row.invoiceSentAt === null) {
    const sent = await sendOrderInvoice(admin, orderGid, message("invoice"));
    await prisma.$transaction(async (tx) => {
      await tx.codConfirmation.update({ where: { id: row!.id }, data: { invoiceSentAt: now() } });
      await recordCodStep(tx, ref, "chose_online", JOB, now(), sent.ok ? words("cod.history.invoiceSent") : words("cod.history.invoiceNotSent", { why: sent.message }));
    });
  }
  if (row.state === CONFIRMATION_STATE.CORRECTED && row.correction !== null) {
    const correction = row.correction as unknown as ShopperCorrection;
    const written = await writeCorrection(admin, orderGid, correction);
    await prisma.$transaction(async (tx) => {
      // Once Shopify has it, the shopper's address is Shopify's to keep: Dakiya's copy goes.
      await tx.codConfirmation.update({ where: { id: row!.id }, data: { correction: Prisma.DbNull } });
      await recordCodStep(tx, ref, "corrected", JOB, now(), written.ok ? words("cod.history.correctionWritten") : words("cod.history.correctionRefused", { why: written.message }));
    });
    row = await prisma.codConfirmation.findUniqueOrThrow({ where: { id: row.id } });
  }
  const cancelling = row.state === CONFIRMATION_STATE.CANCELLED || (row.state === CONFIRMATION_STATE.EXPIRED && row.onSilence === "cancel");
  if (cancelling && row.cancelledInShopifyAt === null) {
    const cancelled = await cancelOrderForShopper(admin, orderGid, row.state === CONFIRMATION_STATE.CANCELLED ? "Cancelled by the shopper on Dakiya's confirmation link" : "Cancelled by Dakiya: no answer to the cash-on-delivery confirmation");
    await prisma.$transaction(async (tx) => {
      await tx.codConfirmation.update({ where: { id: row!.id }, data: { cancelledInShopifyAt: now(), ...(cancelled.ok ? { releasedAt: now() } : {}) } });
      await recordCodStep(tx, ref, "cancelled", JOB, now(), cancelled.ok ? words("cod.history.cancelledInShopify") : words("cod.history.cancelRefused", { why: cancelled.message }));
    });
    row = await prisma.codConfirmation.findUniqueOrThrow({ where: { id: row.id } });
  }
  const releasing =
    row.state === CONFIRMATION_STATE.CONFIRMED ||
    row.state === CONFIRMATION_STATE.CORRECTED ||
    row.state === CONFIRMATION_STATE.PAID_ONLINE ||
    row.state === CONFIRMATION_STATE.WITHDRAWN ||
    (row.state === CONFIRMATION_STATE.EXPIRED && row.onSilence === "book");
  if (releasing && row.releasedAt === null) {
    const released = await releaseOrderHolds(admin, orderGid, HOLD_HANDLES.codConfirmation);
    if (released && released.refused.length > 0) {
      await recordCodStep(prisma, ref, "released", JOB, now(), words("cod.history.releaseRefused", { why: released.refused.join(" ").slice(0, 300) }));
      return "retry";
    }
    await prisma.$transaction(async (tx) => {
      const { count } = await tx.codConfirmation.updateMany({ where: { id: row!.id, releasedAt: null }, data: { releasedAt: now() } });
      if (count === 0) return;
      await recordCodStep(tx, ref, row!.state === CONFIRMATION_STATE.EXPIRED ? "booked_anyway" : "released", JOB, now(), words("cod.history.released"));
      // The rules decide the order afresh: a rule that asks does not ask twice, and the ones after it book.
      await tx.orderRecord.updateMany({ where: { shop, orderGid, decision: DECISION.CONFIRMING }, data: { decision: null, decisionReason: null, decisionWords: Prisma.DbNull, decidedAt: null } });
      await enqueue("order-check", { shop, orderGid }, { tx });
    });
    row = await prisma.codConfirmation.findUniqueOrThrow({ where: { id: row.id } });
  }
  const answer = ANSWERS_TO_FLOW[row.state as ConfirmationState];
  if (answer) {
    await fireFlowTrigger(shop, "dakiya-cod-answered", { order_id: orderIdOf(orderGid), Parcel: row.orderName, AWB: "", Courier: "", Status: "Not booked yet", Answer: answer }, { eventKey: `order:${orderGid}:cod-answer`, orderGid });
  }
  await assessInShopify(context, orderGid);
  return "done";
}

/**
 * The shopper's correction written on the order: their address (with the name and company Shopify holds, as the
 * address is replaced whole) and mobile. An order Shopify no longer has, or one it refuses, is said in words.
 */
async function writeCorrection(admin: ShopAdmin, orderGid: string, correction: ShopperCorrection): Promise<{ ok: true } | { ok: false; message: string }> {
  const order = await getOrderDelivery(admin, orderGid);
  if (!order) return { ok: false, message: "the order is not in Shopify" };
  const current = order.shippingAddress;
  const phone = correction.phone ?? current?.phone ?? order.phone ?? "";
  const address = correction.address;
  const delivery: DeliveryCorrection = {
    firstName: current?.firstName ?? null,
    lastName: current?.lastName ?? null,
    company: current?.company ?? null,
    address1: address?.address1 ?? current?.address1 ?? "",
    address2: address ? address.address2 : (current?.address2 ?? ""),
    city: address?.city ?? current?.city ?? "",
    provinceCode: address?.provinceCode ?? current?.provinceCode ?? null,
    zip: address?.zip ?? current?.zip ?? "",
    phone,
  };
  return correctOrderDelivery(admin, orderGid, delivery);
}

// ─── Reading ─────────────────────────────────────────────────────────────────────────────────────────────────────────

export async function getConfirmation(shop: string, orderGid: string): Promise<CodConfirmation | null> {
  return prisma.codConfirmation.findUnique({ where: { shop_orderGid: { shop, orderGid } } });
}

/** Of these orders, those whose shopper was asked to confirm (whatever came of it). */
export async function listAskedOrders(shop: string, orderGids: readonly string[]): Promise<Set<string>> {
  if (orderGids.length === 0) return new Set();
  const rows = await prisma.codConfirmation.findMany({ where: { shop, orderGid: { in: [...orderGids] } }, select: { orderGid: true } });
  return new Set(rows.map((row) => row.orderGid));
}

/** The confirmations of several orders at once, by order: for the lists. */
export async function listConfirmations(shop: string, orderGids: readonly string[]): Promise<Map<string, CodConfirmation>> {
  if (orderGids.length === 0) return new Map();
  const rows = await prisma.codConfirmation.findMany({ where: { shop, orderGid: { in: [...orderGids] } } });
  return new Map(rows.map((row) => [row.orderGid, row]));
}

/** What the shopper's page shows: the confirmation behind a link, with the order's name, destination and amount and the shop's name. */
export type ConfirmationPage =
  | { kind: "invalid" }
  | {
      kind: "found";
      confirmation: CodConfirmation;
      shopName: string;
      orderName: string;
      destination: string;
      amountPaise: number;
      pincode: string;
      city: string;
    };

export async function confirmationPageOf(token: string | undefined, { shop, now }: { shop: string | null; now: Date }): Promise<ConfirmationPage> {
  const grant = verifyConfirmationToken(token, now);
  if (!grant) return { kind: "invalid" };
  const confirmation = await prisma.codConfirmation.findUnique({ where: { id: grant.confirmationId } });
  if (!confirmation || (shop !== null && confirmation.shop !== shop)) return { kind: "invalid" };
  const [record, seller] = await Promise.all([orderRecordOf(confirmation.shop, confirmation.orderGid), getPublicSeller(confirmation.shop)]);
  const destination = record?.destination ?? "";
  const pincode = record?.pincode ?? "";
  return {
    kind: "found",
    confirmation,
    shopName: seller.name,
    orderName: confirmation.orderName || record?.orderName || "",
    destination,
    amountPaise: record?.totalPaise ?? 0,
    pincode,
    city: destination.replace(pincode, "").trim(),
  };
}
