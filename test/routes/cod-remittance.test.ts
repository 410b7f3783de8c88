import type { Shipment } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shipOrders } from "~/orders/ship-orders.server";
import prisma from "~/db.server";
import { recordTriggerUse } from "~/flow/flow-triggers.server";
import { enqueue } from "~/jobs/job-queue.server";
import { action as exportLedger } from "~/routes/app.cod.export";
import { action as ledgerSettings, loader as ledgerPage } from "~/routes/app.cod._index";
import { loader as statementPage } from "~/routes/app.cod.statements.$id";
import { action as uploadRemittance } from "~/routes/app.cod.upload";
import { action as sandboxStatementRoute } from "~/routes/app.sandbox-statement";
import { listLedger } from "~/reconciliation/cod-ledger.server";
import { paymentMethodNameOf } from "~/reconciliation/cod-payments";
import { parcelName } from "~/shipments/parcels";
import { courierClientFor, sandboxCredentialsFor } from "~/settings/shop-settings.server";
import { syncShipment } from "~/tracking/sync.server";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import { receivedTriggers } from "../../store/flow";
import { resetJobs, runJobs } from "../support/jobs";
import { shopperOrder, twoWarehouseOrder } from "../support/orders";
import { startShippingWorld, startStore } from "../support/store";
import { responseOf } from "../support/webhooks";

/*
 * The COD loop end to end, as a merchant meets it: cash-on-delivery parcels booked on the courier sandbox and
 * delivered (the tracking sync reads it), the sandbox's remittance statement downloaded from the app, uploaded to
 * the app's route as a stream, every line matched and judged, the ledger read, and the fully paid orders recorded
 * paid in the local Shopify store by the real job — once, whatever is sent again. Real PostgreSQL, the real courier
 * service over HTTP, the local store on Shopify's schema.
 */

let world: Awaited<ReturnType<typeof startShippingWorld>>;
let store: Awaited<ReturnType<typeof startShippingWorld>>["store"];
let placed = 0;
const admin = () => defaultJobDeps.adminFor(store.domain);
const sandbox = () => courierClientFor(sandboxCredentialsFor(store.domain));

beforeAll(async () => {
  await resetJobs();
  world = await startShippingWorld();
  store = world.store;
  await store.install();
}, 60_000);
afterAll(async () => {
  await world.close();
});

/** An order placed by a shopper and booked with its recommended courier: its parcels. */
async function bookedParcels(input: Record<string, unknown>): Promise<{ order: { id: string; name: string }; parcels: Shipment[] }> {
  const order = store.simulator.placeOrder(store.domain, input);
  const [result] = await shipOrders(store.domain, await admin(), [order.id], { policy: "recommended" });
  expect(result).toMatchObject({ outcome: "booked" });
  return { order, parcels: await prisma.shipment.findMany({ where: { shop: store.domain, orderGid: order.id }, orderBy: { parcel: "asc" } }) };
}

const codOrder = () => bookedParcels(shopperOrder(2 * ++placed + 100));

/** The courier moves the parcel on to `code` (8 delivered, 11 RTO) and the app's tracking sync reads it. */
async function courierReports(parcel: Shipment, code: number): Promise<Shipment> {
  await sandbox().advanceSandboxShipment(parcel.awb!, code);
  await syncShipment(await prisma.shipment.findUniqueOrThrow({ where: { id: parcel.id } }), { admin: await admin(), now: () => new Date(Date.now() + 3_600_000) });
  return prisma.shipment.findUniqueOrThrow({ where: { id: parcel.id } });
}

/** The file as a browser sends it: a stream, in small chunks. */
function streamOf(text: string, chunkBytes = 97): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, (offset += chunkBytes)));
    },
  });
}

async function upload(csv: string | ReadableStream<Uint8Array>, { name = "remittance.csv", columns, shop }: { name?: string; columns?: Record<string, string>; shop?: string } = {}) {
  const query = new URLSearchParams({ name, ...(columns ? { columns: JSON.stringify(columns) } : {}) });
  const request = store.adminRequest(`/app/cod/upload?${query}`, { method: "POST", body: typeof csv === "string" ? streamOf(csv) : csv, headers: { "Content-Type": "text/csv" }, duplex: "half" } as RequestInit, shop);
  const response = await responseOf(() => uploadRemittance({ request, params: {}, context: {} }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { outcome: string; summary?: Record<string, number>; statementId?: number; problems?: unknown[] } };
}

/** The sandbox's remittance statement for these awbs, as the merchant downloads it from the COD remittance page. */
async function sandboxStatementFor(awbs: string[]): Promise<string> {
  const statement = await sandbox().sandboxRemittanceStatement(awbs);
  return statement.csv;
}

const storeOrder = (orderGid: string) => store.shop.orders.find((order) => order.id === orderGid)!;
const linesOf = (statementId: number) => prisma.remittanceLine.findMany({ where: { shop: store.domain, statementId }, orderBy: { row: "asc" } });

describe("a remittance statement imported", () => {
  let full: Shipment;
  let short: Shipment;
  let firstStatement: string;

  it("downloads from the sandbox and imports with one verdict a line: paid in full, short by how much, unknown awb", async () => {
    await recordTriggerUse({ shop: store.domain, trigger: "dakiya-remittance-short", enabled: true, noticedAt: new Date() });
    full = await courierReports((await codOrder()).parcels[0]!, 8);
    short = await courierReports((await codOrder()).parcels[0]!, 8);
    expect(full.deliveredAt).not.toBeNull();
    expect(full.cashToCollectPaise).toBe(79_900);

    // The page's "Download a sample statement", for the shop's delivered parcels (the route), and the same for two awbs.
    const downloaded = await responseOf(() => sandboxStatementRoute({ request: store.adminRequest("/app/sandbox-statement", { method: "POST", body: new URLSearchParams({ kind: "remittance" }) }), params: {}, context: {} }));
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get("Content-Type")).toMatch(/^text\/csv/);
    expect(await downloaded.text()).toContain(full.awb!);
    firstStatement = await sandboxStatementFor([full.awb!, short.awb!]);

    const imported = await upload(firstStatement);
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ outcome: "imported", lineCount: 3, summary: { paid_in_full: 1, short: 1, unknown_awb: 1 }, message: "Imported 3 lines." });
    const lines = await linesOf(imported.body.statementId!);
    expect(lines.map((line) => [line.shipmentId, line.verdict, line.expectedPaise, line.differencePaise])).toEqual([
      [full.id, "paid_in_full", 79_900, 0],
      [short.id, "short", 79_900, -7_990],
      [null, "unknown_awb", null, null],
    ]);
    expect(new Set(lines.map((line) => line.reference)).size).toBe(1);
  });

  it("shows the ledger: the full parcel remitted, the short one outstanding by its difference; the statement's lines with their verdicts", async () => {
    const page = await responseOf(() => ledgerPage({ request: store.adminRequest("/app/cod"), params: {}, context: {} }));
    const { ledger, totals, statements } = (await page.json()) as { ledger: { shipmentId: number; state: string; remittedPaise: number; outstandingPaise: number; ageDays: number }[]; totals: { all: { remittedPaise: number } }; statements: { id: number }[] };
    expect(ledger.find((row) => row.shipmentId === full.id)).toMatchObject({ state: "remitted", remittedPaise: 79_900, outstandingPaise: 0, ageDays: 0 });
    expect(ledger.find((row) => row.shipmentId === short.id)).toMatchObject({ state: "short", remittedPaise: 71_910, outstandingPaise: 7_990 });
    expect(totals.all.remittedPaise).toBe(79_900 + 71_910);
    const detail = await responseOf(() => statementPage({ request: store.adminRequest(`/app/cod/statements/${statements[0]!.id}?verdict=short`), params: { id: String(statements[0]!.id) }, context: {} }));
    expect(((await detail.json()) as { lines: { awb: string; verdict: string }[] }).lines).toEqual([expect.objectContaining({ awb: short.awb, verdict: "short" })]);
  });

  it("records the fully paid order paid in Shopify with the UTR in its note, and tells Flow the short one", async () => {
    expect((await runJobs(["cod-shopify-payments", "flow-trigger"])).failed).toEqual([]);
    const paid = storeOrder(full.orderGid);
    const utr = (await prisma.remittanceLine.findFirstOrThrow({ where: { shop: store.domain, shipmentId: full.id } })).reference;
    expect(paid.displayFinancialStatus).toBe("PAID");
    expect(paid.note).toContain(`COD remitted for ${parcelName(full)}: ₹799.00, UTR ${utr}`);
    expect(storeOrder(short.orderGid).displayFinancialStatus).toBe("PENDING");
    expect(await prisma.shopifyCodPayment.findMany({ where: { shop: store.domain }, select: { shipmentId: true, state: true, method: true } })).toEqual([{ shipmentId: full.id, state: "recorded", method: "mark_as_paid" }]);
    expect(receivedTriggers(store.shop, "dakiya-remittance-short").map((receipt) => receipt.payload)).toEqual([
      expect.objectContaining({ AWB: short.awb, "Expected amount": 799, "Remitted amount": 719.1, "Short by": 79.9 }),
    ]);
  });

  it("changes nothing when the same file is imported again, or twice at once", async () => {
    const [lines, payments, transactions] = [await prisma.remittanceLine.count({ where: { shop: store.domain } }), await prisma.shopifyCodPayment.count({ where: { shop: store.domain } }), storeOrder(full.orderGid).payments?.length];
    const again = await upload(firstStatement, { name: "remittance (1).csv" });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ outcome: "already_imported" });
    // A new statement uploaded twice at once (a double click): imported once.
    const rto = await courierReports((await codOrder()).parcels[0]!, 11);
    const statement = await sandboxStatementFor([rto.awb!]);
    const both = await Promise.all([upload(statement), upload(statement)]);
    expect(both.map((answer) => answer.body.outcome).sort()).toEqual(["already_imported", "imported"]);
    expect(both.find((answer) => answer.body.outcome === "imported")!.body.summary).toEqual({ rto: 1, unknown_awb: 1 });
    expect(await prisma.remittanceLine.count({ where: { shop: store.domain } })).toBe(lines + 2);
    expect((await runJobs(["cod-shopify-payments"])).failed).toEqual([]);
    expect(await prisma.shopifyCodPayment.count({ where: { shop: store.domain } })).toBe(payments);
    expect(storeOrder(full.orderGid).payments?.length).toBe(transactions);
  });

  it("counts a line once when a later statement repeats it (downloaded again over the same days)", async () => {
    // Another file (a line more at its end) with the same lines.
    const answer = await upload(`${firstStatement}\r\n`, { name: "remittance-again.csv" });
    expect(answer.status).toBe(200);
    expect(answer.body.summary).toEqual({ already_imported: 3 });
    const ledger = await listLedger({ shop: store.domain, filter: {}, timeZone: "Asia/Kolkata", now: new Date(), expectedDays: 10 });
    expect(ledger.rows.find((row) => row.shipmentId === full.id)).toMatchObject({ remittedPaise: 79_900, state: "remitted" });
  });
});

describe("cash remitted before the tracking said delivered", () => {
  it("is recorded paid in Shopify once the tracking sync reads the parcel delivered, once however often it is read", async () => {
    const early = (await codOrder()).parcels[0]!;
    const csv = `AWB No,Order ID,COD Amount,UTR,Remittance Date\r\n${early.awb},,${(early.cashToCollectPaise! / 100).toFixed(2)},NEFTEARLY1,20/11/2026\r\n`;
    const imported = await upload(csv, { name: "early.csv" });
    expect(imported.body).toMatchObject({ outcome: "imported", summary: { not_delivered: 1 } });
    expect((await runJobs(["cod-shopify-payments"])).failed).toEqual([]);
    expect(await prisma.shopifyCodPayment.count({ where: { shop: store.domain, shipmentId: early.id } })).toBe(0);
    expect(storeOrder(early.orderGid).displayFinancialStatus).toBe("PENDING");

    // The courier delivers it; the worker's tracking sync reads it, then reads it again.
    await sandbox().advanceSandboxShipment(early.awb!, 8);
    for (const hours of [1, 30]) {
      await enqueue("tracking-sync", { shop: store.domain });
      expect((await runJobs(["tracking-sync", "cod-shopify-payments"], { deps: { now: () => new Date(Date.now() + hours * 3_600_000) } })).failed).toEqual([]);
    }
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: early.id } })).toMatchObject({ outcome: "delivered" });
    expect(await prisma.shopifyCodPayment.findMany({ where: { shop: store.domain, shipmentId: early.id }, select: { state: true, amountPaise: true, reference: true } })).toEqual([{ state: "recorded", amountPaise: early.cashToCollectPaise, reference: "NEFTEARLY1" }]);
    expect(storeOrder(early.orderGid).displayFinancialStatus).toBe("PAID");
  });
});

describe("every difference named", () => {
  it("says over, by how much, for a parcel remitted more than it collected, and not delivered yet for one still on its way", async () => {
    const over = await courierReports((await codOrder()).parcels[0]!, 8);
    const onItsWay = (await codOrder()).parcels[0]!;
    const csv = `AWB No,Order ID,COD Amount,UTR,Remittance Date\r\n${over.awb},,"₹ 1,099.00",NEFTOVER01,20/11/2026\r\n${onItsWay.awb},,799.00,NEFTOVER01,20/11/2026\r\n`;
    const imported = await upload(csv, { name: "over.csv" });
    expect(imported.body).toMatchObject({ outcome: "imported", summary: { over: 1, not_delivered: 1 } });
    expect((await linesOf(imported.body.statementId!)).map((line) => [line.shipmentId, line.verdict, line.amountPaise, line.expectedPaise, line.differencePaise])).toEqual([
      [over.id, "over", 109_900, 79_900, 30_000],
      [onItsWay.id, "not_delivered", 79_900, 79_900, 0],
    ]);
    const ledger = await listLedger({ shop: store.domain, filter: {}, timeZone: "Asia/Kolkata", now: new Date(), expectedDays: 10 });
    expect(ledger.rows.find((row) => row.shipmentId === over.id)).toMatchObject({ state: "over", remittedPaise: 109_900, outstandingPaise: 0 });
    // Cash remitted before the parcel was delivered is in the ledger, owed nothing yet.
    expect(ledger.rows.find((row) => row.shipmentId === onItsWay.id)).toMatchObject({ state: "remitted", remittedPaise: 79_900, outstandingPaise: 0 });
  });
});

describe("an order shipped as two parcels", () => {
  it("records each parcel's remitted cash as its own payment, then the last pays the order in full — never twice", async () => {
    const { order, parcels } = await bookedParcels(twoWarehouseOrder(++placed + 300));
    expect(parcels).toHaveLength(2);
    const [first, second] = [await courierReports(parcels[0]!, 8), await courierReports(parcels[1]!, 8)];
    expect(first.cashToCollectPaise! + second.cashToCollectPaise!).toBe(157_700);

    expect((await upload(await sandboxStatementFor([first.awb!]), { name: "first.csv" })).body.summary).toMatchObject({ paid_in_full: 1 });
    expect((await runJobs(["cod-shopify-payments"])).failed).toEqual([]);
    const afterFirst = storeOrder(order.id);
    expect(afterFirst.displayFinancialStatus).toBe("PARTIALLY_PAID");
    const utr = (await prisma.remittanceLine.findFirstOrThrow({ where: { shop: store.domain, shipmentId: first.id } })).reference;
    expect(afterFirst.payments).toEqual([expect.objectContaining({ gateway: paymentMethodNameOf({ parcelName: parcelName(first), reference: utr }), amount: first.cashToCollectPaise! / 100 })]);

    // A worker that died after Shopify took the payment and before it was recorded here: tried again, the payment
    // is found on the order by its name and not made a second time.
    await prisma.$executeRaw`UPDATE "ShopifyCodPayment" SET state = 'pending', method = NULL, "settledAt" = NULL WHERE shop = ${store.domain} AND "shipmentId" = ${first.id}`;
    await enqueue("cod-shopify-payments", { shop: store.domain });
    expect((await runJobs(["cod-shopify-payments"])).failed).toEqual([]);
    expect(storeOrder(order.id).payments).toHaveLength(1);
    expect(await prisma.shopifyCodPayment.findFirst({ where: { shop: store.domain, shipmentId: first.id } })).toMatchObject({ state: "recorded", method: "manual_payment" });

    expect((await upload(await sandboxStatementFor([second.awb!]), { name: "second.csv" })).body.summary).toMatchObject({ paid_in_full: 1 });
    expect((await runJobs(["cod-shopify-payments"])).failed).toEqual([]);
    const paid = storeOrder(order.id);
    expect(paid.displayFinancialStatus).toBe("PAID");
    expect(paid.payments).toHaveLength(2);
    expect(paid.note!.split("\n")).toHaveLength(2);
  });
});

describe("a file that cannot be read", () => {
  const statementsBefore = () => prisma.courierStatement.count({ where: { shop: store.domain } });

  it("is refused with each row and the reason, 422, and nothing of it kept", async () => {
    const before = [await statementsBefore(), await prisma.remittanceLine.count({ where: { shop: store.domain } })];
    const csv = ["AWB No,Order ID,COD Amount,UTR,Remittance Date", "15616928599560,1001,799.00,UTR1,20/11/2026", "15616928599561,1002,seven,UTR1,20/11/2026", "15616928599562,1003,799.00,,20/11/2026", "1.56169E+13,1004,799.00,UTR1,31/02/2026"].join("\n");
    const refused = await upload(csv);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ outcome: "refused", more: 0, message: "Nothing was imported: correct these rows and import the file again." });
    expect(refused.body.details).toEqual([
      "Row 3, column “COD Amount”: seven is not an amount",
      "Row 4, column “UTR”: no UTR or bank reference",
      "Row 5, column “AWB No”: the awb 1.56169E+13 was shortened by a spreadsheet: format the column as text and export the file again",
    ]);
    expect([await statementsBefore(), await prisma.remittanceLine.count({ where: { shop: store.domain } })]).toEqual(before);
  });

  it("is refused, naming the row, when one parcel's lines add up to more than a line may hold; a 422, never a 500", async () => {
    const parcel = await courierReports((await codOrder()).parcels[0]!, 8);
    const before = [await statementsBefore(), await prisma.remittanceLine.count({ where: { shop: store.domain } })];
    const csv = ["AWB No,Order ID,COD Amount,UTR,Remittance Date", ...["U1", "U2", "U3"].map((utr) => `${parcel.awb},,"99,99,999.99",${utr},20/11/2026`)].join("\r\n");
    const refused = await upload(csv, { name: "garbled.csv" });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ outcome: "refused", details: ["Row 3: the lines for this parcel add up to more than ₹1 crore: check its amounts"] });
    expect([await statementsBefore(), await prisma.remittanceLine.count({ where: { shop: store.domain } })]).toEqual(before);
  });

  it("is refused whole when it is not CSV text, or the upload breaks off; a 422 or 400, never a 500", async () => {
    const binary = new ReadableStream<Uint8Array>({ start: (controller) => (controller.enqueue(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0xfe, 0x00, 0x01])), controller.close()) });
    expect(await upload(binary)).toMatchObject({ status: 422, body: { outcome: "unreadable", code: "not_utf8" } });
    expect(await upload('AWB,Amount,UTR\n1,"open,UTR1\n')).toMatchObject({ status: 422, body: { outcome: "unreadable", code: "unclosed_quote", row: 2 } });
    const before = await statementsBefore();
    let sent = 0;
    const brokenOff = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        if (sent === 1) return controller.enqueue(new TextEncoder().encode(`AWB,Amount,UTR\n${"1561,799,UTR9\n".repeat(3_000)}`));
        controller.error(new Error("connection reset"));
      },
    });
    expect(await upload(brokenOff)).toMatchObject({ status: 400, body: { outcome: "interrupted" } });
    expect(await statementsBefore()).toBe(before);
  });

  it("asks for the columns when its headers say nothing Dakiya knows, reads it with the merchant's choice, and remembers it", async () => {
    const delivered = await courierReports((await codOrder()).parcels[0]!, 8);
    const csv = `Consignment,Paid,Bank Ref\n${delivered.awb},799,NEFT001\n`;
    const asked = await upload(csv);
    expect(asked.status).toBe(422);
    expect(asked.body).toMatchObject({ outcome: "needs_columns", headers: ["Consignment", "Paid", "Bank Ref"] });
    const columns = { awb: "Consignment", amount: "Paid", reference: "Bank Ref" };
    expect((await upload(csv, { columns })).body).toMatchObject({ outcome: "imported", summary: { paid_in_full: 1 } });
    // The next file with the same headers is read with the mapping remembered.
    expect((await upload(`Consignment,Paid,Bank Ref\n${delivered.awb},1,NEFT002\n`)).body).toMatchObject({ outcome: "imported", summary: { paid_twice: 1 } });
  });
});

describe("the ledger's ageing, filters and export", () => {
  it("flags a parcel owed past the expected remittance time, filters by it, and exports the rows as CSV", async () => {
    const owed = await courierReports((await codOrder()).parcels[0]!, 8);
    const query = (days: number, state?: "overdue" | "outstanding") => listLedger({ shop: store.domain, filter: state ? { state } : {}, timeZone: "Asia/Kolkata", now: new Date(owed.deliveredAt!.getTime() + days * 86_400_000), expectedDays: 10 });
    expect((await query(3)).rows.find((row) => row.shipmentId === owed.id)).toMatchObject({ ageDays: 3, overdue: false, state: "awaiting", outstandingPaise: 79_900 });
    expect((await query(12, "overdue")).rows.map((row) => row.shipmentId)).toContain(owed.id);
    expect((await query(3, "overdue")).rows.map((row) => row.shipmentId)).not.toContain(owed.id);

    const exported = await responseOf(() => exportLedger({ request: store.adminRequest("/app/cod/export", { method: "POST", body: new URLSearchParams({ state: "outstanding" }) }), params: {}, context: {} }));
    expect(exported.status).toBe(200);
    const bytes = new Uint8Array(await exported.arrayBuffer());
    // The byte-order mark first, so spreadsheets read ₹ as UTF-8.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text.split("\r\n")[0]).toBe("Parcel,AWB,Courier,Delivered,Days since delivery,Expected (₹),Remitted (₹),Outstanding (₹),State,Overdue,Last UTR,Paid in Shopify");
    expect(text).toContain(`${owed.awb},`);
    expect(text).not.toContain(`,remitted,`);
    // What a courier names its service is untrusted text: a formula in it stays text in the merchant's spreadsheet.
    await prisma.shipment.update({ where: { id: owed.id }, data: { courierName: '=HYPERLINK("http://example.com/x","Delhivery")' } });
    const hostile = await responseOf(() => exportLedger({ request: store.adminRequest("/app/cod/export", { method: "POST", body: new URLSearchParams({ q: owed.awb! }) }), params: {}, context: {} }));
    const row = (await hostile.text()).split("\r\n")[1]!;
    expect(row).toContain(`,${owed.awb},"'=HYPERLINK(""http://example.com/x"",""Delhivery"")",`);
    const badFilter = await responseOf(() => exportLedger({ request: store.adminRequest("/app/cod/export", { method: "POST", body: new URLSearchParams({ from: "31/02/2026" }) }), params: {}, context: {} }));
    expect(badFilter.status).toBe(422);
  });
});

describe("the remittance settings", () => {
  it("take the expected remittance time and whether Shopify is told of payments; a time outside 1 to 90 days is a 422", async () => {
    const save = async (fields: Record<string, string>) => {
      const answer = await responseOf(() => ledgerSettings({ request: store.adminRequest("/app/cod", { method: "POST", body: new URLSearchParams(fields) }), params: {}, context: {} }));
      return { status: answer.status, body: await answer.json() };
    };
    expect(await save({ expectedRemittanceDays: "0", markPaidInShopify: "on" })).toEqual({ status: 422, body: { intent: "settings", ok: false } });
    expect(await save({ expectedRemittanceDays: "91", markPaidInShopify: "on" })).toMatchObject({ status: 422 });
    // A payment to retry, or a statement to open, that no row can be: a 404 saying so, never the database's 500.
    for (const paymentId of ["abc", "3000000000", "-1", ""]) expect(await save({ intent: "retry-payment", paymentId })).toEqual({ status: 404, body: { intent: "retry-payment", ok: false } });
    for (const id of ["3000000000", "1e3", "abc"]) expect((await responseOf(() => statementPage({ request: store.adminRequest(`/app/cod/statements/${id}`), params: { id }, context: {} }))).status).toBe(404);
    // The box unticked: the form sends no markPaidInShopify.
    expect(await save({ expectedRemittanceDays: "3" })).toEqual({ status: 200, body: { intent: "settings", ok: true } });

    const parcel = await courierReports((await codOrder()).parcels[0]!, 8);
    // Delivered five days ago, at noon in India (the local store's time zone): more than the 3 days, whatever the time of the test.
    const deliveredAt = new Date(`${new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10)}T06:30:00Z`);
    await prisma.$executeRaw`UPDATE "Shipment" SET "deliveredAt" = ${deliveredAt} WHERE id = ${parcel.id}`;
    const read = async (filters = "") => {
      const page = await responseOf(() => ledgerPage({ request: store.adminRequest(`/app/cod?q=${parcel.awb}${filters}`), params: {}, context: {} }));
      return (await page.json()) as {
        ledger: { shipmentId: number; ageDays: number; overdue: boolean; state: string }[];
        totals: { all: Record<string, number>; byWeek: Record<string, unknown>[] };
        settings: { expectedRemittanceDays: number; markPaidInShopify: boolean };
      };
    };
    const before = await read();
    expect(before.settings).toMatchObject({ expectedRemittanceDays: 3, markPaidInShopify: false });
    expect(before.ledger).toEqual([expect.objectContaining({ shipmentId: parcel.id, ageDays: expect.any(Number), overdue: true, state: "awaiting" })]);

    // Its courier and day of delivery pick it out; its week's totals count it (the week starts on the Monday).
    const day = deliveredAt.toISOString().slice(0, 10);
    const monday = new Date(deliveredAt.getTime() - ((deliveredAt.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    const filtered = await read(`&courier=${encodeURIComponent(parcel.courierName!)}&from=${day}&to=${day}`);
    expect(filtered.ledger.map((row) => row.shipmentId)).toEqual([parcel.id]);
    expect(filtered.totals.all).toMatchObject({ parcels: 1, expectedPaise: 79_900, outstandingPaise: 79_900, overdueParcels: 1, overduePaise: 79_900 });
    expect(filtered.totals.byWeek).toEqual([expect.objectContaining({ week: monday, parcels: 1, outstandingPaise: 79_900 })]);
    const dayAfter = new Date(deliveredAt.getTime() + 86_400_000).toISOString().slice(0, 10);
    expect((await read(`&from=${dayAfter}`)).ledger).toEqual([]);
    expect((await read("&courier=Nobody")).ledger).toEqual([]);

    // Remitted in full with Shopify's marking off: the ledger says so, Shopify is not told.
    expect((await upload(await sandboxStatementFor([parcel.awb!]), { name: "settings.csv" })).body.summary).toMatchObject({ paid_in_full: 1 });
    expect((await runJobs(["cod-shopify-payments"])).failed).toEqual([]);
    expect((await read()).ledger).toEqual([expect.objectContaining({ shipmentId: parcel.id, overdue: false, state: "remitted" })]);
    expect(await prisma.shopifyCodPayment.count({ where: { shop: store.domain, shipmentId: parcel.id } })).toBe(0);
    expect(storeOrder(parcel.orderGid).displayFinancialStatus).toBe("PENDING");
    await save({ expectedRemittanceDays: "10", markPaidInShopify: "on" });
  });
});

describe("another shop", () => {
  it("sees none of this shop's parcels or statements, and its statement naming them matches nothing", async () => {
    const other = await startStore();
    try {
      await other.install();
      const page = await responseOf(() => ledgerPage({ request: other.adminRequest("/app/cod"), params: {}, context: {} }));
      expect(((await page.json()) as { ledger: unknown[] }).ledger).toEqual([]);
      const ours = await prisma.courierStatement.findFirstOrThrow({ where: { shop: store.domain } });
      const theirs = await responseOf(() => statementPage({ request: other.adminRequest(`/app/cod/statements/${ours.id}`), params: { id: String(ours.id) }, context: {} }));
      expect(theirs.status).toBe(404);
      const ourAwb = (await prisma.shipment.findFirstOrThrow({ where: { shop: store.domain, awb: { not: null } } })).awb!;
      const request = other.adminRequest("/app/cod/upload?name=x.csv", { method: "POST", body: `AWB,Amount,UTR\n${ourAwb},799,UTR77\n` });
      const answer = await responseOf(() => uploadRemittance({ request, params: {}, context: {} }));
      expect(await answer.json()).toMatchObject({ outcome: "imported", summary: { unknown_awb: 1 } });
    } finally {
      await other.close();
    }
  });
});
