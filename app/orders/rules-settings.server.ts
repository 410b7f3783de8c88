import { ruleFactsOf } from "~/automation/booking-facts";
import type { OrderRecord } from "@prisma/client";
import prisma from "~/db.server";
import { listRecentOrderRecords, problemsOf, quoteOf } from "~/orders/order-records.server";
import { READINESS } from "~/orders/readiness";
import { getShopSettings } from "~/settings/shop-settings.server";
import { bookingRulesOf, saveBookingRules } from "~/automation/booking-rules.server";
import { PROBLEM_LABELS } from "~/shopify/order-mapping";
import { LOGISTIC_IDS } from "~/shipping/contract";
import { formLanguage } from "~/locales/admin-language";
import { draftOf, parseRulesForm, previewRules, type PreviewOrder, type RuleDraft, type RulePreview } from "~/automation/rules-form";
import type { BookingRule } from "~/automation/rules";
import { listOrderRisks, type OrderRisk } from "~/cod/cod-risk.server";
import { listAskedOrders } from "~/cod/confirmation.server";

/** The auto-booking screen: the shop's rules, whether they run, and which recent orders each would decide. */

const PREVIEW_ORDERS = 50;

function previewOrderOf(record: OrderRecord, risks: Map<string, OrderRisk>, asked: ReadonlySet<string>): PreviewOrder {
  const found = record.readiness === READINESS.PROBLEMS ? problemsOf(record) : null;
  const problems = found ? found.map((problem) => PROBLEM_LABELS[problem.code]).join(", ") : null;
  const stored = ruleFactsOf(record);
  // The rules see what the order check gives them: a cash-on-delivery order's risk, and whether its shopper was asked.
  const facts = stored && { ...stored, riskLevel: stored.paymentMode === "cod" ? (risks.get(record.orderGid)?.level ?? null) : null, shopperAsked: asked.has(record.orderGid) };
  // An order without a name keeps "" here: the page words it in the merchant's language.
  return { orderGid: record.orderGid, orderName: record.orderName, facts, quote: quoteOf(record), problems, ...(found ? { problemCodes: found.map((problem) => problem.code) } : {}) };
}

/**
 * The courier names this shop's quotes and bookings have shown, by logistic id (the service names them only in
 * answers); a courier not seen yet is absent, and the page names it by its number in the merchant's language.
 */
async function courierNamesOf(shop: string, records: OrderRecord[]): Promise<Record<number, string>> {
  const names: Record<number, string> = {};
  for (const record of records) {
    const quote = quoteOf(record);
    for (const quoted of [quote?.cheapest, quote?.fastest, quote?.recommended]) if (quoted) names[quoted.courierId] ??= quoted.name;
  }
  const booked = await prisma.shipment.findMany({
    where: { shop, courierId: { not: null }, courierName: { not: null } },
    distinct: ["courierId"],
    select: { courierId: true, courierName: true },
  });
  for (const shipment of booked) names[shipment.courierId!] ??= shipment.courierName!;
  return Object.fromEntries(LOGISTIC_IDS.flatMap((id) => (names[id] === undefined ? [] : [[id, names[id]]])));
}

async function previewFor(shop: string, rules: readonly BookingRule[]): Promise<{ preview: RulePreview; courierNames: Record<number, string> }> {
  const records = await listRecentOrderRecords(shop, PREVIEW_ORDERS);
  const orderGids = records.map((record) => record.orderGid);
  const [courierNames, risks, asked] = await Promise.all([courierNamesOf(shop, records), listOrderRisks(shop, orderGids), listAskedOrders(shop, orderGids)]);
  // The preview's outcomes are worded here, so they name an unseen courier here too.
  const named = Object.fromEntries(LOGISTIC_IDS.map((id) => [id, courierNames[id] ?? `Courier ${id}`]));
  return { preview: previewRules(rules, records.map((record) => previewOrderOf(record, risks, asked)), named), courierNames };
}

export async function rulesPage(shop: string) {
  const settings = await getShopSettings(shop);
  const rules = bookingRulesOf(settings);
  return { autoBooking: settings.autoBooking, drafts: rules.map(draftOf), ...(await previewFor(shop, rules)) };
}

export type RulesFormOutcome =
  | { kind: "saved"; autoBooking: boolean; drafts: RuleDraft[]; preview: RulePreview }
  | { kind: "previewed"; drafts: RuleDraft[]; preview: RulePreview }
  | { kind: "invalid"; drafts: RuleDraft[]; formError: string | null; fieldErrors: Record<string, string> };

/**
 * Saves the rules (and the auto-booking switch), or previews them unsaved; a rule set with errors is neither, and its
 * errors are in the language the page sent.
 */
export async function submitRulesForm(shop: string, form: FormData): Promise<RulesFormOutcome> {
  const intent = form.get("intent") === "preview" ? "preview" : "save";
  const parsed = parseRulesForm(String(form.get("rules") ?? "[]"), formLanguage(form));
  if (!parsed.ok) return { kind: "invalid", drafts: parsed.drafts, formError: parsed.formError, fieldErrors: parsed.fieldErrors };
  const drafts = parsed.rules.map(draftOf);
  const { preview } = await previewFor(shop, parsed.rules);
  if (intent === "preview") return { kind: "previewed", drafts, preview };
  const autoBooking = form.get("autoBooking") === "on";
  await saveBookingRules(shop, { autoBooking, rules: parsed.rules });
  return { kind: "saved", autoBooking, drafts, preview };
}
