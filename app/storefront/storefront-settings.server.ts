import { randomBytes } from "node:crypto";
import type { StorefrontSettings } from "@prisma/client";
import prisma from "~/db.server";
import { TRACKING_LINK_TOKEN_PARAM, trackingLinkTokenOf } from "~/shipping/tracking-url";
import { announceStorefrontChange } from "~/settings/settings-changes.server";

/** A shop's storefront settings; a shop that never saved any gets the defaults (the estimate off). */
export async function getStorefrontSettings(shop: string): Promise<StorefrontSettings> {
  return (await prisma.storefrontSettings.findUnique({ where: { shop } })) ?? defaultStorefrontSettings(shop);
}

export function defaultStorefrontSettings(shop: string): StorefrontSettings {
  const now = new Date();
  return {
    shop,
    estimateEnabled: false,
    handlingDays: 1,
    cutoffMinutes: 14 * 60,
    closedWeekdays: [0],
    closedDates: [],
    showCod: true,
    codMaxPaise: null,
    defaultWeightGrams: 500,
    trackOnShopDomain: false,
    proxyPathPrefix: null,
    proxyPathSeenAt: null,
    primaryDomainHost: null,
    createdAt: now,
    updatedAt: now,
  };
}

export type StorefrontSettingsUpdate = Pick<
  StorefrontSettings,
  "estimateEnabled" | "handlingDays" | "cutoffMinutes" | "closedWeekdays" | "closedDates" | "showCod" | "codMaxPaise" | "defaultWeightGrams" | "trackOnShopDomain"
>;

/** Saves the shop's storefront settings; every app process forgets its copy when the save commits. */
export async function saveStorefrontSettings(shop: string, update: StorefrontSettingsUpdate): Promise<StorefrontSettings> {
  return prisma.$transaction(async (tx) => {
    const saved = await tx.storefrontSettings.upsert({ where: { shop }, create: { shop, ...update }, update });
    await announceStorefrontChange(shop, tx);
    return saved;
  });
}

/** How often the proxy path is written back at most: it changes only when the merchant renames the proxy. */
const PROXY_PATH_REFRESH_MS = 60 * 60_000;

/**
 * Records the store's proxy path as Shopify sent it (`path_prefix`), so tracking links written to new fulfillments
 * use the path the merchant chose. Written when it changed or an hour after it was last written, not per request.
 */
export async function noteProxyPath(shop: string, pathPrefix: string, known: Pick<StorefrontSettings, "proxyPathPrefix" | "proxyPathSeenAt"> | null, now = new Date()): Promise<boolean> {
  if (known?.proxyPathPrefix === pathPrefix && known.proxyPathSeenAt && now.getTime() - known.proxyPathSeenAt.getTime() < PROXY_PATH_REFRESH_MS) return false;
  await prisma.storefrontSettings.upsert({
    where: { shop },
    create: { shop, proxyPathPrefix: pathPrefix, proxyPathSeenAt: now },
    update: { proxyPathPrefix: pathPrefix, proxyPathSeenAt: now },
  });
  return true;
}

/** A host name as Shopify gives a shop's domain: letters, digits, dots and dashes, nothing else. */
const HOST = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/**
 * Records the shop's primary domain as the admin's Shopify session just read it (the Storefront page does), so
 * tracking links written later, in a booking with no page open, are on the domain shoppers know. Written only
 * when it changed; a host that is not one is ignored.
 */
export async function rememberPrimaryDomain(shop: string, host: string, known: Pick<StorefrontSettings, "primaryDomainHost"> | null): Promise<boolean> {
  const clean = host.trim().toLowerCase();
  if (!HOST.test(clean) || known?.primaryDomainHost === clean) return false;
  await prisma.storefrontSettings.upsert({ where: { shop }, create: { shop, primaryDomainHost: clean }, update: { primaryDomainHost: clean } });
  return true;
}

/**
 * The tracking link to write on a new fulfillment when the merchant chose the shop's own domain and Dakiya has
 * seen the store's proxy path: `https://{primary domain}{path}/track/{awb}?token=…`, on the shop's primary domain
 * as last read (the myshopify domain until then, which Shopify sends on to the primary one). The token is the one of the courier's own link when it has one, else a new random
 * one: whoever holds the link sees the parcel's details, a number typed or guessed only its stage. Null otherwise:
 * the courier's link stands.
 */
export async function shopDomainTrackingUrl(shop: string, awb: string, courierTrackingUrl?: string | null): Promise<string | null> {
  const settings = await prisma.storefrontSettings.findUnique({ where: { shop }, select: { trackOnShopDomain: true, proxyPathPrefix: true, primaryDomainHost: true } });
  if (!settings?.trackOnShopDomain || !settings.proxyPathPrefix) return null;
  const token = trackingLinkTokenOf(courierTrackingUrl) ?? randomBytes(16).toString("base64url");
  return `https://${settings.primaryDomainHost ?? shop}${settings.proxyPathPrefix}/track/${encodeURIComponent(awb)}?${TRACKING_LINK_TOKEN_PARAM}=${token}`;
}

/** The link a shopper follows to track a parcel just booked: on the shop's domain when the merchant chose it, else the courier's. */
export async function shopperTrackingUrl(shop: string, awb: string, courierTrackingUrl: string): Promise<string> {
  return (await shopDomainTrackingUrl(shop, awb, courierTrackingUrl)) ?? courierTrackingUrl;
}
