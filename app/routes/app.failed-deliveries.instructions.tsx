import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { takeNdrInstructions } from "~/failed-deliveries/ndr-instructions.server";
import { authenticate } from "~/shopify.server";

/**
 * POST /app/failed-deliveries/instructions — the day's NDR instructions as CSV, from the desk's button: the decisions
 * for the courier not handed off yet, each marked handed off as it goes into the file.
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { csv, count } = await takeNdrInstructions(session.shop, "csv", { actor: { kind: "merchant", name: "Failed-delivery desk" }, at: new Date() });
  return new Response(csv, {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="ndr-instructions.csv"', "Cache-Control": "no-store", "X-Handed-Off": String(count) },
  });
};

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  return new Response("Download the instructions with POST from the failed-delivery desk.", { status: 405, headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8" } });
};
