import type { AdminApiContext } from "@shopify/shopify-app-remix/server";
import { expectedCost, observe, spend, type ThrottleStatus } from "./cost-budget.server";
import type { AdminDocument } from "./admin-document";

/** The Admin API of one shop: the library's client, with the shop it speaks for (its cost budget is per shop). */
export interface ShopAdmin {
  shop: string;
  graphql: AdminApiContext["graphql"];
}

export const shopAdmin = (shop: string, admin: Pick<AdminApiContext, "graphql">): ShopAdmin => ({ shop, graphql: admin.graphql });

const MAX_ATTEMPTS = 4;
const MAX_WAIT_MS = 5_000;

type GraphqlError = { extensions?: { code?: string } };

/** What the library throws: its client response, with the GraphQL errors under `errors.graphQLErrors`. */
interface ThrownBody {
  errors?: GraphqlError[] | { graphQLErrors?: GraphqlError[] };
  extensions?: { cost?: { requestedQueryCost?: number; throttleStatus?: ThrottleStatus } };
}

interface Thrown {
  body?: ThrownBody;
  retryAfter?: number;
  name?: string;
  response?: { code?: number };
  message?: string;
}

/**
 * Shopify did not serve a request within the waits Dakiya allows: it kept throttling the shop, or it failed
 * on its side. Not a bug and not the merchant's mistake: screens say "Shopify is busy, try again in a minute"
 * (app/shopify/busy.server.ts), jobs retry later.
 */
export class ShopifyUnavailableError extends Error {
  override name = "ShopifyUnavailableError";
  constructor(
    readonly reason: "throttled" | "down",
    /** A sensible wait before trying again, in seconds. */
    readonly retryAfterSeconds: number,
  ) {
    super(reason === "throttled" ? "Shopify is throttling requests for this shop" : "Shopify did not answer");
  }
}

function graphqlErrorCodes(body: ThrownBody | undefined): string[] {
  const reported = body?.errors;
  const errors = Array.isArray(reported) ? reported : (reported?.graphQLErrors ?? []);
  return errors.map((error) => error.extensions?.code ?? "");
}

/** How long Shopify's leaky bucket needs to hold this query's cost, from the throttled answer. */
export function waitForPoints(body: ThrownBody | undefined): number | null {
  if (!graphqlErrorCodes(body).includes("THROTTLED")) return null;
  const cost = body?.extensions?.cost;
  const missing = (cost?.requestedQueryCost ?? 0) - (cost?.throttleStatus?.currentlyAvailable ?? 0);
  const rate = cost?.throttleStatus?.restoreRate || 50;
  return Math.min(MAX_WAIT_MS, Math.max(250, Math.ceil((missing / rate) * 1000)));
}

/** Shopify failing on its side: a 5xx, an INTERNAL_SERVER_ERROR, or no answer at all. */
function isShopifyDown(thrown: Thrown | Response): boolean {
  // For an authenticated request, the library forwards Shopify's HTTP error as a thrown Response of that status.
  if (thrown instanceof Response) return thrown.status >= 500;
  if (thrown.name === "HttpInternalError" || (thrown.response?.code ?? 0) >= 500) return true;
  if (graphqlErrorCodes(thrown.body).includes("INTERNAL_SERVER_ERROR")) return true;
  return thrown.name === "TypeError" && /fetch failed/i.test(thrown.message ?? "");
}

/**
 * admin.graphql within the shop's cost budget (cost-budget.server.ts): it waits for the points the query will
 * cost, then calls. A THROTTLED answer all the same (another process spent the bucket; the library throws it)
 * waits as long as the bucket needs to refill for this query and tries again; a failure on Shopify's side is tried
 * again once — unless `sendOnce`: a mutation that would act twice if Shopify did it and then failed to say so (a
 * payment recorded) is never sent again here; its caller reads what Shopify holds before deciding to send it again.
 * When that does not get through, ShopifyUnavailableError is thrown; other errors as they are.
 */
export async function adminGraphql<Answer, Variables>(admin: ShopAdmin, query: AdminDocument<Answer, Variables>, variables?: Variables, { sendOnce = false }: { sendOnce?: boolean } = {}): Promise<Answer> {
  for (let attempt = 1; ; attempt += 1) {
    const admitted = await spend(admin.shop, expectedCost(query));
    let answered = false;
    try {
      const response = await admin.graphql(query, variables ? { variables: variables as Record<string, unknown> } : undefined);
      const body = (await response.json()) as { data: Answer } & ThrownBody;
      answered = true;
      observe(admin.shop, query, body.extensions?.cost, admitted);
      return body.data;
    } catch (error) {
      const thrown = error as Thrown;
      if (!answered) observe(admin.shop, query, thrown.body?.extensions?.cost, admitted);
      if (error instanceof Response && error.status === 429) thrown.retryAfter = Number(error.headers.get("Retry-After") ?? 1) || 1;
      const throttledWait = thrown.name === "HttpThrottlingError" || (error instanceof Response && error.status === 429) ? Math.min(MAX_WAIT_MS, (thrown.retryAfter ?? (thrown.response as { retryAfter?: number } | undefined)?.retryAfter ?? 1) * 1000) : waitForPoints(thrown.body);
      if (throttledWait !== null) {
        if (attempt >= MAX_ATTEMPTS) throw new ShopifyUnavailableError("throttled", Math.max(1, Math.ceil(throttledWait / 1000)));
        await new Promise((resolve) => setTimeout(resolve, throttledWait));
        continue;
      }
      if (isShopifyDown(error instanceof Response ? error : thrown)) {
        if (attempt >= 2 || sendOnce) throw new ShopifyUnavailableError("down", 60);
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      throw error;
    }
  }
}
