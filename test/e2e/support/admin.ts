import type { Browser, Frame, Page } from "playwright-core";
import pg from "pg";
import { afterAll, afterEach, beforeAll } from "vitest";
import { appFrame, createSteps, expectHydrated, expectNewDocument, expectSameWindow, launchBrowser, markWindow, openPage, PageWatcher, type HydrationExpectation, type Steps } from "./browser";
import { startDemo, type Demo, type DemoOptions } from "./demo";

/** Dakiya framed in the local Shopify admin, and the ways a merchant moves around it. */
export interface EmbeddedAdmin {
  page: Page;
  /** The app's frame (`iframe#app`); the same Frame across its navigations. */
  frame: Frame;
  /** Through the shell's navigation, which loads a new document into the app frame, as the admin does. */
  openFromNav(label: string, expectation: HydrationExpectation, title: string | RegExp): Promise<void>;
  /** As the admin opens the app at an address (a reload, a bookmark): a new document in the frame with a fresh session token; its status. */
  openDeepLink(pathAndSearch: string, expectation: HydrationExpectation): Promise<number>;
  /** Runs `action`, which must navigate in the browser (Remix's router), not load a new document. */
  navigateInBrowser(what: string, action: () => Promise<unknown>, expectation: HydrationExpectation): Promise<void>;
  /** Waits for the page's title (its only h1). */
  expectTitle(title: string | RegExp): Promise<void>;
}

/** Opens the local admin at `adminUrl` and waits for the app's frame. */
export async function openEmbeddedAdmin(page: Page, watcher: PageWatcher, adminUrl: string): Promise<EmbeddedAdmin> {
  // The first open installs the app, whose first read of the shop's orders then runs beside the page in the same
  // process: with other suites on the same two cores it has taken over 20 s.
  await page.goto(adminUrl, { timeout: 60_000 });
  const frame = await appFrame(page);
  const expectTitle = async (title: string | RegExp) => {
    await frame.getByRole("heading", { level: 1, name: title }).waitFor();
  };
  return {
    page,
    frame,
    expectTitle,
    async openFromNav(label, expectation, title) {
      const mark = await markWindow(frame);
      await page.locator("nav").getByText(label, { exact: true }).click();
      await expectNewDocument(frame, mark, `The shell's "${label}" link`);
      await expectHydrated(frame, { watcher, ...expectation });
      await expectTitle(title);
    },
    async openDeepLink(pathAndSearch, expectation) {
      const answer = page.waitForResponse((response) => response.frame() === frame && response.request().isNavigationRequest());
      // What the shell's own links do, to another address: its embedding parameters and a fresh session token.
      await page.evaluate(async (target) => {
        const iframe = document.querySelector<HTMLIFrameElement>("iframe#app")!;
        const embedding = new URL(iframe.getAttribute("src")!, location.href).searchParams;
        const token = await fetch(`/__shell/session-token?shop=${encodeURIComponent(embedding.get("shop")!)}`).then((response) => response.text());
        const url = new URL(target, location.href);
        for (const key of ["embedded", "shop", "host"]) url.searchParams.set(key, embedding.get(key)!);
        url.searchParams.set("id_token", token);
        iframe.src = url.pathname + url.search;
      }, pathAndSearch);
      const status = (await answer).status();
      await expectHydrated(frame, { watcher, ...expectation });
      return status;
    },
    async navigateInBrowser(what, action, expectation) {
      const mark = await markWindow(frame);
      await action();
      await expectHydrated(frame, { watcher, ...expectation });
      await expectSameWindow(frame, mark, what);
    },
  };
}

/** What a file's walk through the admin shares between its tests, set before the first one runs. */
export interface AdminWalk {
  demo: Demo;
  browser: Browser;
  page: Page;
  watcher: PageWatcher;
  /** Steps; their screenshots go to test-results/screenshots/{suite}/ (a failed one's always, every one's with E2E_SCREENSHOTS=1). */
  step: Steps;
  /** The admin as it was last opened. */
  admin: EmbeddedAdmin;
  /** Opens the local admin afresh (its home page in the app frame), after the page was elsewhere. */
  reopenAdmin(): Promise<EmbeddedAdmin>;
}

/**
 * One demo and one Chromium page for a whole file, as the file's hooks: the demo started and the admin opened before
 * the first test; after each test whatever the browser reported since its last step fails that test (a failed test's
 * leftovers are not blamed on the next); the browser closed and the demo stopped after the last.
 */
export function walkTheAdmin(suite: string, demoOptions: DemoOptions, { startTimeoutMs = 240_000 }: { startTimeoutMs?: number } = {}): AdminWalk {
  const walk = {} as AdminWalk;
  walk.reopenAdmin = async () => (walk.admin = await openEmbeddedAdmin(walk.page, walk.watcher, walk.demo.adminUrl));
  beforeAll(async () => {
    walk.demo = await startDemo(demoOptions);
    walk.browser = await launchBrowser();
    walk.page = await openPage(walk.browser);
    walk.watcher = new PageWatcher(walk.page);
    walk.step = createSteps(walk.page, walk.watcher, suite);
    await walk.reopenAdmin();
  }, startTimeoutMs);
  afterEach(() => {
    walk.watcher?.expectNone("After the test");
  });
  afterAll(async () => {
    await walk.browser?.close();
    await walk.demo?.stop();
  });
  return walk;
}

/** Work the app still has to do before the order list is complete: the install's read of the orders, then a check each. */
export async function orderChecksLeft(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ left: number }>(
      `SELECT (SELECT count(*)::int FROM pgboss.job WHERE name IN ('orders-reconcile', 'order-check') AND state IN ('created', 'retry', 'active'))
            + CASE WHEN EXISTS (SELECT 1 FROM "ShopSync" WHERE "reconciledAt" IS NOT NULL) THEN 0 ELSE 1 END AS left`,
    );
    return rows[0]!.left;
  } finally {
    await client.end();
  }
}
