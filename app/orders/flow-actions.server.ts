import { describeError } from "~/logging.server";
import type { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { shipOrder, type ShipResult } from "./ship-orders.server";
import { recordHeldForReview, recordWaitingForShopper } from "./order-records.server";
import { askToConfirm } from "~/cod/confirmation.server";
import { formatShopTime } from "~/shop-time";
import { ShopifyUnavailableError, type ShopAdmin } from "~/shopify/admin-graphql.server";
import { HOLD_HANDLES, holdOrder } from "~/shopify/fulfillment-holds.server";
import { busyAnswer, outcomeAnswer, refusedAnswer, stillWorkingAnswer, strategyOf, SHIP_STRATEGIES, type FlowAction, type FlowActionRequest, type FlowAnswer } from "./flow-actions";

/**
 * Carrying out Dakiya's Flow actions (flow-actions.ts has what each takes), each run once:
 *
 * - A run is claimed under its `action_run_id` (per shop) before anything is done; the same run sent again gets the
 *   first answer as it was given, and one arriving while the first is still at work gets a 202, so Flow sends it
 *   again later. A run whose worker died (claimed longer ago than any run takes) is taken over.
 * - Flow waits about ten seconds for an answer: a run that takes longer is answered 202 and carries on, and the
 *   answer it comes to is given when Flow sends the run again.
 * - Shopify busy past Dakiya's waits is a 503 with Retry-After, and the run is left to be tried again.
 *
 * Answers speak of the order by its number and of its problems by their labels, never the shopper's details: they
 * are kept to be given again, outside the merchant's screens.
 */

export interface FlowActionDeps {
  admin: ShopAdmin;
  now?: () => Date;
  /** How long a request may wait for the run before answering 202 (Flow gives up after about ten seconds). */
  answerWithinMs?: number;
}

const ANSWER_WITHIN_MS = 8_000;
/** A run claimed longer ago than this was abandoned by its worker. */
const ABANDONED_AFTER_MS = 10 * 60_000;

const RUN = { RUNNING: "running", DONE: "done", RETRY: "retry" } as const;

/** Who books, in the shipments' history. */
const FLOW_WORKFLOW = { kind: "rule", name: "Shopify Flow workflow" } as const;

/** Takes the run for this request, unless another request has it or has answered it. */
async function claimRun(shop: string, action: FlowAction, request: FlowActionRequest, now: Date): Promise<boolean> {
  const claimed = await prisma.$executeRaw`
    INSERT INTO "FlowActionRun" AS run (shop, "actionRunId", action, "orderGid", state, "startedAt")
    VALUES (${shop}, ${request.action_run_id}, ${action}, ${request.properties.order_id}, ${RUN.RUNNING}, ${now})
    ON CONFLICT (shop, "actionRunId") DO UPDATE SET state = ${RUN.RUNNING}, "startedAt" = EXCLUDED."startedAt"
    WHERE run.state = ${RUN.RETRY} OR (run.state = ${RUN.RUNNING} AND run."startedAt" < ${new Date(now.getTime() - ABANDONED_AFTER_MS)})`;
  return claimed === 1;
}

/** The run's answer is kept (done), or the run is left for Flow's next try (a busy Shopify). */
async function settleRun(shop: string, actionRunId: string, answer: FlowAnswer, at: Date): Promise<void> {
  const retry = answer.status >= 500;
  await prisma.flowActionRun.updateMany({
    where: { shop, actionRunId, state: RUN.RUNNING },
    data: retry ? { state: RUN.RETRY, finishedAt: at } : { state: RUN.DONE, status: answer.status, answer: answer.body as Prisma.InputJsonValue, finishedAt: at },
  });
}

/** The answer a run already has: its first answer, or "still at work". */
async function answerSoFar(shop: string, actionRunId: string): Promise<FlowAnswer> {
  const run = await prisma.flowActionRun.findUnique({ where: { shop_actionRunId: { shop, actionRunId } } });
  if (run?.state === RUN.DONE && run.status !== null && run.answer !== null) return { status: run.status, body: run.answer as unknown as FlowAnswer["body"] };
  return stillWorkingAnswer();
}

/** Carries out one run of `action` for `shop`, once, and answers it in Flow's terms. */
export async function runFlowAction(shop: string, action: FlowAction, request: FlowActionRequest, deps: FlowActionDeps): Promise<FlowAnswer> {
  const now = deps.now ?? (() => new Date());
  if (!(await claimRun(shop, action, request, now()))) return answerSoFar(shop, request.action_run_id);
  const work = perform(shop, action, request, deps, now).then(
    async (answer) => {
      await settleRun(shop, request.action_run_id, answer, now());
      return answer;
    },
    async (error: unknown) => {
      // A bug, or the database gone: the run is left to be taken over, and the error goes where errors go.
      await prisma.flowActionRun.updateMany({ where: { shop, actionRunId: request.action_run_id, state: RUN.RUNNING }, data: { state: RUN.RETRY } }).catch(() => undefined);
      throw error;
    },
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<FlowAnswer>((resolve) =>
    (timer = setTimeout(() => {
      // The run carries on after the 202; its failure is logged, as nothing awaits it any more.
      // Its kind and where, never its message: a booking's failure may quote the shopper's body.
      work.catch((error: unknown) => console.error(`Flow action ${action} for ${shop} failed after its 202: ${describeError(error)}`));
      resolve(stillWorkingAnswer());
    }, deps.answerWithinMs ?? ANSWER_WITHIN_MS)),
  );
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function perform(shop: string, action: FlowAction, request: FlowActionRequest, deps: FlowActionDeps, now: () => Date): Promise<FlowAnswer> {
  const orderGid = request.properties.order_id;
  try {
    switch (action) {
      case "dakiya-ship-order":
        return await shipWithDakiya(shop, orderGid, request.properties.strategy, deps.admin);
      case "dakiya-hold-for-review":
        return await holdForReview(shop, orderGid, request.properties.note, deps.admin, now());
      case "dakiya-confirm-cod":
        return await askToConfirmCod(shop, orderGid, deps.admin, now);
    }
  } catch (error) {
    if (error instanceof ShopifyUnavailableError) return busyAnswer(error.retryAfterSeconds);
    throw error;
  }
}

// ─── Ship with Dakiya ────────────────────────────────────────────────────────────────────────────────────────────

const parcelsOf = (result: ShipResult) => [result.courierName, result.awb ? `awb ${result.awb}` : null].filter(Boolean).join(", ");

async function shipWithDakiya(shop: string, orderGid: string, asked: string | undefined, admin: ShopAdmin): Promise<FlowAnswer> {
  const strategy = strategyOf(asked);
  if (!strategy) return refusedAnswer(`strategy must be one of ${SHIP_STRATEGIES.join(", ")} (empty: the shop's rules), not ${JSON.stringify(asked?.slice(0, 40))}`);
  // The same exactly-once booking as every other path: a second run for a booked order finds it booked.
  const result = await shipOrder(shop, admin, orderGid, { policy: strategy, actor: FLOW_WORKFLOW, problems: "labels" });
  switch (result.outcome) {
    case "booked":
      return outcomeAnswer("booked", `Booked ${result.orderName}: ${parcelsOf(result)}.${result.reason ? ` ${result.reason}.` : ""}`.replace("..", "."));
    case "already_booked":
      return outcomeAnswer("already_booked", `${result.orderName} was booked already: ${parcelsOf(result) || "being booked right now"}.`);
    case "held":
      return outcomeAnswer("held", `${result.orderName} was not booked: the shop's rules hold it (${result.reason ?? "held for review"}).`);
    default:
      return outcomeAnswer("not_booked", `${result.orderName} was not booked: ${result.reason ?? "the booking did not go through"}`);
  }
}

// ─── Ask the shopper to confirm COD ─────────────────────────────────────────────────────────────────────────────

/**
 * Asks the shopper of a cash-on-delivery order to confirm it (app/cod/confirmation.server.ts): Dakiya holds the order
 * in Shopify, writes the shopper's link on it and waits for the answer; the rules decide the order once they answer.
 * The run answers at once: asking does not wait for the shopper.
 */
async function askToConfirmCod(shop: string, orderGid: string, admin: ShopAdmin, now: () => Date): Promise<FlowAnswer> {
  const record = await prisma.orderRecord.findUnique({ where: { shop_orderGid: { shop, orderGid } }, select: { orderName: true } });
  const order = record?.orderName || `Order ${orderGid.split("/").pop()}`;
  const asked = await askToConfirm({ shop, admin, now }, orderGid, { kind: "flow", name: "Shopify Flow workflow" });
  switch (asked.kind) {
    case "asked":
      await recordWaitingForShopper(shop, orderGid, { key: "decisions.askedByFlow" }, now());
      return outcomeAnswer("asked", `Dakiya asked the shopper of ${order} to confirm cash on delivery by ${formatShopTime(asked.confirmation.deadlineAt)} (India time); the order is on hold in Shopify until they answer.`);
    case "already_asked":
      return outcomeAnswer("already_asked", `The shopper of ${order} was asked to confirm already (${asked.confirmation.state.replace("_", " ")}).`);
    case "not_checked":
      return busyAnswer(60);
    case "not_cod":
      return outcomeAnswer("not_cod", `${order} is not cash on delivery: there is nothing for the shopper to confirm.`);
    case "cancelled":
      return outcomeAnswer("cancelled", `${order} is cancelled: the shopper was not asked.`);
    case "booked":
      return outcomeAnswer("already_booked", `${order} is booked already: the shopper was not asked.`);
    case "too_late":
      return outcomeAnswer("too_late", `${order} is too close to the courier's 7-day window for the shopper to answer in time: the shopper was not asked.`);
  }
}

// ─── Hold for review ─────────────────────────────────────────────────────────────────────────────────────────────

/** The handle of Dakiya's review hold on a fulfillment order (unique per app and fulfillment order). */
const REVIEW_HOLD_HANDLE = HOLD_HANDLES.review;

/**
 * Every fulfillment order of the order that can still be held gets Dakiya's review hold in Shopify (nothing ships
 * from it until the merchant releases it), and the order's decision becomes "held", which auto-booking respects.
 * A fulfillment order already carrying the review hold stays so; one shipped or closed has nothing to hold.
 */
async function holdForReview(shop: string, orderGid: string, note: string | undefined, admin: ShopAdmin, at: Date): Promise<FlowAnswer> {
  const reasonNotes = `Held for review by a Shopify Flow workflow${note ? `: ${note}` : ""}`;
  const outcome = await holdOrder(admin, orderGid, { handle: REVIEW_HOLD_HANDLE, reason: "OTHER", reasonNotes });
  switch (outcome.kind) {
    case "not_found":
      return outcomeAnswer("not_found", `Order ${orderGid.split("/").pop()} is not in Shopify.`);
    case "nothing_to_hold":
      return outcomeAnswer("nothing_to_hold", `${outcome.orderName} has nothing left to ship, so nothing was held.`);
    case "refused":
      return outcomeAnswer("not_held", `Shopify did not hold ${outcome.orderName}: ${outcome.message}`.slice(0, 500));
    case "held":
      await recordHeldForReview(shop, orderGid, { key: "decisions.heldByFlow" }, at);
      return outcomeAnswer("held", `${outcome.orderName} is on hold for review (${outcome.fulfillmentOrders} of its fulfillment orders). Dakiya will not book it automatically: release the hold in Shopify, then ship it from Orders to ship.`);
  }
}
