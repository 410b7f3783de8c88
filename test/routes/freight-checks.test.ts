import { readFileSync } from "node:fs";
import path from "node:path";
import type { Shipment } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shipOrders } from "~/orders/ship-orders.server";
import prisma from "~/db.server";
import { recordTriggerUse } from "~/flow/flow-triggers.server";
import { compileDataRequest, recordDataRequest } from "~/privacy/data-requests.server";
import { forgetShop, redactCustomer } from "~/privacy/personal-data.server";
import { loader as disputePage } from "~/routes/app.freight.disputes.$id";
import { loader as freightPage } from "~/routes/app.freight._index";
import { loader as disputePack } from "~/routes/app.freight.pack.$id";
import { action as attachPhoto, loader as readPhoto } from "~/routes/app.freight.photo.$id";
import { action as uploadInvoice } from "~/routes/app.freight.upload";
import { courierClientFor, sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import { receivedTriggers } from "../../store/flow";
import { resetJobs, runJobs } from "../support/jobs";
import { shopperOrder } from "../support/orders";
import { pdfPageCount, pdfPages } from "../support/pdf-reading";
import { startShippingWorld, startStore } from "../support/store";
import { responseOf } from "../support/webhooks";

/*
 * The freight check end to end: parcels booked on the courier sandbox in the shop's box preset (the quote's
 * chargeable weight kept), the sandbox's freight invoice — two parcels re-weighed a kilogram heavier — uploaded to
 * the app, the over-charge listed with its difference in kg and rupees, the dispute pack made with the merchant's
 * packing photo, Flow told; and the photo erased with the shopper's and the shop's data.
 */

let world: Awaited<ReturnType<typeof startShippingWorld>>;
let store: Awaited<ReturnType<typeof startShippingWorld>>["store"];
let placed = 0;
const admin = () => defaultJobDeps.adminFor(store.domain);
const PHOTO = readFileSync(path.resolve(__dirname, "../../docs/screenshots/4-booked.png"));

beforeAll(async () => {
  await resetJobs();
  world = await startShippingWorld();
  store = world.store;
  await store.install();
  // A small mailer: 15 × 10 × 5 cm is 0.15 kg volumetric, so a 450 g parcel is quoted at the first slab, 0.5 kg.
  const presets = JSON.stringify([{ name: "Small mailer", length: 15, breadth: 10, height: 5, maxWeightKg: 1 }]);
  await prisma.shopSettings.upsert({ where: { shop: store.domain }, create: { shop: store.domain, packagePresets: presets }, update: { packagePresets: presets } });
}, 60_000);
afterAll(async () => {
  await world.close();
});

async function bookedParcel(): Promise<Shipment> {
  const order = store.simulator.placeOrder(store.domain, shopperOrder(2 * ++placed + 500));
  const [result] = await shipOrders(store.domain, await admin(), [order.id], { policy: "recommended" });
  expect(result).toMatchObject({ outcome: "booked" });
  return prisma.shipment.findFirstOrThrow({ where: { shop: store.domain, orderGid: order.id } });
}

async function upload(csv: string, name = "invoice.csv") {
  const request = store.adminRequest(`/app/freight/upload?name=${encodeURIComponent(name)}`, { method: "POST", body: csv, headers: { "Content-Type": "text/csv" } });
  const response = await responseOf(() => uploadInvoice({ request, params: {}, context: {} }));
  return { status: response.status, body: (await response.json()) as { outcome: string; summary?: Record<string, number> } };
}

describe("a freight invoice imported", () => {
  let overcharged: Shipment;
  let asQuoted: Shipment;

  it("keeps what the booking was quoted, and lists a parcel charged 1.5 kg against a quoted 0.5 kg with the difference", async () => {
    await recordTriggerUse({ shop: store.domain, trigger: "dakiya-weight-overcharged", enabled: true, noticedAt: new Date() });
    overcharged = await bookedParcel();
    asQuoted = await bookedParcel();
    const third = await bookedParcel();
    expect(overcharged).toMatchObject({ quotedWeightGrams: 500, packageName: "Small mailer" });

    // The sandbox re-weighs the first two of the parcels named; the third is charged as quoted.
    const invoice = await courierClientFor(sandboxCredentialsFor(store.domain)).sandboxFreightInvoice([overcharged.awb!, asQuoted.awb!, third.awb!]);
    const [reweighed, ok] = [invoice.csv.split("\r\n")[2]!, invoice.csv.split("\r\n")[3]!];
    // The second parcel's re-weighed line is replaced by its quote, so exactly one parcel is over-charged here.
    const csv = invoice.csv.replace(reweighed, `${asQuoted.awb},,0.5,${(asQuoted.totalChargesPaise! / 100).toFixed(2)},${ok.split(",")[4]}`);
    const imported = await upload(csv);
    expect(imported).toEqual({ status: 200, body: expect.objectContaining({ outcome: "imported", summary: { overcharged: 1, as_quoted: 2 } }) });

    const page = await responseOf(() => freightPage({ request: store.adminRequest("/app/freight"), params: {}, context: {} }));
    const { charges, totals } = (await page.json()) as { charges: Record<string, unknown>[]; totals: { byCourier: { key: string; parcels: number; extraWeightGrams: number; extraPaise: number }[]; byMonth: { parcels: number }[] } };
    const listed = charges.find((charge) => charge.awb === overcharged.awb)!;
    expect(listed).toMatchObject({ verdict: "overcharged", declaredWeightGrams: 450, volumetricWeightGrams: 150, quotedWeightGrams: 500, chargedWeightGrams: 1500, extraWeightGrams: 1000, quotedPaise: overcharged.totalChargesPaise, parcelName: overcharged.orderName });
    expect(listed.extraPaise as number).toBeGreaterThan(0);
    expect(listed.chargedPaise).toBe(overcharged.totalChargesPaise! + (listed.extraPaise as number));
    expect(charges.map((charge) => charge.awb)).toEqual([overcharged.awb]);
    expect(totals.byCourier).toEqual([{ key: overcharged.courierName, parcels: 1, extraWeightGrams: 1000, extraPaise: listed.extraPaise }]);
    expect(totals.byMonth.map((month) => month.parcels)).toEqual([1]);

    // The same invoice again changes nothing.
    expect(await upload(csv, "invoice (1).csv")).toMatchObject({ status: 200, body: { outcome: "already_imported" } });
    expect(await prisma.freightCharge.count({ where: { shop: store.domain } })).toBe(3);

    // A statement downloaded again over the same days repeats a line: a repeat. Next month's invoice bills the same
    // parcel again for the very same weight and amount: billed again, not a repeat.
    const [header, , line] = csv.split("\r\n");
    const fields = line!.split(",");
    expect(fields[4]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await upload(`${header}\r\n${line}\r\n`, "invoice, again.csv")).toMatchObject({ status: 200, body: { outcome: "imported", summary: { already_imported: 1 } } });
    const nextMonth = new Date(Date.parse(`${fields[4]}T00:00:00Z`) + 31 * 86_400_000).toISOString().slice(0, 10);
    const rebilled = await upload(`${header}\r\n${[...fields.slice(0, 4), nextMonth].join(",")}\r\n`, "next month.csv");
    expect(rebilled).toMatchObject({ status: 200, body: { outcome: "imported", summary: { billed_again: 1 } } });
  });

  it("tells Shopify Flow of the over-charge once", async () => {
    expect((await runJobs(["flow-trigger"])).failed).toEqual([]);
    expect(receivedTriggers(store.shop, "dakiya-weight-overcharged").map((receipt) => receipt.payload)).toEqual([expect.objectContaining({ AWB: overcharged.awb, "Declared weight": 0.45, "Charged weight": 1.5, "Extra charge": expect.any(Number) })]);
  });

  it("takes a packing photo that is an image within its limit, and refuses anything else", async () => {
    const send = (body: BodyInit, id = overcharged.id) => responseOf(() => attachPhoto({ request: store.adminRequest(`/app/freight/photo/${id}`, { method: "POST", body }), params: { id: String(id) }, context: {} }));
    expect((await send(new TextEncoder().encode("<svg onload=alert(1)>"))).status).toBe(422);
    expect((await send(new Uint8Array(5 * 1024 * 1024 + 10))).status).toBe(413);
    // A parcel of another shop's, or none, is as unknown.
    expect((await send(PHOTO, 999_999_999)).status).toBe(404);
    expect((await send(PHOTO)).status).toBe(201);
    const read = await responseOf(() => readPhoto({ request: store.adminRequest(`/app/freight/photo/${overcharged.id}`), params: { id: String(overcharged.id) }, context: {} }));
    expect(read.headers.get("Content-Type")).toBe("image/png");
    expect(Buffer.from(await read.arrayBuffer()).equals(PHOTO)).toBe(true);
  });

  it("makes the dispute pack: declared weight and box, the quote, the charge, the label as printed and the photo", async () => {
    const facts = await responseOf(() => disputePage({ request: store.adminRequest(`/app/freight/disputes/${overcharged.id}`), params: { id: String(overcharged.id) }, context: {} }));
    expect(((await facts.json()) as { facts: unknown }).facts).toMatchObject({
      awb: overcharged.awb,
      packageName: "Small mailer",
      declaredWeightGrams: 450,
      box: { length: 15, breadth: 10, height: 5 },
      quote: { weightGrams: 500, estimated: false, totalPaise: overcharged.totalChargesPaise },
      charges: [expect.objectContaining({ chargedWeightGrams: 1500, extraWeightGrams: 1000 })],
      photo: expect.objectContaining({ contentType: "image/png", width: 1400 }),
    });
    const pack = await responseOf(() => disputePack({ request: store.adminRequest(`/app/freight/pack/${overcharged.id}`), params: { id: String(overcharged.id) }, context: {} }));
    expect(pack.headers.get("Content-Type")).toBe("application/pdf");
    const pdf = Buffer.from(await pack.arrayBuffer());
    expect(pdfPageCount(pdf)).toBe(3);
    const [summary, label, photo] = pdfPages(pdf).map((page) => page.replace(/\s+/g, " "));
    expect(summary).toContain(`Weight dispute: ${overcharged.orderName}, AWB ${overcharged.awb}`);
    expect(summary).toContain("Declared (dead) weight: 0.45 kg");
    expect(summary).toContain("Box: Small mailer, 15 × 10 × 5 cm");
    expect(summary).toContain("Chargeable weight: 0.5 kg");
    expect(summary).toMatch(/1\.5 kg for ₹[\d,.]+ — 1 kg and ₹[\d,.]+ above the quote/);
    expect(label).toContain(overcharged.awb!);
    expect(photo).toContain("Packing photo");
    // Another shop's parcel: no pack.
    const other = await responseOf(() => disputePack({ request: store.adminRequest("/app/freight/pack/999999999"), params: { id: "999999999" }, context: {} }));
    expect(other.status).toBe(404);
  });
});

describe("the packing photo with the shopper's and the shop's data", () => {
  it("is in the customer's data request, goes with customers/redact, and everything goes with shop/redact", async () => {
    const parcel = await prisma.shipment.findFirstOrThrow({ where: { shop: store.domain, packageName: "Small mailer", awb: { not: null } }, orderBy: { id: "asc" } });
    expect(await prisma.packingPhoto.count({ where: { shop: store.domain, shipmentId: parcel.id } })).toBe(1);
    const orderId = Number(parcel.orderGid.split("/").pop());
    await recordDataRequest({ shop: store.domain, requestId: `photo-${Date.now()}`, customerId: "81", orderIds: [orderId], requestedAt: new Date() });
    const request = await prisma.dataRequest.findFirstOrThrow({ where: { shop: store.domain }, orderBy: { id: "desc" } });
    const held = JSON.stringify(await compileDataRequest(store.domain, request.id));
    expect(held).toContain(`data:image/png;base64,${PHOTO.toString("base64").slice(0, 64)}`);
    expect(held).toContain('"freightCharges"');

    await redactCustomer(store.domain, [orderId]);
    expect(await prisma.packingPhoto.count({ where: { shop: store.domain, shipmentId: parcel.id } })).toBe(0);
    // The charges stay: awbs and amounts identify no one.
    expect(await prisma.freightCharge.count({ where: { shop: store.domain, shipmentId: parcel.id } })).toBe(1);
  });

  it("shop/redact erases every statement, line, charge, photo, payment and setting of the shop, and no other shop's", async () => {
    const other = await startStore();
    try {
      await other.install();
      const gone = other.domain;
      await prisma.reconciliationSettings.create({ data: { shop: gone, expectedRemittanceDays: 7 } });
      const statement = await prisma.courierStatement.create({ data: { shop: gone, kind: "remittance", fileName: "x.csv", sha256: "x", lineCount: 1, summary: {}, importedAt: new Date() } });
      await prisma.remittanceLine.create({ data: { shop: gone, statementId: statement.id, row: 2, awb: "1", orderRef: "", amountPaise: 1, reference: "U", verdict: "unknown_awb" } });
      await prisma.packingPhoto.create({ data: { shop: gone, shipmentId: 1, contentType: "image/png", bytes: PHOTO, width: 1, height: 1, uploadedAt: new Date() } });
      await prisma.shopifyCodPayment.create({ data: { shop: gone, shipmentId: 1, orderGid: "gid://shopify/Order/1", parcelName: "#1", amountPaise: 1, reference: "U", state: "pending" } });
      const ours = await Promise.all([prisma.freightCharge.count({ where: { shop: store.domain } }), prisma.courierStatement.count({ where: { shop: store.domain } })]);
      await forgetShop(gone);
      for (const count of [
        prisma.reconciliationSettings.count({ where: { shop: gone } }),
        prisma.courierStatement.count({ where: { shop: gone } }),
        prisma.remittanceLine.count({ where: { shop: gone } }),
        prisma.packingPhoto.count({ where: { shop: gone } }),
        prisma.shopifyCodPayment.count({ where: { shop: gone } }),
      ])
        expect(await count).toBe(0);
      expect(await Promise.all([prisma.freightCharge.count({ where: { shop: store.domain } }), prisma.courierStatement.count({ where: { shop: store.domain } })])).toEqual(ours);
    } finally {
      await other.close();
    }
  });
});
