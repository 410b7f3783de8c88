import { shopAdmin, type ShopAdmin } from "~/shopify/admin-graphql.server";
import prisma from "~/db.server";
import { resumeShipment, type Destinations } from "~/booking/book-shipment.server";
import { ORDER_PARCELS } from "~/orders/book-order.server";
import { RETURN_PICKUPS } from "~/returns/return-pickup.server";
import { eraseAtSandbox, forgetShop, redactCustomer } from "~/privacy/personal-data.server";
import { recordDataRequest } from "~/privacy/data-requests.server";
import { unauthenticated } from "~/shopify.server";
import { installationOf, recordGrantedScopes } from "~/shopify/installation.server";
import { handleCancellation } from "~/orders/cancel-order.server";
import { checkOrder } from "~/orders/check-order.server";
import { checkReturn } from "~/returns/check-return.server";
import { listInstalledShops, reconcileOrders } from "~/orders/reconcile.server";
import { isShopInstalled, listShopsDueForTracking, syncShopTracking } from "~/tracking/sync.server";
import { refreshVariantWeights } from "~/storefront/variant-weights.server";
import { enqueue, type JobHandlers } from "~/jobs/job-queue.server";
import { sendFlowTriggerEvent } from "~/flow/flow-triggers.server";
import { recordCodPayments } from "~/reconciliation/shopify-payments.server";
import { queuePaymentsRemittedBeforeDelivery } from "~/reconciliation/reconciliation-records.server";
import { readOrderPayment } from "~/shopify/order-payments.server";
import { carryOnConfirmation, runConfirmationDeadline } from "~/cod/confirmation.server";
import { DECISION } from "~/automation/decisions";
import { recordDecision } from "~/orders/order-records.server";
import { endRuleWait } from "~/failed-deliveries/failed-delivery-changes.server";
import { writeCorrectionOntoOrder } from "~/failed-deliveries/order-correction.server";
import { listShopsDueForNdrEmail, sendDayNdrEmail } from "~/failed-deliveries/ndr-email.server";
import { deleteExpiredRecords } from "~/privacy/retention.server";

/** Thrown by a job whose work is not done yet for a reason that may pass: the queue retries it later. */
export class RetryLaterError extends Error {
  override name = "RetryLaterError";
}

export interface JobDeps {
  /** An Admin API client on the shop's offline session. */
  adminFor: (shop: string) => Promise<ShopAdmin>;
  now: () => Date;
  /** Shipments a tracking-sync pass takes at most (500 when unset). */
  trackingPassSize?: number;
}

export const defaultJobDeps: JobDeps = {
  adminFor: async (shop) => shopAdmin(shop, (await unauthenticated.admin(shop)).admin),
  now: () => new Date(),
};

/** Where a booking the watchdog carries on goes: an order's parcel to its fulfillment, a return's pickup to its reverse delivery. */
const DESTINATIONS: Destinations = { forward: ORDER_PARCELS, return: RETURN_PICKUPS };

/** What each queue's jobs do. Every handler is idempotent: a job may run again after a crash or a retry. */
export const createJobHandlers = ({ adminFor, now, trackingPassSize }: JobDeps = defaultJobDeps): JobHandlers => ({
  "shipment-complete": async ({ shop, shipmentId }) => {
    const completion = await resumeShipment(shop, shipmentId, { adminFor, now, destinations: DESTINATIONS });
    if (completion?.retry) throw new RetryLaterError(completion.shipment.lastError ?? `Shipment ${shipmentId} is not complete yet`);
  },
  "scopes-updated": async ({ shop, scopes }) => {
    await recordGrantedScopes(shop, scopes);
  },
  "app-uninstalled": async ({ shop }) => {
    // The webhook's shop header is not signed: the sessions go only once Shopify no longer takes the shop's token (a
    // reinstall since, or a replayed body, leaves them). Shipments and settings stay until shop/redact.
    if ((await installationOf(shop, adminFor)) === "installed") return void console.warn(`app/uninstalled for ${shop} not acted on: the app is installed there`);
    await prisma.session.deleteMany({ where: { shop } });
  },
  "shop-redact": async ({ shop }) => {
    // Shopify sends shop/redact 48 hours after an uninstall; a shop the app is installed on is never erased.
    if ((await installationOf(shop, adminFor)) === "installed") return void console.warn(`shop/redact for ${shop} not acted on: the app is installed there`);
    await forgetShop(shop);
  },
  "customers-redact": async ({ shop, orderIds, shopperKeys }) => {
    await redactCustomer(shop, orderIds, { shopperKeys });
  },
  "sandbox-erase": async ({ shop, awbs }, { retryCount }) => {
    await eraseAtSandbox(shop, awbs, retryCount);
  },
  "customers-data-request": async ({ shop, requestId, customerId, orderIds, requestedAt, shopperKeys }) => {
    await recordDataRequest({ shop, requestId, customerId, orderIds, requestedAt: new Date(requestedAt), shopperKeys });
  },
  "order-check": async ({ shop, orderGid }) => {
    const result = await checkOrder(shop, orderGid, { adminFor, now });
    if (result.kind === "courier_unavailable") throw new RetryLaterError(result.message);
  },
  "return-check": async ({ shop, returnGid }) => {
    const result = await checkReturn(shop, returnGid, { adminFor, now });
    if (result.kind === "retry") throw new RetryLaterError(result.reason);
  },
  "order-cancelled": async ({ shop, orderGid }) => {
    const result = await handleCancellation(shop, orderGid, { adminFor, now });
    if (result.kind === "retry") throw new RetryLaterError(result.reason);
  },
  "orders-reconcile": async ({ shop }) => {
    await reconcileOrders(shop, { adminFor, now });
  },
  "reconcile-sweep": async () => {
    for (const shop of await listInstalledShops()) await enqueue("orders-reconcile", { shop });
  },
  "tracking-sync": async ({ shop }) => {
    if (!(await isShopInstalled(shop))) return;
    const pass = await syncShopTracking(shop, { admin: await adminFor(shop), now }, { limit: trackingPassSize });
    // A pass takes a bounded number of shipments. When more are due the next pass follows at once, not at the next
    // minute's sweep: 10,000 due shipments would otherwise take twenty minutes at 500 a minute.
    if (pass.more) await enqueue("tracking-sync", { shop });
    // Cash the courier remitted before its tracking said delivered is paid in Shopify once it does.
    await queuePaymentsRemittedBeforeDelivery(shop, { shipmentIds: pass.delivered });
  },
  "storefront-variant-weights": async ({ shop, variantGids }) => {
    // An uninstalled shop has no token to read with, and no storefront asking.
    if (!(await isShopInstalled(shop))) return;
    await refreshVariantWeights(shop, variantGids, await adminFor(shop), now());
  },
  "flow-trigger": async ({ shop, eventId }) => {
    // An uninstalled shop has no token to tell Flow with, and no workflows of Dakiya's to start.
    if (!(await isShopInstalled(shop))) return;
    await sendFlowTriggerEvent(shop, eventId, adminFor, now());
  },
  "cod-shopify-payments": async ({ shop }) => {
    // An uninstalled shop has no token to record payments with; its rows wait, and go with shop/redact.
    if (!(await isShopInstalled(shop))) return;
    const pass = await recordCodPayments(shop, { adminFor, now });
    if (pass.more) await enqueue("cod-shopify-payments", { shop });
  },
  "cod-confirmation": async ({ shop, orderGid }) => {
    // An uninstalled shop has no token to hold, release or write with; its confirmations end with its data.
    if (!(await isShopInstalled(shop))) return;
    const done = await carryOnConfirmation({ shop, admin: await adminFor(shop), now }, orderGid);
    if (done === "retry") throw new RetryLaterError(`The cash-on-delivery confirmation of ${orderGid} is not carried out in Shopify yet`);
  },
  "cod-deadline": async ({ shop, orderGid }) => {
    if (!(await isShopInstalled(shop))) return;
    const paidInShopify = async (gid: string) => (await readOrderPayment(await adminFor(shop), gid))?.financialStatus === "PAID";
    const done = await runConfirmationDeadline({ shop, now, paidInShopify }, orderGid);
    if (done.kind === "expired" && done.heldForMerchant) await recordDecision(shop, orderGid, { kind: DECISION.HELD, words: done.heldForMerchant }, now());
  },
  "failed-delivery-wait": async ({ shop, shipmentId }) => {
    const ended = await endRuleWait({ shop, shipmentId }, now());
    // A later attempt waits longer: its own end is this job again, at its time.
    if (ended.kind === "later") await enqueue("failed-delivery-wait", { shop, shipmentId }, { startAfter: ended.at });
  },
  "failed-delivery-order-note": async ({ shop, shipmentId }) => {
    // An uninstalled shop has no token to write with; the correction stays on the desk and in the instructions.
    if (!(await isShopInstalled(shop))) return;
    const written = await writeCorrectionOntoOrder({ shop, shipmentId }, await adminFor(shop), now());
    if (written.kind === "refused" || written.kind === "too_long") console.warn(`The shopper's correction for shipment ${shipmentId} of ${shop} is not on the Shopify order: ${written.kind === "refused" ? written.message : "the order's note is full"}`);
  },
  "ndr-email": async ({ shop }) => {
    // An uninstalled shop's decisions wait for shop/redact, not for the courier.
    if (!(await isShopInstalled(shop))) return;
    const sent = await sendDayNdrEmail(shop, now());
    if (sent.kind === "failed") throw new RetryLaterError(`The day's NDR instructions e-mail was not sent: ${sent.message}`);
  },
  "ndr-email-sweep": async () => {
    for (const shop of await listShopsDueForNdrEmail(now())) await enqueue("ndr-email", { shop });
  },
  "data-retention": async ({ shop }) => {
    const pass = await deleteExpiredRecords(shop, now());
    if (pass.more) await enqueue("data-retention", { shop });
  },
  "retention-sweep": async () => {
    for (const shop of await listInstalledShops()) await enqueue("data-retention", { shop });
  },
  "tracking-sweep": async () => {
    const { shops, nextDueAt } = await listShopsDueForTracking(now());
    for (const shop of shops) await enqueue("tracking-sync", { shop });
    // The cron comes every minute; shipments due sooner (a short TRACKING_SYNC_SECONDS) bring the next sweep forward.
    if (nextDueAt && nextDueAt.getTime() - now().getTime() < 60_000) await enqueue("tracking-sweep", {}, { startAfter: new Date(Math.max(nextDueAt.getTime(), now().getTime() + 1_000)) });
  },
});
