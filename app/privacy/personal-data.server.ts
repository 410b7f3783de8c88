import { Prisma, type ReturnRecord, type Shipment } from "@prisma/client";
import { eraseShopReturns, redactReturnsOf } from "~/returns/return-changes.server";
import { eraseShopDocuments } from "~/documents/document-changes.server";
import { REDACTED, REDACTED_PROBLEM } from "~/stored-sentences.server";
import prisma from "~/db.server";
import { enqueue, forgetJobsOf, forgetJobOutputsOf } from "~/jobs/job-queue.server";
import { problemsOf } from "~/orders/order-records.server";
import { courierClientFor, sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { CourierError } from "~/shipping/client.server";
import { MAX_REDACT_AWBS } from "~/shipping/contract";
import { eraseShopShipments, redactBookingBody } from "~/shipments/shipment-changes.server";
import { forgetShopFlow, redactFlowOf } from "~/flow/flow-privacy.server";
import { eraseShopFailedDeliveries, redactFailedDeliveriesOf } from "~/failed-deliveries/failed-delivery-changes.server";
import { eraseShopNdrEmail } from "~/failed-deliveries/ndr-email.server";
import { forgetShopReconciliation, redactReconciliationOf } from "~/reconciliation/reconciliation-records.server";
import { forgetShopCod, redactCodOf } from "~/cod/cod-privacy.server";

/** The courier order fields that identify a shopper (spec: Order). */
const PERSONAL_FIELDS = ["name", "mobile", "alt_mobile", "email", "company_name", "gst_number", "address_line_1", "address_line_2", "delivery_remarks"] as const;

/** The shop's account on the courier sandbox, reached over HTTP like any courier (docs/courier-service.md, "Erasure"). */
const sandboxClientOf = (shop: string) => courierClientFor(sandboxCredentialsFor(shop));

/** A sandbox that is switched off (404) or never saw the shop holds nothing of it. */
const holdsNothing = (error: unknown) => error instanceof CourierError && (error.kind === "not_found" || error.kind === "unauthorized");

/**
 * A shipment that may have a copy at the courier sandbox: booked in its test environment (or claimed before the
 * environment was known). A live booking went to the merchant's own courier, which Dakiya's erasure does not reach.
 */
const ON_THE_SANDBOX = { courierEnvironment: { not: "live" } } satisfies Prisma.ShipmentWhereInput;

/**
 * Everything Dakiya keeps about a shop, forgotten: `shop/redact`, 48 h after uninstall. Every model that carries a
 * `shop` column is listed here. The local rows go first and whatever happens elsewhere; in the same transaction, a
 * shop that ever booked on the courier sandbox gets a durable `sandbox-erase` job that erases its account there
 * (selected by the account, never by a pattern over order ids) and retries until the sandbox has done it.
 */
export async function forgetShop(shop: string): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const usedSandbox = (await tx.shipment.count({ where: { shop, ...ON_THE_SANDBOX } })) > 0;
    await tx.session.deleteMany({ where: { shop } });
    await tx.webhookDelivery.deleteMany({ where: { shop } });
    await eraseShopFailedDeliveries(tx, shop);
    await eraseShopNdrEmail(tx, shop);
    // Tracking entries and the shipments' history go with them.
    await eraseShopShipments(tx, shop);
    await eraseShopDocuments(tx, shop);
    await tx.trackingPageSettings.deleteMany({ where: { shop } });
    await tx.orderRecord.deleteMany({ where: { shop } });
    await eraseShopReturns(tx, shop);
    await tx.shopSync.deleteMany({ where: { shop } });
    await tx.shopSettings.deleteMany({ where: { shop } });
    await tx.dataRequest.deleteMany({ where: { shop } });
    await tx.storefrontSettings.deleteMany({ where: { shop } });
    await tx.storefrontVariantWeight.deleteMany({ where: { shop } });
    await tx.storefrontRefusal.deleteMany({ where: { shop } });
    await forgetShopFlow(tx, shop);
    // Remittances, freight charges, packing photos and the reconciliation settings.
    await forgetShopReconciliation(tx, shop);
    // Risk scores, shoppers' history keys and their answers to confirmations.
    await forgetShopCod(tx, shop);
    if (usedSandbox) await enqueue("sandbox-erase", { shop }, { tx });
  });
  // Its queued work would only find nothing and fail, and its finished work still names its orders; the sandbox's
  // erasure stays.
  await forgetJobsOf(shop);
}

/**
 * Removes what identifies one customer of a shop (`customers/redact`), here first and unconditionally: the name,
 * phone, e-mail and address in the booking bodies Dakiya stored for the given orders and their return pickups; the
 * courier's and Shopify's words in their tracking entries (activity and place), errors and history reasons; the
 * tags, address digest, problems and decision reasons kept with the orders and their returns (the shopper's notes
 * among them); what the queue stored of the jobs on those orders, returns and shipments. Then, in the same
 * transaction, a durable `sandbox-erase` job for the sandbox's copy of those bookings. Awbs, charges, statuses,
 * city and PIN code stay: they identify no one. test/routes/shopper-erasure.test.ts names every column that can
 * hold text and fails on a shopper's column that this or the data request misses.
 * Cash on delivery: the shopper's history keys (of these orders, and any their own phone or e-mail made: `shopperKeys`,
 * hashes the webhook's customer details gave) and their answers to a confirmation go (app/cod/cod-privacy.server.ts).
 * `orderIds` are Shopify's numeric order ids. Returns how many shipments were redacted.
 */
export async function redactCustomer(shop: string, orderIds: readonly number[], { shopperKeys = [] }: { shopperKeys?: readonly string[] } = {}): Promise<number> {
  if (orderIds.length === 0 && shopperKeys.length === 0) return 0;
  const orderGids = orderIds.map((id) => `gid://shopify/Order/${id}`);
  const redacted = await prisma.$transaction(async (tx) => {
    // A return's pickup is keyed by its Return and names the order it comes back from: its body holds the same shopper.
    const shipments = await tx.shipment.findMany({ where: { shop, OR: [{ orderGid: { in: orderGids } }, { returnOfOrderGid: { in: orderGids } }] } });
    for (const shipment of shipments) {
      const payload = shipment.requestPayload ? (JSON.parse(shipment.requestPayload) as Record<string, unknown>) : null;
      if (payload) for (const field of PERSONAL_FIELDS) if (payload[field] !== undefined) payload[field] = REDACTED;
      // The courier's and Shopify's errors may quote the address or the phone they refused.
      await redactBookingBody(tx, shipment, { requestPayload: payload ? JSON.stringify(payload) : "", lastError: shipment.lastError === null ? null : REDACTED }, { actor: { kind: "webhook", name: "customers/redact" }, at: new Date() });
    }
    const ids = shipments.map((shipment) => shipment.id);
    // The shopper's answers to a failed delivery: the corrected phones, address line and landmark.
    await redactFailedDeliveriesOf(tx, shop, ids, { actor: { kind: "webhook", name: "customers/redact" }, at: new Date() });
    // The courier's own words may name the shopper ("Delivered to Asha Rao", "Left at 12, 3rd Cross"), in the
    // activity and in the place alike: each entry keeps its stage's label, and no place.
    if (ids.length > 0) await tx.$executeRaw`UPDATE "TrackingEvent" SET "activity" = "label", "location" = NULL WHERE "shop" = ${shop} AND "shipmentId" = ANY(${ids}::int[])`;
    // The order's stored readiness: its address digest, the shopper's name and tags (which may carry a name or a phone) go, and the
    // problems and the rules' reason keep what kind they were but not their words, which may quote the phone or PIN.
    for (const record of await tx.orderRecord.findMany({ where: { shop, orderGid: { in: orderGids } } })) {
      const problems = problemsOf(record).map((problem) => ({ code: problem.code, ...REDACTED_PROBLEM }));
      await tx.orderRecord.update({
        where: { id: record.id },
        data: { addressDigest: null, shopperName: "", tags: [], problems: problems as unknown as Prisma.InputJsonValue, decisionReason: record.decisionReason === null ? null : REDACTED, decisionWords: Prisma.DbNull },
      });
    }
    // The order's returns: their problems, reasons and history may quote the pickup address or phone, or the shopper's note.
    const returns = await redactReturnsOf(tx, shop, orderGids, { actor: { kind: "webhook", name: "customers/redact" }, at: new Date() });
    // What Shopify Flow was to be told, or answered, about these orders.
    await redactFlowOf(tx, shop, orderGids);
    // The parcels' packing photos, which may show their labels.
    await redactReconciliationOf(tx, shop, ids);
    // Their cash-on-delivery history keys and their answers to confirmations.
    await redactCodOf(tx, shop, { orderGids, keys: shopperKeys });
    const awbs = shipments.filter((shipment) => shipment.awb !== null && shipment.courierEnvironment !== "live").map((shipment) => shipment.awb!);
    for (let start = 0; start < awbs.length; start += MAX_REDACT_AWBS) await enqueue("sandbox-erase", { shop, awbs: awbs.slice(start, start + MAX_REDACT_AWBS) }, { tx });
    // A return's pickup is keyed by its Return: its jobs (return-check) name the return, not the order.
    return { ids, returnGids: returnGidsOf(returns, shipments) };
  });
  await forgetJobOutputsOf(shop, { orderGids, returnGids: redacted.returnGids, shipmentIds: redacted.ids });
  return redacted.ids.length;
}

/**
 * The returns of the orders (of one of them, when named): those Dakiya recorded, and those whose pickup it booked
 * (a return's pickup is keyed by its Return and names the order it comes back from).
 */
export function returnGidsOf(
  returns: readonly Pick<ReturnRecord, "returnGid" | "orderGid">[],
  shipments: readonly Pick<Shipment, "orderGid" | "returnOfOrderGid">[],
  orderGid?: string,
): string[] {
  const ofOrder = (of: string | null) => of !== null && (orderGid === undefined || of === orderGid);
  return [...new Set([...returns.filter((record) => ofOrder(record.orderGid)).map((record) => record.returnGid), ...shipments.filter((shipment) => ofOrder(shipment.returnOfOrderGid)).map((shipment) => shipment.orderGid)])];
}

/** What is left to erase at the sandbox, for the operator's log: never an order's or a shopper's details. */
const whatIsLeft = (awbs: readonly string[] | undefined) => (awbs ? `${awbs.length} booking${awbs.length === 1 ? "" : "s"}` : "the shop's whole account");

/**
 * The `sandbox-erase` job: the sandbox's copy of a shop (no awbs) or of some of its bookings (awbs), erased. An
 * unreachable sandbox is logged with what is left and thrown, and the queue tries again (retried for months:
 * app/jobs/queues.ts); a sandbox that holds nothing of the shop is done.
 */
export async function eraseAtSandbox(shop: string, awbs: readonly string[] | undefined, attempt: number): Promise<void> {
  try {
    if (awbs) await sandboxClientOf(shop).redactSandboxOrders([...awbs]);
    else await sandboxClientOf(shop).eraseSandboxAccount();
  } catch (error) {
    if (holdsNothing(error)) return;
    console.warn(`Erasure at the courier sandbox for ${shop} not done yet (attempt ${attempt + 1}): ${whatIsLeft(awbs)} left; it is retried until done.`);
    throw new SandboxErasurePendingError(`The courier sandbox could not erase ${whatIsLeft(awbs)} yet`);
  }
}

/** Thrown while the sandbox cannot be reached: the queue retries the erasure. */
export class SandboxErasurePendingError extends Error {
  override name = "SandboxErasurePendingError";
}
