import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "../support/database";

const CHROMIUM = "/usr/bin/chromium";
const APP_PORT = 3901 + Number(process.env.VITEST_POOL_ID ?? 0) * 10;
const STORE_PORT = APP_PORT + 1;
// The admin refuses self-declared bots (HeadlessChrome); a person's browser sends this.
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

let demo: ChildProcess;
let browser: Browser;
let page: Page;
let output = "";

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Browser tests need Debian's chromium at ${CHROMIUM}: apt-get install -y chromium`);
  if (!existsSync("build/index.js")) throw new Error("Browser tests run the production build: npm run build first");
  const database = await createDatabase(`e2e_${process.env.VITEST_POOL_ID ?? 0}`, { replace: true });
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "development", DATABASE_URL: database, PORT: String(APP_PORT), STORE_PORT: String(STORE_PORT), SHOPIFY_APP_URL: `http://localhost:${APP_PORT}` };
  for (const inherited of ["COURIER_SANDBOX_URL", "SANDBOX_API_KEY", "SANDBOX_SECRET_KEY", "SHOPIFY_API_KEY", "SHOPIFY_API_SECRET"]) delete env[inherited];
  demo = spawn(path.resolve("node_modules/.bin/tsx"), ["store/demo.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The demo did not start:\n${output}`)), 30_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Open the Shopify admin")) {
        clearTimeout(timer);
        resolve();
      }
    };
    demo.stdout!.on("data", collect);
    demo.stderr!.on("data", collect);
    demo.on("exit", (code) => reject(new Error(`The demo exited with ${code}:\n${output}`)));
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
  });
  page = await browser.newPage({ userAgent: USER_AGENT, viewport: { width: 1400, height: 1000 } });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  demo?.kill();
});

describe("the demo in a browser, through the local Shopify admin", () => {
  it("shows the app embedded, saying plainly that it uses the sandbox", async () => {
    await page.goto(`http://localhost:${STORE_PORT}/admin`);
    const app = page.frameLocator("iframe#app");
    await expect(app.getByText("You are using the sandbox courier service").waitFor({ timeout: 20_000 })).resolves.toBeUndefined();
    await expect(app.getByText("Connected store: Dakiya Demo Store (dakiya-demo.myshopify.com)").count()).resolves.toBe(1);
  });

  it("lists orders with their problems, compares rates and books one, ending fulfilled with tracking", async () => {
    const app = page.frameLocator("iframe#app");
    await page.click("nav >> text=Orders to ship");
    await app.getByRole("cell", { name: "#1003" }).waitFor({ timeout: 20_000 });
    await expect(app.getByText("PIN code not 6 digits").count()).resolves.toBe(1);

    await app.getByRole("cell", { name: "#1003" }).click();
    const book = app.getByRole("button", { name: "Book with Bluedart" });
    await book.waitFor({ timeout: 20_000 });
    await expect(app.getByText("Recommended", { exact: true }).count()).resolves.toBe(1);
    await book.click();
    await app.getByText(/^Fulfilled: awb \w+ with Bluedart$/).waitFor({ timeout: 20_000 });
    await app.getByRole("status").filter({ hasText: /^Booked with Bluedart, awb \w+$/ }).waitFor({ timeout: 5_000 });

    await page.click("nav >> text=Shipments");
    await app.getByRole("cell", { name: "#1003" }).waitFor({ timeout: 20_000 });
    await expect(app.getByText("Fulfilled", { exact: true }).count()).resolves.toBeGreaterThan(0);
  });

  it("refuses a bad setting on its field and saves nothing", async () => {
    const app = page.frameLocator("iframe#app");
    await page.click("nav >> text=Settings");
    const length = app.getByLabel("Length (cm)").first();
    await length.waitFor({ timeout: 20_000 });
    await length.fill("1");
    await app.getByRole("button", { name: "Save" }).click();
    await app.getByText("Length must be more than 1 cm").waitFor({ timeout: 20_000 });
    await expect(app.getByText("Settings not saved").count()).resolves.toBe(1);
  });
});
