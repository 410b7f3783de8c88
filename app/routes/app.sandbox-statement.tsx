import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { sandboxStatement } from "~/reconciliation/sandbox-statements.server";
import { isStatementKind } from "~/reconciliation/statement-columns";
import { authenticate } from "~/shopify.server";

/**
 * POST /app/sandbox-statement — for a shop on the courier sandbox, the sandbox's remittance statement (`kind=remittance`)
 * or freight invoice (`kind=invoice`) of the shop's parcels, as the CSV file an aggregator's panel gives: what the
 * COD remittance and Freight & weight pages import. 409 for a shop with its own courier account.
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const kind = (await request.formData()).get("kind");
  if (!isStatementKind(kind)) return new Response("kind must be remittance or invoice.", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const statement = await sandboxStatement(session.shop, kind);
  if (!statement.ok) {
    return statement.reason === "own_account"
      ? new Response("The shop ships with its own courier account: download its statements from the aggregator's panel.", { status: 409, headers: { "Content-Type": "text/plain; charset=utf-8" } })
      : new Response("The courier sandbox did not answer. Try again in a minute.", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "60" } });
  }
  return new Response(statement.csv, { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${statement.fileName.replace(/[^\w.-]/g, "")}"`, "Cache-Control": "no-store" } });
};

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  return new Response("Ask for a sandbox statement with POST.", { status: 405, headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8" } });
};
