import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { recordTriggerUse, triggerNamed } from "~/flow/flow-triggers.server";
import { firstIssue, isJsonObjectBody, TriggerLifecycleSchema } from "~/flow/flow-requests";
import { authenticate } from "~/shopify.server";

/**
 * POST /flow/trigger-lifecycle — Flow's trigger lifecycle callback (extensions/flow/dakiya-flow-lifecycle): a shop
 * turned on (or off) its last workflow starting with one of Dakiya's triggers. Signed by Shopify with the app's
 * secret (`authenticate.flow`, 400 when it does not verify). Flow lets the merchant turn the workflow on only after a
 * 2xx, so a trigger Dakiya does not know is acknowledged and ignored.
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  if (!(await isJsonObjectBody(request))) return json({ error: "The body must be a JSON object" }, { status: 400 });
  const { payload, session } = await authenticate.flow(request);
  const parsed = TriggerLifecycleSchema.safeParse(payload);
  if (!parsed.success) return json({ error: firstIssue(parsed.error) }, { status: 400 });
  const notice = parsed.data;
  const trigger = triggerNamed(notice.flow_trigger_definition_id);
  if (!trigger) {
    console.warn(`Flow named a trigger Dakiya does not have for ${session.shop}: ${JSON.stringify(notice.flow_trigger_definition_id.slice(0, 60))}`);
    return json({ recorded: false });
  }
  const news = await recordTriggerUse({ shop: session.shop, trigger, enabled: notice.has_enabled_flow, noticedAt: new Date(notice.timestamp) });
  return json({ recorded: news });
};

export const loader = () => json({ error: "Flow sends its lifecycle callbacks with POST" }, { status: 405, headers: { Allow: "POST" } });
