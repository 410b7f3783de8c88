import type { LoaderFunctionArgs } from "@remix-run/node";
import { codReport, codReportCsv } from "~/cod/cod-report.server";
import { authenticate } from "~/shopify.server";

/**
 * GET /app/cod-report/export — Home's cash-on-delivery figures as CSV (RTO rates by payment mode and by confirmation, how
 * asking shoppers went, the PIN codes that send most back). Counts and PIN codes only: nothing of any shopper. The file
 * is for spreadsheets, so its headings and values stay in English whatever the admin's language.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return new Response(codReportCsv(await codReport(session.shop)), {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="cash-on-delivery.csv"', "Cache-Control": "no-store" },
  });
};
