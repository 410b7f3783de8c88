/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  appDirectory: "app",
  serverModuleFormat: "esm",
  serverPlatform: "node",
  // One copy of Polaris on the server: the library's AppProvider must share the routes' Polaris context.
  serverDependenciesToBundle: [/^@shopify\/polaris/, /^@shopify\/app-bridge-react/, /^@shopify\/shopify-app-remix\/react/],
  dev: { port: Number(process.env.HMR_SERVER_PORT || 8002) },
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: false,
  },
};
