import { getConfig } from "./config.server";
import { databasePool } from "./db.server";
import { enqueue } from "./jobs/job-queue.server";
import type { JobData, QueueName } from "./jobs/queues";
import { isShopDomain } from "./shopify/shop-domains";
import { checkWebhookSignature } from "./shopify/webhook-signature.server";
import { shopsNamedBy, webhookHeaderRefusal, webhookPathOf, type WebhookTopic } from "./webhook-topics";

/**
 * Every webhook route: verify → claim the delivery → enqueue its work → 200, all in a few milliseconds and
 * nothing slow (Shopify allows 5 s and retries anything but a 2xx for hours).
 *
 * The signature and Shopify's headers are checked by Shopify's library (`webhooks.validate`, in
 * shopify/webhook-signature.server.ts) rather than by `authenticate.webhook`, which also loads (and may refresh) the
 * shop's offline session, a Shopify round trip inside the 5 s that acknowledging does not need, and answers 500 to a
 * signed body that is not JSON, which Shopify would redeliver for hours. A bad signature gets 401.
 */

export interface VerifiedWebhook {
  topic: WebhookTopic;
  shop: string;
  webhookId: string;
  triggeredAt: Date | null;
  /** The parsed body; undefined when it was not JSON. */
  payload: unknown;
}

/** What a route makes of a verified delivery: work to enqueue, nothing more to do, or why it cannot be handled. */
export type WebhookDecision<Q extends QueueName = QueueName> =
  | {
      kind: "enqueue";
      queue: Q;
      data: JobData<Q>;
    }
  | { kind: "acknowledge" }
  | { kind: "unusable"; problem: string };

function refuse(status: 400 | 401 | 404 | 405, reason: string): Response {
  return new Response(`${reason}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}


/**
 * A delivery of `topic` as Shopify signs it, or a thrown 4xx Response saying what is wrong with it. The headers are
 * checked before the body is read (the HTTP server has already refused what fails them); the signed body must then
 * agree with the unsigned shop header wherever it names a shop.
 */
export async function verifyWebhook(request: Request, topic: WebhookTopic): Promise<VerifiedWebhook> {
  if (request.method !== "POST") throw refuse(405, "Webhooks are POSTed");
  const refusal = webhookHeaderRefusal(webhookPathOf(topic), request.headers);
  if (refusal) throw refuse(refusal.status, refusal.reason);
  const shop = request.headers.get("x-shopify-shop-domain")!.toLowerCase();
  if (!isShopDomain(shop, getConfig().SHOP_CUSTOM_DOMAIN)) throw refuse(400, "X-Shopify-Shop-Domain is missing or not a shop domain");
  const rawBody = await request.text();
  const signature = await checkWebhookSignature(request, rawBody);
  if (!signature.valid) throw refuse(signature.status, signature.reason);
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    payload = undefined;
  }
  // The signature proves Shopify wrote the body, not that it was sent for this shop: a body naming another shop is a replay.
  if (shopsNamedBy(payload).some((named) => named !== shop)) throw refuse(401, "The signed body names another shop than X-Shopify-Shop-Domain");
  const triggered = Date.parse(request.headers.get("x-shopify-triggered-at") ?? "");
  return { topic, shop, webhookId: request.headers.get("x-shopify-webhook-id")!, triggeredAt: Number.isNaN(triggered) ? null : new Date(triggered), payload };
}

/**
 * Claims the delivery under its webhook id and enqueues its work in one transaction. A redelivery — also one
 * arriving while the first is still being acknowledged — finds the claim (PostgreSQL makes the second insert
 * wait for the first to commit) and changes nothing; a crash before the commit leaves neither, and Shopify's
 * retry starts afresh.
 *
 * With nothing to enqueue the claim is one INSERT … ON CONFLICT DO NOTHING on its own, atomic and durable by
 * itself: no BEGIN and COMMIT round trips, no transaction (npm run bench: 40 % of the app's CPU per
 * acknowledgement when they went through Prisma's interactive transaction).
 *
 * Both go to PostgreSQL on the process's pool directly rather than through Prisma: Prisma 6's JS engine
 * compiles every query, raw ones too, in WebAssembly on the event loop (no plan cache until Prisma 7,
 * prisma/orm#29038), and its client around one statement cost more CPU than verifying, parsing and answering
 * the webhook together (npm run bench: 0.66 → 0.32 ms of the app's CPU per acknowledgement).
 */
export async function acknowledgeWebhook(webhook: VerifiedWebhook, decision: WebhookDecision): Promise<void> {
  const claim: DeliveryClaim = { id: webhook.webhookId, shop: webhook.shop, topic: webhook.topic, triggeredAt: webhook.triggeredAt, problem: decision.kind === "unusable" ? decision.problem : null };
  if (decision.kind === "enqueue") await claimAndEnqueue(claim, decision);
  else await databasePool().query(claimStatement(claim));
  if (decision.kind === "unusable") console.warn(`Webhook ${webhook.webhookId} (${webhook.topic}, ${webhook.shop}) acknowledged but not handled: ${decision.problem}`);
}

interface DeliveryClaim {
  id: string;
  shop: string;
  topic: string;
  triggeredAt: Date | null;
  problem: string | null;
}

/**
 * The row Prisma's `webhookDelivery.createManyAndReturn({ skipDuplicates: true })` writes, unless the id is already
 * recorded: one row counted when this delivery claimed it. Prepared once per connection (npm run bench). Times go as
 * UTC ISO strings into the TIMESTAMP(3) columns, as Prisma writes them (pg would send a Date in the process's local
 * time zone), and receivedAt is given, as Prisma gives it, rather than left to the column's default in the session's
 * time zone.
 */
const claimStatement = (claim: DeliveryClaim) => ({
  name: "webhook-claim",
  text: `INSERT INTO "WebhookDelivery" ("id", "shop", "topic", "triggeredAt", "problem", "receivedAt") VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT ("id") DO NOTHING`,
  values: [claim.id, claim.shop, claim.topic, claim.triggeredAt?.toISOString() ?? null, claim.problem, new Date().toISOString()],
});

/**
 * BEGIN, the claim and the job's INSERT are queued on one pipelining connection without waiting for each other, and
 * PostgreSQL answers them together; then COMMIT, or ROLLBACK, decided on all three answers. Two round trips where
 * awaiting each statement took four (npm run bench). A delivery already claimed inserts no row: its transaction,
 * with the job inserted behind the claim, is rolled back and the delivery acknowledged. Anything that failed rolls
 * it back and is thrown, and the 500 makes Shopify deliver again.
 */
async function claimAndEnqueue(claim: DeliveryClaim, decision: Extract<WebhookDecision, { kind: "enqueue" }>): Promise<void> {
  const client = await databasePool().connect();
  // A connection that cannot end its transaction is broken, or still inside it: it leaves the pool instead.
  let broken: Error | undefined;
  try {
    const [begun, claimed, enqueued] = await Promise.allSettled([
      client.query("BEGIN"),
      client.query(claimStatement(claim)),
      // pg-boss queues its INSERT behind the claim, after a few awaits of its own.
      enqueue(decision.queue, decision.data, { client }),
    ]);
    const failure = [begun, claimed, enqueued].find(isRejected);
    const isNewClaim = claimed.status === "fulfilled" && claimed.value.rowCount === 1;
    await client.query(failure || !isNewClaim ? "ROLLBACK" : "COMMIT").catch((error: Error) => {
      broken = error;
      throw error;
    });
    if (failure) throw failure.reason;
  } finally {
    client.release(broken);
  }
}

const isRejected = (outcome: PromiseSettledResult<unknown>): outcome is PromiseRejectedResult => outcome.status === "rejected";

/** The whole of a webhook route: verify, decide, acknowledge. A client's mistake is a 4xx, never a 5xx. */
export async function receiveWebhook(request: Request, topic: WebhookTopic, decide: (webhook: VerifiedWebhook) => WebhookDecision): Promise<Response> {
  let webhook: VerifiedWebhook;
  try {
    webhook = await verifyWebhook(request, topic);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  const decision: WebhookDecision = webhook.payload === undefined ? { kind: "unusable", problem: "the body is not JSON" } : decide(webhook);
  await acknowledgeWebhook(webhook, decision);
  return new Response(null, { status: 200 });
}
