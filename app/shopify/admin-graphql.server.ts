import type { AdminApiContext } from "@shopify/shopify-app-remix/server";

const MAX_ATTEMPTS = 4;
const MAX_WAIT_MS = 5_000;

type GraphqlError = { extensions?: { code?: string } };

/** What the library throws: its client response, with the GraphQL errors under `errors.graphQLErrors`. */
interface ThrownBody {
  errors?: GraphqlError[] | { graphQLErrors?: GraphqlError[] };
  extensions?: { cost?: { requestedQueryCost?: number; throttleStatus?: { currentlyAvailable?: number; restoreRate?: number } } };
}

/** How long Shopify's leaky bucket needs to hold this query's cost, from the throttled answer. */
export function waitForPoints(body: ThrownBody | undefined): number | null {
  const reported = body?.errors;
  const errors = Array.isArray(reported) ? reported : (reported?.graphQLErrors ?? []);
  if (!errors.some((error) => error.extensions?.code === "THROTTLED")) return null;
  const cost = body?.extensions?.cost;
  const missing = (cost?.requestedQueryCost ?? 0) - (cost?.throttleStatus?.currentlyAvailable ?? 0);
  const rate = cost?.throttleStatus?.restoreRate || 50;
  return Math.min(MAX_WAIT_MS, Math.max(250, Math.ceil((missing / rate) * 1000)));
}

/**
 * admin.graphql with Shopify's throttling handled: a THROTTLED answer (which the library throws)
 * waits as long as the bucket needs to refill for this query, then tries again. Other errors, and
 * throttling that outlasts the attempts, are thrown to the caller.
 */
export async function adminGraphql<T>(admin: AdminApiContext, query: string, variables?: Record<string, unknown>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const response = await admin.graphql(query, variables ? { variables } : undefined);
      return ((await response.json()) as { data: T }).data;
    } catch (error) {
      const thrown = error as { body?: ThrownBody; retryAfter?: number; name?: string };
      const wait = thrown.name === "HttpThrottlingError" ? Math.min(MAX_WAIT_MS, (thrown.retryAfter ?? 1) * 1000) : waitForPoints(thrown.body);
      if (wait === null || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
