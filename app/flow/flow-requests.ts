import * as z from "zod";

/**
 * What Shopify Flow sends Dakiya, parsed at the edge. Pure. A request these refuse is the caller's mistake (or not
 * Flow's): the routes answer it 400 with the reason, never a 5xx.
 */

/** Flow's trigger lifecycle callback: whether the shop has a workflow turned on that starts with the trigger. */
export const TriggerLifecycleSchema = z.object({
  flow_trigger_definition_id: z.string({ error: "flow_trigger_definition_id is missing" }).trim().min(1).max(255),
  has_enabled_flow: z.boolean({ error: "has_enabled_flow must be true or false" }),
  shopify_domain: z.string({ error: "shopify_domain is missing" }).min(1).max(255),
  timestamp: z.iso.datetime({ offset: true, error: "timestamp must be an ISO 8601 time" }),
});

export type TriggerLifecycle = z.infer<typeof TriggerLifecycleSchema>;

/**
 * Whether a body is a JSON object, read from a copy of the request before the library reads the original: the
 * library parses a signed body without asking, and a body that is not JSON would otherwise be a 500.
 */
export async function isJsonObjectBody(request: Request): Promise<boolean> {
  try {
    const parsed: unknown = JSON.parse(await request.clone().text());
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** The first thing wrong with a parsed payload, in words. */
export const firstIssue = (error: z.ZodError): string => {
  const issue = error.issues[0]!;
  return issue.path.length > 0 && !issue.message.includes(String(issue.path.at(-1))) ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
};
