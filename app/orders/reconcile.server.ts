import prisma from "~/db.server";
import { isReturnState, shopifyStatusOf } from "~/returns/return-lifecycle";
import { enqueue } from "~/jobs/job-queue.server";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { listRecentlyUpdatedOrders } from "~/shopify/admin-orders.server";
import { listOpenReturnsOfRecentOrders } from "~/shopify/admin-returns.server";

export interface ReconcileDeps {
  adminFor: (shop: string) => Promise<ShopAdmin>;
  now: () => Date;
}

/** The courier takes orders from the last seven days: a new shop's first pass reads that far back, and a little more. */
const FIRST_LOOK_BACK_MS = 8 * 86_400_000;
// Shopify's clock and ours, and orders being written while we read: each pass re-reads the last few minutes.
const OVERLAP_MS = 5 * 60_000;
const MAX_PAGES = 20;

export interface ReconcileReport {
  read: number;
  enqueued: number;
  seenUntil: Date;
}

/**
 * The `orders-reconcile` job: catches every order whose webhook never came or came while the app was down, and
 * every change to an order since it was last checked (an address edited after booking, a cancellation, a
 * fulfillment made in Shopify), by reading the orders created or updated since the last pass — one cheap query a
 * page — and enqueueing a check for each one Dakiya has not seen in that state. Shopify's `updated_at` covers
 * creation and every edit, which is why Dakiya subscribes to no orders/updated webhook: this pass (every ten
 * minutes, and at install) sees the same changes, and checks only orders that changed.
 */
export async function reconcileOrders(shop: string, { adminFor, now }: ReconcileDeps): Promise<ReconcileReport> {
  const admin = await adminFor(shop);
  const sync = await prisma.shopSync.findUnique({ where: { shop } });
  const since = sync?.ordersSeenUntil ? new Date(sync.ordersSeenUntil.getTime() - OVERLAP_MS) : new Date(now().getTime() - FIRST_LOOK_BACK_MS);
  let seenUntil = sync?.ordersSeenUntil ?? since;
  let after: string | null = null;
  const report: ReconcileReport = { read: 0, enqueued: 0, seenUntil };
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const { orders, nextCursor } = await listRecentlyUpdatedOrders(admin, { since, after });
    report.read += orders.length;
    const known = await prisma.orderRecord.findMany({ where: { shop, orderGid: { in: orders.map((order) => order.id) } }, select: { orderGid: true, shopifyUpdatedAt: true } });
    const checkedAt = new Map(known.map((record) => [record.orderGid, record.shopifyUpdatedAt?.getTime() ?? 0]));
    for (const order of orders) {
      const updated = Date.parse(order.updatedAt);
      if ((checkedAt.get(order.id) ?? -1) < updated && (await enqueue("order-check", { shop, orderGid: order.id }))) report.enqueued += 1;
      if (updated > seenUntil.getTime()) seenUntil = new Date(updated);
    }
    if (!nextCursor) break;
    after = nextCursor;
  }
  report.seenUntil = seenUntil;
  report.enqueued += await reconcileReturns(shop, admin, since);
  await prisma.shopSync.upsert({ where: { shop }, create: { shop, ordersSeenUntil: seenUntil, reconciledAt: now() }, update: { ordersSeenUntil: seenUntil, reconciledAt: now() } });
  return report;
}

/**
 * Open returns whose webhook never came, over the same window: a return Shopify's returns/approve did not reach
 * Dakiya with, or one the merchant created directly (`returnCreate` opens a return and no webhook announces it).
 * A return changes its order's `updated_at`, so the orders changed since the last pass carry every new one. Each
 * open return Dakiya has not recorded as open gets a return-check.
 */
async function reconcileReturns(shop: string, admin: ShopAdmin, since: Date): Promise<number> {
  let enqueued = 0;
  let after: string | null = null;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const { returns, nextCursor } = await listOpenReturnsOfRecentOrders(admin, { since, after });
    const known = await prisma.returnRecord.findMany({ where: { shop, returnGid: { in: returns.map((ret) => ret.id) } }, select: { returnGid: true, state: true } });
    const recorded = new Map(known.map((record) => [record.returnGid, isReturnState(record.state) ? shopifyStatusOf(record.state) : null]));
    for (const ret of returns) {
      if (recorded.get(ret.id) !== ret.status && (await enqueue("return-check", { shop, returnGid: ret.id }))) enqueued += 1;
    }
    if (!nextCursor) break;
    after = nextCursor;
  }
  return enqueued;
}

/** The shops Dakiya is installed on: those with an offline session. */
export async function listInstalledShops(): Promise<string[]> {
  const rows = await prisma.session.findMany({ where: { isOnline: false }, select: { shop: true }, distinct: ["shop"] });
  return rows.map((row) => row.shop);
}

export async function lastReconciledAt(shop: string): Promise<Date | null> {
  return (await prisma.shopSync.findUnique({ where: { shop } }))?.reconciledAt ?? null;
}
