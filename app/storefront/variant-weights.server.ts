import prisma from "~/db.server";
import { enqueue } from "~/jobs/job-queue.server";
import type { ShopAdmin } from "~/shopify/admin-graphql.server";
import { readVariantWeights } from "./variant-weight.server";

/**
 * Dakiya's copy of the weights of the product variants storefronts ask estimates for by variant (a headless
 * storefront names the variant, not its weight). A shopper's request reads only this copy; a variant not in it is
 * asked for in the background, in batches of at most `VARIANT_WEIGHT_BATCH`, at most one batch per shop every
 * `VARIANT_WEIGHT_READ_SECONDS` across all of Dakiya's processes — so however many random variants a visitor
 * sends, the shop's Admin API budget pays for at most one small read per half minute, and the merchant's own work
 * never waits behind a shopper.
 */
export const VARIANT_WEIGHT_BATCH = 50;
export const VARIANT_WEIGHT_READ_SECONDS = 30;
/** A kept weight older than this is read again in the background (answered from the copy meanwhile). */
export const VARIANT_WEIGHT_STALE_MS = 24 * 3_600_000;

export interface KeptVariantWeight {
  /** Whole grams; null when the variant has no weight in Shopify. */
  grams: number | null;
  readAt: Date;
}

/** The variant's weight as Dakiya keeps it, or null when it has not been read. */
export async function keptVariantWeight(shop: string, variantGid: string): Promise<KeptVariantWeight | null> {
  return prisma.storefrontVariantWeight.findUnique({ where: { shop_variantGid: { shop, variantGid } }, select: { grams: true, readAt: true } });
}

/**
 * Asks for the variants to be read from Shopify in the background: false when the shop's batch for this window is
 * already queued (the caller keeps them for the next window).
 */
export async function requestVariantWeights(shop: string, variantGids: readonly string[]): Promise<boolean> {
  const batch = [...new Set(variantGids)].slice(0, VARIANT_WEIGHT_BATCH);
  if (batch.length === 0) return true;
  return (await enqueue("storefront-variant-weights", { shop, variantGids: batch }, { atMostEverySeconds: VARIANT_WEIGHT_READ_SECONDS })) !== null;
}

/**
 * The `storefront-variant-weights` job: one Admin API read of the batch, and the weights of the variants Shopify has
 * kept (a variant the shop does not have is not: a visitor's made-up ids leave nothing behind). Returns how many
 * were kept.
 */
export async function refreshVariantWeights(shop: string, variantGids: readonly string[], admin: ShopAdmin, now = new Date()): Promise<number> {
  const weights = await readVariantWeights(admin, variantGids);
  for (const [variantGid, grams] of weights) {
    await prisma.storefrontVariantWeight.upsert({ where: { shop_variantGid: { shop, variantGid } }, create: { shop, variantGid, grams, readAt: now }, update: { grams, readAt: now } });
  }
  return weights.size;
}
