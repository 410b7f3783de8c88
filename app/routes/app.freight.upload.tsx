import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { answerStatementUpload } from "~/reconciliation/statement-upload.server";
import { authenticate } from "~/shopify.server";

/**
 * POST /app/freight/upload — a freight invoice or weight-discrepancy statement (the body is the CSV file, streamed in as it arrives; the HTTP
 * server holds it to its limit): imported, and answered as JSON (app/reconciliation/statement-upload.server.ts).
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return answerStatementUpload(session.shop, "invoice", request);
};

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  return new Response("Upload a freight invoice with POST from the Freight & weight page.", { status: 405, headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8" } });
};
