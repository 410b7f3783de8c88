import { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { englishOf, isStoredWords } from "~/locales/admin-language";
import { isOpen } from "./confirmation-lifecycle";
import { riskOf } from "./cod-risk.server";
import { factorWords } from "./risk-words";
import { forgetShopperKeys } from "./shopper-keys.server";

/**
 * What cash-on-delivery risk and confirmation keep that can name a shopper, for the erasure and data request paths
 * (app/privacy/): the keyed hashes of their phone and e-mail (ShopperKey), their answers to a confirmation (with a
 * correction not yet written to Shopify: their new address and phone), and the order's COD history, whose steps may
 * quote Shopify's words about a refused correction. The risk scores themselves (levels, counts, PIN code, state and
 * city) identify no one and stay, as the order's destination does.
 */

type Client = Prisma.TransactionClient;

/** shop/redact: every COD record of the shop, in the caller's transaction. */
export async function forgetShopCod(tx: Client, shop: string): Promise<void> {
  await tx.shopperKey.deleteMany({ where: { shop } });
  await tx.codRisk.deleteMany({ where: { shop } });
  await tx.codConfirmation.deleteMany({ where: { shop } });
  await tx.codEvent.deleteMany({ where: { shop } });
  await tx.codSettings.deleteMany({ where: { shop } });
}

/**
 * customers/redact: the shopper's keys go — those of the orders named, and any their own phone or e-mail makes in the
 * shop (`keys`, hashes the webhook's customer details made) — and with them their answers: a confirmation over and
 * done is removed with its history; one still open keeps waiting, without the correction. Returns the orders whose
 * answers were removed.
 */
export async function redactCodOf(tx: Client, shop: string, { orderGids, keys }: { orderGids: readonly string[]; keys: readonly string[] }): Promise<string[]> {
  const matched = await forgetShopperKeys(tx, shop, { orderGids, keys });
  const theirs = [...new Set([...orderGids, ...matched])];
  const confirmations = await tx.codConfirmation.findMany({ where: { shop, orderGid: { in: theirs } }, select: { id: true, orderGid: true, state: true } });
  const closed = confirmations.filter((confirmation) => !isOpen(confirmation.state));
  await tx.codConfirmation.deleteMany({ where: { id: { in: closed.map((confirmation) => confirmation.id) } } });
  await tx.codConfirmation.updateMany({ where: { shop, orderGid: { in: theirs } }, data: { correction: Prisma.DbNull } });
  await tx.codEvent.deleteMany({ where: { shop, orderGid: { in: theirs } } });
  // The score stays (it names no one); the digest of the address it scored goes, as the order record's does.
  await tx.codRisk.updateMany({ where: { shop, orderGid: { in: theirs } }, data: { addressDigest: null } });
  return theirs;
}

/** A data request: what COD risk and confirmation hold of these orders, by order. */
export async function codHeldFor(shop: string, orderGids: readonly string[]) {
  const theirs = [...new Set(orderGids)];
  const [shopperKeys, risks, confirmations, events] = await Promise.all([
    prisma.shopperKey.findMany({ where: { shop, orderGid: { in: theirs } } }),
    prisma.codRisk.findMany({ where: { shop, orderGid: { in: theirs } } }),
    prisma.codConfirmation.findMany({ where: { shop, orderGid: { in: theirs } } }),
    prisma.codEvent.findMany({ where: { shop, orderGid: { in: theirs } }, orderBy: { at: "asc" } }),
  ]);
  const heldFor = (orderGid: string) => {
    const risk = riskOf(risks.find((row) => row.orderGid === orderGid) ?? null);
    const confirmation = confirmations.find((row) => row.orderGid === orderGid);
    return {
      // The hashes their phone and e-mail were kept as, by which their earlier orders were found; neither can be read back.
      historyKeys: shopperKeys.filter((row) => row.orderGid === orderGid).map((row) => ({ kind: row.kind, key: row.key })),
      risk: risk && { level: risk.level, score: risk.score, scoredAt: risk.scoredAt, addressDigest: risks.find((row) => row.orderGid === orderGid)?.addressDigest ?? null, reasons: risk.factors.map((factor) => `${englishOf(factorWords(factor))} (${factor.points})`) },
      confirmation: confirmation && {
        state: confirmation.state,
        askedAt: confirmation.askedAt.toISOString(),
        deadlineAt: confirmation.deadlineAt.toISOString(),
        answeredAt: confirmation.answeredAt?.toISOString() ?? null,
        // A correction is kept only until Shopify has it.
        correction: confirmation.correction,
      },
      history: events.filter((row) => row.orderGid === orderGid).map((row) => ({ at: row.at.toISOString(), step: row.step, by: `${row.actorKind}: ${row.actorName}`, said: isStoredWords(row.words) ? englishOf(row.words) : null })),
    };
  };
  return { orderGids: theirs, heldFor };
}
