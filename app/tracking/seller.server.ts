import type { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import type { SellerContact } from "./seller-contact";

/** The seller as the public tracking page shows them: the shop's name, a link to its store, a logo and a contact. */
export interface PublicSeller {
  name: string;
  storeUrl: string;
  logoUrl: string | null;
  email: string | null;
  phone: string | null;
}

export async function getSellerContact(shop: string): Promise<SellerContact> {
  const row = await prisma.trackingPageSettings.findUnique({ where: { shop } });
  return { logoUrl: row?.logoUrl ?? null, contactEmail: row?.contactEmail ?? null, contactPhone: row?.contactPhone ?? null };
}

export async function saveSellerContact(shop: string, contact: SellerContact, tx: Pick<Prisma.TransactionClient, "trackingPageSettings"> = prisma): Promise<void> {
  await tx.trackingPageSettings.upsert({ where: { shop }, create: { shop, ...contact }, update: contact });
}

/**
 * The shop's name as Shopify last told Dakiya (kept with the documents' settings; the Settings page refreshes it),
 * or its myshopify name until then. The store link is the myshopify address, which Shopify sends on to the shop's
 * own domain.
 */
export async function getPublicSeller(shop: string): Promise<PublicSeller> {
  const [documents, contact] = await Promise.all([prisma.shopDocumentSettings.findUnique({ where: { shop }, select: { shopName: true } }), getSellerContact(shop)]);
  return {
    name: documents?.shopName || shop.replace(/\.myshopify\.com$/, ""),
    storeUrl: `https://${shop}`,
    logoUrl: contact.logoUrl,
    email: contact.contactEmail,
    phone: contact.contactPhone,
  };
}
