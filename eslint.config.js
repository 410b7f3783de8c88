import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/", "public/build/", ".cache/", "node_modules/", ".test-db/", ".data/", "test-results/",
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
    },
  },
  {
    files: ["scripts/**", "store/**", "bench/**", "test/**", "server/**"],
    rules: { "no-console": "off" },
  },
);
