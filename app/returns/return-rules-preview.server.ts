import type { ReturnRecord } from "@prisma/client";
import prisma from "~/db.server";
import { RETURN_STATE } from "./return-lifecycle";
import { PROBLEM_LABELS, type MappingProblem } from "~/shopify/order-mapping";
import { chooseReturnRule, type ReturnFacts, type ReturnSettings } from "./return-settings";
import { readReturnSettingsForm } from "./returns-view.server";

/**
 * "Preview on recent returns" on Orders to ship → Returns: which of the shop's recent returns each return rule, as
 * edited and not saved, would decide, which would fall to the default, and which no rule books. It reads only what
 * Dakiya recorded when it last checked each return (no Shopify or courier call), and chooses the rule through the
 * return check's own `chooseReturnRule`.
 */

/** As many returns as the Returns view lists. */
const PREVIEW_RETURNS = 50;

export interface PreviewedReturn {
  returnGid: string;
  returnName: string;
}

export interface ReturnRulesPreview {
  /** How many recent returns were looked at. */
  looked: number;
  /** Per rule, in order: the recent returns it would decide (the first rule that matches wins). */
  byRule: PreviewedReturn[][];
  /** The returns no rule matches: "Any other return" decides them. */
  byDefault: PreviewedReturn[];
  /** The returns that would not be booked whatever the rules say, and why: `kind` for the page to say it, `why` in words. */
  notBooked: (PreviewedReturn & NotBookedWhy)[];
}

/** Why a return is not booked; a return with problems is named by its problems' labels, which the page words from their codes. */
export type NotBookedWhy = { kind: "declined" | "cancelled" | "closed" | "unchecked"; why: string } | { kind: "problems"; why: string; problemCodes: string[] };

/** Why a recorded return would not be booked by any rule, or null when the rules decide it. */
function whyNotBooked(record: ReturnRecord): NotBookedWhy | null {
  if (record.state === RETURN_STATE.DECLINED) return { kind: "declined", why: "declined in Shopify" };
  if (record.state === RETURN_STATE.CANCELLED) return { kind: "cancelled", why: "cancelled in Shopify" };
  if (record.state === RETURN_STATE.CLOSED) return { kind: "closed", why: "closed in Shopify" };
  const problems = Array.isArray(record.problems) ? (record.problems as unknown as MappingProblem[]) : [];
  if (problems.length > 0) return { kind: "problems", why: problems.map((problem) => PROBLEM_LABELS[problem.code] ?? problem.code).join(", "), problemCodes: problems.map((problem) => problem.code) };
  // Recorded before it could be mapped (never checked, or read without a pickup address): nothing for a rule to read.
  if (record.totalPaise === null || record.pincode === null) return { kind: "unchecked", why: "not checked yet" };
  return null;
}

/** Sorts recorded returns by the rule that would decide each; pure, given the order tags the check would read. */
export function previewReturnRules(settings: Pick<ReturnSettings, "rule" | "courierId" | "rules">, records: readonly ReturnRecord[], orderTags: ReadonlyMap<string, string[]>): ReturnRulesPreview {
  const preview: ReturnRulesPreview = { looked: records.length, byRule: settings.rules.map(() => []), byDefault: [], notBooked: [] };
  for (const record of records) {
    const named: PreviewedReturn = { returnGid: record.returnGid, returnName: record.returnName || "Return" };
    const why = whyNotBooked(record);
    if (why !== null) {
      preview.notBooked.push({ ...named, ...why });
      continue;
    }
    // What the return check hands the rules: the returning items' value, the pickup's PIN code, every reason word
    // recorded, and the order's tags.
    const facts: ReturnFacts = { totalPaise: record.totalPaise!, pincode: record.pincode!, reasons: record.reasons, tags: orderTags.get(record.orderGid) ?? [] };
    const { ruleIndex } = chooseReturnRule(settings, facts);
    if (ruleIndex === null) preview.byDefault.push(named);
    else preview.byRule[ruleIndex]!.push(named);
  }
  return preview;
}

/** The shop's most recent returns as Dakiya recorded them, any status, newest first, and their orders' tags. */
async function recentReturnsOf(shop: string): Promise<{ records: ReturnRecord[]; orderTags: Map<string, string[]> }> {
  const records = await prisma.returnRecord.findMany({ where: { shop }, orderBy: [{ requestedAt: "desc" }, { id: "desc" }], take: PREVIEW_RETURNS });
  // The return itself keeps no tags: the order's, as Dakiya last recorded them, stand for what the check reads from Shopify.
  const orders = await prisma.orderRecord.findMany({ where: { shop, orderGid: { in: [...new Set(records.map((record) => record.orderGid))] } }, select: { orderGid: true, tags: true } });
  return { records, orderTags: new Map(orders.map((order) => [order.orderGid, order.tags])) };
}

export type ReturnRulesPreviewResult = { ok: true; preview: ReturnRulesPreview } | { ok: false; errors: Record<string, string> };

/** Previews the Returns view's form as sent (nothing saved); a form save would refuse is refused with the same errors. */
export async function previewReturnRulesForm(shop: string, form: FormData): Promise<ReturnRulesPreviewResult> {
  const read = readReturnSettingsForm(form);
  if (!read.ok) return read;
  const { records, orderTags } = await recentReturnsOf(shop);
  return { ok: true, preview: previewReturnRules(read.settings, records, orderTags) };
}
