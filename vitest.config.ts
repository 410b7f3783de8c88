import path from "node:path";
import { defineConfig } from "vitest/config";
import HeaviestFirst from "./test/support/sequencer";

/** What every project of the app's tests runs with: the suite's PostgreSQL, a database per worker, the local Shopify. */
const appTests = {
  globalSetup: ["test/support/global-setup.ts"],
  setupFiles: ["test/support/worker-database.ts", "test/support/shopify-redirect.ts"],
  // Generous: beside the browser lane on a slow machine, the in-process tests run up to about twenty times slower
  // than alone (a 1.5 s test took 30 s and timed out, and what it left running failed the next). A deadline is for
  // a test that hangs, not a measure of speed.
  testTimeout: 120_000,
  hookTimeout: 180_000,
  env: {
    NODE_ENV: "test" as const,
    SHOPIFY_APP_URL: "http://localhost:3999",
    SHOPIFY_API_KEY: "dakiya-test-api-key",
    SHOPIFY_API_SECRET: "dakiya-test-api-secret",
    SANDBOX_API_KEY: "sandbox_test_key",
    // Shops under a custom domain besides *.myshopify.com: app/shopify/shop-domains.test.ts.
    SHOP_CUSTOM_DOMAIN: "shops.dakiya.test",
    SANDBOX_SECRET_KEY: "sandbox_test_secret",
    COURIER_TIMEOUT_MS: "2000",
    ENCRYPTION_KEY: "dGVzdC1lbmNyeXB0aW9uLWtleS1jdXJyZW50LTMyYiE=",
    // A key rotated out, still accepted for opening: test/routes/secrets.test.ts.
    ENCRYPTION_KEYS_PREVIOUS: "dGVzdC1lbmNyeXB0aW9uLWtleS1wcmV2aW91cy0zMmI=",
  },
};
const alias = { "~": path.resolve(__dirname, "app") };
/**
 * Vite scans `public/` when each project's server starts, and `npm test` builds into `public/build/` at the same
 * moment: a folder the build removed mid-scan failed the whole run (ENOENT). No test is served from `public/`.
 */
const publicDir = false;

/**
 * Two lanes side by side, one a core (docs/testing.md says how the suite is laid out and how to keep it fast):
 * - worker threads that keep what they imported from one file to the next (no isolation: most of a file's time was
 *   importing the app), for the modules' own tests beside them (`unit`: app/, store/, scripts/) and the integration
 *   tests (`integration`: test/ but test/e2e/), which share nothing between files but a database per thread;
 * - processes, a fresh one per file, for the tests that start processes and browsers (`e2e`) and the admin
 *   extensions (`extensions`: Preact in jsdom under Shopify's tester).
 */
export default defineConfig({
  publicDir,
  test: {
    // Pool sizes hold for the whole run, so they sit here rather than in a project. The process and browser tests
    // spend much of their time waiting on the processes they started, so two of them share the second core.
    poolOptions: {
      threads: { isolate: false, maxThreads: 1, minThreads: 1 },
      forks: { isolate: true, maxForks: 3, minForks: 1 },
    },
    sequence: { sequencer: HeaviestFirst },
    projects: [
      {
        publicDir,
        resolve: { alias },
        test: { name: "unit", include: ["app/**/*.test.{ts,tsx}", "store/**/*.test.ts", "scripts/**/*.test.ts"], pool: "threads", isolate: false, ...appTests },
      },
      {
        publicDir,
        resolve: { alias },
        test: { name: "integration", include: ["test/**/*.test.ts"], exclude: ["test/e2e/**"], pool: "threads", isolate: false, ...appTests },
      },
      {
        publicDir,
        resolve: { alias },
        test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], pool: "forks", ...appTests, setupFiles: [...appTests.setupFiles, "test/support/after-the-build.ts"] },
      },
      {
        publicDir,
        esbuild: { jsx: "automatic", jsxImportSource: "preact" },
        test: {
          name: "extensions",
          include: ["extensions/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          pool: "forks",
          // The tester ships TypeScript sources that Node cannot load by itself.
          server: { deps: { inline: ["@shopify/ui-extensions-tester"] } },
        },
      },
    ],
  },
});
