import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Frame, type Locator, type Page } from "playwright-core";

/** Debian's Chromium; the tests never download a browser. */
export const CHROMIUM = "/usr/bin/chromium";
// The Shopify library answers 410 to self-declared bots ("HeadlessChrome"); a person's browser sends this.
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
/** The longest any single wait in a browser test may take. */
export const STEP_TIMEOUT = 30_000;
// A page load may wait for a first install's work in the same process, beside the other suites on two cores.
const NAVIGATION_TIMEOUT = 60_000;

/**
 * Watches for what shows for a few seconds only, such as App Bridge's toast (five seconds, as Shopify's): started
 * before the action that shows it and awaited after the page's other checks, which on a slow, busy machine outlasted
 * a toast looked for after them. The wait covers the action too, hence two steps' time.
 */
export function watchFor(locator: Locator): Promise<void> {
  const seen = locator.waitFor({ timeout: 2 * STEP_TIMEOUT });
  // The caller awaits it; a step that fails before then is reported for its own failure, not as an unhandled one.
  seen.catch(() => undefined);
  return seen;
}

/**
 * V8 compiles a page's hot functions again, optimised (Maglev, then TurboFan), which pays off over minutes; a test's
 * page lives for seconds, so that work is spent and never earned back. Up to the baseline compiler only, the admin
 * walk's renderer took about a sixth less CPU (25–27 s against 30–32 s, four runs and two), and the pages run the same
 * JavaScript the same way.
 */
const V8_BASELINE_ONLY = "--js-flags=--max-opt=1";

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Browser tests need Debian's chromium at ${CHROMIUM}: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync", V8_BASELINE_ONLY],
  });
}

/** A shopper's phone (Pixel 7 in Chrome) for browser contexts: the pages shoppers open are walked at its size. */
export const PHONE = {
  viewport: { width: 360, height: 780 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36",
};

/** A desktop-sized page that waits at most STEP_TIMEOUT for anything. */
export async function openPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage({ userAgent: USER_AGENT, viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(STEP_TIMEOUT);
  page.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT);
  return page;
}

export interface BrowserProblem {
  kind: "uncaught error" | "console error" | "server error" | "request failed" | "crash";
  /** The address of the frame it happened in, when the browser says. */
  frame: string;
  message: string;
}

export interface ProblemAllowance {
  /** Console errors a step provokes on purpose. Everything else logged as an error is a problem. */
  console?: RegExp[];
}

// Chromium logs every 4xx and 5xx answer as a console error. The answers themselves are judged by status below
// (5xx is a problem; 4xx is how the app refuses a bad form, 401 how it starts a session), so these lines are noise.
const RESOURCE_STATUS_LINE = /^Failed to load resource: the server responded with a status of [45]\d\d\b/;

// The production React in the app's bundle logs error codes only; the hydration ones, from React 18's codes.json.
const REACT_HYDRATION_ERRORS: Record<string, string> = {
  "418": "Hydration failed because the initial UI does not match what was rendered on the server.",
  "422": "There was an error while hydrating this Suspense boundary. Switched to client rendering.",
  "423": "There was an error while hydrating; the entire root switched to client rendering.",
  "425": "Text content does not match server-rendered HTML.",
};

function frameAddress(frame: Frame | null | undefined): string {
  if (!frame) return "(unknown frame)";
  const url = new URL(frame.url());
  const label = frame.parentFrame() ? "app frame" : "shell";
  // Session tokens are long and say nothing about the failure.
  url.searchParams.delete("id_token");
  return `${label} ${url.pathname}${url.search}`;
}

/**
 * Watches a page and all its frames for what a person would not see but a broken page always shows: uncaught
 * errors (a module that throws at load, a handler that throws), errors logged to the console (React logs errors it
 * caught in an error boundary and hydration mismatches there), answers ≥ 500 to any request of any frame (documents,
 * fetches, Remix's data requests), requests that never got an answer, and a crashed renderer.
 */
export class PageWatcher {
  #problems: BrowserProblem[] = [];
  /** Route-discovery requests (`/__manifest`) a navigation cancelled since the last `take`. */
  #manifestFetchesCancelled = 0;

  constructor(readonly page: Page) {
    // Chromium reports uncaught errors and unhandled rejections of every frame in the page's process here; the
    // app frame is served from the shell's own origin, so it lives in that process (browser-harness.test.ts).
    page.on("pageerror", (error) => this.#record("uncaught error", frameOfScript(page, error.stack), error.stack ?? String(error)));
    page.on("console", (message) => {
      if (message.type() !== "error" || RESOURCE_STATUS_LINE.test(message.text())) return;
      const { url, lineNumber } = message.location();
      this.#record("console error", frameOfScript(page, url), `${message.text()}${url ? ` (${shortUrl(url)}:${lineNumber})` : ""}`);
    });
    page.on("response", (response) => {
      if (response.status() < 500) return;
      const request = response.request();
      this.#record("server error", frameAddress(safe(() => request.frame())), `${request.method()} ${shortUrl(response.url())} answered ${response.status()} ${response.statusText()}`);
    });
    page.on("requestfailed", (request) => {
      const failure = request.failure()?.errorText ?? "failed";
      // A navigation cancels what the page it leaves was still fetching; that is the browser's doing, not the app's.
      if (failure === "net::ERR_ABORTED") {
        // The shell's App Bridge fetches a session token before each of the app's own fetches: a navigation that
        // cancels that token fetch fails the route-discovery fetch waiting on it just the same.
        if (["/__manifest", "/__shell/session-token"].includes(new URL(request.url()).pathname)) this.#manifestFetchesCancelled += 1;
        return;
      }
      this.#record("request failed", frameAddress(safe(() => request.frame())), `${request.method()} ${shortUrl(request.url())}: ${failure}`);
    });
    page.on("crash", () => this.#record("crash", "page", "the renderer crashed"));
  }

  #record(kind: BrowserProblem["kind"], frame: string, message: string) {
    const code = /Minified React error #(\d+)/.exec(message)?.[1];
    const meaning = code ? REACT_HYDRATION_ERRORS[code] : undefined;
    this.#problems.push({ kind, frame, message: meaning ? `${meaning} (React #${code}) ${message}` : message });
  }

  /** How many problems were reported since the last `take`, without forgetting them. */
  get pending(): number {
    return this.#problems.filter((problem) => !this.#causedByNavigation(problem)).length;
  }

  /** Remix logs the route-discovery fetch that a navigation away cancelled: the browser's doing, like the cancel itself. */
  #causedByNavigation(problem: BrowserProblem): boolean {
    return this.#manifestFetchesCancelled > 0 && problem.kind === "console error" && /^Failed to fetch manifest patches TypeError: Failed to fetch/.test(problem.message);
  }

  /** What happened since the last call, and forget it. */
  take(allow: ProblemAllowance = {}): BrowserProblem[] {
    const taken = this.#problems.filter(
      (problem) => !this.#causedByNavigation(problem) && !(problem.kind === "console error" && allow.console?.some((pattern) => pattern.test(problem.message))),
    );
    this.#problems = [];
    this.#manifestFetchesCancelled = 0;
    return taken;
  }

  /** Throws, listing every problem, when anything went wrong since the last check. */
  expectNone(context: string, allow: ProblemAllowance = {}): void {
    const problems = this.take(allow);
    if (problems.length > 0) throw new Error(`${context}: the browser reported ${problems.length} problem(s):\n${formatProblems(problems)}`);
  }
}

/** One line per problem (React logs most errors twice: once counted), each with the first lines of its stack. */
export function formatProblems(problems: BrowserProblem[]): string {
  const counted = new Map<string, number>();
  for (const problem of problems) {
    const line = `${problem.kind} in the ${problem.frame}: ${problem.message.split("\n").slice(0, 4).join("\n      ")}`;
    counted.set(line, (counted.get(line) ?? 0) + 1);
  }
  return [...counted].map(([line, count]) => `  - ${count > 1 ? `(${count}×) ` : ""}${line}`).join("\n");
}

function safe<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

function shortUrl(address: string): string {
  const url = new URL(address);
  url.searchParams.delete("id_token");
  return `${url.pathname}${url.search}`;
}

// Uncaught errors and console lines do not name their frame; the script they came from does (a stack or a
// location): the app's documents (/app…), its bundles (/build/…) and the App Bridge shim run in the app frame, the
// shell's own script in /admin.
function frameOfScript(page: Page, source: string | undefined): string {
  const app = page.frames().find((frame) => frame.parentFrame() !== null);
  const inApp = /https?:\/\/[^/\s]+\/(app\b|build\/|__shell\/)/.test(source ?? "");
  return frameAddress(inApp && app ? app : page.mainFrame());
}

/** The embedded app's frame in the admin shell (`iframe#app`); the same Frame across the frame's navigations. */
export async function appFrame(page: Page): Promise<Frame> {
  const element = await page.waitForSelector("iframe#app", { timeout: STEP_TIMEOUT });
  const frame = await element.contentFrame();
  if (!frame) throw new Error("The admin shell has no app frame");
  return frame;
}

interface HydrationState {
  router: "missing" | "navigating" | "ready";
  routerPath: string | null;
  path: string;
  react: "no-root" | "dehydrated" | "hydrated" | "unknown-internals";
  title: string | null;
  loaded: boolean;
}

// Runs in the app's frame. Kept free of closures: Playwright sends its source text.
function readHydrationState(): HydrationState {
  type RouterLike = { state: { initialized: boolean; navigation: { state: string }; location: { pathname: string; search: string } } };
  const router = (window as unknown as { __remixRouter?: RouterLike }).__remixRouter;
  const containerKey = Object.keys(document).find((key) => key.startsWith("__reactContainer$"));
  let react: HydrationState["react"] = "no-root";
  if (containerKey) {
    const rootFiber = (document as unknown as Record<string, { stateNode?: { current?: { memoizedState?: { isDehydrated?: unknown } } } }>)[containerKey];
    const isDehydrated = rootFiber?.stateNode?.current?.memoizedState?.isDehydrated;
    react = isDehydrated === false ? "hydrated" : isDehydrated === true ? "dehydrated" : "unknown-internals";
  }
  return {
    router: !router || !router.state.initialized ? "missing" : router.state.navigation.state === "idle" ? "ready" : "navigating",
    routerPath: router ? router.state.location.pathname + router.state.location.search : null,
    path: location.pathname + location.search,
    react,
    title: document.querySelector("h1")?.textContent ?? null,
    loaded: document.readyState === "complete",
  };
}

export interface HydrationExpectation {
  /** The pathname the page must be on: "/app/shipments", or a pattern such as /^\/app\/orders\/\d+\/ship$/. */
  path: string | RegExp;
  /**
   * Query parameters of the page's address: a value it must have ({ status: "fulfilled" }), `true` for any value,
   * `false` for none. Parameters not named may be there or not.
   */
  search?: Record<string, string | boolean>;
  timeout?: number;
  /** When given, a page that hydrates while the browser reports problems fails at once instead of at a later wait. */
  watcher?: PageWatcher;
}

/**
 * Waits until the app's frame shows `path` AND its JavaScript has taken over the server's HTML, else fails saying
 * which part is missing. Two signals, both set only by code running in the browser, never by server HTML:
 *
 * 1. Remix's client router, `window.__remixRouter` (a global Remix declares, used by its hot reloading),
 *    initialised, idle, and at this frame's address. The page's inline module script imports every route module of
 *    the page first and only then the browser entry, which creates the router: a route module that throws at load
 *    (a value imported from a `.server` file is undefined there), an entry that fails or a chunk that does not load
 *    leave it undefined. Its location must equal `location`: a document load starts a new router, a client
 *    navigation moves both.
 * 2. React's root has committed over the server's markup: `hydrateRoot(document)` marks the document with the root
 *    fiber (`__reactContainer$…`), whose HostRoot state reads `isDehydrated: true` until React has hydrated the tree
 *    and committed it, `false` after. These are React internals (React 18 and 19; react-dom is pinned to 18.3.1):
 *    should they change, this check fails as "unknown-internals" instead of passing.
 *
 * Neither signal sees a hydration that failed and was recovered: React then reports the error through
 * `window.reportError` (React #418, #423) and renders on the client, where the page may land in an error boundary,
 * and the root reads hydrated. The PageWatcher reports those as uncaught and console errors, and each step checks
 * the page's content, so a test needs the three together. Each page's test also does something only client code
 * can do (a filter, a sort, a client navigation that keeps `window` state): that proves its handlers are attached.
 */
class HydratedWithProblems extends Error {}

// The browser entry is imported (preloaded) right after the page's route modules; on this machine it runs within
// tens of milliseconds of the load event, so five seconds without a router means it never will.
const GIVE_UP_WITHOUT_ROUTER_MS = 5_000;

export async function expectHydrated(frame: Frame, { path: expectedPath, search = {}, timeout = STEP_TIMEOUT, watcher }: HydrationExpectation): Promise<void> {
  const deadline = Date.now() + timeout;
  let last: HydrationState | string = "the frame never answered";
  // A document loaded without a router long after its scripts ran will not get one: say so now, not at the deadline.
  let loadedWithoutRouterSince: number | null = null;
  const matches = (state: HydrationState) => {
    const url = new URL(state.path, "http://frame");
    const pathMatches = typeof expectedPath === "string" ? url.pathname === expectedPath : expectedPath.test(url.pathname);
    return pathMatches && Object.entries(search).every(([key, value]) => (typeof value === "boolean" ? url.searchParams.has(key) === value : url.searchParams.get(key) === value));
  };
  for (;;) {
    try {
      const state = await frame.evaluate(readHydrationState);
      last = state;
      if (matches(state) && state.router === "ready" && state.routerPath === state.path && state.react === "hydrated") {
        // A hydration React recovered from by rendering on the client (into an error boundary, often) reads hydrated.
        if (watcher && watcher.pending > 0) throw new HydratedWithProblems(`The app frame hydrated ${shortUrl(new URL(state.path, "http://frame").href)}, but the browser reported problems on the way`);
        return;
      }
      loadedWithoutRouterSince = matches(state) && state.loaded && state.router === "missing" ? (loadedWithoutRouterSince ?? Date.now()) : null;
      if (loadedWithoutRouterSince !== null && Date.now() - loadedWithoutRouterSince > GIVE_UP_WITHOUT_ROUTER_MS) break;
    } catch (error) {
      if (error instanceof HydratedWithProblems) throw error;
      // The frame is between documents; its next one is read on the next round.
      last = `the frame was between documents (${(error as Error).message.split("\n")[0]})`;
    }
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const query = Object.entries(search).map(([key, value]) => (value === true ? `${key}=…` : value === false ? `no ${key}` : `${key}=${value}`));
  const wanted = `${String(expectedPath)}${query.length ? ` (${query.join(", ")})` : ""}`;
  if (typeof last === "string") throw new Error(`The app frame never hydrated ${wanted} within ${timeout} ms: ${last}`);
  const at = (address: string | null) => (address === null ? "nowhere" : shortUrl(new URL(address, "http://frame").href));
  const hydratedElsewhere = !matches(last) && last.router === "ready" && last.react === "hydrated";
  const reasons = [
    hydratedElsewhere
      ? `the page is hydrated at ${at(last.path)} but never got to ${wanted}: what should have taken it there did nothing`
      : matches(last)
        ? null
        : `the frame is at ${at(last.path)}, not ${wanted}`,
    last.router === "missing"
      ? "Remix's client router does not exist: the page's JavaScript did not start (a module threw at load, or a script failed; see the uncaught errors)"
      : null,
    last.router === "navigating" ? `Remix's client router is still navigating (from ${at(last.routerPath)})` : null,
    last.router !== "missing" && last.routerPath !== last.path ? `Remix's client router is at ${at(last.routerPath)}, the document at ${at(last.path)}` : null,
    last.react === "no-root" ? "React never attached to the document" : null,
    last.react === "dehydrated" ? "React has not finished hydrating the server's HTML" : null,
    last.react === "unknown-internals" ? "React's root has no isDehydrated flag: React's internals changed, update expectHydrated" : null,
  ].filter(Boolean);
  const waited = loadedWithoutRouterSince === null ? `within ${timeout} ms` : `${GIVE_UP_WITHOUT_ROUTER_MS / 1000} s after it loaded`;
  throw new Error(`The app frame did not hydrate ${wanted} ${waited} (page title: ${JSON.stringify(last.title)}):\n  - ${reasons.join("\n  - ")}`);
}

/** Marks the frame's `window`; a client-side navigation keeps the mark, a document load loses it. */
export async function markWindow(frame: Frame): Promise<string> {
  const mark = `mark-${Math.random().toString(36).slice(2)}`;
  await frame.evaluate((value) => ((window as unknown as { __e2eMark?: string }).__e2eMark = value), mark);
  return mark;
}

/** Waits until the frame holds a document other than the one marked: a link that must load a new document did. */
export async function expectNewDocument(frame: Frame, mark: string, what: string, timeout = STEP_TIMEOUT): Promise<void> {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    const current = await frame.evaluate(() => (window as unknown as { __e2eMark?: string }).__e2eMark ?? null).catch(() => mark);
    if (current !== mark) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not load a new document into the frame within ${timeout} ms`);
}

export async function expectSameWindow(frame: Frame, mark: string, what: string): Promise<void> {
  const current = await frame.evaluate(() => (window as unknown as { __e2eMark?: string }).__e2eMark ?? null);
  if (current !== mark) throw new Error(`${what} reloaded the frame's document instead of navigating in the browser: the page's JavaScript did not handle it`);
}

export interface Steps {
  /** Runs one step: on success a screenshot and a check that the browser reported nothing; on failure a screenshot and the browser's problems in the error. */
  <T>(name: string, body: () => Promise<T>, allow?: ProblemAllowance): Promise<T>;
  /** The screenshots' folder. */
  directory: string;
}

/** Steps of a walk through a page, each screenshotted to test-results/screenshots/{suite}/NN-step.png. */
/**
 * A failed step is always screenshotted. Every step is with E2E_SCREENSHOTS=1 (a walk's pictures, to look through
 * or for the README): a full-page screenshot costs a few hundred milliseconds, a fifth of a browser walk's time.
 */
const SCREENSHOT_EVERY_STEP = process.env.E2E_SCREENSHOTS === "1";

export function createSteps(page: Page, watcher: PageWatcher, suite: string): Steps {
  const directory = path.resolve("test-results", "screenshots", suite);
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  let count = 0;
  const shoot = async (file: string) => {
    // A screenshot is evidence, not a check: a page too broken to draw must not hide the real failure.
    await page.screenshot({ path: path.join(directory, file), fullPage: true, timeout: 5_000 }).catch(() => undefined);
  };
  const step = async <T>(name: string, body: () => Promise<T>, allow: ProblemAllowance = {}): Promise<T> => {
    count += 1;
    const file = `${String(count).padStart(2, "0")}-${name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}`;
    let result: T;
    try {
      result = await body();
    } catch (error) {
      await shoot(`${file}-FAILED.png`);
      const screenshot = `(screenshot: ${path.join(directory, `${file}-FAILED.png`)})`;
      const problems = watcher.take(allow);
      // What the browser reported is most often the cause of what the step then waited for in vain: it comes first.
      if (problems.length > 0) {
        throw new Error(`Step "${name}" failed. The browser reported:\n${formatProblems(problems)}\nThen: ${(error as Error).message}\n${screenshot}`, { cause: error });
      }
      throw new Error(`Step "${name}" failed: ${(error as Error).message}\n${screenshot}`, { cause: error });
    }
    if (SCREENSHOT_EVERY_STEP) await shoot(`${file}.png`);
    watcher.expectNone(`Step "${name}"`, allow);
    return result;
  };
  return Object.assign(step, { directory });
}
