import type { Prisma, ShopSettings } from "@prisma/client";
import * as z from "zod";
import { getConfig } from "~/config.server";
import prisma from "~/db.server";
import { createSecretBox } from "~/security/secret-box.server";
import { createCourierClient, type CourierClient } from "~/shipping/client.server";
import { LIVE_CALL_LIMITS, type CallLimits } from "~/shipping/courier-pace";
import { SANDBOX_CALL_LIMITS, SANDBOX_PRIMARY_WAREHOUSE_ID, sandboxAccountCredentials } from "~/shipping/sandbox-accounts.server";
import type { MappingSettings, PackagePreset } from "~/shopify/order-mapping";
import { announceStorefrontChange } from "~/settings/settings-changes.server";

const PresetsSchema = z.array(
  z.object({ name: z.string(), length: z.number(), breadth: z.number(), height: z.number(), maxWeightKg: z.number() }),
);
const LocationWarehousesSchema = z.record(z.string(), z.number().int());

export function secretBox() {
  const config = getConfig();
  return createSecretBox(config.ENCRYPTION_KEY, config.ENCRYPTION_KEYS_PREVIOUS);
}

/** A shop's settings; a shop that never saved any gets the defaults (and the embedded sandbox). */
export async function getShopSettings(shop: string): Promise<ShopSettings> {
  return (await prisma.shopSettings.findUnique({ where: { shop } })) ?? defaultSettings(shop);
}

function defaultSettings(shop: string): ShopSettings {
  const now = new Date();
  return {
    shop,
    courierApiKey: null,
    courierSecretCipher: null,
    courierEnvironment: "test",
    defaultWarehouseId: null,
    locationWarehouses: "{}",
    packageLength: 20,
    packageBreadth: 15,
    packageHeight: 10,
    defaultWeightKg: 0.5,
    packagePresets: "[]",
    codTag: "cod",
    prepaidTag: "prepaid",
    notifyCustomer: true,
    autoBooking: false,
    bookingRules: "[]",
    returnRule: "hold",
    returnCourierId: null,
    returnNotifyCustomer: true,
    returnDisposition: "inspect",
    returnRules: "[]",
    courierCallsAtOnce: null,
    courierCallsPerSecond: null,
    createdAt: now,
    updatedAt: now,
  };
}

export const presetsOf = (settings: ShopSettings): PackagePreset[] => PresetsSchema.parse(JSON.parse(settings.packagePresets));
export const locationWarehousesOf = (settings: ShopSettings): Record<string, number> =>
  LocationWarehousesSchema.parse(JSON.parse(settings.locationWarehouses));

export const usesSandbox = (settings: Pick<ShopSettings, "courierApiKey">) => !settings.courierApiKey;

/** Where parcels are picked up when no location says otherwise: the chosen warehouse, or the sandbox's primary one. */
export function defaultWarehouseIdOf(settings: ShopSettings): number | null {
  return settings.defaultWarehouseId ?? (usesSandbox(settings) ? SANDBOX_PRIMARY_WAREHOUSE_ID : null);
}

export function toMappingSettings(settings: ShopSettings): MappingSettings {
  return {
    codTag: settings.codTag,
    prepaidTag: settings.prepaidTag,
    defaultPackage: { length: settings.packageLength, breadth: settings.packageBreadth, height: settings.packageHeight },
    defaultWeightKg: settings.defaultWeightKg,
    presets: presetsOf(settings),
    locationWarehouses: locationWarehousesOf(settings),
    defaultWarehouseId: defaultWarehouseIdOf(settings),
  };
}

export interface CourierCredentials {
  apiKey: string;
  secretKey: string;
  environment: "test" | "live";
}

/**
 * The shop's own account on the courier sandbox: derived from the sandbox's master pair and the shop's domain,
 * so every shop has separate orders and warehouses there, and erasing one shop's never touches another's.
 */
export function sandboxCredentialsFor(shop: string): CourierCredentials {
  const config = getConfig();
  return { ...sandboxAccountCredentials({ apiKey: config.SANDBOX_API_KEY, secretKey: config.SANDBOX_SECRET_KEY }, shop), environment: "test" };
}

/** The courier account a shop books with: its own, or its sandbox account. */
export function courierCredentialsOf(settings: ShopSettings): CourierCredentials {
  if (!settings.courierApiKey || !settings.courierSecretCipher) return sandboxCredentialsFor(settings.shop);
  return {
    apiKey: settings.courierApiKey,
    secretKey: secretBox().open(settings.courierSecretCipher),
    environment: settings.courierEnvironment === "live" ? "live" : "test",
  };
}

/** How fast the shop's courier account may be read: the merchant's settings, else what its courier declares. */
export function courierCallLimitsOf(settings: ShopSettings): CallLimits {
  const declared = usesSandbox(settings) ? SANDBOX_CALL_LIMITS : LIVE_CALL_LIMITS;
  return { atOnce: settings.courierCallsAtOnce ?? declared.atOnce, perSecond: settings.courierCallsPerSecond ?? declared.perSecond };
}

export function courierClientFor(credentials: CourierCredentials): CourierClient {
  const config = getConfig();
  return createCourierClient({
    ...credentials,
    sandboxUrl: config.COURIER_SANDBOX_URL,
    productionUrl: config.COURIER_PRODUCTION_URL,
    timeoutMs: config.COURIER_TIMEOUT_MS,
  });
}

// The return settings are saved with their own section (app/returns/return-settings.server.ts).
export type SettingsUpdate = Omit<
  ShopSettings,
  "shop" | "createdAt" | "updatedAt" | "courierSecretCipher" | "autoBooking" | "bookingRules" | "returnRule" | "returnCourierId" | "returnNotifyCustomer" | "returnDisposition" | "returnRules"
> & {
  /** A new secret to seal; undefined keeps the stored one. */
  courierSecretKey?: string;
};

/**
 * Saves a shop's settings; `alongside` writes what the same form saves elsewhere (the label layout, the tracking
 * page's contact) in the same transaction, so the form is saved whole or not at all.
 */
export async function saveShopSettings(shop: string, update: SettingsUpdate, alongside?: (tx: Prisma.TransactionClient) => Promise<void>): Promise<ShopSettings> {
  const { courierSecretKey, ...fields } = update;
  const sealed =
    fields.courierApiKey === null ? { courierSecretCipher: null } : courierSecretKey ? { courierSecretCipher: secretBox().seal(courierSecretKey) } : {};
  return prisma.$transaction(async (tx) => {
    const saved = await tx.shopSettings.upsert({ where: { shop }, create: { shop, ...fields, ...sealed }, update: { ...fields, ...sealed } });
    await alongside?.(tx);
    // The storefront's estimates quote from the warehouse and boxes saved here: every process forgets its copy.
    await announceStorefrontChange(shop, tx);
    return saved;
  });
}

/** Reseals every stored courier secret with the current key (run after rotating ENCRYPTION_KEY). */
export async function resealCourierSecrets(): Promise<number> {
  const box = secretBox();
  const rows = await prisma.shopSettings.findMany({ where: { courierSecretCipher: { not: null } } });
  let resealed = 0;
  for (const row of rows) {
    if (!box.needsResealing(row.courierSecretCipher!)) continue;
    await prisma.shopSettings.update({ where: { shop: row.shop }, data: { courierSecretCipher: box.seal(box.open(row.courierSecretCipher!)) } });
    resealed += 1;
  }
  return resealed;
}

