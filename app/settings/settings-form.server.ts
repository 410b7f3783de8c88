import type { Prisma, ShopSettings } from "@prisma/client";
import * as z from "zod";
import {
  courierCallLimitsOf,
  courierClientFor,
  courierCredentialsOf,
  defaultWarehouseIdOf,
  getShopSettings,
  locationWarehousesOf,
  saveShopSettings,
  secretBox,
  sandboxCredentialsFor,
  usesSandbox,
  type CourierCredentials,
} from "./shop-settings.server";
import { CourierError, type CourierClient } from "~/shipping/client.server";
import type { Warehouse } from "~/shipping/contract";
import { SANDBOX_PRIMARY_WAREHOUSE_ID, SANDBOX_WAREHOUSE_IDS } from "~/shipping/sandbox-accounts.server";
import { adminStrings, fill, perAdminLanguage, type AdminLanguage, type AdminStrings } from "~/locales/admin-language";

export type SettingsErrors = Partial<Record<string, string>>;

type SettingsMessages = AdminStrings["errors"]["settings"];

const optionalWarehouse = (m: SettingsMessages, label: string) =>
  z
    .string()
    .trim()
    .refine((value) => value === "" || /^\d{1,9}$/.test(value), { error: fill(m.warehouseNumber, { label }) })
    .transform((value) => (value === "" ? null : Number(value)));

/** A limit of the courier account's calls: blank for what the courier declares, else a whole number within bounds. */
const optionalCallLimit = (m: SettingsMessages, label: string, max: number) =>
  z
    .string()
    .trim()
    .refine((value) => value === "" || (/^\d{1,6}$/.test(value) && Number(value) >= 1 && Number(value) <= max), { error: fill(m.callLimit, { label, max }) })
    .transform((value) => (value === "" ? null : Number(value)));

const centimetres = (m: SettingsMessages, label: string) =>
  z.coerce
    .number({ error: fill(m.centimetresNumber, { label }) })
    .int({ error: fill(m.centimetresWhole, { label }) })
    .gt(1, { error: fill(m.centimetresMin, { label }) });

/** The form's checks, their messages in one admin language. */
function settingsSchemas(language: AdminLanguage) {
  const m = adminStrings(language).errors.settings;
  return {
    form: z.object({
      mode: z.enum(["sandbox", "account"], { error: m.mode }),
      apiKey: z.string().trim().max(200, { error: fill(m.tooLong, { max: 200 }) }),
      secretKey: z.string().max(500, { error: fill(m.tooLong, { max: 500 }) }),
      environment: z.enum(["test", "live"], { error: m.environment }),
      defaultWarehouseId: optionalWarehouse(m, m.labels.pickupWarehouse),
      packageLength: centimetres(m, m.labels.length),
      packageBreadth: centimetres(m, m.labels.breadth),
      packageHeight: centimetres(m, m.labels.height),
      defaultWeightKg: z.coerce.number({ error: m.weightNumber }).gt(0, { error: m.weightMin }).max(1000, { error: m.weightMax }),
      codTag: z.string().trim().min(1, { error: m.codTag }).max(40, { error: fill(m.tooLong, { max: 40 }) }),
      prepaidTag: z.string().trim().min(1, { error: m.prepaidTag }).max(40, { error: fill(m.tooLong, { max: 40 }) }),
      notifyCustomer: z.string().optional().transform((value) => value === "on" || value === "true"),
      courierCallsAtOnce: optionalCallLimit(m, m.labels.callsAtOnce, 64),
      courierCallsPerSecond: optionalCallLimit(m, m.labels.callsPerSecond, 1000),
    }),
    preset: z.object({
      name: z.string().trim().min(1, { error: m.boxName }),
      length: centimetres(m, m.labels.length),
      breadth: centimetres(m, m.labels.breadth),
      height: centimetres(m, m.labels.height),
      maxWeightKg: z.coerce.number({ error: m.boxWeightNumber }).gt(0, { error: m.boxWeightMin }),
    }),
    locationWarehouse: optionalWarehouse(m, m.labels.warehouse),
  };
}

const SCHEMAS = perAdminLanguage(settingsSchemas);

export interface SettingsSaveResult {
  ok: boolean;
  errors: SettingsErrors;
  warehouses: Warehouse[];
}

/**
 * Reads the settings form, checks the courier account with a live get-warehouse call, then saves, with what the form
 * saves elsewhere (`alongside`) in the same transaction. Nothing is saved unless all is valid, and all is saved or none.
 * The errors are in the admin's language.
 */
export async function saveSettingsForm(
  shop: string,
  form: FormData,
  locationIds: string[],
  { language = "en", clientFor = courierClientFor, alongside }: { language?: AdminLanguage; clientFor?: (credentials: CourierCredentials) => CourierClient; alongside?: (tx: Prisma.TransactionClient) => Promise<void> } = {},
): Promise<SettingsSaveResult> {
  const m = adminStrings(language).errors.settings;
  const schemas = SCHEMAS[language];
  const errors: SettingsErrors = {};
  const raw = Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string")) as Record<string, string>;
  const parsed = schemas.form.safeParse({ apiKey: "", secretKey: "", courierCallsAtOnce: "", courierCallsPerSecond: "", ...raw });
  if (!parsed.success) for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;

  const presets = [];
  for (let index = 0; index < 3; index += 1) {
    const row = { name: raw[`preset${index}Name`] ?? "", length: raw[`preset${index}Length`] ?? "", breadth: raw[`preset${index}Breadth`] ?? "", height: raw[`preset${index}Height`] ?? "", maxWeightKg: raw[`preset${index}MaxWeightKg`] ?? "" };
    if (Object.values(row).every((value) => value.trim() === "")) continue;
    const preset = schemas.preset.safeParse(row);
    if (preset.success) presets.push(preset.data);
    else errors[`preset${index}`] = fill(m.box, { number: index + 1, message: preset.error.issues[0]!.message });
  }

  const locationWarehouses: Record<string, number> = {};
  for (const locationId of locationIds) {
    const value = schemas.locationWarehouse.safeParse(raw[`location:${locationId}`] ?? "");
    if (!value.success) errors[`location:${locationId}`] = value.error.issues[0]!.message;
    else if (value.data !== null) locationWarehouses[locationId] = value.data;
  }

  const current = await getShopSettings(shop);
  const values = parsed.success ? parsed.data : null;
  if (values?.mode === "account") {
    if (!values.apiKey && !current.courierApiKey) errors.apiKey = m.apiKey;
    if (!values.secretKey && !current.courierSecretCipher) errors.secretKey = m.secretKey;
    // The live check of the keys is a get-warehouse call, so an own account needs its warehouse named.
    if (values.defaultWarehouseId === null) errors.defaultWarehouseId = m.warehouseRequired;
  }
  if (!values || Object.keys(errors).length > 0) return { ok: false, errors, warehouses: [] };

  const credentials: CourierCredentials =
    values.mode === "sandbox"
      ? sandboxCredentialsFor(shop)
      : {
          apiKey: values.apiKey || current.courierApiKey!,
          secretKey: values.secretKey || secretBox().open(current.courierSecretCipher!),
          environment: values.environment,
        };
  const toCheck = [...new Set([values.defaultWarehouseId ?? (values.mode === "sandbox" ? SANDBOX_PRIMARY_WAREHOUSE_ID : null), ...Object.values(locationWarehouses)].filter((id): id is number => id !== null))];
  const client = clientFor(credentials);
  const warehouses: Warehouse[] = [];
  for (const id of toCheck) {
    try {
      warehouses.push(await client.getWarehouse(id));
    } catch (error) {
      if (!(error instanceof CourierError)) throw error;
      if (error.kind === "unauthorized") return { ok: false, errors: { apiKey: m.keysRefused }, warehouses: [] };
      if (error.kind === "not_found") {
        const field = values.defaultWarehouseId === id ? "defaultWarehouseId" : `location:${Object.entries(locationWarehouses).find(([, warehouse]) => warehouse === id)?.[0]}`;
        return { ok: false, errors: { [field]: fill(m.warehouseMissing, { id }) }, warehouses: [] };
      }
      return { ok: false, errors: { form: m.unreachable }, warehouses: [] };
    }
  }

  await saveShopSettings(shop, {
    courierApiKey: values.mode === "sandbox" ? null : credentials.apiKey,
    courierSecretKey: values.mode === "sandbox" ? undefined : values.secretKey || undefined,
    courierEnvironment: values.mode === "sandbox" ? "test" : values.environment,
    defaultWarehouseId: values.defaultWarehouseId,
    locationWarehouses: JSON.stringify(locationWarehouses),
    packageLength: values.packageLength,
    packageBreadth: values.packageBreadth,
    packageHeight: values.packageHeight,
    defaultWeightKg: values.defaultWeightKg,
    packagePresets: JSON.stringify(presets),
    codTag: values.codTag,
    prepaidTag: values.prepaidTag,
    notifyCustomer: values.notifyCustomer,
    courierCallsAtOnce: values.courierCallsAtOnce,
    courierCallsPerSecond: values.courierCallsPerSecond,
  }, alongside);
  return { ok: true, errors: {}, warehouses };
}

export interface WarehouseSummary {
  id: number;
  description: string | null;
  /** Why there is no description; the page words it in the merchant's language. */
  problem: "not_found" | "unreachable" | null;
}

/**
 * The warehouses a booking may pick up from, by name and address: the configured ones, and on the sandbox every
 * warehouse its accounts have. The courier service lists no warehouses, so an own account offers those it was set up with.
 */
export async function pickupWarehouseChoices(shop: string): Promise<WarehouseSummary[]> {
  const settings = await getShopSettings(shop);
  const ids = [...new Set([...configuredWarehouseIds(settings), ...(usesSandbox(settings) ? SANDBOX_WAREHOUSE_IDS : [])])].sort((a, b) => a - b);
  return describe(settings, ids);
}

/**
 * The Settings page's warehouses: the configured ones as the shop's courier account describes them, and the sandbox's
 * by name and address, to choose among while the shop ships with the sandbox (or the form switches to it). On the
 * sandbox the two lists share one account, and each warehouse is asked for once.
 */
export async function settingsPageWarehouses(shop: string): Promise<{ warehouses: WarehouseSummary[]; sandboxWarehouses: WarehouseSummary[] }> {
  const settings = await getShopSettings(shop);
  const configured = configuredWarehouseIds(settings);
  if (!usesSandbox(settings)) {
    const [warehouses, sandboxWarehouses] = await Promise.all([describe(settings, configured), describeWith(courierClientFor(sandboxCredentialsFor(shop)), [...SANDBOX_WAREHOUSE_IDS])]);
    return { warehouses, sandboxWarehouses };
  }
  const described = await describe(settings, [...new Set([...configured, ...SANDBOX_WAREHOUSE_IDS])]);
  const byId = new Map(described.map((warehouse) => [warehouse.id, warehouse]));
  return { warehouses: configured.map((id) => byId.get(id)!), sandboxWarehouses: SANDBOX_WAREHOUSE_IDS.map((id) => byId.get(id)!) };
}

const configuredWarehouseIds = (settings: ShopSettings): number[] =>
  [...new Set([defaultWarehouseIdOf(settings), ...Object.values(locationWarehousesOf(settings))])].filter((id): id is number => id !== null);

function describe(settings: ShopSettings, ids: number[]): Promise<WarehouseSummary[]> {
  return describeWith(courierClientFor(courierCredentialsOf(settings)), ids);
}

function describeWith(client: CourierClient, ids: number[]): Promise<WarehouseSummary[]> {
  return Promise.all(
    ids.map(async (id): Promise<WarehouseSummary> => {
      try {
        const warehouse = await client.getWarehouse(id);
        return { id, description: `${warehouse.warehouse_name}, ${warehouse.address_line_1}, ${warehouse.city}, ${warehouse.state} ${warehouse.pincode}`, problem: null };
      } catch (error) {
        if (!(error instanceof CourierError)) throw error;
        return { id, description: null, problem: error.kind === "not_found" ? "not_found" : "unreachable" };
      }
    }),
  );
}

/** What the settings page may show: never the secret, and only the end of the API key. */
export async function settingsForBrowser(shop: string) {
  const settings = await getShopSettings(shop);
  return {
    usesSandbox: usesSandbox(settings),
    apiKeyHint: settings.courierApiKey ? `••••${settings.courierApiKey.slice(-4)}` : null,
    hasSecret: Boolean(settings.courierSecretCipher),
    environment: settings.courierEnvironment,
    defaultWarehouseId: settings.defaultWarehouseId,
    locationWarehouses: JSON.parse(settings.locationWarehouses) as Record<string, number>,
    packageLength: settings.packageLength,
    packageBreadth: settings.packageBreadth,
    packageHeight: settings.packageHeight,
    defaultWeightKg: settings.defaultWeightKg,
    presets: JSON.parse(settings.packagePresets) as { name: string; length: number; breadth: number; height: number; maxWeightKg: number }[],
    codTag: settings.codTag,
    prepaidTag: settings.prepaidTag,
    notifyCustomer: settings.notifyCustomer,
    courierCallsAtOnce: settings.courierCallsAtOnce,
    courierCallsPerSecond: settings.courierCallsPerSecond,
    // What the courier declares, shown beside the fields left blank.
    declaredCallLimits: courierCallLimitsOf({ ...settings, courierCallsAtOnce: null, courierCallsPerSecond: null }),
    autoBooking: settings.autoBooking,
    // How many rules the shop keeps (checked by the rules' schema when saved): Settings only counts them.
    bookingRuleCount: (JSON.parse(settings.bookingRules) as unknown[]).length,
  };
}
