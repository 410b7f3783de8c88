import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getReconciliationSettings, ledgerCsv } from "~/reconciliation/cod-ledger.server";
import { readLedgerFilter } from "~/reconciliation/ledger-filter";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { getShopOverview } from "~/shopify/shop.server";

/**
 * POST /app/cod/export — the COD ledger as CSV, with the page's filters (sent in the body), streamed: any number of
 * parcels. English headings and values, for spreadsheets; every cell neutralised against formulas.
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const { filter, issues } = readLedgerFilter(await request.formData());
  if (issues.length > 0) return new Response(`These filters cannot be read: ${issues.join(", ")}.`, { status: 422, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const [{ ianaTimezone: timeZone }, settings] = await Promise.all([whenShopifyAnswers(() => getShopOverview(shopAdmin(session.shop, shopify))), getReconciliationSettings(session.shop)]);
  return new Response(ledgerCsv({ shop: session.shop, filter, timeZone, now: new Date(), expectedDays: settings.expectedRemittanceDays }), {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="cod-ledger.csv"', "Cache-Control": "no-store" },
  });
};

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  return new Response("Export with POST from the COD remittance page.", { status: 405, headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8" } });
};
