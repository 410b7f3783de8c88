import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appFrame, createSteps, expectHydrated, launchBrowser, openPage, PageWatcher } from "./support/browser";

/*
 * The browser harness itself, on a page made to go wrong in all the ways the app's pages could: a shell framing an
 * app page (same origin, as the local admin does) whose route module throws at load, as a module importing a value
 * from a `.server` file does once the compiler has emptied it.
 */

const PAGES: Record<string, { status?: number; type?: string; body: string }> = {
  "/admin": { body: `<!doctype html><title>shell</title><nav>shell</nav><iframe id="app" src="/app/broken"></iframe>` },
  "/app/broken": {
    body: `<!doctype html><title>app</title><h1>Server-rendered title</h1>
      <script type="module" src="/build/routes/broken.js"></script>
      <script>
        fetch("/app/data?_data=routes%2Fapp").catch(() => {});
        console.error("Warning: something the app logged as an error");
        Promise.reject(new Error("a rejection nobody handled"));
      </script>`,
  },
  // What the classic compiler leaves of `import { STATUSES } from "./statuses.server"` in the browser.
  "/build/routes/broken.js": { type: "text/javascript", body: `const STATUSES = undefined;\nexport const options = Object.values(STATUSES);` },
  "/app/data": { status: 500, type: "application/json", body: `{"message":"Unexpected Server Error"}` },
};

let server: Server;
let origin: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = createServer((request, response) => {
    const found = PAGES[new URL(request.url ?? "/", "http://local").pathname];
    response.writeHead(found?.status ?? (found ? 200 : 404), { "Content-Type": found?.type ?? "text/html; charset=utf-8" });
    response.end(found?.body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  page = await openPage(browser);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe("the browser harness", () => {
  it("reports the app frame's uncaught errors, console errors and 5xx answers, each with its frame", async () => {
    const watcher = new PageWatcher(page);
    await page.goto(`${origin}/admin`);
    await (await appFrame(page)).getByText("Server-rendered title").waitFor();
    const seen: string[] = [];
    const collect = () => {
      seen.push(...watcher.take().map((problem) => `${problem.kind} | ${problem.frame} | ${problem.message.split("\n")[0]}`));
      return seen;
    };
    await expect
      .poll(collect, { timeout: 5_000 })
      .toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^uncaught error \| app frame \/app\/broken \| TypeError: Cannot convert undefined or null to object/),
          expect.stringMatching(/^uncaught error \| app frame \/app\/broken \| Error: a rejection nobody handled/),
          expect.stringMatching(/^console error \| app frame \/app\/broken \| Warning: something the app logged as an error/),
          expect.stringMatching(/^server error \| app frame \/app\/broken \| GET \/app\/data\?_data=routes%2Fapp answered 500/),
        ]),
      );
    // Taken means forgotten: the next check starts clean.
    expect(watcher.take()).toEqual([]);
  });

  it("says a page never hydrated when its JavaScript did not start", async () => {
    await page.goto(`${origin}/admin`);
    const frame = await appFrame(page);
    const started = Date.now();
    await expect(expectHydrated(frame, { path: "/app/broken" })).rejects.toThrow(
      /did not hydrate \/app\/broken 5 s after it loaded \(page title: "Server-rendered title"\):\n {2}- Remix's client router does not exist.*\n {2}- React never attached to the document/,
    );
    // Well before the 20 s a step may wait: a page that will never hydrate fails fast.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("fails a step on what the browser reported, naming the step and its screenshot", async () => {
    const watcher = new PageWatcher(page);
    const step = createSteps(page, watcher, "browser-harness");
    await expect(step("open the broken page", () => page.goto(`${origin}/admin`).then(() => page.waitForTimeout(500)))).rejects.toThrow(
      /^Step "open the broken page": the browser reported \d+ problem\(s\):\n {2}- /,
    );
    await expect(step("wait for what never comes", () => page.getByText("never there").waitFor({ timeout: 200 }))).rejects.toThrow(
      /^Step "wait for what never comes" failed: .*Timeout 200ms exceeded[\s\S]*\(screenshot: .*02-wait-for-what-never-comes-FAILED\.png\)$/,
    );
  });
});
