import prisma from "~/db.server";
import { formLanguage, type AdminLanguage } from "~/locales/admin-language";
import { SHIPMENT_OUTCOME } from "~/shipments/lifecycle";
import { applyRuleToAttempt, type RuleOutcome } from "./failed-delivery-changes.server";
import { draftOfRule, firstMatchingRule, parseDeskRulesForm, readStoredRules, type DeskRule, type DeskRuleDraft } from "./desk-rules";
import { getDeskSettings } from "./desk-settings.server";

const HOUR_MS = 3_600_000;

/** The shop's rules, as stored and checked; none for a shop that saved none. */
export async function getDeskRules(shop: string): Promise<DeskRule[]> {
  return readStoredRules((await getDeskSettings(shop)).rules);
}

/** What the rules page loads: the rules as drafts, and the hours a waiting rule waits. */
export async function deskRulesPage(shop: string): Promise<{ drafts: DeskRuleDraft[]; returnAfterHours: number }> {
  const settings = await getDeskSettings(shop);
  return { drafts: readStoredRules(settings.rules).map(draftOfRule), returnAfterHours: settings.returnAfterHours };
}

export type RulesSaveAnswer =
  | { ok: true; drafts: DeskRuleDraft[] }
  /** 422: what to fix, for the whole form or by field ("0.name"), in the admin's language. */
  | { ok: false; formError: string | null; fieldErrors: Record<string, string> };

/** The rules page's Save: the rules checked (limits on count and lengths) and stored whole, or what to fix. */
export async function saveDeskRules(shop: string, form: FormData, language: AdminLanguage = formLanguage(form)): Promise<RulesSaveAnswer> {
  const raw = form.get("rules");
  const parsed = parseDeskRulesForm(typeof raw === "string" ? raw : "", language);
  if (!parsed.ok) return parsed;
  const rules = JSON.stringify(parsed.rules);
  await prisma.failedDeliverySettings.upsert({ where: { shop }, create: { shop, rules }, update: { rules } });
  return { ok: true, drafts: parsed.rules.map(draftOfRule) };
}

/**
 * The shop's rules for a parcel's current failed attempt, as tracking records it (the sync calls this after every
 * read of a parcel in a failed attempt): the first rule that matches the courier's reason, the payment mode and the
 * attempt's number decides it, or waits for the shopper until the time left before the courier's usual return runs
 * out. Once per attempt (the desk's row keeps the attempt its rules were checked for): a sync that stopped before
 * this step has it done by the next read. A shop without rules writes nothing; nor does an attempt recorded before
 * the rules were saved (the merchant may be deciding it already: a rule acts on attempts as they arrive).
 */
export async function applyDeskRules(shipment: { id: number; shop: string }, now: Date): Promise<RuleOutcome> {
  const settings = await prisma.failedDeliverySettings.findUnique({ where: { shop: shipment.shop }, select: { rules: true, returnAfterHours: true, updatedAt: true } });
  const rules = settings ? readStoredRules(settings.rules) : [];
  if (!settings || rules.length === 0) return { kind: "not_applied" };
  const parcel = await prisma.shipment.findFirst({
    where: { id: shipment.id, shop: shipment.shop, direction: "forward", outcome: SHIPMENT_OUTCOME.DELIVERY_ATTEMPTED, deliveryAttempts: { gt: 0 } },
    select: {
      deliveryAttempts: true,
      paymentMode: true,
      failedDelivery: { select: { attempt: true, ruleAttempt: true } },
      trackingEvents: { where: { code: 9 }, orderBy: [{ happenedAt: "desc" }, { id: "desc" }], take: 1, select: { activity: true, happenedAt: true, createdAt: true } },
    },
  });
  const attempt = parcel?.trackingEvents[0];
  if (!parcel || !attempt || parcel.failedDelivery?.ruleAttempt === parcel.deliveryAttempts) return { kind: "not_applied" };
  if (attempt.createdAt.getTime() < settings.updatedAt.getTime()) return { kind: "not_applied" };
  const matched = firstMatchingRule(rules, { reason: attempt.activity, paymentMode: parcel.paymentMode === "prepaid" ? "prepaid" : "cod", attempt: parcel.deliveryAttempts });
  const waitUntil = new Date(attempt.happenedAt.getTime() + settings.returnAfterHours * HOUR_MS);
  return applyRuleToAttempt({ shop: shipment.shop, shipmentId: shipment.id }, parcel.deliveryAttempts, matched ? { rule: matched.rule, waitUntil } : null, { actor: { kind: "job", name: "tracking-sync" }, at: now });
}
