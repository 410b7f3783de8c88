import { describe, expect, it } from "vitest";
import { LOCAL_DEFAULTS, loadConfig } from "./config.server";

const PUBLIC = {
  SHOPIFY_APP_URL: "https://dakiya.example.com",
  SHOPIFY_API_KEY: "real-key",
  SHOPIFY_API_SECRET: "real-secret",
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
  SANDBOX_API_KEY: "sandbox-real-key",
  SANDBOX_SECRET_KEY: "sandbox-real-secret",
  SHOPPER_KEY_SECRET: "f".repeat(64),
};

describe("loadConfig", () => {
  it("runs a fresh clone on the documented local defaults", () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.EMBEDDED_DATABASE_DIR).toBe(".data/postgres");
    expect(config.SHOPIFY_APP_URL).toBe("http://localhost:3000");
    expect(config.SHOPIFY_API_SECRET).toBe(LOCAL_DEFAULTS.SHOPIFY_API_SECRET);
    expect(config.COURIER_SERVICE_ENABLED).toBe(true);
    expect(config.COURIER_SANDBOX_URL).toBe("http://localhost:3000");
    expect(config.scopes).toContain("write_merchant_managed_fulfillment_orders");
  });

  it("follows PORT for the local app URL", () => {
    expect(loadConfig({ PORT: "4100" }).SHOPIFY_APP_URL).toBe("http://localhost:4100");
  });

  it.each([
    [{ PORT: "abc" }, 'Invalid configuration: PORT must be a port number (got "abc")'],
    [{ PORT: "70000" }, 'Invalid configuration: PORT must be between 1 and 65535 (got "70000")'],
    [{ DATABASE_URL: "file:./prisma/dev.db" }, "Invalid configuration: DATABASE_URL must be a PostgreSQL URL, postgresql://user:password@host:5432/database"],
    [{ SHOPIFY_APP_URL: "not a url" }, "Invalid configuration: SHOPIFY_APP_URL must be the app's public URL"],
    [{ ENCRYPTION_KEY: "short" }, "Invalid configuration: ENCRYPTION_KEY must be 32 bytes encoded in base64"],
    [{ COURIER_SERVICE_ENABLED: "yes" }, 'Invalid configuration: COURIER_SERVICE_ENABLED must be "true" or "false"'],
    [{ NODE_ENV: "staging" }, "Invalid configuration: NODE_ENV"],
  ])("refuses a malformed variable with one line naming it: %o", (env, message) => {
    expect(() => loadConfig(env)).toThrowError(message);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as Error).message).not.toContain("\n");
    }
  });

  it("requires real secrets on a public URL", () => {
    const { SHOPIFY_API_SECRET: _omitted, ...withoutSecret } = PUBLIC;
    expect(() => loadConfig(withoutSecret)).toThrowError(
      "Invalid configuration: SHOPIFY_API_SECRET is required when SHOPIFY_APP_URL is not local (https://dakiya.example.com)",
    );
    expect(() => loadConfig({ ...PUBLIC, ENCRYPTION_KEY: LOCAL_DEFAULTS.ENCRYPTION_KEY })).toThrowError(
      "ENCRYPTION_KEY still has the local default",
    );
    // The key of shoppers' phone and e-mail hashes: the local one would let anyone who reads this file match them.
    const { SHOPPER_KEY_SECRET: _noKey, ...withoutShopperKey } = PUBLIC;
    expect(() => loadConfig(withoutShopperKey)).toThrowError("SHOPPER_KEY_SECRET is required when SHOPIFY_APP_URL is not local");
    expect(() => loadConfig({ ...PUBLIC, SHOPPER_KEY_SECRET: LOCAL_DEFAULTS.SHOPPER_KEY_SECRET })).toThrowError("SHOPPER_KEY_SECRET still has the local default");
    expect(loadConfig(PUBLIC).isLocal).toBe(false);
  });

  it("names a rejected secret without echoing its value", () => {
    expect(() => loadConfig({ ENCRYPTION_KEY: "hunter2-not-base64" })).toThrowError(
      /^Invalid configuration: ENCRYPTION_KEY must be 32 bytes encoded in base64 \(openssl rand -base64 32\)$/,
    );
  });

  it("reads the trusted proxies as addresses and CIDR ranges, and refuses anything else by name", () => {
    expect(loadConfig({}).TRUSTED_PROXY_ADDRESSES).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXY_ADDRESSES: "10.0.0.0/8, 192.0.2.7,fd00::/8,::1" }).TRUSTED_PROXY_ADDRESSES).toEqual(["10.0.0.0/8", "192.0.2.7", "fd00::/8", "::1"]);
    for (const wrong of ["balancer.internal", "10.0.0.0/33", "fd00::/129", "10.0.0.1/8/2", "300.0.0.1"]) {
      expect(() => loadConfig({ TRUSTED_PROXY_ADDRESSES: wrong }), wrong).toThrowError(/^Invalid configuration: TRUSTED_PROXY_ADDRESSES must be a comma-separated list of IP addresses or CIDR ranges/);
    }
  });

  it("refuses the retired count of proxy hops, pointing at the addresses that replace it", () => {
    expect(() => loadConfig({ TRUSTED_PROXY_HOPS: "1" })).toThrowError(/^Invalid configuration: TRUSTED_PROXY_HOPS is replaced by TRUSTED_PROXY_ADDRESSES/);
    expect(loadConfig({ TRUSTED_PROXY_HOPS: "0" }).TRUSTED_PROXY_ADDRESSES).toEqual([]);
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ PORT: "" }).PORT).toBe(3000);
  });
});
