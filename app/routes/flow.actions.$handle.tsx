import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { FlowActionRequestSchema, isFlowAction } from "~/orders/flow-actions";
import { runFlowAction } from "~/orders/flow-actions.server";
import { firstIssue, isJsonObjectBody } from "~/flow/flow-requests";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { authenticate } from "~/shopify.server";

/**
 * POST /flow/actions/{handle} — a run of one of Dakiya's Flow actions (each action's `runtime_url`). Signed by
 * Shopify with the app's secret (`authenticate.flow`: a forged or altered request is refused 400 before anything is
 * read), carried out once per `action_run_id`, and answered in Flow's terms (app/flow/flow-actions.ts).
 */
export const action = async ({ request, params }: ActionFunctionArgs) => {
  const handle = params.handle ?? "";
  if (!isFlowAction(handle)) return json({ error: `Dakiya has no Flow action ${JSON.stringify(handle.slice(0, 60))}` }, { status: 404 });
  if (!(await isJsonObjectBody(request))) return json({ error: "The body must be a JSON object" }, { status: 400 });
  const { payload, session, admin } = await authenticate.flow(request);
  const parsed = FlowActionRequestSchema.safeParse(payload);
  if (!parsed.success) return json({ error: firstIssue(parsed.error) }, { status: 400 });
  const answer = await runFlowAction(session.shop, handle, parsed.data, { admin: shopAdmin(session.shop, admin) });
  return json(answer.body, { status: answer.status, headers: answer.retryAfterSeconds ? { "Retry-After": String(answer.retryAfterSeconds) } : {} });
};

export const loader = () => json({ error: "Flow sends action runs with POST" }, { status: 405, headers: { Allow: "POST" } });
