import { randomBytes, randomInt } from "node:crypto";
import type { Prisma } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { loader as trackIndexLoader } from "~/routes/track._index";
import { loader as trackLoader } from "~/routes/track.$awb";
import { trackingLinkTokenOf } from "~/shipping/tracking-url";
import { isServiceStatusCode } from "~/shipping/status";
import { outcomeOfCode } from "~/shipments/lifecycle";
import { callerKey, createCallerLimiter } from "~/caller-limits.server";
import { getPublicTracking, shopperDetailsRedactor } from "~/tracking/public-tracking.server";
import { queuedJobs } from "../support/jobs";

/*
 * The public tracking page on the real database: shipments and their tracking entries are written with Prisma as
 * the booking and the tracking sync write them, and the page is read through its loader as the HTTP server calls
 * it (with `context.clientAddress`). Every test runs from an address of its own, so the rate limit of one does not
 * touch another.
 */

const run = `${Date.now().toString(36)}${randomInt(1_000)}`;
const SHOP = `tracking-page-${run}.myshopify.com`;
/** A second shop, for a job count that must stay zero whatever the first shop's shipments ask for. */
const QUIET_SHOP = `tracking-page-quiet-${run}.myshopify.com`;

// The shopper and the order, as Dakiya stored them in the create-order body: none of it may reach the page but the city.
const SHOPPER = {
  name: "Asha Rao",
  mobile: "9820012345",
  email: "asha.rao@example.in",
  address_line_1: "12, 3rd Cross, Indiranagar",
  address_line_2: "Near Sony Signal",
  city: "Bengaluru",
  state: "Karnataka",
  pincode: "560038",
};
const ORDER_NAME = "#98317";
const ORDER_NUMBER = "7711223344";
const SHOPPER_DETAILS = [SHOPPER.name, "Asha", "9820012345", "98200 12345", SHOPPER.email, "3rd Cross", "Indiranagar", "Sony Signal", SHOPPER.pincode, ORDER_NUMBER];
/** The order's number is the shopper's to see through their own link, and nobody else's. */
const ORDER_DETAILS = [ORDER_NAME, "98317"];

const HOUR = 3_600_000;
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

let sequence = 0;
const newAwb = () => `1${run.replace(/\D/g, "").padEnd(6, "0").slice(0, 6)}${String((sequence += 1)).padStart(7, "0")}`;

interface Seed {
  shop?: string;
  awb?: string;
  status?: string;
  code: number | null;
  events?: { code: number; label: string; activity: string; location: string | null; happenedAt: Date }[];
  syncedAt?: Date | null;
  nextSyncAt?: Date | null;
  estimatedDeliveryAt?: Date | null;
  deliveredAt?: Date | null;
}

/** A booked shipment with its tracking as the sync leaves it (the latest entry's code, label and time on the row). */
async function seedShipment({ shop = SHOP, awb = newAwb(), status = "fulfilled", code, events = [], syncedAt = minutesAgo(5), nextSyncAt, estimatedDeliveryAt = null, deliveredAt = null }: Seed) {
  sequence += 1;
  const latest = [...events].sort((a, b) => a.happenedAt.getTime() - b.happenedAt.getTime()).at(-1);
  const data: Prisma.ShipmentUncheckedCreateInput = {
    shop,
    orderGid: `gid://shopify/Order/${ORDER_NUMBER}${sequence}`,
    orderName: ORDER_NAME,
    status,
    requestPayload: JSON.stringify({ order_id: ORDER_NAME, order_date: "2026-11-20", ...SHOPPER, products: [{ product_name: "Cotton kurta", price: 1299, quantity: 1 }], payment_mode: "cod", total_amount: 1299, logistic_id: 1 }),
    courierEnvironment: "test",
    awb,
    courierId: 1,
    courierName: "Delhivery Surface",
    paymentMode: "cod",
    // As the courier sandbox hands it out: a token of the shipment's own opens its details.
    trackingUrl: `http://localhost:3000/track/${awb}?token=${randomBytes(16).toString("base64url")}`,
    fulfillmentGid: "gid://shopify/Fulfillment/424242",
    courierStatusCode: code,
    outcome: code !== null && isServiceStatusCode(code) ? outcomeOfCode(code, "forward") : "awaiting_pickup",
    courierStatusLabel: latest?.label ?? null,
    courierStatusAt: latest?.happenedAt ?? null,
    lastScanAt: latest?.happenedAt ?? null,
    estimatedDeliveryAt,
    deliveredAt,
    syncedAt,
    nextSyncAt: nextSyncAt === undefined ? new Date(Date.now() + HOUR) : nextSyncAt,
  };
  const shipment = await prisma.shipment.create({ data });
  await prisma.trackingEvent.createMany({
    data: events.map((event, index) => ({ shop, shipmentId: shipment.id, fingerprint: `${awb}-${index}`, ...event, postedAt: new Date() })),
  });
  return shipment;
}

const IN_TRANSIT_EVENTS = [
  { code: 2, label: "Manifested", activity: "Shipment manifested; awaiting pick-up", location: "Bhiwandi", happenedAt: new Date("2026-11-22T04:30:00Z") },
  { code: 3, label: "Out for Pickup", activity: "Courier executive out to pick up the shipment", location: "Bhiwandi", happenedAt: new Date("2026-11-22T07:00:00Z") },
  { code: 5, label: "In Transit", activity: "Shipment picked up and in transit to Bengaluru", location: "Bhiwandi hub", happenedAt: new Date("2026-11-23T09:15:00Z") },
];

let address = 0;
/** A caller address of the test's own (TEST-NET-3), so no test meets another's rate limit. */
const nextAddress = () => `203.0.113.${(address += 1)}`;

interface Visit {
  lang?: string;
  acceptLanguage?: string;
  from?: string;
}

/** A shipment as the page's link knows it. */
type Linked = { awb: string | null; trackingUrl: string | null };

/** The token in a seeded shipment's tracking link. */
const tokenOf = (shipment: Linked) => trackingLinkTokenOf(shipment.trackingUrl)!;

/**
 * Opens the page of a number typed by hand (a string: the stage only), or follows a shipment's tracking link as the
 * shopper does from the shipping email (its awb and token: the full page).
 */
async function visit(target: string | Linked, { lang, acceptLanguage, from = nextAddress() }: Visit = {}) {
  const awb = typeof target === "string" ? target : target.awb!;
  const url = new URL(`http://localhost:3000/track/${encodeURIComponent(awb)}`);
  if (typeof target !== "string") url.searchParams.set("token", tokenOf(target));
  if (lang) url.searchParams.set("lang", lang);
  const request = new Request(url, { headers: acceptLanguage ? { "Accept-Language": acceptLanguage } : {} });
  // Remix hands the route its parameter decoded.
  const response = await trackLoader({ request, params: { awb }, context: { clientAddress: from } });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** The page's text as a reader gets it: tags dropped, entities decoded. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

/** No shopper's detail; and, unless the page is the link holder's own (`full`), not the order's number either. */
function expectNoPersonalData(where: string, view: "full" | "stage" = "stage") {
  for (const value of view === "full" ? SHOPPER_DETAILS : [...SHOPPER_DETAILS, ...ORDER_DETAILS]) expect(where.toLowerCase(), `"${value}" must not appear`).not.toContain(value.toLowerCase());
  expect(where).not.toMatch(/\bRao\b/i);
}

beforeAll(async () => {
  await prisma.shipment.deleteMany({ where: { shop: { in: [SHOP, QUIET_SHOP] } } });
  // The seller as Settings left it: Shopify's name for the shop, a logo and a contact.
  await prisma.shopDocumentSettings.create({ data: { shop: SHOP, shopName: "Khadi & Co" } });
  await prisma.trackingPageSettings.create({ data: { shop: SHOP, logoUrl: "https://cdn.shopify.com/s/files/1/khadi/logo.png", contactEmail: "help@khadi.example", contactPhone: "+919812345678" } });
});
afterAll(async () => {
  await prisma.shipment.deleteMany({ where: { shop: { in: [SHOP, QUIET_SHOP] } } });
  await prisma.shopDocumentSettings.deleteMany({ where: { shop: SHOP } });
  await prisma.trackingPageSettings.deleteMany({ where: { shop: SHOP } });
});

describe("GET /track/{awb}: a shipment on its way", () => {
  it("shows the stage, the expected date, courier, awb, city and the timeline newest first, in India's time", async () => {
    const shipment = await seedShipment({ code: 5, events: IN_TRANSIT_EVENTS, estimatedDeliveryAt: new Date("2026-11-24T20:00:00Z") });
    const { status, headers, html } = await visit(shipment);
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(headers.get("cache-control")).toBe("private, max-age=60");
    expect(headers.get("x-robots-tag")).toMatch(/noindex/);
    expect(headers.get("content-language")).toBe("en");
    expect(html).toMatch(/^<!DOCTYPE html><html lang="en"/);

    const text = textOf(html);
    expect(html).toMatch(/<h1[^>]*>On the way<\/h1>/);
    expect(text).toContain("Your parcel is on its way.");
    // 20:00 UTC on the 24th is the 25th in India.
    expect(text).toMatch(/Expected delivery: Wed, 25 Nov,? 2026/);
    expect(text).toContain("Delhivery Surface");
    expect(text).toContain(shipment.awb!);
    expect(text).toContain("Bengaluru");
    // Newest first, each with its stage, the courier's words, its place and its time in IST (09:15 UTC is 2:45 pm).
    const order = ["Shipment picked up and in transit to Bengaluru", "Courier executive out to pick up the shipment", "Shipment manifested; awaiting pick-up"].map((activity) => text.indexOf(activity));
    expect(order.every((position) => position > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toContain("On the way Shipment picked up and in transit to Bengaluru 23 Nov, 2:45 pm Bhiwandi hub");
    // The progress bar: booked done, shipped current.
    expect(html).toMatch(/<li class="step-current" aria-current="step">Shipped/);
    expect(html).toMatch(/<li class="step-done">Booked/);
    // Nothing for the browser to run.
    expect(html).not.toMatch(/<script/i);
    expectNoPersonalData(html, "full");
  });

  it("hands the page exactly the public view: stage, dates, city and timeline, no personal field or internal id", async () => {
    const shipment = await seedShipment({ code: 5, events: IN_TRANSIT_EVENTS, estimatedDeliveryAt: new Date("2026-11-24T20:00:00Z"), syncedAt: new Date("2026-11-23T10:00:00Z"), nextSyncAt: new Date(Date.now() + HOUR) });
    // Freshly synced as far as the page is concerned: no sync is asked for.
    const view = await getPublicTracking(shipment.awb!, { token: tokenOf(shipment), now: () => new Date("2026-11-23T10:05:00Z"), baseSeconds: 600 });
    expect(view).toEqual({
      awb: shipment.awb,
      direction: "forward",
      detail: "full",
      courier: "Delhivery Surface",
      destinationCity: "Bengaluru",
      stage: 5,
      outcome: "in_transit",
      deliveryAttempts: 0,
      tone: "progress",
      milestone: "shipped",
      isFinal: false,
      expectedDeliveryAt: "2026-11-24T20:00:00.000Z",
      deliveredAt: null,
      checkedAt: "2026-11-23T10:00:00.000Z",
      refreshRequested: false,
      timeline: [
        { code: 5, activity: "Shipment picked up and in transit to Bengaluru", place: "Bhiwandi hub", at: "2026-11-23T09:15:00.000Z" },
        { code: 3, activity: "Courier executive out to pick up the shipment", place: "Bhiwandi", at: "2026-11-22T07:00:00.000Z" },
        { code: 2, activity: "Shipment manifested; awaiting pick-up", place: "Bhiwandi", at: "2026-11-22T04:30:00.000Z" },
      ],
      orderName: ORDER_NAME,
      seller: { name: "Khadi & Co", storeUrl: `https://${SHOP}`, logoUrl: "https://cdn.shopify.com/s/files/1/khadi/logo.png", email: "help@khadi.example", phone: "+919812345678" },
      codDuePaise: 129_900,
    });
    expectNoPersonalData(JSON.stringify(view), "full");
    expect(await queuedJobs("tracking-sync", SHOP)).toHaveLength(0);
  });

  it("masks the shopper's details where the courier wrote them into its own words", async () => {
    const shipment = await seedShipment({
      code: 9,
      events: [
        ...IN_TRANSIT_EVENTS,
        { code: 7, label: "Out for Delivery", activity: "Out for delivery to Asha Rao, 12, 3rd Cross, Indiranagar", location: "Indiranagar DC, Bengaluru 560038", happenedAt: new Date("2026-11-25T03:30:00Z") },
        { code: 9, label: "Undelivered", activity: "Consignee ASHA not reachable on 98200 12345 / +91-9820012345, mail asha.rao@example.in (order #98317)", location: "Bengaluru", happenedAt: new Date("2026-11-25T08:00:00Z") },
      ],
    });
    const { status, html } = await visit(shipment);
    expect(status).toBe(200);
    const text = textOf(html);
    expect(html).toMatch(/<h1[^>]*>Delivery attempted<\/h1>/);
    expect(text).toContain("Delivery was attempted; the courier will try again.");
    expect(text).toContain("Out for delivery to •••, ••• 25 Nov");
    expect(text).toContain("••• DC, Bengaluru •••");
    expect(text).toContain("Consignee ••• not reachable on ••• / •••, mail ••• (order •••)");
    expectNoPersonalData(html, "full");
  });

  it("finds a number typed in small letters", async () => {
    const awb = `EM${newAwb().slice(0, 9)}IN`;
    await seedShipment({ awb, code: 6, events: IN_TRANSIT_EVENTS });
    const { status, html } = await visit(awb.toLowerCase());
    expect(status).toBe(200);
    expect(html).toContain(awb);
  });
});

describe("GET /track/{awb}: without the link's token, the stage alone", () => {
  const DETAILS = ["Delhivery", "Bengaluru", "Bhiwandi", "Expected delivery", "Shipment picked up", "Courier executive", "Last checked", "<time"];

  it.each<[string, (awb: string) => { awb: string; token?: string }]>([
    ["a number typed by hand", (awb) => ({ awb })],
    ["a wrong token", (awb) => ({ awb, token: randomBytes(16).toString("base64url") })],
    ["a token that is not one", (awb) => ({ awb, token: "<b>" })],
  ])("%s: the stage, the progress and the number; no courier, city, dates or updates", async (_case, link) => {
    const shipment = await seedShipment({ code: 5, events: IN_TRANSIT_EVENTS, estimatedDeliveryAt: new Date("2026-11-24T20:00:00Z") });
    const { awb, token } = link(shipment.awb!);
    const request = new Request(`http://localhost:3000/track/${awb}${token ? `?token=${encodeURIComponent(token)}` : ""}`);
    const response = await trackLoader({ request, params: { awb }, context: { clientAddress: nextAddress() } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<h1[^>]*>On the way<\/h1>/);
    expect(textOf(html)).toContain("Your parcel is on its way.");
    expect(html).toMatch(/<li class="step-current" aria-current="step">Shipped/);
    expect(textOf(html)).toContain(`Tracking number ${awb}`);
    expect(textOf(html)).toContain("shown only through the tracking link in the shipping email or SMS");
    for (const detail of DETAILS) expect(html, detail).not.toContain(detail);
    // Nor does the language switch hand out a token.
    expect(html).toContain(`<a href="/track/${awb}?lang=hi"`);
    expectNoPersonalData(html);
  });

  it("an older link, stored before links carried a token, keeps showing the stage", async () => {
    const shipment = await seedShipment({ code: 7, events: IN_TRANSIT_EVENTS });
    await prisma.shipment.update({ where: { id: shipment.id }, data: { trackingUrl: `http://localhost:3000/track/${shipment.awb}` } });
    const { status, html } = await visit(shipment.awb!);
    expect(status).toBe(200);
    expect(html).toMatch(/<h1[^>]*>Out for delivery<\/h1>/);
    for (const detail of DETAILS) expect(html, detail).not.toContain(detail);
  });

  it("one shipment's token does not open another's details", async () => {
    const mine = await seedShipment({ code: 5, events: IN_TRANSIT_EVENTS });
    const theirs = await seedShipment({ code: 5, events: IN_TRANSIT_EVENTS });
    expect((await getPublicTracking(theirs.awb!, { token: tokenOf(mine) }))?.detail).toBe("stage");
    expect((await getPublicTracking(theirs.awb!, { token: tokenOf(theirs) }))?.detail).toBe("full");
  });

  it("hands the page the stage and nothing else; a caller that verified the shopper otherwise gets the full view", async () => {
    const shipment = await seedShipment({ code: 5, events: IN_TRANSIT_EVENTS, estimatedDeliveryAt: new Date("2026-11-24T20:00:00Z"), syncedAt: new Date("2026-11-23T10:00:00Z") });
    const asOf = { now: () => new Date("2026-11-23T10:05:00Z"), baseSeconds: 600 };
    expect(await getPublicTracking(shipment.awb!, asOf)).toEqual({
      awb: shipment.awb,
      direction: "forward",
      detail: "stage",
      courier: null,
      destinationCity: null,
      stage: 5,
      outcome: "in_transit",
      deliveryAttempts: 0,
      tone: "progress",
      milestone: "shipped",
      isFinal: false,
      expectedDeliveryAt: null,
      deliveredAt: null,
      checkedAt: null,
      refreshRequested: false,
      timeline: [],
      orderName: null,
      seller: null,
      codDuePaise: null,
    });
    const verified = await getPublicTracking(shipment.awb!, { ...asOf, verified: true });
    expect(verified).toMatchObject({ detail: "full", courier: "Delhivery Surface", destinationCity: "Bengaluru", expectedDeliveryAt: "2026-11-24T20:00:00.000Z" });
    expect(verified?.timeline).toHaveLength(3);
  });
});

describe("GET /track/{awb}: exceptions said plainly", () => {
  it.each([
    { code: 11, title: "Returning to the seller", summary: "The parcel is being returned to the seller. Contact the seller for help." },
    { code: 10, title: "Cancelled", summary: "This shipment was cancelled and will not be delivered." },
    { code: 14, title: "Could not be delivered", summary: "The courier has reported this parcel lost in transit. Please contact the seller, who will help you." },
    { code: 15, title: "Could not be delivered", summary: "The courier has reported this parcel damaged in transit." },
  ])("stage $code: $title, with no delivery date to expect", async ({ code, title, summary }) => {
    const shipment = await seedShipment({ code, events: [...IN_TRANSIT_EVENTS, { code, label: "x", activity: "Courier update", location: null, happenedAt: new Date("2026-11-26T06:00:00Z") }], estimatedDeliveryAt: new Date("2026-11-24T20:00:00Z"), nextSyncAt: code === 11 ? new Date(Date.now() + HOUR) : null });
    const { status, html } = await visit(shipment);
    expect(status).toBe(200);
    expect(html).toContain(`<h1 id="stage">${title}</h1>`);
    expect(textOf(html)).toContain(summary);
    expect(html).toContain('class="stage stage-problem"');
    expect(textOf(html)).not.toContain("Expected delivery");
    // Off the ordinary path: no progress bar.
    expect(html).not.toContain('class="progress"');
  });

  it("a shipment cancelled with the courier reads cancelled before the sync has seen the courier's cancellation", async () => {
    const shipment = await seedShipment({ status: "cancelled", code: 2, events: IN_TRANSIT_EVENTS.slice(0, 1) });
    const { html } = await visit(shipment);
    expect(html).toContain('<h1 id="stage">Cancelled</h1>');
  });

  it("delivered: the delivery date instead of an estimate", async () => {
    const deliveredAt = new Date("2026-11-25T09:40:00Z");
    const shipment = await seedShipment({ code: 8, events: [...IN_TRANSIT_EVENTS, { code: 8, label: "Delivered", activity: "Delivered to the consignee", location: "Bengaluru", happenedAt: deliveredAt }], deliveredAt, estimatedDeliveryAt: new Date("2026-11-24T20:00:00Z"), nextSyncAt: null });
    const { html } = await visit(shipment);
    const text = textOf(html);
    expect(html).toContain('<h1 id="stage">Delivered</h1>');
    expect(text).toMatch(/Delivered on: Wed, 25 Nov,? 2026/);
    expect(text).not.toContain("Expected delivery");
    expect(html).toContain('class="stage stage-done"');
  });
});

describe("GET /track/{awb}: numbers that are not ours", () => {
  it("an unknown number is a 404 page that says so, never cached, in English and in Hindi", async () => {
    const english = await visit("19999999999999");
    expect(english.status).toBe(404);
    expect(english.headers.get("cache-control")).toBe("no-store");
    expect(english.headers.get("x-robots-tag")).toMatch(/noindex/);
    expect(english.html).toContain("<h1>We could not find this tracking number</h1>");
    expect(english.html).toMatch(/<form method="get" action="\/track"/);

    const hindi = await visit("19999999999999", { lang: "hi" });
    expect(hindi.status).toBe(404);
    expect(hindi.html).toMatch(/^<!DOCTYPE html><html lang="hi"/);
    expect(hindi.html).toContain("<h1>यह ट्रैकिंग नंबर नहीं मिला</h1>");
  });

  it.each([
    ["too short", "123"],
    ["too long", "1".repeat(65)],
    ["far too long", "9".repeat(10_000)],
    ["markup", '<script>alert("x")</script>'],
    ["spaces", "1234 5678"],
    ["a path", "../../etc/passwd"],
    ["control characters", "1234\u0000\n5678"],
    ["empty", ""],
  ])("%s: 404, not an error", async (_what, awb) => {
    const { status, html, headers } = await visit(awb);
    expect(status).toBe(404);
    expect(headers.get("cache-control")).toBe("no-store");
    expect(html).toContain("We could not find this tracking number");
    expect(html).not.toContain("<script>");
  });

  it("a booking that never got an awb, or failed, is not found", async () => {
    const awb = newAwb();
    await seedShipment({ awb, status: "failed", code: null });
    expect((await visit(awb)).status).toBe(404);
  });
});

describe("GET /track/{awb}: rate limit", () => {
  it("answers 429 with Retry-After and a readable page after 30 lookups a minute from one address; others go on", async () => {
    const from = nextAddress();
    for (let lookup = 0; lookup < 30; lookup += 1) expect((await visit("18888888888888", { from })).status).toBe(404);
    const limited = await visit("18888888888888", { from, lang: "hi" });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(limited.headers.get("cache-control")).toBe("no-store");
    expect(limited.html).toContain("<h1>कृपया थोड़ा रुकें</h1>");
    expect(textOf(limited.html)).toContain(`${limited.headers.get("retry-after")} सेकंड बाद`);
    // A found shipment's number from that address is refused too; another address is not limited.
    const shipment = await seedShipment({ code: 5, events: IN_TRANSIT_EVENTS });
    expect((await visit(shipment.awb!, { from })).status).toBe(429);
    expect((await visit(shipment.awb!)).status).toBe(200);
    // The shopper holding the parcel's link (their family behind the same network, say) is not held up by that
    // address's lookups: a link is counted by its parcel alone.
    const followed = await visit(shipment, { from });
    expect(followed.status).toBe(200);
    expect(textOf(followed.html)).toContain("Bengaluru");
    // A token that is not the parcel's is a lookup by number like any other.
    expect((await visit({ awb: shipment.awb, trackingUrl: `http://localhost:3000/track/${shipment.awb}?token=AAAAAAAAAAAAAAAAAAAAAA` }, { from })).status).toBe(429);
  });

  it("lets a parcel's link be opened 60 times a minute, by anyone holding it, then asks to wait", async () => {
    const shipment = await seedShipment({ code: 5, events: IN_TRANSIT_EVENTS });
    for (let open = 0; open < 60; open += 1) expect((await visit(shipment)).status).toBe(200);
    const again = await visit(shipment);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("counts a sliding minute per address, an IPv6 caller by its /64, and forgets the longest-unseen callers", () => {
    let clock = 0;
    const limiter = createCallerLimiter({ limits: { limit: 3, windowMs: 60_000, maxTracked: 2 }, now: () => clock });
    expect([limiter.take("2001:db8:1:2::a"), limiter.take("2001:db8:1:2:ffff::b"), limiter.take("2001:0db8:0001:0002:0:0:0:c")]).toEqual([0, 0, 0]);
    clock = 20_000;
    // Same /64: over the limit until the first lookup leaves the window, 40 s later.
    expect(limiter.take("2001:db8:1:2::d")).toBe(40);
    expect(limiter.take("2001:db8:1:3::a")).toBe(0);
    clock = 60_001;
    expect(limiter.take("2001:db8:1:2::e")).toBe(0);
    expect(callerKey("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(callerKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(callerKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    // Beyond two tracked callers the longest-unseen is forgotten.
    for (const caller of ["192.0.2.1", "192.0.2.1", "192.0.2.1"]) limiter.take(caller);
    expect(limiter.take("192.0.2.1")).toBeGreaterThan(0);
    limiter.take("192.0.2.2");
    limiter.take("192.0.2.3");
    expect(limiter.take("192.0.2.1")).toBe(0);
  });
});

describe("GET /track/{awb}: the seller, the order and the cash to keep ready", () => {
  it("names the shop with its logo, linking back to the store, with the order number, the COD amount and the seller's contact", async () => {
    const shipment = await seedShipment({ code: 7, events: IN_TRANSIT_EVENTS });
    const { headers, html } = await visit(shipment);
    expect(html).toContain(`<a href="https://${SHOP}" rel="noopener"><img src="https://cdn.shopify.com/s/files/1/khadi/logo.png" alt="" class="logo" width="32" height="32"/><span>Khadi &amp; Co</span><span class="visually-hidden"> – back to the store</span></a>`);
    // The logo's origin, and only it, is allowed beside the page's own images.
    expect(headers.get("content-security-policy")).toContain("img-src 'self' https://cdn.shopify.com;");
    const text = textOf(html);
    expect(text).toContain(`Order ${ORDER_NAME}`);
    expect(text).toContain("Keep ₹1,299 ready Pay the courier in cash when the parcel arrives.");
    expect(text).toContain("Questions about your order? Contact Khadi & Co: Phone: +91 98123 45678 E-mail: help@khadi.example");
    expect(html).toContain('<a href="tel:+919812345678">+91 98123 45678</a>');
    expect(html).toContain('<a href="mailto:help@khadi.example">help@khadi.example</a>');
    expectNoPersonalData(html, "full");
  });

  it("writes lakhs the Indian way and says nothing to pay for a prepaid, a delivered or a returning parcel", async () => {
    const big = await seedShipment({ code: 5, events: IN_TRANSIT_EVENTS });
    await prisma.shipment.update({ where: { id: big.id }, data: { requestPayload: JSON.stringify({ order_id: ORDER_NAME, ...SHOPPER, payment_mode: "cod", total_amount: 129999.5 }) } });
    expect(textOf((await visit(big)).html)).toContain("Keep ₹1,29,999.50 ready");

    const prepaid = await seedShipment({ code: 5, events: IN_TRANSIT_EVENTS });
    await prisma.shipment.update({ where: { id: prepaid.id }, data: { paymentMode: "prepaid" } });
    const returning = await seedShipment({ code: 11, events: IN_TRANSIT_EVENTS });
    const delivered = await seedShipment({ code: 8, events: IN_TRANSIT_EVENTS, deliveredAt: minutesAgo(60) });
    for (const shipment of [prepaid, returning, delivered]) expect((await visit(shipment)).html).not.toContain("ready");
  });

  it("shows nothing of the seller, the order or the payment without the link's token", async () => {
    const shipment = await seedShipment({ code: 5, events: IN_TRANSIT_EVENTS });
    const { headers, html } = await visit(shipment.awb!);
    for (const detail of ["Khadi", "khadi", "₹", "Order ", SHOP]) expect(html, detail).not.toContain(detail);
    expect(html).toContain('<p class="brand">Parcel tracking</p>');
    expect(headers.get("content-security-policy")).toContain("img-src 'self';");
    expectNoPersonalData(html);
  });

  it("in Hindi: the courier's stages and the times in Hindi, the courier's own words kept and marked English", async () => {
    const shipment = await seedShipment({ code: 5, events: IN_TRANSIT_EVENTS });
    const { html } = await visit(shipment, { lang: "hi" });
    const text = textOf(html);
    // 09:15 UTC is 2:45 in the afternoon in India; 04:30 UTC is 10 in the morning.
    expect(text).toContain("रास्ते में आपका पार्सल रास्ते में है।");
    expect(text).toMatch(/23 नव॰?, दोपहर 2:45/);
    expect(text).toMatch(/22 नव॰?, सुबह 10:00/);
    expect(text).not.toMatch(/\b[ap]m\b/i);
    expect(html).toContain('<p class="entry-activity" lang="en"><span class="visually-hidden">कूरियर के शब्दों में (अंग्रेज़ी): </span>Shipment picked up and in transit to Bengaluru</p>');
    expect(text).toContain("₹1,299 तैयार रखें");
    expect(text).toContain("Khadi & Co से संपर्क करें:");
  });
});

describe("GET /track/{awb}: language", () => {
  it("in Hindi by ?lang=hi, with a switch back to English", async () => {
    const shipment = await seedShipment({ code: 7, events: IN_TRANSIT_EVENTS, estimatedDeliveryAt: new Date("2026-11-24T20:00:00Z") });
    const { status, headers, html } = await visit(shipment, { lang: "hi" });
    expect(status).toBe(200);
    expect(headers.get("content-language")).toBe("hi");
    expect(html).toMatch(/^<!DOCTYPE html><html lang="hi"/);
    expect(html).toContain('<h1 id="stage">डिलीवरी के लिए निकला</h1>');
    const text = textOf(html);
    expect(text).toContain("डिलीवरी की अनुमानित तारीख: बुध, 25 नव");
    expect(text).toContain("कूरियर से मिली जानकारी");
    // The switch keeps the link's token: the same full page in the other language.
    expect(html).toContain(`<a href="/track/${shipment.awb}?token=${tokenOf(shipment)}&amp;lang=en" lang="en" hrefLang="en">English</a>`);
    expect(html).toContain(`<a href="/track/${shipment.awb}?token=${tokenOf(shipment)}&amp;lang=hi" lang="hi" hrefLang="hi" aria-current="true">हिन्दी</a>`);
    expectNoPersonalData(html, "full");
  });

  it("in Hindi by Accept-Language: hi-IN; ?lang=en wins over it; English otherwise", async () => {
    const shipment = await seedShipment({ code: 5, events: IN_TRANSIT_EVENTS });
    const byBrowser = await visit(shipment, { acceptLanguage: "hi-IN,hi;q=0.9,en;q=0.8" });
    expect(byBrowser.html).toMatch(/<html lang="hi"/);
    expect(byBrowser.html).toContain('<h1 id="stage">रास्ते में</h1>');
    expect(byBrowser.headers.get("vary")).toMatch(/Accept-Language/);

    const chosen = await visit(shipment, { acceptLanguage: "hi-IN", lang: "en" });
    expect(chosen.html).toContain('<h1 id="stage">On the way</h1>');
    const other = await visit(shipment, { acceptLanguage: "ta-IN,ta;q=0.9" });
    expect(other.html).toMatch(/<html lang="en"/);
  });
});

describe("GET /track/{awb}: freshness", () => {
  it("a non-final shipment last synced longer ago than its stage's interval enqueues one tracking-sync for its shop", async () => {
    // In transit (5): polled every 5 × TRACKING_SYNC_SECONDS (600 s here), so 50 minutes; last synced two hours ago.
    const stale = await seedShipment({ code: 5, events: IN_TRANSIT_EVENTS, syncedAt: minutesAgo(120), nextSyncAt: minutesAgo(70) });
    expect(await queuedJobs("tracking-sync", SHOP)).toHaveLength(0);
    const first = await visit(stale);
    expect(first.status).toBe(200);
    expect(textOf(first.html)).toContain("We are asking the courier for newer updates.");
    const jobs = await queuedJobs("tracking-sync", SHOP);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.data).toEqual({ shop: SHOP });
    // Reloads while it waits add nothing.
    await visit(stale);
    await visit(stale, { lang: "hi" });
    expect(await queuedJobs("tracking-sync", SHOP)).toHaveLength(1);
  });

  it("a delivered shipment, a fresh one and one no longer polled enqueue nothing", async () => {
    const deliveredAt = minutesAgo(3 * 24 * 60);
    const delivered = await seedShipment({ shop: QUIET_SHOP, code: 8, events: [...IN_TRANSIT_EVENTS, { code: 8, label: "Delivered", activity: "Delivered to the consignee", location: "Bengaluru", happenedAt: deliveredAt }], deliveredAt, syncedAt: minutesAgo(3 * 24 * 60), nextSyncAt: null });
    const fresh = await seedShipment({ shop: QUIET_SHOP, code: 7, events: IN_TRANSIT_EVENTS, syncedAt: minutesAgo(5) });
    const stopped = await seedShipment({ shop: QUIET_SHOP, code: 5, events: IN_TRANSIT_EVENTS, syncedAt: minutesAgo(24 * 60), nextSyncAt: null });
    for (const shipment of [delivered, fresh, stopped]) {
      const { status, html } = await visit(shipment);
      expect(status).toBe(200);
      expect(html).not.toContain("We are asking the courier");
    }
    expect(await queuedJobs("tracking-sync", QUIET_SHOP)).toHaveLength(0);
  });

  it("still shows what is known when asking for a sync fails", async () => {
    const stale = await seedShipment({ code: 5, events: IN_TRANSIT_EVENTS, syncedAt: minutesAgo(120), nextSyncAt: minutesAgo(70) });
    const view = await getPublicTracking(stale.awb!, { token: tokenOf(stale), requestSync: () => Promise.reject(new Error("queue down")) });
    expect(view?.stage).toBe(5);
    expect(view?.refreshRequested).toBe(false);
  });
});

describe("GET /track", () => {
  const open = async (search: string, headers: Record<string, string> = {}) => {
    try {
      return await trackIndexLoader({ request: new Request(`http://localhost:3000/track${search}`, { headers }), params: {}, context: {} });
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  };

  it("asks for the number, in the browser's language", async () => {
    const response = await open("", { "Accept-Language": "hi-IN" });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<html lang="hi"/);
    expect(html).toContain('<label for="awb">ट्रैकिंग नंबर (AWB)</label>');
    expect(html).toContain('<input type="hidden" name="lang" value="hi"/>');
  });

  it("sends a typed number on to its page, in the same language", async () => {
    const response = await open("?awb=%20em123456789in%20&lang=hi");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/track/em123456789in?lang=hi");
  });

  it("an empty number is asked for again", async () => {
    const response = await open("?awb=+&lang=en");
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('<p id="awb-error" class="field-error">Enter a tracking number.</p>');
    expect(html).toContain('aria-invalid="true"');
  });
});

describe("shopperDetailsRedactor", () => {
  it("keeps the city and state and leaves text without personal details as it is", () => {
    const redact = shopperDetailsRedactor({ ...SHOPPER, order_id: ORDER_NAME });
    expect(redact("Shipment reached the Bengaluru delivery centre, Karnataka")).toBe("Shipment reached the Bengaluru delivery centre, Karnataka");
    expect(redact("Raoganj hub")).toBe("Raoganj hub");
    expect(redact("Handed to asha RAO")).toBe("Handed to •••");
  });
});
