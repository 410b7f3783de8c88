import { Prisma } from "@prisma/client";
import prisma from "~/db.server";

/**
 * What Dakiya keeps of Shopify Flow that can name a shopper, for the erasure and data request paths
 * (app/privacy/): a trigger's payload until Shopify has it (a failed attempt's reason is the courier's words), and an
 * action run's answer (the outcome in words; a courier's refusal it quotes may name what it refused).
 */

type Client = Prisma.TransactionClient;

const REDACTED = "[redacted]";

/** shop/redact: every Flow record of the shop, in the caller's transaction. */
export async function forgetShopFlow(tx: Client, shop: string): Promise<void> {
  await tx.flowTriggerUse.deleteMany({ where: { shop } });
  await tx.flowTriggerEvent.deleteMany({ where: { shop } });
  await tx.flowActionRun.deleteMany({ where: { shop } });
}

/**
 * customers/redact: the payloads not sent yet of these orders' triggers go (they are not sent then: the event stays
 * recorded, so it never fires again), and the runs' answers keep their outcome but not their words.
 */
export async function redactFlowOf(tx: Client, shop: string, orderGids: readonly string[]): Promise<void> {
  await tx.flowTriggerEvent.updateMany({ where: { shop, orderGid: { in: [...orderGids] }, payload: { not: Prisma.DbNull } }, data: { payload: Prisma.DbNull } });
  const runs = await tx.flowActionRun.findMany({ where: { shop, orderGid: { in: [...orderGids] }, answer: { not: Prisma.DbNull } }, select: { actionRunId: true, answer: true } });
  for (const run of runs) {
    const answer = run.answer as { return_value?: { outcome?: string } } | null;
    const redacted = answer?.return_value ? { return_value: { outcome: answer.return_value.outcome ?? "", message: REDACTED } } : { error: REDACTED };
    await tx.flowActionRun.update({ where: { shop_actionRunId: { shop, actionRunId: run.actionRunId } }, data: { answer: redacted } });
  }
}

/** A data request: what Flow records of these orders hold, by order. */
export async function flowHeldFor(shop: string, orderGids: readonly string[]) {
  const [events, runs] = await Promise.all([
    prisma.flowTriggerEvent.findMany({ where: { shop, orderGid: { in: [...orderGids] } }, orderBy: { createdAt: "asc" } }),
    prisma.flowActionRun.findMany({ where: { shop, orderGid: { in: [...orderGids] } }, orderBy: { startedAt: "asc" } }),
  ]);
  return (orderGid: string) => ({
    // A payload is kept only until Shopify Flow has it: a sent one shows as sent, without its payload.
    triggers: events.filter((event) => event.orderGid === orderGid).map((event) => ({ trigger: event.trigger, at: event.createdAt.toISOString(), sentAt: event.sentAt?.toISOString() ?? null, payload: event.payload })),
    actions: runs.filter((run) => run.orderGid === orderGid).map((run) => ({ action: run.action, at: run.startedAt.toISOString(), answer: run.answer })),
  });
}
