import { isIP } from "node:net";
import * as z from "zod";

/**
 * Values that make a fresh clone run with no set-up. They are accepted only while the app
 * serves a local address: a deployment on a public URL must set every secret itself.
 */
export const LOCAL_DEFAULTS = {
  SHOPIFY_API_KEY: "dakiya-local-client-id",
  SHOPIFY_API_SECRET: "dakiya-local-client-secret",
  // 32 bytes, base64: the local key that encrypts couriers' secrets at rest.
  ENCRYPTION_KEY: "ZGFraXlhLWxvY2FsLWVuY3J5cHRpb24ta2V5LTMyYiE=",
  SANDBOX_API_KEY: "sandbox_api_key",
  SANDBOX_SECRET_KEY: "sandbox_secret_key",
  // Keys shoppers' phone numbers and e-mail addresses into the hashes their order history is found by (app/cod/).
  SHOPPER_KEY_SECRET: "dakiya-local-shopper-history-key-0123456789",
} as const;

const SCOPES =
  "read_orders,write_orders,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders,write_fulfillments,read_locations,read_products,write_app_proxy,read_returns,write_returns,read_customers";

const booleanFlag = z
  .enum(["true", "false", "1", "0"], { error: 'must be "true" or "false"' })
  .transform((value) => value === "true" || value === "1");

const encryptionKey = z.string().refine((value) => Buffer.from(value, "base64").length === 32, {
  message: "must be 32 bytes encoded in base64 (openssl rand -base64 32)",
});

/** An IPv4 or IPv6 address, or a CIDR range of them (10.0.0.0/8, fd00::/8). */
export function isAddressOrRange(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const ConfigSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce
    .number({ error: "must be a port number" })
    .int({ error: "must be a whole port number" })
    .min(1, { error: "must be between 1 and 65535" })
    .max(65535, { error: "must be between 1 and 65535" })
    .default(3000),
  // Unset: Dakiya starts its own PostgreSQL in EMBEDDED_DATABASE_DIR (server/embedded-postgres.ts).
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, { error: "must be a PostgreSQL URL, postgresql://user:password@host:5432/database" })
    .optional(),
  EMBEDDED_DATABASE_DIR: z.string().min(1).default(".data/postgres"),
  DATABASE_POOL_SIZE: z.coerce.number({ error: "must be a number of connections" }).int().min(1).max(100).default(10),
  SHOPIFY_APP_URL: z.url({ error: "must be the app's public URL, e.g. https://dakiya.example.com" }).optional(),
  SHOPIFY_API_KEY: z.string().min(1, { error: "must not be empty" }).optional(),
  SHOPIFY_API_SECRET: z.string().min(1, { error: "must not be empty" }).optional(),
  SCOPES: z.string().regex(/^[a-z_]+(,[a-z_]+)*$/, { error: "must be a comma-separated list of scopes" }).default(SCOPES),
  SHOP_CUSTOM_DOMAIN: z.string().optional(),
  ENCRYPTION_KEY: encryptionKey.optional(),
  ENCRYPTION_KEYS_PREVIOUS: z
    .string()
    .optional()
    .transform((value) => (value ? value.split(",").map((key) => key.trim()).filter(Boolean) : []))
    .pipe(z.array(encryptionKey)),
  COURIER_SERVICE_ENABLED: booleanFlag.default(true),
  SANDBOX_API_KEY: z.string().min(8, { error: "must be at least 8 characters" }).optional(),
  SANDBOX_SECRET_KEY: z.string().min(8, { error: "must be at least 8 characters" }).optional(),
  // Long enough that the hashes of a phone number (ten digits: guessable one by one) cannot be tried without it.
  SHOPPER_KEY_SECRET: z.string().min(32, { error: "must be at least 32 characters (openssl rand -hex 32)" }).optional(),
  SANDBOX_RATE_CARDS_FILE: z.string().min(1).optional(),
  COURIER_SANDBOX_URL: z.url({ error: "must be a URL" }).optional(),
  COURIER_PRODUCTION_URL: z.url({ error: "must be a URL" }).optional(),
  // Background jobs each process runs at once; 0 runs none in the app process (a separate `npm run worker` does).
  WORKER_CONCURRENCY: z.coerce.number({ error: "must be a number of jobs" }).int({ error: "must be a whole number of jobs" }).min(0).max(64).default(8),
  // The base of how often shipments are polled for tracking (app/tracking/courier-progress.ts multiplies it per stage).
  TRACKING_SYNC_SECONDS: z.coerce.number({ error: "must be a number of seconds" }).int({ error: "must be whole seconds" }).min(1).max(86_400).default(600),
  // The proxies in front of the app (a load balancer's addresses or ranges): X-Forwarded-For is believed only from
  // them, so the public tracking page's per-address limit counts the address they saw. Unset: no header is believed.
  TRUSTED_PROXY_ADDRESSES: z
    .string()
    .optional()
    .transform((value) => (value ? value.split(",").map((entry) => entry.trim()).filter(Boolean) : []))
    .pipe(z.array(z.string().refine(isAddressOrRange, { message: "must be a comma-separated list of IP addresses or CIDR ranges, e.g. 10.0.0.0/8,fd00::/8" })).max(100)),
  // Replaced by TRUSTED_PROXY_ADDRESSES: a count of proxies let anyone who reached the app directly name their own address.
  TRUSTED_PROXY_HOPS: z
    .string()
    .optional()
    .refine((value) => value === undefined || value === "0", { message: "is replaced by TRUSTED_PROXY_ADDRESSES: list the addresses of the proxies in front of Dakiya" }),
  // How long a booking claimed by a process that then died waits before another takes it over (app/booking/).
  BOOKING_RESUME_SECONDS: z.coerce.number({ error: "must be a number of seconds" }).int({ error: "must be whole seconds" }).min(5).max(3_600).default(120),
  COURIER_TIMEOUT_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int().min(100).max(120_000).default(8_000),
});

type RawConfig = z.infer<typeof ConfigSchema>;
type Secret = keyof typeof LOCAL_DEFAULTS;

export type Config = Omit<RawConfig, Secret | "COURIER_SANDBOX_URL" | "SHOPIFY_APP_URL" | "TRUSTED_PROXY_HOPS"> & {
  [K in Secret]: string;
} & {
  scopes: string[];
  isLocal: boolean;
  /** The app's own address; http://localhost:PORT when not set. */
  SHOPIFY_APP_URL: string;
  /** Where `environment: test` courier accounts go: the embedded service unless configured otherwise. */
  COURIER_SANDBOX_URL: string;
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

// A rejected secret is named, never echoed: start-up errors end up in logs.
function isSecretName(name: string): boolean {
  return /SECRET|KEY|TOKEN/.test(name) || name === "DATABASE_URL";
}

function isLocalUrl(url: string): boolean {
  const { hostname } = new URL(url);
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]" || hostname.endsWith(".localhost");
}

/** Parses the environment once; the first problem becomes one line that names the variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const parsed = ConfigSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "configuration");
    const got = cleaned[name];
    const shown = got === undefined || isSecretName(name) ? "" : ` (got "${got}")`;
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}${shown}`);
  }
  const raw = parsed.data;
  const appUrl = (raw.SHOPIFY_APP_URL ?? `http://localhost:${raw.PORT}`).replace(/\/$/, "");
  const isLocal = isLocalUrl(appUrl);
  const secrets = {} as Record<Secret, string>;
  for (const name of Object.keys(LOCAL_DEFAULTS) as Secret[]) {
    const value = raw[name];
    if (value === undefined) {
      if (!isLocal) {
        throw new ConfigError(
          `Invalid configuration: ${name} is required when SHOPIFY_APP_URL is not local (${appUrl})`,
        );
      }
      secrets[name] = LOCAL_DEFAULTS[name];
    } else {
      if (!isLocal && value === LOCAL_DEFAULTS[name]) {
        throw new ConfigError(`Invalid configuration: ${name} still has the local default; set a real secret for ${appUrl}`);
      }
      secrets[name] = value;
    }
  }
  return {
    ...raw,
    ...secrets,
    SHOPIFY_APP_URL: appUrl,
    COURIER_SANDBOX_URL: raw.COURIER_SANDBOX_URL ?? appUrl,
    scopes: raw.SCOPES.split(","),
    isLocal,
  };
}

let loaded: Config | undefined;

/** The process's configuration. A bad environment stops the process with one clear line. */
export function getConfig(): Config {
  if (loaded) return loaded;
  try {
    loaded = loadConfig(process.env);
    return loaded;
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
