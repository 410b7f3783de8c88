import { createHmac } from "node:crypto";
import type { Prisma } from "@prisma/client";
import { getConfig } from "~/config.server";
import prisma from "~/db.server";
import { normaliseMobile } from "~/shopify/order-mapping";

/**
 * A shopper, as the shop's cash-on-delivery history knows them: keyed hashes of their phone and e-mail
 * (HMAC-SHA256 under SHOPPER_KEY_SECRET, of the shop, the kind and the value), so an earlier order by the same
 * phone or e-mail is found without either being kept in clear. The shop is in the hash: the same phone at two shops
 * gives two keys, and no shop's history reaches another's. A ten-digit phone is guessable one number at a time, so
 * the key is worthless without the secret.
 */

export type ShopperKeyKind = "phone" | "email";

export interface ShopperKey {
  kind: ShopperKeyKind;
  key: string;
}

type Client = Prisma.TransactionClient | typeof prisma;

const keyOf = (shop: string, kind: ShopperKeyKind, value: string) => createHmac("sha256", getConfig().SHOPPER_KEY_SECRET).update(`${shop}\u0000${kind}\u0000${value}`).digest("hex");

/** A phone in the one form every spelling of it shares: the ten-digit Indian mobile, else its digits. */
function phoneForm(phone: string): string | null {
  const mobile = normaliseMobile(phone);
  if (mobile) return mobile;
  const digits = phone.replace(/\D/g, "");
  return digits.length >= 8 && digits.length <= 15 ? digits : null;
}

const emailForm = (email: string) => {
  const plain = email.trim().toLowerCase();
  return /^[^\s@]{1,64}@[^\s@]{1,255}$/.test(plain) ? plain : null;
};

/** The keys of whoever placed an order, from its phones (the first that reads as one) and e-mail. */
export function shopperKeysOf(shop: string, { phones, email }: { phones: readonly (string | null | undefined)[]; email: string | null | undefined }): ShopperKey[] {
  const keys: ShopperKey[] = [];
  const phone = phones.map((each) => (each ? phoneForm(each) : null)).find((each): each is string => each !== null);
  if (phone) keys.push({ kind: "phone", key: keyOf(shop, "phone", phone) });
  const mail = email ? emailForm(email) : null;
  if (mail) keys.push({ kind: "email", key: keyOf(shop, "email", mail) });
  return keys;
}

/** Keeps an order's keys (the latest read replaces what an earlier read of the same order kept). */
export async function recordShopperKeys(shop: string, orderGid: string, keys: readonly ShopperKey[]): Promise<void> {
  await prisma.$transaction([
    prisma.shopperKey.deleteMany({ where: { shop, orderGid, kind: { notIn: keys.map((key) => key.kind) } } }),
    ...keys.map((key) =>
      prisma.shopperKey.upsert({ where: { shop_orderGid_kind: { shop, orderGid, kind: key.kind } }, create: { shop, orderGid, kind: key.kind, key: key.key }, update: { key: key.key } }),
    ),
  ]);
}

/** The shop's other orders placed with any of these keys. */
export async function listOrdersWithKeys(shop: string, keys: readonly ShopperKey[], { except }: { except: string }): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await prisma.shopperKey.findMany({ where: { shop, key: { in: keys.map((key) => key.key) }, orderGid: { not: except } }, select: { orderGid: true }, distinct: ["orderGid"], take: 500 });
  return rows.map((row) => row.orderGid);
}

/**
 * Forgets a shopper (customers/redact): the keys of the orders named, and every key their own phone or e-mail makes,
 * on any order of the shop. Returns the orders whose keys matched (the shopper's, beyond those named).
 */
export async function forgetShopperKeys(tx: Client, shop: string, { orderGids, keys }: { orderGids: readonly string[]; keys: readonly string[] }): Promise<string[]> {
  const matched = keys.length === 0 ? [] : await tx.shopperKey.findMany({ where: { shop, key: { in: [...keys] } }, select: { orderGid: true }, distinct: ["orderGid"] });
  await tx.shopperKey.deleteMany({ where: { shop, OR: [{ orderGid: { in: [...orderGids] } }, { key: { in: [...keys] } }] } });
  return matched.map((row) => row.orderGid);
}

/** The shop's orders placed with any of these keys (a customer's data request: the orders their phone or e-mail placed). */
export async function ordersOfKeys(shop: string, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await prisma.shopperKey.findMany({ where: { shop, key: { in: [...keys] } }, select: { orderGid: true }, distinct: ["orderGid"], orderBy: { orderGid: "asc" }, take: 10_000 });
  return rows.map((row) => row.orderGid);
}

/** The keys a redaction request's customer phone and e-mail make in this shop (hashes only: nothing in clear travels on). */
export const redactionKeysOf = (shop: string, customer: { phone?: string | null; email?: string | null }): string[] =>
  shopperKeysOf(shop, { phones: [customer.phone], email: customer.email }).map((key) => key.key);
