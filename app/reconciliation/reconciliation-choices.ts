import type { ReconciliationChoices } from "./reconciliation-records.server";

/**
 * The remittance settings as the page's form sends them, checked: the expected remittance time a whole number of
 * days from 1 to 90, and whether a full remittance marks the order paid in Shopify. Pure.
 */
export function readReconciliationChoices(form: FormData): { ok: true; choices: ReconciliationChoices } | { ok: false; field: "expectedRemittanceDays" } {
  const days = String(form.get("expectedRemittanceDays") ?? "").trim();
  if (!/^\d{1,2}$/.test(days) || Number(days) < 1 || Number(days) > 90) return { ok: false, field: "expectedRemittanceDays" };
  return { ok: true, choices: { expectedRemittanceDays: Number(days), markPaidInShopify: form.get("markPaidInShopify") === "on" || form.get("markPaidInShopify") === "true" } };
}
