import { createHash } from "node:crypto";
import { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { CsvEncodingError, CsvFormatError, csvRecordBatches, type CsvProblemCode } from "~/csv";
import { parcelFields, type ParcelFacts } from "~/flow/flow-triggers";
import { fireFlowTrigger } from "~/flow/flow-triggers.server";
import { LOCK_SPACE, lockIdOf } from "~/locks.server";
import { fromPaise } from "~/money";
import { parcelName } from "~/shipments/parcels";
import { chargeIdentity, chargeKeyOf, judgeFreightCharge, kgOf, type BookedParcel, type FreightVerdict } from "./freight-verdicts";
import { parcelStanding } from "./parcel-standing";
import { addFreightCharges, addRemittanceLines, closeStatement, openStatement, queueShopifyPayments, recordPaymentsLater, rememberColumns, type FreightChargeRecord, type PaymentToRecord, type RemittanceLineRecord } from "./reconciliation-records.server";
import { judgeRemittance, lineIdentity, parcelKeyOf, UNCOUNTED_VERDICTS, type EarlierLines, type RemittanceVerdict, type RemittedParcel } from "./remittance-verdicts";
import { chooseMapping, mappingProblems, type ColumnMapping, type MappingProblem, type StatementKind } from "./statement-columns";
import { isRowProblem, MAX_AMOUNT_PAISE, readFreightRow, readRemittanceRow, rowReaderOf, STATEMENT_LIMITS, type FreightRow, type RemittanceRow, type RowProblem, type RowReader } from "./statement-rows";

/**
 * Importing a courier statement — a COD remittance statement or a freight invoice — as the merchant uploads it:
 *
 * - **Streamed, in bounded memory.** The file is read as it arrives, 2,000 rows at a time: each batch is read,
 *   matched to its parcels (one query by awb, another by order id for the rest), judged (remittance-verdicts.ts,
 *   freight-verdicts.ts) and written in one statement, so what is held is one batch whatever the file's length.
 * - **All or nothing.** The whole import is one transaction: a row that cannot be read refuses the file (its row and
 *   why, the first 20 named), and nothing of it is kept; a process that dies mid-file leaves nothing behind.
 * - **Once.** A shop's imports take turns (a transaction lock), and a file whose bytes were imported before (its
 *   SHA-256) changes nothing. A later statement that repeats a line of an earlier one (a statement downloaded again
 *   over the same days) counts it once: the line is kept as "already imported".
 * - What it sets going goes with it, in the same transaction: the parcels remitted in full to be recorded paid in
 *   Shopify (with their job), and Shopify Flow's "COD remittance short" and "Weight over-charged" triggers.
 */

export type ImportOutcome =
  | { kind: "imported"; statementId: number; lineCount: number; summary: Record<string, number> }
  | { kind: "already_imported"; statementId: number; importedAt: Date; fileName: string }
  /** Rows that cannot be read: the first ones named, how many more. */
  | { kind: "refused"; problems: RowProblem[]; more: number }
  /** Not a CSV file Dakiya can read, at a row when it can say which. */
  | { kind: "unreadable"; code: CsvProblemCode | "not_utf8" | "empty"; row?: number }
  /** The columns cannot be told apart: the file's headers and the mapping suggested, for the merchant to finish. */
  | { kind: "needs_columns"; headers: string[]; suggested: ColumnMapping; problems: MappingProblem[] }
  | { kind: "too_large"; limitBytes: number }
  /** The upload broke off before its end (the connection dropped): nothing was kept. */
  | { kind: "interrupted" }
  /** Another import of the shop's took longer than the wait. */
  | { kind: "busy" };

export interface StatementUpload {
  shop: string;
  kind: StatementKind;
  fileName: string;
  body: AsyncIterable<Uint8Array>;
  /** The merchant's mapping for this file; otherwise the one remembered, or what the headers say. */
  columns?: ColumnMapping | null;
  now?: () => Date;
}

/** Ends the import's transaction with an outcome other than imported: everything it wrote is rolled back. */
class ImportStopped extends Error {
  constructor(readonly outcome: ImportOutcome) {
    super(outcome.kind);
  }
}

type Client = Prisma.TransactionClient;
type VerdictCounts = Record<string, number>;

const BATCH_ROWS = 2_000;
/** How long an import waits for another of the shop's to finish before answering busy. */
const TURN_WAIT = "60s";

/** The upload's own stream failed (the client went away mid-file), as opposed to a fault of the import. */
class UploadBroken extends Error {
  override name = "UploadBroken";
}

/** The file's chunks, a failure to deliver them told apart from the import's own. */
async function* deliveredChunks(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Uint8Array>;
    try {
      next = await iterator.next();
    } catch {
      throw new UploadBroken("The upload broke off");
    }
    if (next.done) return;
    yield next.value;
  }
}

/** The body of a request, as the chunks the import reads. */
export async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

export async function importStatement(upload: StatementUpload): Promise<ImportOutcome> {
  const now = upload.now ?? (() => new Date());
  try {
    return await prisma.$transaction((tx) => importInTransaction(tx, upload, now), { timeout: 15 * 60_000, maxWait: 15_000 });
  } catch (error) {
    if (error instanceof ImportStopped) return error.outcome;
    if (error instanceof CsvFormatError) return { kind: "unreadable", code: error.code, row: error.row };
    if (error instanceof CsvEncodingError) return { kind: "unreadable", code: "not_utf8" };
    if (error instanceof UploadBroken) return { kind: "interrupted" };
    // PostgreSQL's lock_timeout: another import of the shop's held the turn for longer than the wait.
    if (error instanceof Prisma.PrismaClientKnownRequestError && /lock timeout|55P03/i.test(`${error.message} ${JSON.stringify(error.meta ?? {})}`)) return { kind: "busy" };
    if (error instanceof Error && /lock timeout/i.test(error.message)) return { kind: "busy" };
    throw error;
  }
}

async function importInTransaction(tx: Client, upload: StatementUpload, now: () => Date): Promise<ImportOutcome> {
  const { shop, kind } = upload;
  await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${TURN_WAIT}'`);
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_SPACE.STATEMENTS}::int, ${lockIdOf(shop)}::int)`;
  const settings = await tx.reconciliationSettings.findUnique({ where: { shop } });
  const statementId = await openStatement(tx, shop, kind, upload.fileName.slice(0, 200), now());
  let paymentsQueued = 0;
  const judge =
    kind === "remittance"
      ? remittanceJudge(tx, shop, statementId, settings?.markPaidInShopify ?? true, (queued) => (paymentsQueued += queued))
      : freightJudge(tx, shop, statementId);

  const digest = createHash("sha256");
  let bytes = 0;
  const onBytes = (chunk: Uint8Array) => {
    bytes += chunk.byteLength;
    if (bytes > STATEMENT_LIMITS.maxBytes) throw new ImportStopped({ kind: "too_large", limitBytes: STATEMENT_LIMITS.maxBytes });
    digest.update(chunk);
  };
  let reader: RowReader | null = null;
  let mapping: ColumnMapping = {};
  const problems: RowProblem[] = [];
  let moreProblems = 0;
  let lineCount = 0;
  const summary: VerdictCounts = {};
  const limits = { maxRecords: STATEMENT_LIMITS.maxRows + 1, maxFields: STATEMENT_LIMITS.maxFields, maxFieldLength: STATEMENT_LIMITS.maxFieldLength };
  for await (const batch of csvRecordBatches(deliveredChunks(upload.body), { batchSize: BATCH_ROWS, limits, onBytes })) {
    let records = batch;
    if (!reader) {
      const headers = batch[0]!.fields.map((header) => header.trim());
      const remembered = (kind === "remittance" ? settings?.remittanceColumns : settings?.invoiceColumns) as ColumnMapping | null | undefined;
      mapping = chooseMapping(kind, headers, { chosen: upload.columns, remembered });
      const unmapped = mappingProblems(kind, headers, mapping);
      if (unmapped.length > 0) throw new ImportStopped({ kind: "needs_columns", headers: headers.slice(0, STATEMENT_LIMITS.maxFields), suggested: mapping, problems: unmapped });
      reader = rowReaderOf(kind, headers, mapping);
      records = batch.slice(1);
    }
    const rows: (RemittanceRow | FreightRow)[] = [];
    for (const record of records) {
      const row = kind === "remittance" ? readRemittanceRow(reader, record) : readFreightRow(reader, record);
      if (isRowProblem(row)) {
        if (problems.length < STATEMENT_LIMITS.maxProblemsNamed) problems.push(row);
        else moreProblems += 1;
      } else rows.push(row);
    }
    lineCount += rows.length;
    // Once a row is refused the file is: the rest is only read for its problems.
    if (problems.length > 0 || rows.length === 0) continue;
    for (const [verdict, count] of Object.entries(await judge(rows as never[]))) summary[verdict] = (summary[verdict] ?? 0) + count;
  }
  if (!reader) return stop({ kind: "unreadable", code: "empty" });
  if (problems.length > 0) return stop({ kind: "refused", problems, more: moreProblems });
  if (lineCount === 0) return stop({ kind: "unreadable", code: "empty", row: 2 });
  const sha256 = digest.digest("hex");
  const earlier = await tx.courierStatement.findFirst({ where: { shop, kind, sha256 }, select: { id: true, importedAt: true, fileName: true } });
  if (earlier) return stop({ kind: "already_imported", statementId: earlier.id, importedAt: earlier.importedAt, fileName: earlier.fileName });
  await closeStatement(tx, shop, statementId, { sha256, lineCount, summary });
  if (paymentsQueued > 0) await recordPaymentsLater(tx, shop);
  await rememberColumns(tx, shop, kind, mapping);
  return { kind: "imported", statementId, lineCount, summary };
}

const stop = (outcome: ImportOutcome): never => {
  throw new ImportStopped(outcome);
};

const count = (counts: VerdictCounts, verdict: string) => void (counts[verdict] = (counts[verdict] ?? 0) + 1);

// ─── Remittances ──────────────────────────────────────────────────────────────────────────────────────────────────

/** A forward parcel as a remittance line finds it, with what Flow's trigger names of it. */
interface ParcelRow {
  id: number;
  awb: string;
  orderGid: string;
  orderName: string;
  parcel: number;
  cashToCollectPaise: number | null;
  courierName: string | null;
  trackingUrl: string | null;
  outcome: string;
}

const factsOf = (row: Pick<ParcelRow, "orderGid" | "orderName" | "parcel" | "awb" | "courierName" | "trackingUrl">): ParcelFacts => ({
  orderGid: row.orderGid,
  name: parcelName(row),
  awb: row.awb,
  courierName: row.courierName,
  trackingUrl: row.trackingUrl,
});

/**
 * The order ids a statement may give a parcel by, and where each could point: the courier's order_id is the order's
 * number (parcel 1), "<number>-N" (parcel N), either with "-A<attempt>" after the courier refused an earlier one.
 */
function orderNamesFor(ref: string): string[] {
  const base = ref.replace(/-A\d+$/, "");
  const split = /^(.+)-(\d{1,3})$/.exec(base);
  return [...new Set([`#${ref}`, `#${base}`, ...(split ? [`#${split[1]}`] : [])])];
}

/** Each row's parcel: by its awb, else by the courier order id the statement gives. */
async function parcelsForRows(tx: Client, shop: string, rows: readonly Pick<RemittanceRow, "row" | "awb" | "orderRef">[]): Promise<Map<number, { parcel: ParcelRow; matchedBy: "awb" | "order" }>> {
  const found = new Map<number, { parcel: ParcelRow; matchedBy: "awb" | "order" }>();
  const awbs = [...new Set(rows.map((row) => row.awb).filter(Boolean))];
  if (awbs.length > 0) {
    const byAwb = await tx.$queryRaw<ParcelRow[]>`
      SELECT DISTINCT ON (awb) id, awb, "orderGid", "orderName", parcel, "cashToCollectPaise", "courierName", "trackingUrl", outcome
        FROM "Shipment" WHERE shop = ${shop} AND direction = 'forward' AND awb = ANY(${awbs}::text[]) ORDER BY awb, id DESC`;
    const parcelOf = new Map(byAwb.map((parcel) => [parcel.awb, parcel]));
    for (const row of rows) {
      const parcel = row.awb ? parcelOf.get(row.awb) : undefined;
      if (parcel) found.set(row.row, { parcel, matchedBy: "awb" });
    }
  }
  const byOrder = rows.filter((row) => !found.has(row.row) && row.orderRef);
  if (byOrder.length > 0) {
    const names = [...new Set(byOrder.flatMap((row) => orderNamesFor(row.orderRef)))];
    const candidates = await tx.$queryRaw<(ParcelRow & { courierOrderId: string | null })[]>`
      SELECT id, awb, "orderGid", "orderName", parcel, "cashToCollectPaise", "courierName", "trackingUrl", outcome,
             CASE WHEN "requestPayload" LIKE '{%' THEN "requestPayload"::jsonb ->> 'order_id' END AS "courierOrderId"
        FROM "Shipment" WHERE shop = ${shop} AND direction = 'forward' AND awb IS NOT NULL AND "orderName" = ANY(${names}::text[]) ORDER BY id DESC`;
    for (const row of byOrder) {
      // The courier's own order id first; a merchant's "#1042" is the order's first parcel.
      const parcel = candidates.find((candidate) => candidate.courierOrderId === row.orderRef) ?? candidates.find((candidate) => candidate.orderName === `#${row.orderRef}` && candidate.parcel === 1);
      if (parcel) found.set(row.row, { parcel, matchedBy: "order" });
    }
  }
  return found;
}

/** What earlier lines paid for each parcel, and the lines of earlier statements by identity. */
async function earlierRemittances(tx: Client, shop: string, statementId: number, shipmentIds: readonly number[]): Promise<Map<number, { remittedPaise: number; identities: Set<string> }>> {
  if (shipmentIds.length === 0) return new Map();
  const rows = await tx.$queryRaw<{ shipmentId: number; remitted: number; seen: string[] }[]>`
    SELECT "shipmentId", COALESCE(SUM("amountPaise") FILTER (WHERE verdict <> ALL(${[...UNCOUNTED_VERDICTS]}::text[])), 0)::int AS remitted,
           COALESCE(array_agg(lower(reference) || '|' || "amountPaise") FILTER (WHERE "statementId" <> ${statementId}), '{}') AS seen
      FROM "RemittanceLine" WHERE shop = ${shop} AND "shipmentId" = ANY(${[...shipmentIds]}::int[]) GROUP BY "shipmentId"`;
  return new Map(rows.map((row) => [row.shipmentId, { remittedPaise: row.remitted, identities: new Set(row.seen.map((seen) => `shipment:${row.shipmentId}|${seen}`)) }]));
}

/** Lines of earlier statements for awbs (or order ids) that matched no parcel, by identity. */
async function earlierUnknownLines(tx: Client, shop: string, statementId: number, rows: readonly RemittanceRow[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const awbs = [...new Set(rows.map((row) => row.awb).filter(Boolean))];
  const refs = [...new Set(rows.filter((row) => !row.awb).map((row) => row.orderRef))];
  const seen = await tx.$queryRaw<{ awb: string; orderRef: string; reference: string; amountPaise: number }[]>`
    SELECT awb, "orderRef", reference, "amountPaise" FROM "RemittanceLine"
     WHERE shop = ${shop} AND "shipmentId" IS NULL AND "statementId" <> ${statementId} AND (awb = ANY(${awbs}::text[]) OR (awb = '' AND "orderRef" = ANY(${refs}::text[])))`;
  return new Set(seen.map((line) => lineIdentity(parcelKeyOf(line, null), line)));
}

function remittanceJudge(tx: Client, shop: string, statementId: number, markPaid: boolean, onQueued: (payments: number) => void) {
  return async (rows: readonly RemittanceRow[]): Promise<VerdictCounts> => {
    const matched = await parcelsForRows(tx, shop, rows);
    const ids = [...new Set([...matched.values()].map(({ parcel }) => parcel.id))];
    const earlier = await earlierRemittances(tx, shop, statementId, ids);
    const unknown = await earlierUnknownLines(tx, shop, statementId, rows.filter((row) => !matched.has(row.row)));
    const counts: VerdictCounts = {};
    const records: RemittanceLineRecord[] = [];
    const payments: PaymentToRecord[] = [];
    const shorts: { row: RemittanceRow; parcel: ParcelRow; expected: number; remitted: number }[] = [];
    for (const row of rows) {
      const match = matched.get(row.row);
      let before: EarlierLines;
      let parcel: RemittedParcel | null = null;
      if (match) {
        const { parcel: found } = match;
        if (!earlier.has(found.id)) earlier.set(found.id, { remittedPaise: 0, identities: new Set() });
        before = earlier.get(found.id)!;
        parcel = { shipmentId: found.id, orderGid: found.orderGid, cashToCollectPaise: found.cashToCollectPaise, standing: parcelStanding(found) };
      } else before = { remittedPaise: 0, identities: unknown };
      // Each line is at most ₹1 crore; so is what a parcel's lines add up to, or its totals would not fit their columns.
      if (Math.abs(before.remittedPaise + row.amountPaise) > MAX_AMOUNT_PAISE) throw new ImportStopped({ kind: "refused", problems: [{ row: row.row, code: "parcel_total_out_of_range" }], more: 0 });
      const judgement = judgeRemittance(row, parcel, before);
      // The next line for the same parcel, in this batch, sees this one.
      if (match && judgement.counts) earlier.get(match.parcel.id)!.remittedPaise += row.amountPaise;
      count(counts, judgement.verdict);
      records.push({
        row: row.row,
        awb: row.awb,
        orderRef: row.orderRef,
        amountPaise: row.amountPaise,
        reference: row.reference,
        remittedOn: row.remittedOn,
        shipmentId: match?.parcel.id ?? null,
        orderGid: match?.parcel.orderGid ?? null,
        matchedBy: match?.matchedBy ?? null,
        verdict: judgement.verdict,
        expectedPaise: judgement.expectedPaise,
        remittedBeforePaise: judgement.remittedBeforePaise,
        differencePaise: judgement.differencePaise,
      });
      if (!match) continue;
      if (judgement.settlesParcel && markPaid) {
        payments.push({ shipmentId: match.parcel.id, orderGid: match.parcel.orderGid, parcelName: parcelName(match.parcel), amountPaise: judgement.expectedPaise!, reference: row.reference });
      }
      if (judgement.verdict === ("short" satisfies RemittanceVerdict)) shorts.push({ row, parcel: match.parcel, expected: judgement.expectedPaise!, remitted: judgement.remittedBeforePaise! + row.amountPaise });
    }
    await addRemittanceLines(tx, shop, statementId, records);
    onQueued(await queueShopifyPayments(tx, shop, payments));
    for (const short of shorts) {
      await fireFlowTrigger(
        shop,
        "dakiya-remittance-short",
        { ...parcelFields(factsOf(short.parcel), "Delivered; COD remitted short"), "Expected amount": fromPaise(short.expected), "Remitted amount": fromPaise(short.remitted), "Short by": fromPaise(short.expected - short.remitted) },
        { eventKey: `remittance:${statementId}:${short.row.row}`, orderGid: short.parcel.orderGid, shipmentId: short.parcel.id, tx },
      );
    }
    return counts;
  };
}

// ─── Freight ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** A booked parcel (forward or a return's pickup) as a freight charge finds it: the figures sent and quoted. */
interface ChargedParcelRow {
  id: number;
  awb: string;
  orderGid: string;
  returnOfOrderGid: string | null;
  direction: string;
  orderName: string;
  parcel: number;
  courierName: string | null;
  trackingUrl: string | null;
  quotedWeightGrams: number | null;
  totalChargesPaise: number | null;
  declaredKg: string | null;
  length: string | null;
  breadth: string | null;
  height: string | null;
}

const numberOrNull = (text: string | null) => (text === null || !Number.isFinite(Number(text)) ? null : Number(text));

function bookedParcelOf(row: ChargedParcelRow): BookedParcel {
  const kg = numberOrNull(row.declaredKg);
  const [length, breadth, height] = [numberOrNull(row.length), numberOrNull(row.breadth), numberOrNull(row.height)];
  return {
    shipmentId: row.id,
    orderGid: row.orderGid,
    courierName: row.courierName,
    declaredGrams: kg === null ? null : Math.round(kg * 1000),
    box: length !== null && breadth !== null && height !== null ? { length, breadth, height } : null,
    quotedGrams: row.quotedWeightGrams,
    quotedPaise: row.totalChargesPaise,
  };
}

function freightJudge(tx: Client, shop: string, statementId: number) {
  return async (rows: readonly FreightRow[]): Promise<VerdictCounts> => {
    const awbs = [...new Set(rows.map((row) => row.awb))];
    const parcels = await tx.$queryRaw<ChargedParcelRow[]>`
      SELECT DISTINCT ON (awb) id, awb, "orderGid", "returnOfOrderGid", direction, "orderName", parcel, "courierName", "trackingUrl", "quotedWeightGrams", "totalChargesPaise",
             body ->> 'package_weight' AS "declaredKg", body ->> 'package_length' AS length, body ->> 'package_breadth' AS breadth, body ->> 'package_height' AS height
        FROM "Shipment", LATERAL (SELECT CASE WHEN "requestPayload" LIKE '{%' THEN "requestPayload"::jsonb END AS body) sent
       WHERE shop = ${shop} AND awb = ANY(${awbs}::text[]) ORDER BY awb, id DESC`;
    const parcelOf = new Map(parcels.map((parcel) => [parcel.awb, parcel]));
    const ids = parcels.map((parcel) => parcel.id);
    const earlierRows = ids.length
      ? await tx.$queryRaw<{ shipmentId: number; seen: string[]; billed: boolean }[]>`
          SELECT "shipmentId", COALESCE(array_agg("chargedWeightGrams" || '|' || "chargedPaise" || '|' || COALESCE(to_char("chargedOn", 'YYYY-MM-DD'), '')) FILTER (WHERE "statementId" <> ${statementId}), '{}') AS seen,
                 COALESCE(bool_or(verdict <> 'already_imported'), false) AS billed
            FROM "FreightCharge" WHERE shop = ${shop} AND "shipmentId" = ANY(${ids}::int[]) GROUP BY "shipmentId"`
      : [];
    const earlier = new Map(earlierRows.map((row) => [row.shipmentId, { billed: row.billed, identities: new Set(row.seen.map((seen) => `shipment:${row.shipmentId}|${seen}`)) }]));
    const unknownAwbs = awbs.filter((awb) => !parcelOf.has(awb));
    const unknownSeen = unknownAwbs.length
      ? await tx.$queryRaw<{ awb: string; chargedWeightGrams: number; chargedPaise: number; chargedOn: Date | null }[]>`
          SELECT awb, "chargedWeightGrams", "chargedPaise", "chargedOn" FROM "FreightCharge" WHERE shop = ${shop} AND "shipmentId" IS NULL AND "statementId" <> ${statementId} AND awb = ANY(${unknownAwbs}::text[])`
      : [];
    const unknown = new Set(unknownSeen.map((charge) => chargeIdentity(chargeKeyOf(charge, null), charge)));
    const counts: VerdictCounts = {};
    const records: FreightChargeRecord[] = [];
    const overcharged: { row: FreightRow; parcel: ChargedParcelRow; declaredGrams: number | null; extraPaise: number }[] = [];
    for (const row of rows) {
      const found = parcelOf.get(row.awb) ?? null;
      const booked = found ? bookedParcelOf(found) : null;
      if (found && !earlier.has(found.id)) earlier.set(found.id, { billed: false, identities: new Set() });
      const before = found ? earlier.get(found.id)! : { billed: false, identities: unknown };
      const judgement = judgeFreightCharge(row, booked, before);
      if (found && judgement.verdict !== ("already_imported" satisfies FreightVerdict)) before.billed = true;
      count(counts, judgement.verdict);
      records.push({
        row: row.row,
        awb: row.awb,
        chargedWeightGrams: row.chargedWeightGrams,
        chargedPaise: row.chargedPaise,
        chargedOn: row.chargedOn,
        shipmentId: found?.id ?? null,
        orderGid: found ? (found.direction === "return" ? (found.returnOfOrderGid ?? found.orderGid) : found.orderGid) : null,
        courierName: found?.courierName ?? null,
        ...judgement,
      });
      if (found && judgement.verdict === "overcharged") overcharged.push({ row, parcel: found, declaredGrams: judgement.declaredWeightGrams, extraPaise: judgement.extraPaise ?? 0 });
    }
    await addFreightCharges(tx, shop, statementId, records);
    for (const { row, parcel, declaredGrams, extraPaise } of overcharged) {
      // A return's pickup names the order it comes back from, as its other triggers do.
      const orderGid = parcel.direction === "return" ? parcel.returnOfOrderGid : parcel.orderGid;
      if (!orderGid?.startsWith("gid://shopify/Order/")) continue;
      await fireFlowTrigger(
        shop,
        "dakiya-weight-overcharged",
        { ...parcelFields({ ...factsOf(parcel), orderGid }, "Charged above its quote"), "Declared weight": Number(kgOf(declaredGrams ?? 0)), "Charged weight": Number(kgOf(row.chargedWeightGrams)), "Extra charge": fromPaise(extraPaise) },
        { eventKey: `shipment:${parcel.id}:weight_overcharged`, orderGid, shipmentId: parcel.id, tx },
      );
    }
    return counts;
  };
}
