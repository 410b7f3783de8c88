
import { listShipmentsForOrder } from "~/shipments/shipments.server";
import { cancelShipmentsWithCourier, mostPressing } from "~/booking/cancel-booking.server";
import { bookReturnPickup, quoteReturnPickup, RETURN_PICKUPS } from "./return-pickup.server";
import { DECISION } from "~/automation/decisions";
import { getShopSettings, toMappingSettings } from "~/settings/shop-settings.server";
import { SHIPMENT_STATUS, type Actor } from "~/shipments/lifecycle";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { getReturnForPickup } from "~/shopify/admin-returns.server";
import { toPaise } from "~/money";
import { isLogisticId } from "~/shipping/contract";
import { toReverseCourierOrder } from "./return-mapping";
import { bookOutcomeWords } from "~/automation/decision-words";
import type { OutcomeCode } from "~/booking/book-outcome";
import { englishOf, words, type StoredWords } from "~/locales/admin-language";
import { decideReturnPickup, returnSettingsOf } from "./return-settings";
import { markReturnGone, recordReturnDecision, recordReturnSeen, type ReturnChange, type ReturnRef } from "./return-changes.server";

export interface ReturnCheckDeps {
  adminFor: (shop: string) => Promise<ShopAdmin>;
  now: () => Date;
}

export type ReturnCheckResult =
  | { kind: "not_found" }
  /** Requested and not yet approved, or closed: recorded, nothing to book. */
  | { kind: "recorded"; status: string }
  | { kind: "problems" }
  | { kind: "held"; reason: string }
  | { kind: "booked"; awb: string | null }
  | { kind: "already_booked" }
  | { kind: "cancelled"; courier: string }
  /** The courier or Shopify could not be reached: the job retries. */
  | { kind: "retry"; reason: string };

/** The return rules quote under this name; a booking is recorded under the rule that decided it. */
const RETURN_RULES_ACTOR: Actor = { kind: "rule", name: "Return rules" };
const RETURN_CANCELLATION: Actor = { kind: "webhook", name: "returns/cancel" };
/** What the check records of the return as Shopify has it: the job read it, whichever webhook asked. */
const RETURN_CHECK: Actor = { kind: "job", name: "return-check" };

/**
 * The `return-check` job, for a return that changed in Shopify (returns/* webhooks, the reconciliation). It reads the
 * return fresh (the webhook's body is not believed), records it, and then:
 * - declined or cancelled: never booked from then on; a pickup already booked is cancelled with the courier, or
 *   goes to Needs attention when the courier has it;
 * - open: mapped onto a reverse shipment; problems are recorded with their fixes; otherwise the return
 *   rules decide (the first that matches, else the default: hold, the cheapest, a named courier) and the booking goes through the same exactly-once claim as an
 *   order's, keyed by the return.
 */
export async function checkReturn(shop: string, returnGid: string, { adminFor, now }: ReturnCheckDeps): Promise<ReturnCheckResult> {
  const admin = await adminFor(shop);
  const ret = await getReturnForPickup(admin, returnGid);
  const ref: ReturnRef = { shop, returnGid };
  const seen = (): ReturnChange => ({ actor: RETURN_CHECK, at: now() });
  if (!ret) {
    await markReturnGone(ref, seen());
    return { kind: "not_found" };
  }
  const settings = await getShopSettings(shop);
  const { shipment: mapped, problems } = toReverseCourierOrder(ret, { settings: toMappingSettings(settings), now: now() });
  const stopped = ret.status === "DECLINED" || ret.status === "CANCELED";
  const blocking = problems.filter((problem) => problem.code !== "RETURN_NOT_OPEN");
  const facts = {
    orderGid: ret.order.id,
    returnName: ret.name,
    problems: blocking,
    weightGrams: mapped?.totalGrams ?? null,
    totalPaise: mapped ? toPaise(mapped.fields.total_amount) : null,
    pincode: mapped?.fields.pincode || null,
    // Every word the return rules match on (Shopify's reason handle and name, the shopper's note), so the rules'
    // preview decides a recorded return on what the decision below reads, not on the handle alone.
    reasons: mapped?.reasonWords ?? [],
    requestedAt: new Date(ret.createdAt),
  };
  // Recorded before the courier is asked: declined or cancelled, no booking starts from here on.
  const record = await recordReturnSeen(ref, { facts, shopifyStatus: ret.status }, seen());
  if (stopped) {
    const result = mostPressing(
      await cancelShipmentsWithCourier(
        shop,
        returnGid,
        { actor: { ...RETURN_CANCELLATION, name: ret.status === "DECLINED" ? "returns/decline" : "returns/cancel" }, reason: ret.status === "DECLINED" ? "returnDeclined" : "returnCancelled", destination: RETURN_PICKUPS },
        { adminFor, now },
      ),
    );
    if (result.kind === "retry") return result;
    return { kind: "cancelled", courier: result.kind };
  }

  const [existing] = await listShipmentsForOrder(shop, returnGid);
  if (existing && existing.status !== SHIPMENT_STATUS.FAILED) return { kind: "already_booked" };
  if (ret.status !== "OPEN") return { kind: "recorded", status: ret.status };
  if (blocking.length > 0) {
    await decide(ref, DECISION.PROBLEMS, words("decisions.returns.problems"), now());
    return { kind: "problems" };
  }
  // Decided once: a return the rules held waits for the merchant, however many webhooks follow.
  if (record.decision === DECISION.HELD || record.decision === DECISION.BOOKED || record.decision === DECISION.FAILED) return { kind: "held", reason: record.decisionReason ?? "" };

  const context = { shop, admin, now, actor: RETURN_RULES_ACTOR };
  // The return as just read serves the quote and the booking: Shopify is read once more only to attach the delivery.
  const quote = await quoteReturnPickup(context, { returnGid, returnRead: ret, settings });
  if (quote.kind === "unavailable") return { kind: "retry", reason: quote.message };
  if (quote.kind !== "quoted") {
    await decide(ref, DECISION.PROBLEMS, words("decisions.returns.problems"), now());
    return { kind: "problems" };
  }
  const decision = decideReturnPickup(returnSettingsOf(settings), quote.rates, {
    totalPaise: toPaise(quote.shipment.fields.total_amount),
    pincode: quote.shipment.fields.pincode,
    reasons: mapped?.reasonWords ?? [],
    tags: mapped?.tags ?? [],
  });
  if (decision.kind === "hold") {
    await decide(ref, DECISION.HELD, decision.words, now(), decision.rule);
    return { kind: "held", reason: decision.reason };
  }
  if (!isLogisticId(decision.courierId)) {
    await decide(ref, DECISION.HELD, words("decisions.returns.unknownCourier", { rule: decision.ruleWords }), now(), decision.rule);
    return { kind: "held", reason: "unknown courier" };
  }
  await decide(ref, DECISION.BOOKED, decision.words, now(), decision.rule);
  // The shipment's history names the rule and what it decided, as a forward booking's names its auto-booking rule.
  const outcome = await bookReturnPickup({ ...context, actor: { kind: "rule", name: decision.reason } }, { returnGid, courierId: decision.courierId, quoted: quote, returnRead: ret, settings });
  if (outcome.kind === "booked") return { kind: "booked", awb: outcome.shipment.awb };
  if (outcome.kind === "already_booked") return { kind: "already_booked" };
  if (outcome.kind === "cancelled") return { kind: "cancelled", courier: "nothing_booked" };
  const failed = outcome.kind === "refused" ? refusedWords(outcome) : words("decisions.returns.notBooked", { kind: outcome.kind });
  await decide(ref, DECISION.FAILED, failed, now(), decision.rule);
  return { kind: "held", reason: englishOf(failed) };
}

/** The courier's refusal: Dakiya's own sentence for a known code, else the courier's words as they are (in words that say them alone). */
function refusedWords(outcome: { kind: "refused"; message: string; code?: OutcomeCode }): StoredWords {
  const said = bookOutcomeWords(outcome);
  return typeof said === "object" && englishOf(said) === outcome.message ? said : words("decisions.returns.refused", { message: outcome.message });
}

/** Records what the return rules decided and why, by the rule that decided (the return rules, before one had). */
async function decide(ref: ReturnRef, decision: string, stored: StoredWords, at: Date, rule = RETURN_RULES_ACTOR.name): Promise<void> {
  await recordReturnDecision(ref, { kind: decision, words: stored }, { actor: { kind: "rule", name: rule }, at });
}
