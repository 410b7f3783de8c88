import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

// zod's `z` (or its default export) is one object holding all of zod, its locales included, and the browser bundle
// keeps all of it (454 KB on every admin page); `import * as z` keeps only what the page uses.
const ZOD_AS_NAMESPACE = {
  selector: "ImportDeclaration[source.value='zod'] > :matches(ImportSpecifier[imported.name='z'], ImportDefaultSpecifier)",
  message: 'Import zod as `import * as z from "zod"`: the `z` object puts all of zod in the browser bundle.',
};

export default tseslint.config(
  {
    ignores: [
      "build/", "public/build/", ".cache/", "app/types/", "node_modules/", ".test-db/", ".data/", "test-results/",
      // Extension bundles, and the `shopify` typings the Shopify CLI regenerates beside each extension.
      "extensions/*/dist/", "extensions/*/shopify.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": ["error", { allow: ["warn", "error", "info"] }],
      "no-restricted-syntax": ["error", ZOD_AS_NAMESPACE],
    },
  },
  {
    files: ["scripts/**", "store/**", "bench/**", "test/**", "server/**"],
    rules: { "no-console": "off" },
  },
  // The boundary between the app and the courier service it embeds (docs/ARCHITECTURE.md): the app reaches the
  // service only over HTTP through its courier client, exactly as it reaches a real aggregator; the service
  // knows nothing of Shopify or of the app, only the wire contract they share.
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/courier-service/**", "app/routes/v1.*"],
    rules: {
      "no-restricted-imports": ["error", {
        patterns: [{ group: ["~/courier-service", "~/courier-service/**", "**/courier-service/**"], message: "The app reaches the embedded courier service only over HTTP, through app/shipping/client.server.ts." }],
      }],
    },
  },
  {
    files: ["app/courier-service/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", {
        patterns: [
          {
            regex: "^~/(?!(shipping/(contract|status|tracking-url|sandbox-accounts\\.server)|money|config\\.server|db\\.server)$)",
            message: "The courier service knows only the wire contract it shares with the client (app/shipping/contract, status, tracking-url, sandbox-accounts) and its own folder.",
          },
          { group: ["@shopify/*", "@remix-run/*"], message: "The courier service knows nothing of Shopify or of the app's web framework." },
        ],
      }],
    },
  },
);
