import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Worker limits hold for the whole run, so they sit here rather than in a project.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    projects: [
      {
        resolve: { alias: { "~": path.resolve(__dirname, "app") } },
        test: {
          name: "app",
          include: ["app/**/*.test.{ts,tsx}", "store/**/*.test.ts", "test/**/*.test.ts", "scripts/**/*.test.ts"],
          globalSetup: ["test/support/global-setup.ts"],
          setupFiles: ["test/support/worker-database.ts", "test/support/shopify-redirect.ts"],
          pool: "forks",
          testTimeout: 30_000,
          hookTimeout: 60_000,
          env: {
            NODE_ENV: "test",
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
        },
      },
      {
        // The admin extensions: Preact in jsdom under Shopify's tester, which mocks `shopify` and `fetch`.
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
