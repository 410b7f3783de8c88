import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../app/config.server";
import { shopifyDevEnvironment } from "./shopify-dev";

const scratch: string[] = [];
afterEach(() => {
  for (const directory of scratch.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** `shopify app build` on a copy of the app's two configuration files, offline, as `npm run build` runs it. */
function shopifyBuild(webToml?: string): { status: number | null; output: string } {
  const directory = mkdtempSync(path.join(tmpdir(), "dakiya-cli-"));
  scratch.push(directory);
  copyFileSync("shopify.app.toml", path.join(directory, "shopify.app.toml"));
  if (webToml === undefined) copyFileSync("shopify.web.toml", path.join(directory, "shopify.web.toml"));
  else writeFileSync(path.join(directory, "shopify.web.toml"), webToml);
  writeFileSync(path.join(directory, "package.json"), JSON.stringify({ name: "dakiya-config-check", private: true }));
  const result = spawnSync(
    process.execPath,
    [path.resolve("node_modules/@shopify/cli/bin/run.js"), "app", "build", "--path", directory, "--skip-dependencies-installation", "--no-color"],
    { encoding: "utf8", env: { ...process.env, SHOPIFY_CLI_NO_ANALYTICS: "1" }, timeout: 60_000 },
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("Shopify's CLI runs Dakiya", { timeout: 90_000 }, () => {
  it("accepts shopify.app.toml and shopify.web.toml as a deploy would", () => {
    const { status, output } = shopifyBuild();
    expect(output).toContain("built!");
    expect(status).toBe(0);
  });

  it("refuses a web configuration without a dev command, so the check above can fail", () => {
    const { status, output } = shopifyBuild('roles = ["frontend", "backend"]\n[commands]\nbuild = "npm run build"\n');
    expect(status).not.toBe(0);
    expect(output).toContain("shopify.web.toml");
    expect(output).toContain("commands.dev");
  });

  it("serves the CLI's tunnel as the app's address and needs the secrets a public address needs", () => {
    // What `shopify app dev` puts in the environment of the web command (HOST and APP_URL are the tunnel).
    const cli = {
      PORT: "53211",
      HOST: "https://roses-lie-beside.trycloudflare.com",
      APP_URL: "https://roses-lie-beside.trycloudflare.com",
      SHOPIFY_API_KEY: "a1b2c3d4e5f6",
      SHOPIFY_API_SECRET: "shpss_0123456789abcdef",
      SCOPES: "read_orders,write_orders",
      NODE_ENV: "development" as const,
      HMR_SERVER_PORT: "53212",
    };
    const env = shopifyDevEnvironment({ ...cli, SHOPIFY_APP_URL: "http://localhost:3000" });
    expect(env.SHOPIFY_APP_URL).toBe("https://roses-lie-beside.trycloudflare.com");
    expect(env.HOST).toBeUndefined();
    expect(() => loadConfig(env)).toThrow("ENCRYPTION_KEY is required when SHOPIFY_APP_URL is not local");
    const config = loadConfig({
      ...env,
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
      SANDBOX_API_KEY: "sandbox_dev_store_key",
      SANDBOX_SECRET_KEY: "sandbox_dev_store_secret",
      SHOPPER_KEY_SECRET: "dev-store-shopper-history-key-abcdefghijklmnop",
    });
    expect(config.SHOPIFY_APP_URL).toBe("https://roses-lie-beside.trycloudflare.com");
    expect(config.PORT).toBe(53211);
    expect(config.SHOPIFY_API_KEY).toBe("a1b2c3d4e5f6");
    expect(config.scopes).toEqual(["read_orders", "write_orders"]);
  });
});
