import prisma from "~/db.server";
import { LOCK_SPACE, lockIdOf, withAdvisoryLock } from "~/locks.server";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { setOrderNote } from "~/shopify/order-note.server";
import { markOrderAsPaid, readOrderPayment, recordManualPayment } from "~/shopify/order-payments.server";
import { nextPaymentStep, noteWithRemittance, type ParcelRemittance } from "./cod-payments";
import { queuePaymentsRemittedBeforeDelivery, settleShopifyPayment, type PaymentSettlement } from "./reconciliation-records.server";

/**
 * The `cod-shopify-payments` job: the shop's parcels remitted in full, recorded as paid in Shopify one by one, each
 * under its order's lock (two parcels of one order, or two workers, take turns) and each after reading the order as
 * Shopify holds it now — so a payment Shopify took while Dakiya did not hear back is found, not made again. A pass is
 * bounded in time; what is left is the next job's. Shopify busy or down throws, and the queue retries.
 */

const PASS_MS = 4 * 60_000;

export interface PaymentPass {
  settled: number;
  more: boolean;
}

export async function recordCodPayments(shop: string, { adminFor, now }: { adminFor: (shop: string) => Promise<ShopAdmin>; now: () => Date }, { passMs = PASS_MS } = {}): Promise<PaymentPass> {
  const started = Date.now();
  // A parcel remitted before it was read delivered, and delivered since, is paid like the rest.
  await queuePaymentsRemittedBeforeDelivery(shop, { queueJob: false });
  const admin = await adminFor(shop);
  let settled = 0;
  let afterId = 0;
  for (;;) {
    const pending = await prisma.shopifyCodPayment.findMany({ where: { shop, state: "pending", id: { gt: afterId } }, orderBy: { id: "asc" }, take: 20 });
    if (pending.length === 0) return { settled, more: false };
    for (const payment of pending) {
      if (Date.now() - started > passMs) return { settled, more: true };
      afterId = payment.id;
      const done = await withAdvisoryLock(LOCK_SPACE.ORDER_PAYMENT, lockIdOf(`${shop}|${payment.orderGid}`), () => recordOne(admin, payment, now), { wait: true });
      if (done) settled += 1;
    }
  }
}

async function recordOne(admin: ShopAdmin, payment: { id: number; shop: string; orderGid: string } & ParcelRemittance, now: () => Date): Promise<boolean> {
  // Another worker may have settled it while this one waited for the order.
  const still = await prisma.shopifyCodPayment.findFirst({ where: { id: payment.id, shop: payment.shop, state: "pending" } });
  if (!still) return false;
  const order = await readOrderPayment(admin, payment.orderGid);
  const step = nextPaymentStep(order, payment);
  let settlement: PaymentSettlement;
  switch (step.kind) {
    case "not_recordable":
      settlement = { state: "refused", detail: step.reason === "order_gone" ? "Shopify no longer has the order." : "The order is cancelled in Shopify." };
      break;
    case "already_paid":
      settlement = { state: "already_paid" };
      break;
    case "already_recorded":
      settlement = { state: "recorded", method: "manual_payment" };
      break;
    case "mark_as_paid": {
      const outcome = await markOrderAsPaid(admin, payment.orderGid);
      settlement = outcome.kind === "recorded" ? { state: "recorded", method: "mark_as_paid" } : { state: "refused", detail: outcome.message };
      break;
    }
    case "manual_payment": {
      const outcome = await recordManualPayment(admin, payment.orderGid, { amountPaise: step.amountPaise, methodName: step.methodName, processedAt: now() });
      settlement = outcome.kind === "recorded" ? { state: "recorded", method: "manual_payment" } : { state: "refused", detail: outcome.message };
      break;
    }
  }
  if (settlement.state === "recorded" && order) {
    // The note says which remittance paid it: the order read before the payment has the note as the merchant left it.
    const note = noteWithRemittance(order.note, payment);
    if (note !== null) {
      const noted = await setOrderNote(admin, payment.orderGid, note);
      if (noted.kind === "refused") console.warn(`Shopify refused the remittance note on ${payment.orderGid} of ${payment.shop}; the payment is recorded`);
    }
  }
  return settleShopifyPayment(payment.shop, payment.id, settlement, now());
}
