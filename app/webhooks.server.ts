import prisma from "./db.server";
import { authenticate } from "./shopify.server";

export type WebhookContext = Awaited<ReturnType<typeof authenticate.webhook>>;

/**
 * Verifies a webhook (a bad HMAC is answered 401 by the library before anything is written),
 * runs its handler once per Shopify delivery id, and answers 200 so Shopify stops retrying.
 * The delivery is recorded only after the handler succeeds: a crash mid-way gets a 500, Shopify
 * retries, and the handler, which must be idempotent, runs again. Nothing is lost.
 */
export async function receiveWebhook(
  request: Request,
  handle: (context: WebhookContext) => Promise<void>,
): Promise<Response> {
  const context = await authenticate.webhook(request);
  const { webhookId, shop, topic } = context;
  const seen = await prisma.webhookDelivery.findUnique({ where: { id: webhookId } });
  if (seen) return new Response(null, { status: 200 });

  await handle(context);

  await prisma.webhookDelivery.upsert({
    where: { id: webhookId },
    create: { id: webhookId, shop, topic: String(topic) },
    update: {},
  });
  return new Response(null, { status: 200 });
}
