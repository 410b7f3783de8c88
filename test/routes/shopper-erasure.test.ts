import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@prisma/client";
import { bookOrder } from "~/orders/book-order.server";
import prisma, { databasePool } from "~/db.server";
import { enqueue, jobQueue } from "~/jobs/job-queue.server";
import { checkReturn } from "~/returns/check-return.server";
import { loader as dataRequestDownload } from "~/routes/app.data-requests.$id";
import { loader as shipPageLoader } from "~/routes/app.orders.$id.ship";
import { loader as returnsPageLoader } from "~/routes/app.orders.returns";
import { loader as attentionLoader } from "~/routes/app.attention";
import { loader as orderApiLoader } from "~/routes/api.orders.$id";
import { loader as trackLoader } from "~/routes/track.$awb";
import { action as customersDataRequest } from "~/routes/webhooks.customers.data_request";
import { action as customersRedact } from "~/routes/webhooks.customers.redact";
import { courierClientFor, sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { syncShopTracking } from "~/tracking/sync.server";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import { startCourierService, type RunningCourierService } from "../support/courier-service";
import { jsonFault, startFaultProxy } from "../support/fault-proxy";
import { resetJobs, runJobs } from "../support/jobs";
import { shopperOrder } from "../support/orders";
import { startStore } from "../support/store";
import { responseOf, signedWebhookRequest } from "../support/webhooks";

/*
 * A shopper's erasure, everywhere they are. One shopper with a booked and tracked order, a return whose pickup is
 * booked, and a second order whose booking the courier refused in words that name them — through the real store,
 * the real courier service behind a real HTTP proxy (which plays a courier that quotes the shopper), the real jobs
 * and the real database. Their data request lists every one of those details beforehand; after customers/redact,
 * no column of any table (the queue's and the courier sandbox's included) and no page holds them.
 *
 * Then the rule that keeps it so: every column that can hold text is named below, as a shopper's (with how a test
 * puts a detail there) or not (with why not). A column added later and not named fails the first test; a shopper's
 * column that the data request or the erasure misses fails the second.
 */

let courier: RunningCourierService;
let proxy: Awaited<ReturnType<typeof startFaultProxy>>;
let store: Awaited<ReturnType<typeof startStore>>;
const deps = { ...defaultJobDeps, now: () => new Date() };

const SHOPPER = {
  firstName: "Zoravar",
  lastName: "Khambatta",
  phone: "9876501234",
  email: "zoravar.khambatta@example.in",
  address1: "221B Cuffe Parade",
  address2: "Sea Breeze Apartments",
};
/** What the courier says about the shopper, in its own words (a refusal, a scan). */
const COURIER_SAYS = { refusal: "is on the courier's do-not-serve list", scan: "handed to the watchman at the gate" };
/** Every detail that names or reaches the shopper, and every word the courier said about them. */
const DETAILS = [SHOPPER.firstName, SHOPPER.lastName, SHOPPER.phone, SHOPPER.email, "Cuffe Parade", "Sea Breeze", COURIER_SAYS.refusal, COURIER_SAYS.scan, "call me before coming"];

beforeAll(async () => {
  await resetJobs();
  courier = await startCourierService();
  proxy = await startFaultProxy({ port: Number(new URL(process.env.COURIER_SANDBOX_URL!).port), upstream: courier.url });
  store = await startStore({ throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
  await store.install();
  await prisma.shopSettings.upsert({ where: { shop: store.domain }, create: { shop: store.domain, returnRule: "cheapest" }, update: { returnRule: "cheapest" } });
});
afterAll(async () => {
  await store.close();
  await proxy.close();
  await courier.close();
});

const webhook = (topic: string, payload: unknown) => signedWebhookRequest(`http://localhost:3999/webhooks/${topic}`, { topic, shop: store.domain, payload });

/**
 * For each needle, every text and JSON column of every table, the queue's schema included, that holds it: one query a
 * column for all the needles, on the app's own pool (each column read once, whatever the number of needles).
 */
async function columnsHoldingEach(needles: readonly string[]): Promise<Map<string, string[]>> {
  const holding = new Map(needles.map((needle) => [needle, [] as string[]]));
  for (const { schema, table, column } of await textColumns()) {
    const { rows } = await databasePool().query<{ needle: string }>(
      `SELECT n AS needle FROM unnest($1::text[]) AS n WHERE EXISTS (SELECT 1 FROM "${schema}"."${table}" WHERE "${column}"::text ILIKE '%' || n || '%')`,
      [needles],
    );
    for (const { needle } of rows) holding.get(needle)!.push(`${schema}.${table}.${column}`);
  }
  return holding;
}

interface TextColumn {
  schema: string;
  table: string;
  column: string;
}

/**
 * Every column of Dakiya's tables and the queue's that can hold text: text, character, JSON, arrays, enums. A
 * partitioned table (pg-boss keeps its jobs in partitions) is read whole through its parent.
 */
async function textColumns(): Promise<TextColumn[]> {
  return prisma.$queryRawUnsafe<TextColumn[]>(
    `SELECT n.nspname::text AS schema, c.relname::text AS table, a.attname::text AS column
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid AND c.relkind IN ('r', 'p') AND NOT c.relispartition
       JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname IN ('public', 'pgboss')
       JOIN pg_type t ON t.oid = a.atttypid
      WHERE a.attnum > 0 AND NOT a.attisdropped
        AND (t.typcategory IN ('S', 'A', 'E') OR t.typname IN ('json', 'jsonb'))
      ORDER BY 1, 2, a.attnum`,
  );
}

interface Shopper {
  orderGids: string[];
  returnGids: string[];
  shipmentIds: number[];
  awbs: string[];
  legacyIds: string[];
  booked: { legacyId: string; awb: string; token: string };
  pickup: { awb: string; token: string };
}

/** The shopper's order, booked with courier 1, and the awb and link token it got. */
async function placeShopperOrder(index: number) {
  const base = shopperOrder(index);
  return store.simulator.placeOrder(store.domain, {
    ...base,
    email: SHOPPER.email,
    shippingAddress: { ...base.shippingAddress, firstName: SHOPPER.firstName, lastName: SHOPPER.lastName, address1: SHOPPER.address1, address2: SHOPPER.address2, city: "Mumbai", provinceCode: "MH", zip: "400005", phone: SHOPPER.phone },
  });
}

const tokenOf = (url: string | null) => new URL(url!).searchParams.get("token")!;

/** The shopper's day with the shop: a booked and tracked order, its return picked up, a booking the courier refused. */
async function shopperWithEverything(): Promise<Shopper> {
  const admin = await deps.adminFor(store.domain);
  const order = await placeShopperOrder(1);
  await enqueue("order-check", { shop: store.domain, orderGid: order.id });
  expect((await runJobs(["order-check"])).failed).toEqual([]);
  expect(await bookOrder({ shop: store.domain, admin }, { orderGid: order.id, courierId: 1 })).toMatchObject({ kind: "booked" });
  const booked = await prisma.shipment.findFirstOrThrow({ where: { shop: store.domain, orderGid: order.id } });

  // The courier's scan names where and to whom it handed the parcel: read by the real tracking sync.
  const sandbox = courierClientFor(sandboxCredentialsFor(store.domain));
  await sandbox.advanceSandboxShipment(booked.awb!, 8);
  const tracked = await sandbox.trackOrder(booked.awb!);
  const latest = tracked.tracking_history.at(-1)!;
  const inItsWords = { ...tracked, tracking_history: [...tracked.tracking_history.slice(0, -1), { ...latest, activity: `Delivered to ${SHOPPER.firstName.toUpperCase()} ${SHOPPER.lastName.toUpperCase()}, ${COURIER_SAYS.scan}`, location: `${SHOPPER.address2}, Cuffe Parade` }] };
  proxy.set((request) => (request.path.startsWith("/v1/track-order/") ? { status: 200, body: JSON.stringify(inItsWords), contentType: "application/json" } : null));
  await syncShopTracking(store.domain, { admin, now: () => new Date(Date.now() + 3_600_000) });
  proxy.heal();

  // A return of the delivered items, with the shopper's note; its pickup is booked from their address.
  const fulfilled = store.shop.orders.find((candidate) => candidate.id === order.id)!;
  const returnGid = store.simulator.returnAction(store.domain, "returnRequest", {
    input: { orderId: order.id, returnLineItems: [{ fulfillmentLineItemId: fulfilled.fulfillments[0]!.lines[0]!.id!, quantity: 1, returnReasonNote: `Wrong size. ${SHOPPER.firstName} here, call me before coming: ${SHOPPER.phone}` }] },
  });
  store.simulator.returnAction(store.domain, "returnApproveRequest", { input: { id: returnGid } });
  expect(await checkReturn(store.domain, returnGid, deps)).toMatchObject({ kind: "booked" });
  const pickup = await prisma.shipment.findFirstOrThrow({ where: { shop: store.domain, orderGid: returnGid } });

  // A second order, which the courier refuses in words that name the shopper.
  const refusedOrder = await placeShopperOrder(3);
  proxy.set((request) => (request.path === "/v1/create-order" ? jsonFault(422, `Consignee ${SHOPPER.firstName} ${SHOPPER.lastName} (${SHOPPER.phone}) ${COURIER_SAYS.refusal}`) : null));
  const refused = await bookOrder({ shop: store.domain, admin }, { orderGid: refusedOrder.id, courierId: 1 });
  proxy.heal();
  expect(refused.kind).not.toBe("booked");
  const failed = await prisma.shipment.findFirstOrThrow({ where: { shop: store.domain, orderGid: refusedOrder.id } });
  expect(failed.status).toBe("failed");

  // A try of the return's work that failed, its error quoting the pickup address (as Shopify's refusals do).
  await enqueue("return-check", { shop: store.domain, returnGid });
  const boss = await jobQueue();
  const [job] = await boss.fetch("return-check");
  await boss.fail("return-check", job!.id, { message: `Shopify refused the reverse delivery from ${SHOPPER.address1}` });

  const shipments = await prisma.shipment.findMany({ where: { shop: store.domain, OR: [{ orderGid: { in: [order.id, refusedOrder.id] } }, { returnOfOrderGid: order.id }] } });
  return {
    orderGids: [order.id, refusedOrder.id],
    returnGids: [returnGid],
    shipmentIds: shipments.map((shipment) => shipment.id),
    awbs: shipments.flatMap((shipment) => (shipment.awb ? [shipment.awb] : [])),
    legacyIds: [order.legacyResourceId, refusedOrder.legacyResourceId],
    booked: { legacyId: order.legacyResourceId, awb: booked.awb!, token: tokenOf(booked.trackingUrl) },
    pickup: { awb: pickup.awb!, token: tokenOf(pickup.trackingUrl) },
  };
}

/** The download the merchant sends the customer, as text. */
async function dataRequestFor(shopper: Shopper): Promise<string> {
  const requestId = `data-request-${Date.now()}-${Math.random()}`;
  const request = signedWebhookRequest("http://localhost:3999/webhooks/customers/data_request", { topic: "customers/data_request", shop: store.domain, webhookId: requestId, payload: { shop_id: 1, shop_domain: store.domain, customer: { id: 81, email: SHOPPER.email }, orders_requested: shopper.legacyIds.map(Number) } });
  expect((await responseOf(() => customersDataRequest({ request, params: {}, context: {} }))).status).toBe(200);
  expect((await runJobs(["customers-data-request"])).failed).toEqual([]);
  const { id } = await prisma.dataRequest.findFirstOrThrow({ where: { shop: store.domain }, orderBy: { id: "desc" } });
  const download = await responseOf(() => dataRequestDownload({ request: store.adminRequest(`/app/data-requests/${id}`), params: { id: String(id) }, context: {} }));
  expect(download.status).toBe(200);
  return download.text();
}

async function redact(shopper: Shopper): Promise<void> {
  const request = webhook("customers/redact", { shop_id: 1, shop_domain: store.domain, customer: { id: 81 }, orders_to_redact: shopper.legacyIds.map(Number) });
  expect((await responseOf(() => customersRedact({ request, params: {}, context: {} }))).status).toBe(200);
  expect((await runJobs(["customers-redact", "sandbox-erase"])).failed).toEqual([]);
}

/** Every page that shows these orders, returns and parcels, as the merchant and the shopper get them. */
async function pagesOf(shopper: Shopper): Promise<string> {
  const text = async (run: () => Promise<Response>) => (await responseOf(run)).text();
  const track = (awb: string, token: string) => text(() => trackLoader({ request: new Request(`http://localhost:3000/track/${awb}?token=${token}`), params: { awb }, context: { clientAddress: "198.51.100.90" } }) as Promise<Response>);
  const pages = [
    await track(shopper.booked.awb, shopper.booked.token),
    await track(shopper.pickup.awb, shopper.pickup.token),
    await text(() => returnsPageLoader({ request: store.adminRequest("/app/orders/returns"), params: {}, context: {} }) as Promise<Response>),
    await text(() => attentionLoader({ request: store.adminRequest("/app/attention"), params: {}, context: {} }) as Promise<Response>),
  ];
  for (const id of shopper.legacyIds) {
    // The ship page reads the order and its returns from Shopify afresh (Shopify erases its own copy); what it shows
    // from Dakiya's records is the booking, its tracking and its history.
    const shipPage = JSON.parse(await text(() => shipPageLoader({ request: store.adminRequest(`/app/orders/${id}/ship`), params: { id }, context: {} }) as Promise<Response>)) as Record<string, unknown>;
    pages.push(JSON.stringify({ booked: shipPage.booked, tracking: shipPage.tracking, history: shipPage.history }));
    pages.push(await text(() => orderApiLoader({ request: store.adminRequest(`/api/orders/${id}`), params: { id }, context: {} }) as Promise<Response>));
  }
  return pages.join("\n");
}

describe("a shopper's erasure, everywhere they are", () => {
  it("lists every detail in their data request beforehand; after customers/redact no row, job output or page holds any", async () => {
    const shopper = await shopperWithEverything();
    // Where the details are before: the bookings and the pickup as sent, the courier's words, the refusal, the
    // return's note, the queue's record of a failed try, the courier sandbox's copy, the pages.
    const before = await columnsHoldingEach([SHOPPER.lastName, SHOPPER.phone, "Cuffe Parade", COURIER_SAYS.scan, SHOPPER.address2, COURIER_SAYS.refusal, "call me before coming", `reverse delivery from ${SHOPPER.address1}`]);
    for (const detail of [SHOPPER.lastName, SHOPPER.phone, "Cuffe Parade"]) {
      expect(before.get(detail)).toEqual(expect.arrayContaining(["public.Shipment.requestPayload", "public.ServiceOrder." + (detail === SHOPPER.phone ? "mobile" : detail === "Cuffe Parade" ? "addressLine1" : "customerName")]));
    }
    expect(before.get(COURIER_SAYS.scan)).toEqual(["public.TrackingEvent.activity"]);
    expect(before.get(SHOPPER.address2)).toEqual(expect.arrayContaining(["public.TrackingEvent.location", "public.Shipment.requestPayload"]));
    expect(before.get(COURIER_SAYS.refusal)).toEqual(expect.arrayContaining(["public.Shipment.lastError", "public.ShipmentEvent.reason"]));
    expect(before.get("call me before coming")).toEqual(expect.arrayContaining(["public.ReturnRecord.reasons"]));
    expect(before.get(`reverse delivery from ${SHOPPER.address1}`)).toEqual(["pgboss.job.output"]);

    const listed = await dataRequestFor(shopper);
    for (const detail of DETAILS) expect(listed, detail).toContain(detail);
    expect(listed).toContain(`reverse delivery from ${SHOPPER.address1}`);
    const compiled = JSON.parse(listed) as { orders: { shipments: unknown[]; returns: { pickups: { sentToCourier: { name: string } }[] }[] }[] };
    // The return's pickup is listed with its contact: the shopper, at their address.
    expect(compiled.orders[0]!.returns[0]!.pickups[0]!.sentToCourier.name).toContain(SHOPPER.lastName);
    expect(await pagesOf(shopper)).toContain(COURIER_SAYS.scan);

    await redact(shopper);

    const after = await columnsHoldingEach([...DETAILS, SHOPPER.address1]);
    for (const detail of [...DETAILS, SHOPPER.address1]) expect(after.get(detail), detail).toEqual([]);
    const pages = await pagesOf(shopper);
    for (const detail of DETAILS) expect(pages, detail).not.toContain(detail);
    // What identifies no one stays: the awbs, the city, what happened to each parcel.
    expect(pages).toContain(shopper.booked.awb);
    expect((await prisma.shipment.findMany({ where: { id: { in: shopper.shipmentIds } }, orderBy: { id: "asc" } })).map((shipment) => shipment.status)).toEqual(["fulfilled", "return_in_transit", "failed"]);
  }, 60_000);

  it("knows every column that can hold text, and a shopper's detail put in any of them is in the data request and gone after customers/redact", async () => {
    // Every column named: a new one that is not fails here, until it is said whose it is.
    const columns = (await textColumns()).map(({ schema, table, column }) => `${schema}.${table}.${column}`);
    expect(columns.length).toBeGreaterThan(100);
    expect(columns.filter((column) => !(column in COLUMNS))).toEqual([]);
    expect(Object.keys(COLUMNS).filter((column) => !columns.includes(column))).toEqual([]);

    // A detail of the shopper's in every column that can hold one, on every row that is theirs.
    const shopper = await shopperWithEverything();
    const planted = Object.entries(COLUMNS).flatMap(([column, coverage]) => ("put" in coverage ? [{ column, coverage, marker: `planted-${column.replace(/\W+/g, "-")}-detail` }] : []));
    for (const { column, coverage, marker } of planted) expect(await prisma.$executeRaw(coverage.put(marker, shopper)), column).toBeGreaterThan(0);
    // Each marker in its own column and nowhere else.
    const put = await columnsHoldingEach(planted.map(({ marker }) => marker));
    for (const { column, marker } of planted) expect(put.get(marker), column).toEqual([column]);

    // The data request lists each (the courier sandbox's copy as Dakiya's own copy of what it sent).
    const listed = await dataRequestFor(shopper);
    for (const { column, coverage, marker } of planted) if (!coverage.courierCopy) expect(listed, column).toContain(marker);

    await redact(shopper);
    const left = await columnsHoldingEach(planted.map(({ marker }) => marker));
    for (const { column, marker } of planted) expect(left.get(marker), column).toEqual([]);
  }, 60_000);
});

/** A column that can hold a shopper's details: how a test puts one on the shopper's rows. */
interface ShoppersColumn {
  put: (marker: string, shopper: Shopper) => Prisma.Sql;
  /** The courier sandbox's copy of a booking: erased there by `sandbox-erase`; the data request lists Dakiya's copy (`sentToCourier`). */
  courierCopy?: true;
}
/** A column that cannot: why not. */
type Coverage = ShoppersColumn | { not: string };

const inOrders = (shopper: Shopper) => Prisma.sql`shop = ${store.domain} AND "orderGid" = ANY(${shopper.orderGids})`;
const inShipments = (shopper: Shopper) => Prisma.sql`shop = ${store.domain} AND id = ANY(${shopper.shipmentIds})`;
const ofShipments = (shopper: Shopper) => Prisma.sql`shop = ${store.domain} AND "shipmentId" = ANY(${shopper.shipmentIds})`;
const ofReturns = (shopper: Shopper) => Prisma.sql`shop = ${store.domain} AND "returnRecordId" IN (SELECT id FROM "ReturnRecord" WHERE ${inOrders(shopper)})`;
/** A shopper's answer to a failed delivery on their parcels: made if the parcel has none yet. */
const answered = (column: string) => (marker: string, shopper: Shopper) =>
  Prisma.sql`INSERT INTO "FailedDelivery" (shop, "shipmentId", attempt, state, ${Prisma.raw(`"${column}"`)}, "updatedAt") SELECT shop, id, 1, 'answered', ${marker}, now() FROM "Shipment" WHERE ${inShipments(shopper)} ON CONFLICT ("shipmentId") DO UPDATE SET ${Prisma.raw(`"${column}" = EXCLUDED."${column}"`)}`;
const inSandbox = (shopper: Shopper) => Prisma.sql`awb = ANY(${shopper.awbs})`;
/** A sentence of Dakiya's that quotes what someone else said. */
const quoting = (marker: string) => Prisma.sql`jsonb_build_object('key', 'activity.stored.willRetry', 'values', jsonb_build_object('message', ${marker}::text))`;
const problem = (marker: string) => Prisma.sql`jsonb_build_array(jsonb_build_object('code', 'PHONE_INVALID', 'message', ${marker}::text, 'fix', ${marker}::text, 'params', jsonb_build_object('phone', ${marker}::text)))`;

const set = (table: string, column: string, value: (marker: string) => Prisma.Sql, where: (shopper: Shopper) => Prisma.Sql) => (marker: string, shopper: Shopper) =>
  Prisma.sql`UPDATE ${Prisma.raw(`"${table}"`)} SET ${Prisma.raw(`"${column}"`)} = ${value(marker)} WHERE ${where(shopper)}`;
const text = (marker: string) => Prisma.sql`${marker}`;

const sandboxCopy = (column: string): ShoppersColumn => ({ put: set("ServiceOrder", column, text, inSandbox), courierCopy: true });
const PG_BOSS = "pg-boss's own bookkeeping: queue names, policies, schedules, counts and its processes";
const IDS = "ids, names of Dakiya's own states or kinds, never a shopper's words";
const MERCHANTS = "the merchant's own settings or business details, not a shopper's";
const SANDBOX = "the courier sandbox's own records of its accounts and routes";

/** Every column of Dakiya's database and the job queue's that can hold text. */
const COLUMNS: Record<string, Coverage> = {
  // ─── A shopper's, on their orders ────────────────────────────────────────────────────────────────────────────
  "public.OrderRecord.shopperName": { put: set("OrderRecord", "shopperName", text, inOrders) },
  "public.OrderRecord.tags": { put: (marker, shopper) => Prisma.sql`UPDATE "OrderRecord" SET tags = array_append(tags, ${marker}) WHERE ${inOrders(shopper)}` },
  "public.OrderRecord.problems": { put: (marker, shopper) => Prisma.sql`UPDATE "OrderRecord" SET problems = problems || ${problem(marker)} WHERE ${inOrders(shopper)}` },
  "public.OrderRecord.decisionReason": { put: set("OrderRecord", "decisionReason", text, inOrders) },
  "public.OrderRecord.decisionWords": { put: set("OrderRecord", "decisionWords", quoting, inOrders) },
  "public.OrderRecord.addressDigest": { put: set("OrderRecord", "addressDigest", text, inOrders) },
  "public.ReturnRecord.reasons": { put: (marker, shopper) => Prisma.sql`UPDATE "ReturnRecord" SET reasons = array_append(reasons, ${marker}) WHERE ${inOrders(shopper)}` },
  "public.ReturnRecord.problems": { put: (marker, shopper) => Prisma.sql`UPDATE "ReturnRecord" SET problems = problems || ${problem(marker)} WHERE ${inOrders(shopper)}` },
  "public.ReturnRecord.decisionReason": { put: set("ReturnRecord", "decisionReason", text, inOrders) },
  "public.ReturnRecord.decisionWords": { put: set("ReturnRecord", "decisionWords", quoting, inOrders) },
  "public.Shipment.requestPayload": { put: (marker, shopper) => Prisma.sql`UPDATE "Shipment" SET "requestPayload" = jsonb_set("requestPayload"::jsonb, '{address_line_2}', to_jsonb(${marker}::text))::text WHERE ${inShipments(shopper)} AND "requestPayload" <> ''` },
  "public.Shipment.lastError": { put: set("Shipment", "lastError", text, inShipments) },
  "public.Shipment.lastErrorWords": { put: set("Shipment", "lastErrorWords", quoting, inShipments) },
  "public.Shipment.trackingError": { put: set("Shipment", "trackingError", text, inShipments) },
  "public.Shipment.trackingErrorWords": { put: set("Shipment", "trackingErrorWords", quoting, inShipments) },
  "public.ShipmentEvent.reason": { put: set("ShipmentEvent", "reason", text, ofShipments) },
  "public.ReturnEvent.reason": { put: set("ReturnEvent", "reason", text, ofReturns) },
  "public.ReturnEvent.reasonWords": { put: set("ReturnEvent", "reasonWords", quoting, ofReturns) },
  "public.ShipmentEvent.reasonWords": { put: set("ShipmentEvent", "reasonWords", quoting, ofShipments) },
  "public.TrackingEvent.activity": { put: set("TrackingEvent", "activity", text, ofShipments) },
  "public.FailedDelivery.phone": { put: answered("phone") },
  "public.FailedDelivery.alternatePhone": { put: answered("alternatePhone") },
  "public.FailedDelivery.addressLine": { put: answered("addressLine") },
  "public.FailedDelivery.landmark": { put: answered("landmark") },
  "public.FailedDelivery.remarks": { put: answered("remarks") },
  "public.FailedDelivery.shop": { not: IDS },
  "public.FailedDelivery.state": { not: IDS },
  "public.FailedDelivery.answer": { not: IDS },
  "public.FailedDelivery.answerLanguage": { not: IDS },
  "public.FailedDelivery.preferredDate": { not: "a day in the next six, as the form offered it" },
  "public.FailedDelivery.preferredSlot": { not: IDS },
  "public.FailedDelivery.decision": { not: IDS },
  "public.FailedDelivery.rule": { not: "the merchant's own rule's name" },
  "public.FailedDelivery.waitOtherwise": { not: IDS },
  "public.FailedDeliveryEvent.shop": { not: IDS },
  "public.FailedDeliveryEvent.transition": { not: IDS },
  "public.FailedDeliveryEvent.fromState": { not: IDS },
  "public.FailedDeliveryEvent.toState": { not: IDS },
  "public.FailedDeliveryEvent.actorKind": { not: IDS },
  "public.FailedDeliveryEvent.actorName": { not: "a screen, a rule's name, the tracking link, a webhook topic" },
  "public.FailedDeliveryEvent.reason": { not: "the desk's own words: an attempt's number, an answer's kind, day and what it corrected (never the values), a decision, a hand-off" },
  "public.FailedDeliveryEvent.reasonWords": { not: "the same as words to say in the admin's language" },
  "public.FailedDeliverySettings.shop": { not: IDS },
  "public.FailedDeliverySettings.rules": { not: MERCHANTS },
  // The e-mail hand-off: the merchant's mail server and addresses; a day's dispatch says what failed in the app's
  // words (host and port, never a reply of the server) and holds no row of the instructions it sent.
  "public.NdrEmailSettings.shop": { not: IDS },
  "public.NdrEmailSettings.recipient": { not: MERCHANTS },
  "public.NdrEmailSettings.timeZone": { not: MERCHANTS },
  "public.NdrEmailSettings.smtpHost": { not: MERCHANTS },
  "public.NdrEmailSettings.smtpSecurity": { not: MERCHANTS },
  "public.NdrEmailSettings.smtpUser": { not: MERCHANTS },
  "public.NdrEmailSettings.smtpPasswordCipher": { not: MERCHANTS },
  "public.NdrEmailSettings.fromAddress": { not: MERCHANTS },
  "public.NdrEmailDispatch.shop": { not: IDS },
  "public.NdrEmailDispatch.day": { not: IDS },
  "public.NdrEmailDispatch.lastError": { not: "the app's own sentence of what failed: the merchant's host and port" },
  "public.NdrEmailDispatch.lastErrorKind": { not: IDS },
  "public.NdrEmailDispatch.messageId": { not: "a hash of the day's instructions, not their text" },
  "public.TrackingEvent.location": { put: set("TrackingEvent", "location", text, ofShipments) },
  // What a Flow trigger carries until Shopify has it (a failed attempt's reason is the courier's words), and a Flow
  // action's answer (which may quote a courier's refusal).
  "public.FlowTriggerEvent.payload": {
    put: (marker, shopper) =>
      Prisma.sql`INSERT INTO "FlowTriggerEvent" (shop, trigger, "eventKey", "orderGid", payload) VALUES (${store.domain}, 'dakiya-delivery-failed', md5(${marker}), ${shopper.orderGids[0]}, jsonb_build_object('Reason', ${marker}::text))`,
  },
  "public.FlowActionRun.answer": {
    put: (marker, shopper) =>
      Prisma.sql`INSERT INTO "FlowActionRun" (shop, "actionRunId", action, "orderGid", state, status, answer, "startedAt") VALUES (${store.domain}, md5(${marker}), 'dakiya-ship-order', ${shopper.orderGids[0]}, 'done', 200, jsonb_build_object('return_value', jsonb_build_object('outcome', 'not_booked', 'message', ${marker}::text)), now())`,
  },
  // Cash on delivery: the keyed hashes their phone and e-mail were kept as, their answers to a confirmation (a
  // correction until Shopify has it), the order's COD history (which may quote Shopify's refusal), the address scored.
  "public.ShopperKey.key": {
    put: (marker, shopper) =>
      Prisma.sql`INSERT INTO "ShopperKey" (shop, "orderGid", kind, key) VALUES (${store.domain}, ${shopper.orderGids[0]}, 'phone', ${marker}) ON CONFLICT (shop, "orderGid", kind) DO UPDATE SET key = EXCLUDED.key`,
  },
  "public.CodConfirmation.correction": {
    put: (marker, shopper) =>
      Prisma.sql`INSERT INTO "CodConfirmation" (shop, "orderGid", state, "onSilence", "askedAt", "deadlineAt", "linkExpiresAt", correction, "updatedAt")
        VALUES (${store.domain}, ${shopper.orderGids[0]}, 'corrected', 'remind', now(), now(), now(), jsonb_build_object('address', jsonb_build_object('address1', ${marker}::text)), now())
        ON CONFLICT (shop, "orderGid") DO UPDATE SET correction = EXCLUDED.correction`,
  },
  "public.CodEvent.words": {
    put: (marker, shopper) =>
      Prisma.sql`INSERT INTO "CodEvent" (shop, "orderGid", step, "actorKind", "actorName", words, at)
        VALUES (${store.domain}, ${shopper.orderGids[0]}, 'corrected', 'job', 'cod-confirmation', jsonb_build_object('key', 'cod.history.correctionRefused', 'values', jsonb_build_object('why', ${marker}::text)), now())`,
  },
  "public.CodRisk.addressDigest": {
    put: (marker, shopper) =>
      Prisma.sql`INSERT INTO "CodRisk" (shop, "orderGid", level, score, "addressDigest", "scoredAt", "updatedAt") VALUES (${store.domain}, ${shopper.orderGids[0]}, 'low', 20, ${marker}, now(), now())
        ON CONFLICT (shop, "orderGid") DO UPDATE SET "addressDigest" = EXCLUDED."addressDigest"`,
  },
  "pgboss.job.output": {
    put: (marker, shopper) =>
      Prisma.sql`UPDATE pgboss.job SET output = jsonb_build_object('message', ${marker}::text)
        WHERE data->>'shop' = ${store.domain} AND (data->>'orderGid' = ANY(${shopper.orderGids}) OR data->>'returnGid' = ANY(${shopper.returnGids}) OR data->>'shipmentId' = ANY(${shopper.shipmentIds.map(String)}))`,
  },
  // The courier sandbox's copy of what was sent to it.
  "public.ServiceOrder.customerName": sandboxCopy("customerName"),
  "public.ServiceOrder.customerEmail": sandboxCopy("customerEmail"),
  "public.ServiceOrder.mobile": sandboxCopy("mobile"),
  "public.ServiceOrder.altMobile": sandboxCopy("altMobile"),
  "public.ServiceOrder.companyName": sandboxCopy("companyName"),
  "public.ServiceOrder.gstNumber": sandboxCopy("gstNumber"),
  "public.ServiceOrder.addressLine1": sandboxCopy("addressLine1"),
  "public.ServiceOrder.addressLine2": sandboxCopy("addressLine2"),
  "public.ServiceOrder.deliveryRemarks": sandboxCopy("deliveryRemarks"),

  // ─── Not a shopper's ─────────────────────────────────────────────────────────────────────────────────────────
  "public.OrderRecord.shop": { not: IDS },
  "public.OrderRecord.orderGid": { not: IDS },
  "public.OrderRecord.orderName": { not: "the shop's order number" },
  "public.OrderRecord.readiness": { not: IDS },
  "public.OrderRecord.paymentMode": { not: IDS },
  "public.OrderRecord.destination": { not: "the city and PIN code, which identify no one (kept: the lists and the COD figures use them)" },
  "public.OrderRecord.pincode": { not: "a PIN code identifies no one (kept, as the city)" },
  "public.OrderRecord.zone": { not: IDS },
  "public.OrderRecord.quote": { not: "the courier's rates for the route" },
  "public.OrderRecord.decision": { not: IDS },
  "public.OrderRecord.customerGid": { not: "Shopify's id for the order's customer, the one who may see its parcels: ids only" },
  "public.FlowTriggerUse.shop": { not: IDS },
  "public.FlowTriggerUse.trigger": { not: IDS },
  "public.FlowTriggerEvent.shop": { not: IDS },
  "public.FlowTriggerEvent.trigger": { not: IDS },
  "public.FlowTriggerEvent.eventKey": { not: "the event's key: the shipment's id and what happened to it" },
  "public.FlowTriggerEvent.orderGid": { not: IDS },
  "public.FlowActionRun.shop": { not: IDS },
  "public.FlowActionRun.actionRunId": { not: "Flow's id for the run" },
  "public.FlowActionRun.action": { not: IDS },
  "public.FlowActionRun.orderGid": { not: IDS },
  "public.FlowActionRun.state": { not: IDS },
  "public.ReturnRecord.shop": { not: IDS },
  "public.ReturnRecord.returnGid": { not: IDS },
  "public.ReturnRecord.orderGid": { not: IDS },
  "public.ReturnRecord.returnName": { not: "the shop's return number" },
  "public.ReturnRecord.state": { not: IDS },
  "public.ReturnRecord.pincode": { not: "a PIN code identifies no one (kept, as the city)" },
  "public.ReturnRecord.decision": { not: IDS },
  "public.Shipment.shop": { not: IDS },
  "public.Shipment.orderGid": { not: IDS },
  "public.Shipment.orderName": { not: "the shop's order number" },
  "public.Shipment.direction": { not: IDS },
  "public.Shipment.returnOfOrderGid": { not: IDS },
  "public.Shipment.status": { not: IDS },
  "public.Shipment.courierEnvironment": { not: IDS },
  "public.Shipment.awb": { not: "the courier's number for the parcel" },
  "public.Shipment.courierName": { not: "the courier's name" },
  "public.Shipment.zone": { not: IDS },
  "public.Shipment.edd": { not: "the courier's days for the route" },
  "public.Shipment.paymentMode": { not: IDS },
  "public.Shipment.trackingUrl": { not: "the courier's tracking address and a random token" },
  "public.Shipment.locationGid": { not: IDS },
  "public.Shipment.locationName": { not: "the name of the merchant's location the parcel ships from" },
  "public.Shipment.fulfillmentOrderGid": { not: IDS },
  "public.Shipment.fulfillmentGid": { not: IDS },
  "public.Shipment.attention": { not: IDS },
  "public.Shipment.courierStatusLabel": { not: "the stage's name from the courier's table" },
  "public.Shipment.trackingState": { not: IDS },
  "public.Shipment.outcome": { not: IDS },
  "public.ReturnEvent.shop": { not: IDS },
  "public.ReturnEvent.transition": { not: IDS },
  "public.ReturnEvent.fromState": { not: IDS },
  "public.ReturnEvent.toState": { not: IDS },
  "public.ReturnEvent.actorKind": { not: IDS },
  "public.ReturnEvent.actorName": { not: "a rule's name, a screen, a webhook topic, a job or a courier" },
  "public.ShipmentEvent.shop": { not: IDS },
  "public.ShipmentEvent.transition": { not: IDS },
  "public.ShipmentEvent.fromState": { not: IDS },
  "public.ShipmentEvent.toState": { not: IDS },
  "public.ShipmentEvent.actorKind": { not: IDS },
  "public.ShipmentEvent.actorName": { not: "a rule's name, a screen, a webhook topic, a job or a courier" },
  "public.TrackingEvent.shop": { not: IDS },
  "public.TrackingEvent.fingerprint": { not: "a digest of the entry's code, time and words (one way: no words can be read back)" },
  "public.TrackingEvent.label": { not: "the stage's name from the courier's table" },
  "public.TrackingEvent.shopifyEventGid": { not: IDS },
  "public.DataRequest.shop": { not: IDS },
  "public.DataRequest.webhookId": { not: IDS },
  "public.DataRequest.customerId": { not: "Shopify's id for the customer who asked, kept with their request: ids only" },
  "public.DataRequest.orderGids": { not: IDS },
  "public.DataRequest.ordersByPhoneOrEmail": { not: "the order GIDs their phone or e-mail's keyed hash found when the request came: ids only" },
  "public.ShopperKey.shop": { not: IDS },
  "public.ShopperKey.orderGid": { not: IDS },
  "public.ShopperKey.kind": { not: IDS },
  "public.CodRisk.shop": { not: IDS },
  "public.CodRisk.orderGid": { not: IDS },
  "public.CodRisk.orderName": { not: "the shop's order number" },
  "public.CodRisk.level": { not: IDS },
  "public.CodRisk.factors": { not: "each factor's code, points and values: counts, rates, the PIN code, city and state, which identify no one (kept, as the order's destination)" },
  "public.CodRisk.assessedLevel": { not: IDS },
  "public.CodConfirmation.shop": { not: IDS },
  "public.CodConfirmation.orderGid": { not: IDS },
  "public.CodConfirmation.orderName": { not: "the shop's order number" },
  "public.CodConfirmation.state": { not: IDS },
  "public.CodConfirmation.onSilence": { not: IDS },
  "public.CodConfirmation.language": { not: IDS },
  "public.CodConfirmation.holdIds": { not: IDS },
  "public.CodEvent.shop": { not: IDS },
  "public.CodEvent.orderGid": { not: IDS },
  "public.CodEvent.step": { not: IDS },
  "public.CodEvent.actorKind": { not: IDS },
  "public.CodEvent.actorName": { not: "a rule's name, a screen, a job, or the shopper's link as such" },
  "public.CodSettings.shop": { not: IDS },
  "public.CodSettings.onSilence": { not: MERCHANTS },
  "public.ShipmentDocument.shop": { not: IDS },
  "public.ShipmentDocument.routingText": { not: "the courier's routing: cities, PIN codes and the zone" },
  "public.Manifest.shop": { not: IDS },
  "public.Manifest.courierName": { not: "the courier's name" },
  "public.ManifestShipment.shop": { not: IDS },
  "public.WebhookDelivery.id": { not: IDS },
  "public.WebhookDelivery.shop": { not: IDS },
  "public.WebhookDelivery.topic": { not: IDS },
  "public.WebhookDelivery.problem": { not: "why a delivery was not handled, in Dakiya's fixed words" },
  "public.Session.id": { not: IDS },
  "public.Session.shop": { not: IDS },
  "public.Session.state": { not: IDS },
  "public.Session.scope": { not: IDS },
  "public.Session.accessToken": { not: "the shop's token, sealed at rest and kept from logs and pages, erased with the shop" },
  "public.Session.refreshToken": { not: "the shop's token, sealed at rest and kept from logs and pages, erased with the shop" },
  "public.Session.firstName": { not: "the merchant's staff member who opened the app, from Shopify's session: erased with the shop" },
  "public.Session.lastName": { not: "the merchant's staff member who opened the app, from Shopify's session: erased with the shop" },
  "public.Session.email": { not: "the merchant's staff member who opened the app, from Shopify's session: erased with the shop" },
  "public.Session.locale": { not: IDS },
  "public.ShopSettings.shop": { not: IDS },
  "public.ShopSettings.courierApiKey": { not: MERCHANTS },
  "public.ShopSettings.courierSecretCipher": { not: MERCHANTS },
  "public.ShopSettings.courierEnvironment": { not: MERCHANTS },
  "public.ShopSettings.locationWarehouses": { not: MERCHANTS },
  "public.ShopSettings.packagePresets": { not: MERCHANTS },
  "public.ShopSettings.codTag": { not: MERCHANTS },
  "public.ShopSettings.prepaidTag": { not: MERCHANTS },
  "public.ShopSettings.bookingRules": { not: MERCHANTS },
  "public.ShopSettings.returnRule": { not: MERCHANTS },
  "public.ShopSettings.returnDisposition": { not: MERCHANTS },
  "public.ShopSettings.returnRules": { not: MERCHANTS },
  "public.ShopSync.shop": { not: IDS },
  "public.ShopDocumentSettings.shop": { not: IDS },
  "public.ShopDocumentSettings.labelLayout": { not: MERCHANTS },
  "public.ShopDocumentSettings.shopName": { not: MERCHANTS },
  "public.TrackingPageSettings.shop": { not: IDS },
  "public.TrackingPageSettings.logoUrl": { not: MERCHANTS },
  "public.TrackingPageSettings.contactEmail": { not: MERCHANTS },
  "public.TrackingPageSettings.contactPhone": { not: MERCHANTS },
  "public.StorefrontSettings.shop": { not: IDS },
  "public.StorefrontSettings.closedWeekdays": { not: MERCHANTS },
  "public.StorefrontSettings.closedDates": { not: MERCHANTS },
  "public.StorefrontSettings.proxyPathPrefix": { not: MERCHANTS },
  "public.StorefrontSettings.primaryDomainHost": { not: MERCHANTS },
  "public.StorefrontVariantWeight.shop": { not: IDS },
  "public.StorefrontVariantWeight.variantGid": { not: IDS },
  "public.StorefrontRefusal.shop": { not: IDS },
  // The remittance and freight checks: the courier's own figures for parcels (awbs, amounts, weights, bank references).
  "public.Shipment.packageName": { not: "the merchant's box preset's name" },
  "public.ReconciliationSettings.shop": { not: IDS },
  "public.ReconciliationSettings.remittanceColumns": { not: "the aggregator's column headings, as the merchant mapped them" },
  "public.ReconciliationSettings.invoiceColumns": { not: "the aggregator's column headings, as the merchant mapped them" },
  "public.CourierStatement.shop": { not: IDS },
  "public.CourierStatement.kind": { not: IDS },
  "public.CourierStatement.fileName": { not: "the name of the aggregator's statement file the merchant uploaded" },
  "public.CourierStatement.sha256": { not: "a digest of the file (one way)" },
  "public.CourierStatement.summary": { not: "how many lines got each verdict" },
  "public.RemittanceLine.shop": { not: IDS },
  "public.RemittanceLine.awb": { not: "the courier's number for the parcel" },
  "public.RemittanceLine.orderRef": { not: "the shop's order number, as the statement gives it" },
  "public.RemittanceLine.reference": { not: "the bank's reference for the courier's transfer to the merchant (UTR)" },
  "public.RemittanceLine.orderGid": { not: IDS },
  "public.RemittanceLine.matchedBy": { not: IDS },
  "public.RemittanceLine.verdict": { not: IDS },
  "public.FreightCharge.shop": { not: IDS },
  "public.FreightCharge.awb": { not: "the courier's number for the parcel" },
  "public.FreightCharge.orderGid": { not: IDS },
  "public.FreightCharge.courierName": { not: "the courier's name" },
  "public.FreightCharge.verdict": { not: IDS },
  "public.PackingPhoto.shop": { not: IDS },
  "public.PackingPhoto.contentType": { not: "the image's type; the photo itself (bytes, not text) goes with customers/redact: test/routes/freight-checks.test.ts" },
  "public.ShopifyCodPayment.shop": { not: IDS },
  "public.ShopifyCodPayment.orderGid": { not: IDS },
  "public.ShopifyCodPayment.parcelName": { not: "the shop's order number and the parcel's" },
  "public.ShopifyCodPayment.reference": { not: "the bank's reference for the courier's transfer to the merchant (UTR)" },
  "public.ShopifyCodPayment.state": { not: IDS },
  "public.ShopifyCodPayment.method": { not: IDS },
  "public.ShopifyCodPayment.detail": { not: "why Shopify did not record a payment: about the order's balance, never its customer" },
  "public._prisma_migrations.id": { not: "Prisma's record of the migrations applied" },
  "public._prisma_migrations.checksum": { not: "Prisma's record of the migrations applied" },
  "public._prisma_migrations.migration_name": { not: "Prisma's record of the migrations applied" },
  "public._prisma_migrations.logs": { not: "Prisma's record of the migrations applied" },
  "public.ApiClient.name": { not: SANDBOX },
  "public.ApiClient.apiKey": { not: SANDBOX },
  "public.ApiClient.secretSalt": { not: SANDBOX },
  "public.ApiClient.secretHash": { not: SANDBOX },
  "public.Warehouse.warehouseName": { not: `${SANDBOX}: the merchant's warehouses` },
  "public.Warehouse.companyName": { not: `${SANDBOX}: the merchant's warehouses` },
  "public.Warehouse.addressLine1": { not: `${SANDBOX}: the merchant's warehouses` },
  "public.Warehouse.addressLine2": { not: `${SANDBOX}: the merchant's warehouses` },
  "public.Warehouse.city": { not: `${SANDBOX}: the merchant's warehouses` },
  "public.Warehouse.state": { not: `${SANDBOX}: the merchant's warehouses` },
  "public.Warehouse.country": { not: `${SANDBOX}: the merchant's warehouses` },
  "public.Warehouse.mobile": { not: `${SANDBOX}: the merchant's warehouses` },
  "public.Warehouse.email": { not: `${SANDBOX}: the merchant's warehouses` },
  "public.Warehouse.gstNumber": { not: `${SANDBOX}: the merchant's warehouses` },
  "public.ServiceOrder.orderId": { not: "the shop's order number, as sent" },
  "public.ServiceOrder.awb": { not: "the courier's number for the parcel" },
  "public.ServiceOrder.requestHash": { not: "a digest of the body sent (one way)" },
  "public.ServiceOrder.createResult": { not: "the sandbox's answer to the booking: awb, courier, charges, zone" },
  "public.ServiceOrder.orderType": { not: SANDBOX },
  "public.ServiceOrder.orderDate": { not: SANDBOX },
  "public.ServiceOrder.city": { not: "the city identifies no one (kept, as Dakiya's copy keeps it)" },
  "public.ServiceOrder.state": { not: "the state identifies no one" },
  "public.ServiceOrder.products": { not: "the products' names, prices and quantities" },
  "public.ServiceOrder.paymentMode": { not: SANDBOX },
  "public.ServiceOrder.ewaybillNo": { not: "the e-waybill's number for the goods" },
  "public.ServiceOrder.logisticName": { not: SANDBOX },
  "public.ServiceOrder.logisticMode": { not: SANDBOX },
  "public.ServiceOrder.zone": { not: SANDBOX },
  "public.ServiceOrder.trackingUrl": { not: SANDBOX },
  "public.ServiceTrackingEvent.location": { not: "the sandbox's own scans, made from the route's cities (its tracking clock)" },
  "public.ServiceTrackingEvent.activity": { not: "the sandbox's own scans, made from the route's cities (its tracking clock)" },
  // The job queue: each job's data is checked against its queue's schema (app/jobs/queues.ts), which holds ids only.
  "pgboss.job.name": { not: IDS },
  "pgboss.job.data": { not: "ids only, and a customer's request the keyed hashes of their phone and e-mail (which cannot be read back): every queue's data is checked against its schema in app/jobs/queues.ts" },
  "pgboss.job.state": { not: IDS },
  "pgboss.job.singleton_key": { not: "the job's key: its queue and ids" },
  "pgboss.job.policy": { not: IDS },
  "pgboss.job.dead_letter": { not: IDS },
  "pgboss.job.group_id": { not: "the job's shop" },
  "pgboss.job.group_tier": { not: IDS },
  "pgboss.job.source_name": { not: "set only for a job sent from another's output (pg-boss's flows), which Dakiya does not use" },
  "pgboss.job.source_output": { not: "set only for a job sent from another's output (pg-boss's flows), which Dakiya does not use" },
  "pgboss.job.trace_context": { not: "tracing, switched off" },
  "pgboss.job_dependency.parent_name": { not: PG_BOSS },
  "pgboss.job_dependency.child_name": { not: PG_BOSS },
  "pgboss.queue.name": { not: PG_BOSS },
  "pgboss.queue.policy": { not: PG_BOSS },
  "pgboss.queue.dead_letter": { not: PG_BOSS },
  "pgboss.queue.table_name": { not: PG_BOSS },
  "pgboss.queue.ready_history": { not: PG_BOSS },
  "pgboss.queue.run_bins": { not: PG_BOSS },
  "pgboss.queue.wait_bins": { not: PG_BOSS },
  "pgboss.queue.singletons_active": { not: PG_BOSS },
  "pgboss.queue_stats.name": { not: PG_BOSS },
  "pgboss.queue_stats.run_bins": { not: PG_BOSS },
  "pgboss.queue_stats.wait_bins": { not: PG_BOSS },
  "pgboss.schedule.name": { not: PG_BOSS },
  "pgboss.schedule.key": { not: PG_BOSS },
  "pgboss.schedule.cron": { not: PG_BOSS },
  "pgboss.schedule.timezone": { not: PG_BOSS },
  "pgboss.schedule.data": { not: `${PG_BOSS}: the sweeps' data, which is empty` },
  "pgboss.schedule.options": { not: PG_BOSS },
  "pgboss.schedule.kind": { not: PG_BOSS },
  "pgboss.subscription.event": { not: PG_BOSS },
  "pgboss.subscription.name": { not: PG_BOSS },
  "pgboss.bam.name": { not: PG_BOSS },
  "pgboss.bam.status": { not: PG_BOSS },
  "pgboss.bam.queue": { not: PG_BOSS },
  "pgboss.bam.table_name": { not: PG_BOSS },
  "pgboss.bam.command": { not: PG_BOSS },
  "pgboss.bam.error": { not: PG_BOSS },
  "pgboss.warning.type": { not: PG_BOSS },
  "pgboss.warning.message": { not: PG_BOSS },
  "pgboss.warning.data": { not: `${PG_BOSS}: a queue's size, a slow statement's timing` },
  "pgboss.instance.name": { not: PG_BOSS },
  "pgboss.instance.host": { not: PG_BOSS },
  "pgboss.instance.application_name": { not: PG_BOSS },
  "pgboss.instance.node_version": { not: PG_BOSS },
  "pgboss.instance.version": { not: PG_BOSS },
  "pgboss.instance.config": { not: PG_BOSS },
  "pgboss.instance.metrics": { not: PG_BOSS },
  "pgboss.instance.workers": { not: PG_BOSS },
};
