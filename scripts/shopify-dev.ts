/**
 * `shopify app dev`'s web command (shopify.web.toml): the CLI starts it with the tunnel's address in APP_URL (and
 * HOST), the port its proxy forwards to in PORT, the app's client id and secret, and HMR_SERVER_PORT. Dakiya reads
 * SHOPIFY_APP_URL, so the tunnel becomes that; secrets the CLI does not know (ENCRYPTION_KEY, the sandbox pair) come
 * from `.env` when it exists, as a public tunnel address refuses the local defaults (app/config.server.ts).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";

export function shopifyDevEnvironment(cliEnv: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...cliEnv };
  const tunnel = cliEnv.APP_URL ?? cliEnv.HOST;
  // The tunnel wins over a SHOPIFY_APP_URL copied into .env from .env.example: Shopify reaches the app only there.
  if (tunnel) env.SHOPIFY_APP_URL = tunnel;
  // Left in place, HOST would be taken for the address to listen on by tools further down.
  delete env.HOST;
  return env;
}

async function main(): Promise<void> {
  if (existsSync(".env")) process.loadEnvFile(".env");
  const env = shopifyDevEnvironment(process.env);
  if (!env.SHOPIFY_APP_URL) console.warn("APP_URL is not set: run this through `shopify app dev` (or set SHOPIFY_APP_URL)");
  const child = spawn("npm", ["run", "dev"], { stdio: "inherit", env });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
