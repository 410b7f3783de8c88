/**
 * The layers of app/, bottom to top (docs/ARCHITECTURE.md, "Layers"): imports run down, never up, and never round.
 *
 *   foundation   config, db, logging, locks, money, csv, shop-time, concurrency, caller limits, stored sentences, security/, locales/,
 *                styles/, webhook-topics, jobs/ (the queue), types/ (generated from the Admin GraphQL schema)
 *   courier      shipping/ (the courier domain, shared with the embedded service; knows nothing of Shopify)
 *   shopify      shopify/ (Admin API access and the pure order mapping)
 *   domain       its folders in layers of their own (DOMAIN_LAYERS below)
 *   entry        routes/, components/, workers/ (the job handler table), root, entry.server, shopify.server
 *
 * The embedded courier service (courier-service/) is reached over HTTP only; eslint.config.js guards that boundary.
 */
const FOUNDATION = "^app/((config|db|logging|locks|caller-limits|stored-sentences)\\.server\\.ts|(money|csv|webhook-topics|shop-time|concurrency)\\.ts|(security|locales|styles|jobs|types)/)";
const COURIER = "^app/shipping/";
const SHOPIFY = "^app/shopify/";
const ENTRY = "^app/(routes|components|workers)/|^app/(root\\.tsx|entry\\.server\\.tsx|shopify\\.server\\.ts)$";

/**
 * The domain, bottom to top. A folder imports the foundation, the courier and Shopify layers, its own files, and the
 * folders of the layers below its own — never one of its own layer or above: a vocabulary (the lifecycles, stages,
 * readiness, the rules' schema) sits in a folder below every service that uses it, and a service that gathers from
 * many (a page's read model) sits above all it reads.
 */
const DOMAIN_LAYERS = [
  // Shopify Flow's triggers, recorded in the transaction of the change they announce; webhooks' intake.
  ["flow", "webhooks.server"],
  // The records: a shipment's life (its owner, lifecycle, stages, history and lists); a shop's settings.
  ["shipments", "settings"],
  // Labels and manifests; what shoppers see on the storefront.
  ["documents", "storefront"],
  // The booking engine: something to ship, booked exactly once; its outcomes and their words.
  ["booking"],
  // The auto-booking rules: their schema, decisions and words.
  ["automation"],
  // A return's life and its pickup.
  ["returns"],
  // The failed-delivery desk: the shopper's answers and the merchant's decisions on a failed attempt, the rules, the
  // day's NDR instructions.
  ["failed-deliveries"],
  // The courier's progress: the sync, the public tracking page (and the shopper's answer there).
  ["tracking"],
  // Cash on delivery: an order's RTO risk, asking its shopper to confirm, the COD figures.
  ["cod"],
  // Orders: their checks, parcels, cancellations, reconciliation, and the Orders pages' read models.
  ["orders"],
  // COD remittances and freight charges, checked against the parcels' bookings and deliveries.
  ["reconciliation"],
  // Erasure and data requests; Home's counts.
  ["privacy", "home"],
  // Everything waiting on the merchant.
  ["attention"],
  // The order-page extensions' answers, from all of the above.
  ["extension-api"],
];

/** A domain folder (or a module at app/'s root) as a path pattern. */
const pathOf = (name) => (name.includes(".") ? `^app/${name.replace(/\./g, "\\.")}\\.tsx?$` : `^app/${name}/`);

/** One rule per domain folder: nothing of its own layer or above, but itself (the top one has nothing above it). */
const domainLayerRules = DOMAIN_LAYERS.flatMap((layer, index) =>
  layer.flatMap((name) => {
    const above = DOMAIN_LAYERS.slice(index)
      .flat()
      .filter((other) => other !== name);
    if (above.length === 0) return [];
    return {
      name: `domain-layers: ${name}`,
      severity: "error",
      comment: `${name} sits in layer ${index + 1} of the domain: it imports only the layers below (docs/ARCHITECTURE.md, "Layers"), never ${above.join(", ")}.`,
      from: { path: pathOf(name) },
      to: { path: above.map(pathOf).join("|") },
    };
  }),
);

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
    ...domainLayerRules,
  ],
  options: {
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.test\\.tsx?$" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".css"] },
  },
};

// The layers themselves, for the test that checks every domain folder is placed in one (scripts/dependency-layers.test.ts);
// not enumerable, since depcruise refuses a configuration with keys of its own.
Object.defineProperty(module.exports, "domainLayers", { value: DOMAIN_LAYERS, enumerable: false });
