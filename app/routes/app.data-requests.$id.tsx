import type { LoaderFunctionArgs } from "@remix-run/node";
import { compileDataRequest } from "~/privacy/data-requests.server";
import { authenticate } from "~/shopify.server";
import { rowIdOf } from "~/security/row-id";

/**
 * What Dakiya holds for the orders of one of the shop's customers' data requests, as a JSON file to download and
 * send to the customer. Behind the admin's session, and only the shop's own requests.
 */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const id = rowIdOf(params.id);
  const compiled = id === null ? null : await compileDataRequest(session.shop, id);
  if (!compiled) return new Response("No such data request for this shop.\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  return new Response(JSON.stringify(compiled, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="dakiya-data-request-${id}.json"`,
      "Cache-Control": "no-store",
    },
  });
};
