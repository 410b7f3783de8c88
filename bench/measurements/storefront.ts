import type { BenchContext } from "../lib/context";
import type { LoadSummary } from "../lib/load-client";
import { COST_HEADER, COST_NOTE, costRow, fmtMs, fmtPercent, fmtRate, section, verdict, type Section } from "../lib/results";
import type { RequestKind } from "../load/requests";
import type { Measurement } from "./measurement";

/**
 * The storefront's delivery estimate, as shoppers reach it through Shopify's app proxy: signed requests to the
 * production server's `/proxy/delivery-estimate` over many PIN codes with a warm cache, beside the bare route at the
 * same 50 connections; and, cold, how many courier calls the estimates make per distinct key when many shoppers
 * miss it at once.
 */
const WARM_SHARE_TARGET = 0.5;
const P99_FACTOR = 2;
const PIN_CODES = 100;
const COLD_KEYS = 200;
const SHOPPERS_PER_KEY = 25;

const describe = (run: LoadSummary) => `${fmtRate(run.ratePerSecond)}, p50 ${fmtMs(run.p50)}, p99 ${fmtMs(run.p99)}`;

export const storefrontEstimate: Measurement = {
  id: "storefront",
  title: "Storefront delivery estimate (app proxy)",
  async run(context: BenchContext): Promise<Section> {
    const { seconds, warmupSeconds } = context.durations;
    const result = section(
      "storefront",
      "Storefront delivery estimate (app proxy)",
      `\`GET /proxy/delivery-estimate?pincode=…\` signed as Shopify's app proxy signs it (store/app-proxy.ts), over ${PIN_CODES.toLocaleString("en-US")} PIN codes in turn, on the production build, for a shop with the estimate on (its session and settings written to the database as the install and the Storefront page write them). Closed model at 50 keep-alive connections: one pass over the PIN codes warms the cache, then ${warmupSeconds} s warm-up and ${seconds} s measured, beside the bare route \`GET /ping\` at 50 connections. Cold: ${COLD_KEYS} new keys, ${SHOPPERS_PER_KEY} shoppers each at once, through the estimates module in the bench's process against the server's courier sandbox over HTTP, counting its calculate-rate calls (the shop's share of new routes a minute lifted to those keys).`,
    );
    const server = await context.app();
    const shop = `bench-storefront-${context.runId}.myshopify.com`;
    await context.database.query(`INSERT INTO "Session" (id, shop, state, "isOnline", scope, "accessToken") VALUES ($1, $2, '', false, $3, 'bench-offline-token') ON CONFLICT (id) DO NOTHING`, [`offline_${shop}`, shop, "write_app_proxy"]);
    await context.database.query(`INSERT INTO "StorefrontSettings" (shop, "estimateEnabled", "updatedAt") VALUES ($1, true, now()) ON CONFLICT (shop) DO UPDATE SET "estimateEnabled" = true`, [shop]);

    const estimate: RequestKind = { kind: "storefront-estimate", shop, secret: context.secrets.SHOPIFY_API_SECRET, pinBase: 110_001, pinCount: PIN_CODES };
    context.log("storefront: warming the cache over every PIN code");
    // Every PIN code once, so the measured window meets a warm cache (each first request waits on the courier).
    const warming = await context.runOnApp(estimate, { model: "closed", connections: 50, warmupSeconds: 0, seconds: 6 });
    context.log(`storefront: warming pass answered ${JSON.stringify(warming.statuses)}${warming.failures[0] ? `; ${warming.failures[0]}` : ""}`);
    context.log("storefront: warm cache at 50 connections");
    const warm = await context.runOnApp(estimate, { model: "closed", connections: 50, warmupSeconds, seconds });
    const bare = await context.bareRoute(50);
    const failures = warm.requests - warm.ok;
    result.rows.push(
      {
        name: "warm cache, 50 connections: throughput",
        result: `${describe(warm)}${failures ? `, ${failures} not 2xx` : ""}`,
        reference: `bare route ${describe(bare)}; ${fmtPercent(warm.ratePerSecond / bare.ratePerSecond)} of it`,
        target: `≥ ${fmtPercent(WARM_SHARE_TARGET)} of the bare route, no errors`,
        verdict: verdict(warm.ratePerSecond >= WARM_SHARE_TARGET * bare.ratePerSecond && failures === 0),
      },
      {
        name: "warm cache, 50 connections: p99",
        result: fmtMs(warm.p99),
        reference: `bare route p99 ${fmtMs(bare.p99)}`,
        target: `≤ ${P99_FACTOR}× the bare route's`,
        verdict: verdict(warm.p99 <= P99_FACTOR * bare.p99),
      },
    );

    // Cold: the estimates module itself, with a courier client that counts what it sends to the server's sandbox.
    const { createDeliveryEstimates } = await import("../../app/storefront/delivery-estimate.server");
    const { defaultStorefrontSettings } = await import("../../app/storefront/storefront-settings.server");
    const { createCourierClient } = await import("../../app/shipping/client.server");
    let rateCalls = 0;
    const counting: typeof fetch = (input, init) => {
      if (String(input).endsWith("/v1/calculate-rate")) rateCalls += 1;
      return fetch(input, init);
    };
    const client = createCourierClient({ apiKey: context.secrets.SANDBOX_API_KEY, secretKey: context.secrets.SANDBOX_SECRET_KEY, environment: "test", sandboxUrl: server.url, fetch: counting });
    const shopSettings = { shop, courierApiKey: null, courierSecretCipher: null, courierEnvironment: "test", defaultWarehouseId: 1, locationWarehouses: "{}", packageLength: 20, packageBreadth: 15, packageHeight: 10, defaultWeightKg: 0.5, packagePresets: "[]", codTag: "cod", prepaidTag: "prepaid", notifyCustomer: true, autoBooking: false, bookingRules: "[]", returnRule: "hold", returnCourierId: null, returnNotifyCustomer: true, returnDisposition: "inspect", returnRules: "[]", courierCallsAtOnce: null, courierCallsPerSecond: null, createdAt: new Date(), updatedAt: new Date() };
    // The shop's share of new routes a minute (STOREFRONT_SHARE.quotesPerMinute, 60) is lifted to the keys measured: what
    // is counted is how concurrent shoppers of one key share its call; the share has its own tests.
    const estimates = createDeliveryEstimates({ quotesPerMinute: COLD_KEYS, clientFor: () => client, loadShop: async () => ({ settings: shopSettings, storefront: { ...defaultStorefrontSettings(shop), estimateEnabled: true } }) });
    const started = performance.now();
    for (let key = 0; key < COLD_KEYS; key += 1) {
      const pincode = String(400_001 + key);
      await Promise.all(Array.from({ length: SHOPPERS_PER_KEY }, () => estimates.estimate(shop, { pincode, grams: 450, amountPaise: null, language: "en" })));
    }
    const coldMs = performance.now() - started;
    const perKey = rateCalls / COLD_KEYS;
    result.rows.push({
      name: `cold cache: courier calls per distinct key (${SHOPPERS_PER_KEY} shoppers at once per key)`,
      result: perKey.toFixed(2),
      reference: `${rateCalls.toLocaleString("en-US")} calculate-rate calls for ${COLD_KEYS} keys and ${(COLD_KEYS * SHOPPERS_PER_KEY).toLocaleString("en-US")} estimates, ${fmtMs(coldMs / COLD_KEYS)} a key`,
      target: "1.0",
      verdict: verdict(perKey === 1),
    });
    result.details.push({ title: "Cost per request", header: COST_HEADER, rows: [costRow("GET /ping, 50 connections", bare), costRow("warming pass, 50 connections", warming), costRow("warm cache, 50 connections", warm)] });
    result.notes.push(
      COST_NOTE,
      "Shopify's proxy adds its own time in front of every request and promises no edge cache, so the app's answer is what the storefront waits for; the browser keeps each answer 5 minutes (Cache-Control).",
      ...warm.failures.map((failure) => `Failure: ${failure}`),
    );
    return result;
  },
};
