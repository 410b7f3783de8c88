import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { signDocumentLink, verifyDocumentLink } from "~/documents/document-links.server";
import { createManifest, DocumentRefusal, labelLink, pendingPickups, printLabels, shipmentsNotPrinted } from "~/documents/documents.server";
import { loader as labelsLoader } from "~/routes/api.labels";
import { loader as manifestLoader } from "~/routes/api.manifests.$id";
import { loader as orderLoader } from "~/routes/api.orders.$id";
import { action as settingsAction, loader as settingsLoader } from "~/routes/app.settings";
import { action as shipAction } from "~/routes/app.orders.$id.ship";
import { action as documentAction, DOCUMENT_LINK_LIMITS, loader as documentLoader } from "~/routes/documents.$token";
import { action as shipmentsAction, loader as shipmentsLoader } from "~/routes/app.shipments._index";
import { resetJobs } from "../support/jobs";
import { pdfBarcodes, pdfPageCount, pdfPages, pdfPageSize } from "../support/pdf-reading";
import { startShippingWorld, type startStore } from "../support/store";

let world: Awaited<ReturnType<typeof startShippingWorld>>;
let store: Awaited<ReturnType<typeof startStore>>;

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

const orderNamed = (name: string) => store.shop.orders.find((order) => order.name === name)!;

async function book(name: string, courierId: number) {
  const id = orderNamed(name).legacyResourceId;
  const response = (await shipAction({ request: store.adminRequest(`/app/orders/${id}/ship`, { method: "POST", body: form({ courierId: String(courierId) }) }), params: { id }, context: {} })) as Response;
  expect(response.status).toBe(200);
  return prisma.shipment.findUniqueOrThrow({ where: { shop_orderGid_parcel: { shop: store.domain, orderGid: orderNamed(name).id, parcel: 1 } } });
}

async function get(run: () => Promise<Response>): Promise<{ status: number; type: string; pdf: Buffer; error?: string }> {
  let response: Response;
  try {
    response = await run();
  } catch (thrown) {
    if (thrown instanceof Response) response = thrown;
    else throw thrown;
  }
  const type = response.headers.get("Content-Type") ?? "";
  if (type.startsWith("application/pdf")) return { status: response.status, type, pdf: Buffer.from(await response.arrayBuffer()) };
  const text = await response.text();
  return { status: response.status, type, pdf: Buffer.alloc(0), error: type.includes("json") ? (JSON.parse(text) as { error: string }).error : text };
}

const historyOf = (shipmentId: number, transition: string) =>
  prisma.shipmentEvent.findMany({ where: { shipmentId, transition }, select: { at: true, fromState: true, toState: true, actorKind: true, actorName: true, reason: true, reasonWords: true } });
const labels = (query: string) => get(() => labelsLoader({ request: store.adminRequest(`/api/labels?${query}`), params: {}, context: {} }) as Promise<Response>);

let delhivery: Awaited<ReturnType<typeof book>>;
let bluedart: Awaited<ReturnType<typeof book>>;
let second: Awaited<ReturnType<typeof book>>;

beforeAll(async () => {
  await resetJobs();
  world = await startShippingWorld();
  ({ store } = world);
  await settingsLoader({ request: store.adminRequest("/app/settings"), params: {}, context: {} });
  await saveSettings({});
  delhivery = await book("#1002", 1);
  second = await book("#1001", 1);
  bluedart = await book("#1003", 4);
});
afterAll(() => world.close());

const saveSettings = (extra: Record<string, string>) =>
  settingsAction({
    request: store.adminRequest("/app/settings", { method: "POST", body: form({ ...extra, mode: "sandbox", environment: "test", defaultWarehouseId: "", packageLength: "20", packageBreadth: "15", packageHeight: "10", defaultWeightKg: "0.5", codTag: "cod", prepaidTag: "prepaid", notifyCustomer: "on" }) }),
    params: {},
    context: {},
  }) as Promise<Response>;

describe("labels behind the admin's session", () => {
  it("prints a booked order's label: the awb scans, the ship-to, PIN, COD, routing and return address read back", async () => {
    const { status, pdf } = await labels(`orders=${orderNamed("#1002").legacyResourceId}`);
    expect(status).toBe(200);
    const [page] = pdfPages(pdf);
    expect(page).toContain(delhivery.awb!);
    expect(page).toContain("Delhivery");
    expect(page).toContain("Rahul Verma");
    expect(page).toContain("PIN 226024");
    expect(page).toMatch(/COD — collect ₹[\d,]+\.\d\d/);
    // The routing text is the courier's own answer at booking, kept for the label.
    const routing = await prisma.shipmentDocument.findUniqueOrThrow({ where: { shipmentId: delhivery.id } });
    expect(routing.routingText).toMatch(/\(226024\)/);
    expect(page).toContain("(226024)");
    // The return address is the pickup warehouse the courier holds.
    expect(page).toContain("Bhiwandi");
    expect(pdfBarcodes(pdf, { region: { x: 10, y: 34, width: 268, height: 58 } })).toEqual([[delhivery.awb]]);
  });

  it("gives a shipment booked before its routing text was kept the route and zone the booking's answer stored", async () => {
    const kept = await prisma.shipmentDocument.findUniqueOrThrow({ where: { shipmentId: bluedart.id } }).catch(() => null);
    await prisma.shipmentDocument.deleteMany({ where: { shipmentId: bluedart.id } });
    try {
      const { status, pdf } = await labels(`shipments=${bluedart.id}`);
      expect(status).toBe(200);
      const [page] = pdfPages(pdf);
      expect(bluedart.zone).toBeTruthy();
      expect(page).toMatch(new RegExp(`Bhiwandi \\(421302\\) to .+ \\(\\d{6}\\), zone ${bluedart.zone}`));
      expect(page).not.toContain("see the courier's pickup scan");
    } finally {
      // As it was: the routing text kept, the label not printed yet (the next test counts it).
      await prisma.shipmentDocument.deleteMany({ where: { shipmentId: bluedart.id } });
      if (kept) await prisma.shipmentDocument.create({ data: kept });
    }
  });

  it("records when each label was first printed, in its document and its history, and lists what is not printed yet", async () => {
    const first = await prisma.shipmentDocument.findUniqueOrThrow({ where: { shipmentId: delhivery.id } });
    expect(first.labelFirstPrintedAt).toBeInstanceOf(Date);
    expect(await shipmentsNotPrinted(store.domain)).toEqual(expect.arrayContaining([second.id, bluedart.id]));
    expect(await shipmentsNotPrinted(store.domain)).not.toContain(delhivery.id);
    await labels(`shipments=${delhivery.id}`);
    const again = await prisma.shipmentDocument.findUniqueOrThrow({ where: { shipmentId: delhivery.id } });
    expect(again.labelFirstPrintedAt).toEqual(first.labelFirstPrintedAt);
    // One history step however often it is printed; the booking status stays fulfilled.
    expect(await historyOf(delhivery.id, "label_printed")).toEqual([{ at: first.labelFirstPrintedAt, fromState: null, toState: null, actorKind: "merchant", actorName: "Dakiya app", reason: null, reasonWords: null }]);
    expect(await historyOf(second.id, "label_printed")).toEqual([]);
    expect((await prisma.shipment.findUniqueOrThrow({ where: { id: delhivery.id } })).status).toBe("fulfilled");
  });

  it("prints a selection as one PDF, a page per label", async () => {
    const { status, pdf } = await labels(`shipments=${[delhivery.id, second.id, bluedart.id].join(",")}`);
    expect(status).toBe(200);
    expect(pdfPageCount(pdf)).toBe(3);
    expect(pdfBarcodes(pdf).flat()).toEqual(expect.arrayContaining([delhivery.awb, second.awb, bluedart.awb]));
  });

  it("refuses what cannot be printed, saying why: not booked, cancelled, unknown, over the limit, malformed", async () => {
    const notBooked = await labels(`orders=${orderNamed("#1005").legacyResourceId}`);
    expect(notBooked).toMatchObject({ status: 404, error: expect.stringContaining("no shipment booked") });

    const failed = await prisma.shipment.create({ data: { shop: store.domain, orderGid: orderNamed("#1006").id, orderName: "#1006", status: "failed", requestPayload: "{}", courierEnvironment: "test", paymentMode: "cod" } });
    expect(await labels(`shipments=${failed.id}`)).toMatchObject({ status: 409, error: "#1006 is not booked yet: book it first, then print its label." });

    await prisma.orderRecord.upsert({ where: { shop_orderGid: { shop: store.domain, orderGid: orderNamed("#1003").id } }, create: { shop: store.domain, orderGid: orderNamed("#1003").id, cancelledAt: new Date() }, update: { cancelledAt: new Date() } });
    expect(await labels(`shipments=${bluedart.id}`)).toMatchObject({ status: 409, error: expect.stringContaining("#1003 was cancelled") });
    await prisma.orderRecord.update({ where: { shop_orderGid: { shop: store.domain, orderGid: orderNamed("#1003").id } }, data: { cancelledAt: null } });

    // A return's label comes with the courier's agent to the shopper: nothing prints here, and no pickup manifest lists it.
    const comingBack = await prisma.shipment.create({
      data: { shop: store.domain, orderGid: "gid://shopify/Return/9001", returnOfOrderGid: orderNamed("#1002").id, direction: "return", orderName: "#1002-R1", status: "booked_unfulfilled", awb: "RET9001", courierName: "Delhivery", warehouseId: 1, requestPayload: "{}", courierEnvironment: "test", paymentMode: "prepaid" },
    });
    expect(await labels(`shipments=${comingBack.id}`)).toMatchObject({ status: 409, error: expect.stringContaining("#1002-R1 is a return: its label goes to the shopper with the return in Shopify") });
    expect(await shipmentsNotPrinted(store.domain)).not.toContain(comingBack.id);

    const tooMany = Array.from({ length: 501 }, (_, index) => index + 1).join(",");
    expect(await labels(`shipments=${tooMany}`)).toMatchObject({ status: 400, error: expect.stringContaining("at most 500 shipments; 501") });
    expect(await labels("shipments=abc")).toMatchObject({ status: 400, error: '"abc" is not a shipment id.' });
    // The selection print action leaves out what has no label instead of refusing the whole document.
    const mixed = await labels(`orders=${orderNamed("#1002").legacyResourceId},${orderNamed("#1005").legacyResourceId}&skip=unbooked`);
    expect(mixed.status).toBe(200);
    expect(pdfPageCount(mixed.pdf)).toBe(1);
    expect(await labels(`orders=${orderNamed("#1005").legacyResourceId}&skip=unbooked`)).toMatchObject({ status: 409, error: expect.stringContaining("None of the selected orders") });
    expect(await labels("shipments=1&skip=everything")).toMatchObject({ status: 400 });
    expect(await labels("")).toMatchObject({ status: 400 });
    expect(await labels("shipments=2147483647")).toMatchObject({ status: 404, error: "There is no shipment 2147483647 in this shop." });
  });

  it("gives another shop's session nothing of this shop's shipments", async () => {
    await expect(printLabels("someone-else.myshopify.com", { shipmentIds: [delhivery.id] })).rejects.toMatchObject({ status: 404 });
    await expect(printLabels("someone-else.myshopify.com", { shipmentIds: [delhivery.id] })).rejects.toBeInstanceOf(DocumentRefusal);
  });
});

describe("pickup manifests", () => {
  it("hands a warehouse's Delhivery shipments over once; the next manifest has nothing to repeat; an old one prints again", async () => {
    const waiting = await pendingPickups(store.domain);
    expect(waiting).toEqual(expect.arrayContaining([{ warehouseId: 1, courierName: "Delhivery", count: 2 }, { warehouseId: 1, courierName: "DTDC", count: 1 }]));

    const manifest = await createManifest(store.domain, 1, "Delhivery");
    expect(manifest).toMatchObject({ number: 1, count: 2 });
    await expect(createManifest(store.domain, 1, "Delhivery")).rejects.toMatchObject({ status: 409 });
    for (const handed of [delhivery, second]) expect(await historyOf(handed.id, "handed_over")).toEqual([expect.objectContaining({ actorKind: "merchant", reason: "Manifest 1", reasonWords: { key: "activity.stored.manifest", values: { number: 1 } } })]);
    expect(await historyOf(bluedart.id, "handed_over")).toEqual([]);
    expect(await pendingPickups(store.domain)).toEqual([{ warehouseId: 1, courierName: "DTDC", count: 1 }]);

    const printed = await get(() => manifestLoader({ request: store.adminRequest(`/api/manifests/${manifest.id}`), params: { id: String(manifest.id) }, context: {} }) as Promise<Response>);
    expect(printed.status).toBe(200);
    const text = pdfPages(printed.pdf).join("\n");
    expect(text).toContain("Pickup manifest #1");
    expect(text).toContain("Delhivery");
    expect(text).toContain("#1001");
    expect(text).toContain("#1002");
    expect(text).toMatch(/2 shipments, 2 packages; COD to collect ₹[\d,]+\.\d\d/);
    expect(text).toContain("Received by (courier's pickup agent)");
    expect(text).not.toContain(bluedart.awb!);
    expect(pdfBarcodes(printed.pdf).flat().sort()).toEqual([delhivery.awb, second.awb].sort());

    const reprinted = await get(() => manifestLoader({ request: store.adminRequest(`/api/manifests/${manifest.id}`), params: { id: String(manifest.id) }, context: {} }) as Promise<Response>);
    expect(pdfBarcodes(reprinted.pdf).flat().sort()).toEqual([delhivery.awb, second.awb].sort());
    expect(await get(() => manifestLoader({ request: store.adminRequest("/api/manifests/999999"), params: { id: "999999" }, context: {} }) as Promise<Response>)).toMatchObject({ status: 404 });
  });
});

describe("signed links", () => {
  const open = (path: string) => get(() => documentLoader({ request: new Request(`http://localhost${path}`), params: { token: path.replace("/documents/", "") }, context: {} }) as Promise<Response>);

  it("opens the listed labels for a few minutes and nothing else", async () => {
    const link = signDocumentLink({ kind: "labels", shop: store.domain, shipmentIds: [delhivery.id] });
    const opened = await open(link);
    expect(opened.status).toBe(200);
    expect(pdfPages(opened.pdf)[0]).toContain(delhivery.awb!);

    // Another shipment named in an altered link, a link for another shop, and an expired one: 404, nothing said.
    const [body, signature] = link.replace("/documents/", "").split(".");
    const altered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, "base64url").toString()), shipmentIds: [second.id] })).toString("base64url");
    expect(await open(`/documents/${altered}.${signature}`)).toMatchObject({ status: 404, error: "Not found" });
    expect(await open("/documents/nothing-here")).toMatchObject({ status: 404, error: "Not found" });
    expect(verifyDocumentLink(link.replace("/documents/", ""), new Date(Date.now() + 11 * 60_000))).toBeNull();
    const elsewhere = signDocumentLink({ kind: "labels", shop: "someone-else.myshopify.com", shipmentIds: [delhivery.id] });
    expect(await open(elsewhere)).toMatchObject({ status: 404 });
  });

  // Each of these opens a link its 30 times a minute, and each open draws the label: on a loaded machine that is a
  // second apiece, past the default 30 s for a test.
  it("counts guessed links by the caller and signed links each on its own: 429 with when to come back", { timeout: 120_000 }, async () => {
    const from = (clientAddress: string, path: string) => documentLoader({ request: new Request(`http://localhost${path}`), params: { token: path.replace("/documents/", "") }, context: { clientAddress } }) as Promise<Response>;
    const { guessesPerCaller, opensPerLink } = DOCUMENT_LINK_LIMITS;
    for (let index = 0; index < guessesPerCaller.limit; index += 1) expect((await from("198.51.100.7", `/documents/guess-${index}`)).status).toBe(404);
    const guessing = await from("198.51.100.7", "/documents/one-more-guess");
    expect(guessing.status).toBe(429);
    expect(Number(guessing.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await guessing.text()).toMatch(/^Too many document links from this address were not found\. Try again in \d+ seconds\.$/);

    // A signed link still opens from the address that guessed, and from Shopify's few addresses for every shop's
    // return labels: what counts is how often that one link is opened.
    const link = signDocumentLink({ kind: "labels", shop: store.domain, shipmentIds: [delhivery.id] });
    for (let index = 0; index < opensPerLink.limit; index += 1) expect((await from(index % 2 ? "198.51.100.7" : "203.0.113.9", link)).status).toBe(200);
    const again = await from("203.0.113.10", link);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await again.text()).toMatch(/^This document was opened 30 times in a minute\. Open it again in \d+ seconds\.$/);
    const another = await get(() => from("198.51.100.7", signDocumentLink({ kind: "labels", shop: store.domain, shipmentIds: [second.id] })));
    expect(another.status).toBe(200);
    expect(pdfPages(another.pdf)[0]).toContain(second.awb!);
  });

  it("takes a link's signature in its one spelling: the three others that decode alike open nothing and count as guesses", { timeout: 120_000 }, async () => {
    const from = (clientAddress: string, token: string) => documentLoader({ request: new Request(`http://localhost/documents/${token}`), params: { token }, context: { clientAddress } }) as Promise<Response>;
    const token = signDocumentLink({ kind: "labels", shop: store.domain, shipmentIds: [second.id] }).replace("/documents/", "");
    const signature = token.slice(token.lastIndexOf(".") + 1);
    // 43 characters carry 258 bits for the digest's 256: the last one's two low bits are spare, so four characters decode alike there.
    const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = ALPHABET.indexOf(signature.at(-1)!);
    const respellings = ALPHABET.split("")
      .filter((_, index) => index !== last && index >> 2 === last >> 2)
      .map((character) => `${token.slice(0, -1)}${character}`);
    expect(respellings).toHaveLength(3);
    for (const respelt of respellings) expect(Buffer.from(respelt.slice(respelt.lastIndexOf(".") + 1), "base64url")).toEqual(Buffer.from(signature, "base64url"));
    for (const respelt of respellings) {
      expect(verifyDocumentLink(respelt)).toBeNull();
      expect((await from("198.51.100.30", respelt)).status).toBe(404);
    }
    // The link itself opens its 30 times a minute, and no more however it is written.
    for (let index = 0; index < DOCUMENT_LINK_LIMITS.opensPerLink.limit; index += 1) expect((await from(`198.51.100.${31 + (index % 3)}`, token)).status).toBe(200);
    expect((await from("198.51.100.34", token)).status).toBe(429);
    for (const respelt of respellings) expect((await from("198.51.100.35", respelt)).status).toBe(404);
  });

  it("gives the order's view for the extensions its label as such a link", async () => {
    const id = orderNamed("#1002").legacyResourceId;
    const view = (await ((await orderLoader({ request: store.adminRequest(`/api/orders/${id}`), params: { id }, context: {} })) as Response).json()) as { shipment: { labelUrl: string } };
    const opened = await open(new URL(view.shipment.labelUrl).pathname);
    expect(opened.status).toBe(200);
    expect(pdfPages(opened.pdf)[0]).toContain(delhivery.awb!);
  });
});

describe("the Shipments page and Settings", () => {
  const page = async (query = "") => (await ((await shipmentsLoader({ request: store.adminRequest(`/app/shipments${query}`), params: {}, context: {} })) as Response).json()) as { shipments: { id: number }[]; printedAt: Record<string, string> };
  const act = async (fields: Record<string, string>) => {
    const response = (await shipmentsAction({ request: store.adminRequest("/app/shipments", { method: "POST", body: form(fields) }), params: {}, context: {} })) as Response;
    return { status: response.status, body: (await response.json()) as { ok: boolean; url?: string; error?: string } };
  };

  it("prints the selected shipments' labels through a signed link, and filters what is not printed yet", async () => {
    const fresh = await book("#1004", 2);
    expect((await page("?printed=no")).shipments.map((shipment) => shipment.id)).toContain(fresh.id);
    // Print labels is the merchant's print: recorded by the page's POST, before the link it answers is opened.
    const { status, body } = await act({ intent: "labels", shipmentIds: String(fresh.id) });
    expect(status).toBe(200);
    const after = await page("?printed=no");
    expect(after.shipments.map((shipment) => shipment.id)).not.toContain(fresh.id);
    expect((await page()).printedAt[fresh.id]).toEqual(expect.any(String));
    const opened = await get(() => documentLoader({ request: new Request(`http://localhost${body.url}`), params: { token: body.url!.replace("/documents/", "") }, context: {} }) as Promise<Response>);
    expect(pdfPages(opened.pdf)[0]).toContain(fresh.awb!);
    expect(await act({ intent: "labels", shipmentIds: "" })).toMatchObject({ status: 400 });
    expect(await act({ intent: "labels", shipmentIds: "2147483647" })).toMatchObject({ status: 404 });
  });

  it("leaves a label in Not printed yet when its link is opened by a previewer, and records it on a POST to the link", async () => {
    const fresh = await book("#1011", 1);
    // The label link the ship page and the order page's block give the merchant, pasted into a chat or an e-mail.
    const link = labelLink(fresh)!;
    const token = link.replace("/documents/", "");
    for (const userAgent of ["Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", "WhatsApp/2.23.20.0", "Mozilla/5.0 (compatible; Microsoft Office Protocol Discovery; SafeLinks)"]) {
      const previewed = await get(() => documentLoader({ request: new Request(`http://localhost${link}`, { headers: { "User-Agent": userAgent } }), params: { token }, context: { clientAddress: "192.0.2.44" } }) as Promise<Response>);
      expect(previewed.status).toBe(200);
      expect(pdfPages(previewed.pdf)[0]).toContain(fresh.awb!);
    }
    expect((await page("?printed=no")).shipments.map((shipment) => shipment.id)).toContain(fresh.id);
    expect(await shipmentsNotPrinted(store.domain)).toContain(fresh.id);
    expect(await historyOf(fresh.id, "label_printed")).toEqual([]);

    const printed = await get(() => documentAction({ request: new Request(`http://localhost${link}`, { method: "POST" }), params: { token }, context: { clientAddress: "192.0.2.44" } }) as Promise<Response>);
    expect(printed.status).toBe(200);
    expect(pdfPages(printed.pdf)[0]).toContain(fresh.awb!);
    expect((await page("?printed=no")).shipments.map((shipment) => shipment.id)).not.toContain(fresh.id);
    expect(await historyOf(fresh.id, "label_printed")).toHaveLength(1);
  });

  it("makes a pickup's manifest from the page; the same pickup again has nothing left", async () => {
    const first = await act({ intent: "manifest", warehouseId: "1", courierName: "DTDC" });
    expect(first).toMatchObject({ status: 200, body: { ok: true, url: expect.stringMatching(/^\/documents\//) } });
    expect(await act({ intent: "manifest", warehouseId: "1", courierName: "DTDC" })).toMatchObject({ status: 409, body: { error: expect.stringContaining("Nothing is waiting") } });
  });

  it("prints four labels to an A4 page once Settings say so, and refuses an unknown layout", async () => {
    expect(pdfPageSize((await labels(`shipments=${delhivery.id}`)).pdf)).toBe("288 x 432");
    expect((await saveSettings({ labelLayout: "a4_four_up" })).status).toBe(200);
    expect(pdfPageSize((await labels(`shipments=${delhivery.id}`)).pdf)).toBe("595.28 x 841.89");
    expect((await saveSettings({ labelLayout: "a5" })).status).toBe(422);
    expect(pdfPageSize((await labels(`shipments=${delhivery.id}`)).pdf)).toBe("595.28 x 841.89");
    await saveSettings({ labelLayout: "thermal_4x6" });
  });
});
