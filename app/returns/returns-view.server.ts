import * as z from "zod";
import { DRAFT_FIELDS, returnRuleFieldKey, type ReturnRuleDraft } from "./return-rule-drafts";
import prisma from "~/db.server";
import { bookReturnPickup, quoteReturnPickup } from "./return-pickup.server";
import { bookOutcomeInWords } from "~/booking/book-outcome";
import { listReturnHistories, type ReturnHistoryEntry } from "./return-history.server";
import { isStoppedReturn } from "./return-lifecycle";
import { shipmentStatusLabel } from "~/shipments/lifecycle";
import { isLogisticId, LOGISTIC_IDS } from "~/shipping/contract";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { isReturnGid } from "~/shopify/admin-returns.server";
import type { MappingProblem } from "~/shopify/order-mapping";
import { getShopSettings } from "~/settings/shop-settings.server";
import { adminStrings, fill, formLanguage, perAdminLanguage, type AdminLanguage } from "~/locales/admin-language";
import { listOf, MAX_RETURN_RULES, RETURN_DISPOSITIONS, RETURN_RULES, returnRuleSchemaIn, ReturnRulesSchema, returnSettingsOf, type ReturnRuleEntry, type ReturnSettings } from "./return-settings";

/** A return as the Returns view lists it: nothing of the shopper but the PIN code the pickup is from. */
export interface ReturnRow {
  returnGid: string;
  returnName: string;
  orderGid: string;
  /** Where the return is (app/returns/return-lifecycle.ts), and its history, oldest first. */
  state: string;
  history: ReturnHistoryEntry[];
  /** As stored: the page words each in the admin's language. */
  problems: MappingProblem[];
  decisionReason: string | null;
  /** The reason's words (StoredWords), for the page to say it in the admin's language; null for a reason kept before them. */
  decisionWords: unknown;
  weightGrams: number | null;
  pincode: string | null;
  requestedAt: string | null;
  pickup: { awb: string | null; courierName: string | null; status: string; statusLabel: string; trackingUrl: string | null } | null;
}

const PAGE_SIZE = 50;

/** The shop's returns, newest first: what Dakiya recorded of each, and its pickup. No Shopify call. */
export async function listReturns(shop: string): Promise<{ rows: ReturnRow[]; settings: ReturnSettings; courierNames: Record<number, string> }> {
  const [records, settings] = await Promise.all([prisma.returnRecord.findMany({ where: { shop }, orderBy: [{ requestedAt: "desc" }, { id: "desc" }], take: PAGE_SIZE }), getShopSettings(shop)]);
  const [pickups, histories] = await Promise.all([
    prisma.shipment.findMany({ where: { shop, orderGid: { in: records.map((record) => record.returnGid) } } }),
    listReturnHistories(shop, records.map((record) => record.returnGid)),
  ]);
  const pickupOf = new Map(pickups.map((pickup) => [pickup.orderGid, pickup]));
  const booked = await prisma.shipment.findMany({ where: { shop, courierId: { not: null }, courierName: { not: null } }, distinct: ["courierId"], select: { courierId: true, courierName: true } });
  const named = new Map(booked.map((shipment) => [shipment.courierId!, shipment.courierName!]));
  return {
    courierNames: Object.fromEntries(LOGISTIC_IDS.map((id) => [id, named.get(id) ?? `Courier ${id}`])),
    settings: returnSettingsOf(settings),
    rows: records.map((record) => {
      const pickup = pickupOf.get(record.returnGid);
      return {
        returnGid: record.returnGid,
        returnName: record.returnName,
        orderGid: record.orderGid,
        state: record.state,
        history: histories.get(record.returnGid) ?? [],
        problems: record.problems as unknown as MappingProblem[],
        decisionReason: record.decisionReason,
        decisionWords: record.decisionWords,
        weightGrams: record.weightGrams,
        pincode: record.pincode,
        requestedAt: record.requestedAt?.toISOString() ?? null,
        pickup: pickup
          ? { awb: pickup.awb, courierName: pickup.courierName, status: pickup.status, statusLabel: shipmentStatusLabel(pickup.status).label, trackingUrl: pickup.trackingUrl }
          : null,
      };
    }),
  };
}

/** The form's own fields' checks, their messages in one admin language. */
function returnSettingsFormSchema(language: AdminLanguage) {
  const m = adminStrings(language).errors.returns;
  return z
    .object({
      returnRule: z.enum(RETURN_RULES, { error: m.defaultRule }),
      returnCourierId: z.union([z.literal(""), z.coerce.number().int()]).optional(),
      returnNotifyCustomer: z.enum(["on"]).optional(),
      returnDisposition: z.enum(RETURN_DISPOSITIONS, { error: m.disposition }),
    })
    .refine((form) => form.returnRule !== "courier" || isLogisticId(form.returnCourierId), { path: ["returnCourierId"], error: m.defaultCourier });
}

const FORM_SCHEMAS = perAdminLanguage(returnSettingsFormSchema);

/** A return rule as the settings edit it: every number and list as typed. */

const MAX_RULES_JSON_CHARS = 32_000;

/** "" is no limit; anything else must read as a number (the schema then bounds it). */
const amountOf = (text: string): number | string | null => {
  const trimmed = text.trim().replace(/,/g, "");
  if (trimmed === "") return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : trimmed;
};

/** The rules the form sent (a JSON array of drafts), or one message per wrong field, each naming its rule. */
function parseReturnRules(json: string, language: AdminLanguage): { ok: true; rules: ReturnRuleEntry[] } | { ok: false; errors: Record<string, string> } {
  const m = adminStrings(language).errors;
  let parsed: unknown;
  try {
    parsed = json.length > MAX_RULES_JSON_CHARS ? null : JSON.parse(json);
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed)) return { ok: false, errors: { returnRules: m.returns.unreadable } };
  if (parsed.length > MAX_RETURN_RULES) return { ok: false, errors: { returnRules: fill(m.returns.tooMany, { max: MAX_RETURN_RULES, extra: parsed.length - MAX_RETURN_RULES }) } };
  const errors: Record<string, string> = {};
  const rules: ReturnRuleEntry[] = [];
  parsed.forEach((value: unknown, index) => {
    const raw = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
    const draft = Object.fromEntries(DRAFT_FIELDS.map((field) => [field, typeof raw[field] === "string" ? raw[field].slice(0, 2_000) : ""])) as unknown as ReturnRuleDraft;
    const result = returnRuleSchemaIn(language).safeParse({
      name: draft.name,
      reasons: listOf(draft.reasons),
      minValueRupees: amountOf(draft.minValueRupees),
      maxValueRupees: amountOf(draft.maxValueRupees),
      pincodePrefixes: listOf(draft.pincodePrefixes),
      tags: listOf(draft.tags),
      action: draft.action,
      courierId: draft.action === "courier" && draft.courierId !== "" ? Number(draft.courierId) : null,
    });
    if (result.success && (result.data.courierId === null || isLogisticId(result.data.courierId))) {
      rules.push(result.data);
      return;
    }
    const name = draft.name.trim().slice(0, 60);
    const named = name ? fill(m.returns.namedRule, { number: index + 1, name }) : fill(m.returns.rule, { number: index + 1 });
    const issues = result.success ? [{ path: ["courierId"], message: m.returns.courierOffered }] : result.error.issues;
    for (const issue of issues) {
      const key = returnRuleFieldKey(index, (issue.path[0] ?? "name") as keyof ReturnRuleDraft);
      errors[key] ??= fill(m.rules.ruleError, { rule: named, message: issue.message });
    }
  });
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, rules };
}

/**
 * The return settings as the Returns view's form sent them, or one message per wrong field (each rule's named), in the
 * language the page sent.
 */
export function readReturnSettingsForm(form: FormData): { ok: true; settings: ReturnSettings } | { ok: false; errors: Record<string, string> } {
  const language = formLanguage(form);
  const fields = Object.fromEntries(["returnRule", "returnCourierId", "returnNotifyCustomer", "returnDisposition"].flatMap((name) => (form.has(name) ? [[name, String(form.get(name)).slice(0, 500).trim()]] : [])));
  const parsed = FORM_SCHEMAS[language].safeParse(fields);
  const rules = parseReturnRules(String(form.get("returnRules") ?? "[]"), language);
  const errors = { ...(parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0] ?? "form"), issue.message]))), ...(rules.ok ? {} : rules.errors) };
  if (!parsed.success || !rules.ok) return { ok: false, errors };
  return {
    ok: true,
    settings: {
      rule: parsed.data.returnRule,
      courierId: parsed.data.returnRule === "courier" ? Number(parsed.data.returnCourierId) : null,
      notifyCustomer: parsed.data.returnNotifyCustomer === "on",
      disposition: parsed.data.returnDisposition,
      rules: ReturnRulesSchema.parse(rules.rules),
    },
  };
}

export type SaveResult = { ok: true } | { ok: false; errors: Record<string, string> };

/** Saves the return rules and settings from the Returns view's form; a mistake is named per field and nothing is saved. */
export async function saveReturnSettings(shop: string, form: FormData): Promise<SaveResult> {
  const read = readReturnSettingsForm(form);
  if (!read.ok) return read;
  const { settings } = read;
  const data = {
    returnRule: settings.rule,
    returnCourierId: settings.courierId,
    returnNotifyCustomer: settings.notifyCustomer,
    returnDisposition: settings.disposition,
    returnRules: JSON.stringify(settings.rules),
  };
  await prisma.shopSettings.upsert({ where: { shop }, create: { shop, ...data }, update: data });
  return { ok: true };
}

export type BookPickupResult = { ok: true; message: string; awb: string | null } | { ok: false; status: 404 | 409 | 422 | 503; message: string };

/**
 * The merchant's click on "Book pickup": the return is quoted again and booked with the courier named, or the one
 * Dakiya recommends, through the same exactly-once claim as every booking. The message is in the language asked for
 * (the admin's, which its page sends).
 */
export async function bookPickupByMerchant(shop: string, admin: ShopAdmin, returnGid: string, courierId: number | null, language: AdminLanguage = "en"): Promise<BookPickupResult> {
  const words = adminStrings(language).outcomes.pickup;
  if (!isReturnGid(returnGid)) return { ok: false, status: 422, message: words.whichReturn };
  const record = await prisma.returnRecord.findUnique({ where: { shop_returnGid: { shop, returnGid } } });
  if (!record) return { ok: false, status: 404, message: words.notSeen };
  if (isStoppedReturn(record.state)) return { ok: false, status: 409, message: words.cancelled };
  const context = { shop, admin, actor: { kind: "merchant" as const, name: "Returns" } };
  const quote = await quoteReturnPickup(context, { returnGid });
  if (quote.kind === "unavailable") return { ok: false, status: 503, message: bookOutcomeInWords(quote, { language }) };
  if (quote.kind !== "quoted") return { ok: false, status: 422, message: bookOutcomeInWords(quote, { problems: "fixes", language }) };
  const chosen = courierId ?? quote.rates.find((rate) => rate.isRecommended)?.id ?? quote.rates[0]!.id;
  if (!isLogisticId(chosen)) return { ok: false, status: 422, message: words.chooseCourier };
  const outcome = await bookReturnPickup(context, { returnGid, courierId: chosen, quoted: quote });
  if (outcome.kind === "booked") return { ok: true, message: fill(words.booked, { courier: String(outcome.shipment.courierName), awb: String(outcome.shipment.awb) }), awb: outcome.shipment.awb };
  if (outcome.kind === "already_booked") {
    const { awb } = outcome.shipment;
    return { ok: false, status: 409, message: awb ? fill(words.alreadyBookedAwb, { awb }) : words.alreadyBooked };
  }
  return { ok: false, status: 422, message: bookOutcomeInWords(outcome, { problems: "fixes", language }) };
}
