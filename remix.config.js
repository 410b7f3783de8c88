/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  appDirectory: "app",
  serverModuleFormat: "esm",
  serverPlatform: "node",
  // Polaris and App Bridge ship ESM-only entry points that Node cannot import unbundled.
  serverDependenciesToBundle: [/^@shopify\/polaris/, /^@shopify\/app-bridge-react/],
  dev: { port: Number(process.env.HMR_SERVER_PORT || 8002) },
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: false,
  },
};
