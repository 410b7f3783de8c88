/**
 * The layers of app/, bottom to top (docs/ARCHITECTURE.md, "Layers"): imports run down, never up, and never round.
 *
 *   foundation   config, db, logging, locks, money, csv, security/, locales/, styles/, webhook-topics, jobs/ (the queue),
 *                types/ (generated from the Admin GraphQL schema)
 *   courier      shipping/ (the courier domain, shared with the embedded service; knows nothing of Shopify)
 *   shopify      shopify/ (Admin API access and the pure order mapping)
 *   domain       shipments/, settings/, automation/, orders/, booking/, tracking/, documents/, storefront/,
 *                attention/, privacy/, extension-api/, returns/, and webhooks.server.ts
 *   entry        routes/, components/, workers/ (the job handler table), root, entry.server, shopify.server
 *
 * The embedded courier service (courier-service/) is reached over HTTP only; eslint.config.js guards that boundary.
 */
const FOUNDATION = "^app/((config|db|logging|locks)\\.server\\.ts|(money|csv|webhook-topics)\\.ts|(security|locales|styles|jobs|types)/)";
const COURIER = "^app/shipping/";
const SHOPIFY = "^app/shopify/";
const ENTRY = "^app/(routes|components|workers)/|^app/(root\\.tsx|entry\\.server\\.tsx|shopify\\.server\\.ts)$";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Modules that import each other cannot be read, tested or moved one at a time.",
      from: { path: "^app/" },
      to: { circular: true },
    },
    {
      name: "foundation-stays-below",
      severity: "error",
      comment: "The foundation (configuration, database, queue, money…) serves every layer and imports none of them.",
      from: { path: FOUNDATION },
      to: { path: "^app/", pathNot: FOUNDATION },
    },
    {
      name: "courier-domain-knows-no-shopify",
      severity: "error",
      comment: "shipping/ is the courier's domain, shared with the embedded service: it knows nothing of Shopify or the app above it.",
      from: { path: COURIER },
      to: { path: "^app/", pathNot: `${FOUNDATION}|${COURIER}` },
    },
    {
      name: "shopify-access-below-the-domain",
      severity: "error",
      comment: "shopify/ reads and writes Shopify for the domain; it never calls back into it.",
      from: { path: SHOPIFY },
      to: { path: "^app/", pathNot: `${FOUNDATION}|${COURIER}|${SHOPIFY}` },
    },
    {
      name: "domain-below-the-entry-points",
      severity: "error",
      comment: "Routes, components and job handlers call the domain; the domain never reaches up into them (it enqueues through jobs/).",
      from: { path: "^app/", pathNot: ENTRY },
      to: { path: ENTRY },
    },
  ],
  options: {
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.test\\.tsx?$" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".css"] },
  },
};
