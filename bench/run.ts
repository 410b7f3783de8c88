import { mkdtempSync } from "node:fs";
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

/**
 * `npm run bench`: throughput of the hot paths, on this machine, printed as operations per second.
 * The pure ones (order mapping, rate engine) in-process; the courier service over real HTTP on a
 * scratch SQLite file. Bounded in count and time; loopback only.
 */
const scratch = mkdtempSync(path.join(os.tmpdir(), "dakiya-bench-"));
process.env.DATABASE_URL = `file:${path.join(scratch, "bench.db")}`;
process.env.NODE_ENV = "test";
execFileSync(path.resolve("node_modules/.bin/prisma"), ["migrate", "deploy"], { stdio: "pipe", env: process.env });

async function measure(name: string, iterations: number, run: (index: number) => unknown | Promise<unknown>) {
  for (let index = 0; index < Math.min(50, iterations); index += 1) await run(index);
  const start = performance.now();
  for (let index = 0; index < iterations; index += 1) await run(index);
  const seconds = (performance.now() - start) / 1000;
  console.log(`${name.padEnd(48)} ${(iterations / seconds).toFixed(0).padStart(9)} ops/s  (${iterations} in ${seconds.toFixed(2)} s)`);
}

const { runAdminGraphql } = await import("../store/admin-api");
const { seedShop } = await import("../store/seed");
const { ORDER_FOR_BOOKING } = await import("../app/shopify/queries");
const { toCourierOrder } = await import("../app/shopify/order-mapping");
const { quoteAll } = await import("../app/courier-service/rates");
const { DEFAULT_RATE_CARDS } = await import("../app/courier-service/rate-cards");

const shop = seedShop("bench.myshopify.com");
const answer = await runAdminGraphql(shop, { query: ORDER_FOR_BOOKING, variables: { id: shop.orders[0]!.id } }, { throttle: { maximumAvailable: 1e9, restoreRate: 1e9 }, now: () => new Date() });
const order = (answer.body.data as { order: Parameters<typeof toCourierOrder>[0] }).order;
const settings = { codTag: "cod", prepaidTag: "prepaid", defaultPackage: { length: 20, breadth: 15, height: 10 }, defaultWeightKg: 0.5, presets: [], locationWarehouses: {}, defaultWarehouseId: null };

await measure("order mapping (Shopify order → Order fields)", 50_000, () => toCourierOrder(order, { settings, now: new Date() }));
await measure("rate engine (4 couriers, one route)", 200_000, (index) =>
  quoteAll(DEFAULT_RATE_CARDS, { shipmentType: "forward", paymentMode: "cod", pickup: 421302, delivery: 110001 + (index % 900), length: 30, breadth: 25, height: 8, actualWeight: 0.9, amount: 1499 }),
);
await measure("store simulator: OrderForBooking query", 2_000, () => runAdminGraphql(shop, { query: ORDER_FOR_BOOKING, variables: { id: shop.orders[0]!.id } }, { throttle: { maximumAvailable: 1e9, restoreRate: 1e9 }, now: () => new Date() }));

const { default: prisma } = await import("../app/db.server");
const { createServiceHandler } = await import("../app/courier-service/http.server");
const { createShipmentService } = await import("../app/courier-service/shipment-service.server");
const { ensureSandbox } = await import("../app/courier-service/sandbox-seed.server");
const { createCourierClient } = await import("../app/shipping/client.server");
const { serveFetch } = await import("../store/serve-fetch");
const { indiaDate } = await import("../app/shipping/contract");

await ensureSandbox(prisma, "bench_api_key", "bench_secret_key");
const service = createShipmentService({ db: prisma, now: () => new Date(), rateCards: DEFAULT_RATE_CARDS });
const server = await serveFetch(createServiceHandler({ db: prisma, service, ready: async () => undefined }));
const client = createCourierClient({ apiKey: "bench_api_key", secretKey: "bench_secret_key", environment: "test", sandboxUrl: server.url });
const rate = { shipment_type: "forward", payment_mode: "cod", pickup: 421302, delivery: 560038, length: 30, breadth: 25, height: 8, actual_weight: 0.9, amount: 1499 } as const;
const today = indiaDate(new Date());

await measure("courier service over HTTP: calculate-rate", 1_000, () => client.calculateRate(rate));
await measure("courier service over HTTP: create-order (SQLite)", 300, (index) =>
  client.createOrder({
    order_id: `BENCH-${Date.now()}-${index}`,
    order_date: today,
    name: "Asha Rao",
    mobile: "9820012345",
    address_line_1: "12 MG Road",
    city: "Bengaluru",
    state: "Karnataka",
    pincode: "560038",
    products: [{ product_name: "Kurta", price: 1299, quantity: 1 }],
    package_length: 30,
    package_breadth: 25,
    package_height: 8,
    package_weight: 0.9,
    total_amount: 1299,
    logistic_id: 1,
  }),
);
await server.close();
await prisma.$disconnect();
