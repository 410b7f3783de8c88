import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { readShipmentFilter } from "~/shipments/shipments.server";
import { shipmentsCsv } from "~/shipments/shipments-csv.server";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { getShopOverview } from "~/shopify/shop.server";

/**
 * POST /app/shipments/export — the Shipments list as CSV, with the filters the page shows (sent in the body, so a
 * search by the shopper's mobile never sits in an address). Streamed: any number of rows. The file is for
 * spreadsheets and the tools that read them, so its column headings and values stay in English whatever the admin's
 * language; the page reports a failed export in the merchant's language, not this route's answer.
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const { filter, problems } = readShipmentFilter(await request.formData());
  if (problems.length > 0) return new Response(problems.join(" "), { status: 422, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const shop = await whenShopifyAnswers(() => getShopOverview(shopAdmin(session.shop, shopify)));
  return new Response(shipmentsCsv(session.shop, filter, shop.ianaTimezone), {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="shipments.csv"', "Cache-Control": "no-store" },
  });
};

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  return new Response("Export with POST from the Shipments page.", { status: 405, headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8" } });
};
