import { z } from "zod";
import {
  bookingRulesOf,
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
import { SANDBOX_PRIMARY_WAREHOUSE_ID } from "~/shipping/sandbox-accounts.server";

export type SettingsErrors = Partial<Record<string, string>>;

const optionalWarehouse = (label: string) =>
  z
    .string()
    .trim()
    .refine((value) => value === "" || /^\d{1,9}$/.test(value), { error: `${label} must be a warehouse number from your courier account` })
    .transform((value) => (value === "" ? null : Number(value)));

const centimetres = (label: string) =>
  z.coerce.number({ error: `${label} must be a number of centimetres` }).int({ error: `${label} must be whole centimetres` }).gt(1, { error: `${label} must be more than 1 cm` });

const FormSchema = z.object({
  mode: z.enum(["sandbox", "account"], { error: "Choose the sandbox or your own courier account" }),
  apiKey: z.string().trim().max(200),
  secretKey: z.string().max(500),
  environment: z.enum(["test", "live"], { error: "Choose test or live" }),
  defaultWarehouseId: optionalWarehouse("Pickup warehouse"),
  packageLength: centimetres("Length"),
  packageBreadth: centimetres("Breadth"),
  packageHeight: centimetres("Height"),
  defaultWeightKg: z.coerce.number({ error: "Weight must be a number of kg" }).gt(0, { error: "Weight must be more than 0 kg" }).max(1000, { error: "Weight must be at most 1000 kg" }),
  codTag: z.string().trim().min(1, { error: "Enter the tag that marks cash-on-delivery orders" }).max(40),
  prepaidTag: z.string().trim().min(1, { error: "Enter the tag that marks prepaid orders" }).max(40),
  notifyCustomer: z.string().optional().transform((value) => value === "on" || value === "true"),
});

const PresetSchema = z.object({
  name: z.string().trim().min(1, { error: "Name the box" }),
  length: centimetres("Length"),
  breadth: centimetres("Breadth"),
  height: centimetres("Height"),
  maxWeightKg: z.coerce.number({ error: "Max weight must be a number of kg" }).gt(0, { error: "Max weight must be more than 0 kg" }),
});

export interface SettingsSaveResult {
  ok: boolean;
  errors: SettingsErrors;
  warehouses: Warehouse[];
}

/** Reads the settings form, checks the courier account with a live get-warehouse call, then saves. Nothing is saved unless all is valid. */
export async function saveSettingsForm(shop: string, form: FormData, locationIds: string[], clientFor: (credentials: CourierCredentials) => CourierClient = courierClientFor): Promise<SettingsSaveResult> {
  const errors: SettingsErrors = {};
  const raw = Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string")) as Record<string, string>;
  const parsed = FormSchema.safeParse({ apiKey: "", secretKey: "", ...raw });
  if (!parsed.success) for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;

  const presets = [];
  for (let index = 0; index < 3; index += 1) {
    const row = { name: raw[`preset${index}Name`] ?? "", length: raw[`preset${index}Length`] ?? "", breadth: raw[`preset${index}Breadth`] ?? "", height: raw[`preset${index}Height`] ?? "", maxWeightKg: raw[`preset${index}MaxWeightKg`] ?? "" };
    if (Object.values(row).every((value) => value.trim() === "")) continue;
    const preset = PresetSchema.safeParse(row);
    if (preset.success) presets.push(preset.data);
    else errors[`preset${index}`] = `Box ${index + 1}: ${preset.error.issues[0]!.message}`;
  }

  const locationWarehouses: Record<string, number> = {};
  for (const locationId of locationIds) {
    const value = optionalWarehouse("Warehouse").safeParse(raw[`location:${locationId}`] ?? "");
    if (!value.success) errors[`location:${locationId}`] = value.error.issues[0]!.message;
    else if (value.data !== null) locationWarehouses[locationId] = value.data;
  }

  const current = await getShopSettings(shop);
  const values = parsed.success ? parsed.data : null;
  if (values?.mode === "account") {
    if (!values.apiKey && !current.courierApiKey) errors.apiKey = "Enter your courier API key";
    if (!values.secretKey && !current.courierSecretCipher) errors.secretKey = "Enter your courier secret key";
    // The live check of the keys is a get-warehouse call, so an own account needs its warehouse named.
    if (values.defaultWarehouseId === null) errors.defaultWarehouseId = "Enter the pickup warehouse id from your courier account";
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
      if (error.kind === "unauthorized") return { ok: false, errors: { apiKey: "The courier service refused this API key and secret key" }, warehouses: [] };
      if (error.kind === "not_found") {
        const field = values.defaultWarehouseId === id ? "defaultWarehouseId" : `location:${Object.entries(locationWarehouses).find(([, warehouse]) => warehouse === id)?.[0]}`;
        return { ok: false, errors: { [field]: `Warehouse ${id} does not exist in this courier account` }, warehouses: [] };
      }
      return { ok: false, errors: { form: "The courier service could not be reached to check these settings; nothing was saved. Try again in a minute." }, warehouses: [] };
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
  });
  return { ok: true, errors: {}, warehouses };
}

export interface WarehouseSummary {
  id: number;
  description: string | null;
  /** Why there is no description; the page words it in the merchant's language. */
  problem: "not_found" | "unreachable" | null;
}

/** The configured pickup warehouses as the courier service describes them (name, address, PIN code). */
export async function describeWarehouses(shop: string): Promise<WarehouseSummary[]> {
  const settings = await getShopSettings(shop);
  const ids = [...new Set([defaultWarehouseIdOf(settings), ...Object.values(locationWarehousesOf(settings))])].filter(
    (id): id is number => id !== null,
  );
  const client = courierClientFor(courierCredentialsOf(settings));
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
    autoBooking: settings.autoBooking,
    bookingRuleCount: bookingRulesOf(settings).length,
  };
}
