import { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { csvField } from "~/csv";
import { fromPaise } from "~/money";
import { parcelName } from "~/shipments/parcels";
import type { LedgerFilter, LedgerState } from "./ledger-filter";
import { PARCEL_STANDING_SQL } from "./parcel-standing";
import type { ParcelStanding } from "./remittance-verdicts";
import type { StatementKind } from "./statement-columns";

/**
 * The COD ledger: every cash-on-delivery parcel the courier owes for — from the moment it is delivered; an RTO parcel
 * owes nothing — with what it was to collect, what the remittances imported paid for it, what is outstanding and for
 * how long (days since delivery, overdue past the shop's expected remittance time). Read straight from the shipments
 * and the remittance lines, so it is never out of step with either. Reads only.
 */

export const DEFAULT_EXPECTED_REMITTANCE_DAYS = 10;

export interface ReconciliationSettingsView {
  expectedRemittanceDays: number;
  markPaidInShopify: boolean;
  remittanceColumns: Record<string, string> | null;
  invoiceColumns: Record<string, string> | null;
}

export async function getReconciliationSettings(shop: string): Promise<ReconciliationSettingsView> {
  const settings = await prisma.reconciliationSettings.findUnique({ where: { shop } });
  return {
    expectedRemittanceDays: settings?.expectedRemittanceDays ?? DEFAULT_EXPECTED_REMITTANCE_DAYS,
    markPaidInShopify: settings?.markPaidInShopify ?? true,
    remittanceColumns: (settings?.remittanceColumns as Record<string, string> | null) ?? null,
    invoiceColumns: (settings?.invoiceColumns as Record<string, string> | null) ?? null,
  };
}

export interface LedgerRow {
  shipmentId: number;
  orderGid: string;
  parcelName: string;
  awb: string;
  courierName: string | null;
  deliveredAt: Date | null;
  standing: ParcelStanding;
  expectedPaise: number;
  remittedPaise: number;
  outstandingPaise: number;
  ageDays: number | null;
  overdue: boolean;
  state: LedgerState;
  lastReference: string | null;
  /** Whether Shopify knows it was paid: pending, recorded, already_paid or refused (null: not to be recorded). */
  shopifyPayment: string | null;
}

interface LedgerQuery {
  shop: string;
  filter: LedgerFilter;
  timeZone: string;
  now: Date;
  expectedDays: number;
}

const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/** The ledger's rows as a query (`judged`), filtered as asked but for the state. */
function ledgerRows({ shop, filter, timeZone, now, expectedDays }: LedgerQuery): Prisma.Sql {
  const localDay = Prisma.sql`(s."deliveredAt" AT TIME ZONE 'UTC' AT TIME ZONE ${timeZone})::date`;
  const conditions = [
    filter.courier ? Prisma.sql`AND s."courierName" = ${filter.courier}` : Prisma.empty,
    filter.from ? Prisma.sql`AND ${localDay} >= ${filter.from}::date` : Prisma.empty,
    filter.to ? Prisma.sql`AND ${localDay} <= ${filter.to}::date` : Prisma.empty,
    filter.search
      ? Prisma.sql`AND (s.awb ILIKE ${likePrefix(filter.search)} OR s."orderName" ILIKE ${likePrefix(filter.search)} OR s."orderName" ILIKE ${likePrefix(`#${filter.search.replace(/^#/, "")}`)})`
      : Prisma.empty,
  ];
  return Prisma.sql`
    WITH ledger AS (
      SELECT s.id, s."orderGid", s."orderName", s.parcel, s.awb, s."courierName", s."deliveredAt", ${Prisma.raw(PARCEL_STANDING_SQL)} AS standing,
             s."cashToCollectPaise" AS cash, COALESCE(r.remitted, 0)::int AS remitted, r."lastReference", p.state AS "shopifyPayment"
        FROM "Shipment" s
        LEFT JOIN LATERAL (
          SELECT SUM(l."amountPaise")::int AS remitted, (array_agg(l.reference ORDER BY l."statementId" DESC, l.row DESC))[1] AS "lastReference"
            FROM "RemittanceLine" l
           WHERE l.shop = s.shop AND l."shipmentId" = s.id AND l.verdict NOT IN ('already_imported', 'unknown_awb')
        ) r ON true
        LEFT JOIN "ShopifyCodPayment" p ON p.shop = s.shop AND p."shipmentId" = s.id
       WHERE s.shop = ${shop} AND s.direction = 'forward' AND s."cashToCollectPaise" IS NOT NULL AND s.awb IS NOT NULL
             ${Prisma.join(conditions, " ")}
    ), owed AS (
      SELECT *, CASE WHEN standing = 'rto' THEN 0 ELSE cash END AS expected FROM ledger WHERE standing = 'delivered' OR remitted <> 0
    ), judged AS (
      SELECT *,
             CASE WHEN standing = 'delivered' THEN GREATEST(expected - remitted, 0) ELSE 0 END AS outstanding,
             CASE WHEN "deliveredAt" IS NULL THEN NULL ELSE FLOOR(EXTRACT(EPOCH FROM (${now}::timestamp - "deliveredAt")) / 86400)::int END AS "ageDays",
             CASE WHEN remitted > expected THEN 'over' WHEN remitted = expected AND remitted <> 0 THEN 'remitted' WHEN remitted > 0 THEN 'short' WHEN standing = 'delivered' AND expected = 0 THEN 'remitted' ELSE 'awaiting' END AS state
        FROM owed
    ), flagged AS (
      SELECT *, (outstanding > 0 AND COALESCE("ageDays", 0) > ${expectedDays}) AS overdue FROM judged
    )`;
}

function stateCondition(state: LedgerFilter["state"]): Prisma.Sql {
  switch (state) {
    case undefined:
      return Prisma.sql`true`;
    case "outstanding":
      return Prisma.sql`outstanding > 0`;
    case "overdue":
      return Prisma.sql`overdue`;
    default:
      return Prisma.sql`state = ${state}`;
  }
}

interface LedgerSqlRow {
  id: number;
  orderGid: string;
  orderName: string;
  parcel: number;
  awb: string;
  courierName: string | null;
  deliveredAt: Date | null;
  standing: ParcelStanding;
  expected: number;
  remitted: number;
  outstanding: number;
  ageDays: number | null;
  overdue: boolean;
  state: LedgerState;
  lastReference: string | null;
  shopifyPayment: string | null;
}

const toLedgerRow = (row: LedgerSqlRow): LedgerRow => ({
  shipmentId: row.id,
  orderGid: row.orderGid,
  parcelName: parcelName(row),
  awb: row.awb,
  courierName: row.courierName,
  deliveredAt: row.deliveredAt,
  standing: row.standing,
  expectedPaise: row.expected,
  remittedPaise: row.remitted,
  outstandingPaise: row.outstanding,
  ageDays: row.ageDays,
  overdue: row.overdue,
  state: row.state,
  lastReference: row.lastReference,
  shopifyPayment: row.shopifyPayment,
});

/** A page of the ledger, latest deliveries first. */
export async function listLedger(query: LedgerQuery, { take = 50, skip = 0 }: { take?: number; skip?: number } = {}): Promise<{ rows: LedgerRow[]; more: boolean }> {
  const rows = await prisma.$queryRaw<LedgerSqlRow[]>`${ledgerRows(query)}
    SELECT * FROM flagged WHERE ${stateCondition(query.filter.state)} ORDER BY "deliveredAt" DESC NULLS LAST, id DESC LIMIT ${take + 1} OFFSET ${skip}`;
  return { rows: rows.slice(0, take).map(toLedgerRow), more: rows.length > take };
}

export interface LedgerTotals {
  parcels: number;
  expectedPaise: number;
  remittedPaise: number;
  outstandingPaise: number;
  overdueParcels: number;
  overduePaise: number;
  overPaise: number;
}

export interface WeekTotals extends LedgerTotals {
  /** The week's Monday, in the shop's time zone (YYYY-MM-DD). */
  week: string;
}

const TOTALS = Prisma.sql`
  COUNT(*)::int AS parcels, COALESCE(SUM(expected), 0)::bigint AS "expectedPaise", COALESCE(SUM(remitted), 0)::bigint AS "remittedPaise",
  COALESCE(SUM(outstanding), 0)::bigint AS "outstandingPaise", (COUNT(*) FILTER (WHERE overdue))::int AS "overdueParcels",
  COALESCE(SUM(outstanding) FILTER (WHERE overdue), 0)::bigint AS "overduePaise", COALESCE(SUM(GREATEST(remitted - expected, 0)), 0)::bigint AS "overPaise"`;

type TotalsRow = Omit<LedgerTotals, "expectedPaise" | "remittedPaise" | "outstandingPaise" | "overduePaise" | "overPaise"> & Record<"expectedPaise" | "remittedPaise" | "outstandingPaise" | "overduePaise" | "overPaise", bigint | number>;
const toTotals = (row: TotalsRow): LedgerTotals => ({
  parcels: row.parcels,
  expectedPaise: Number(row.expectedPaise),
  remittedPaise: Number(row.remittedPaise),
  outstandingPaise: Number(row.outstandingPaise),
  overdueParcels: row.overdueParcels,
  overduePaise: Number(row.overduePaise),
  overPaise: Number(row.overPaise),
});

/** The filtered ledger's totals, and the same per week of delivery (the latest `weeks` weeks with any), in the shop's time zone. */
export async function ledgerTotals(query: LedgerQuery, { weeks = 12 } = {}): Promise<{ all: LedgerTotals; byWeek: WeekTotals[] }> {
  const condition = stateCondition(query.filter.state);
  const [all] = await prisma.$queryRaw<TotalsRow[]>`${ledgerRows(query)} SELECT ${TOTALS} FROM flagged WHERE ${condition}`;
  const byWeek = await prisma.$queryRaw<(TotalsRow & { week: string })[]>`${ledgerRows(query)}
    SELECT to_char(date_trunc('week', "deliveredAt" AT TIME ZONE 'UTC' AT TIME ZONE ${query.timeZone}), 'YYYY-MM-DD') AS week, ${TOTALS}
      FROM flagged WHERE ${condition} AND "deliveredAt" IS NOT NULL GROUP BY 1 ORDER BY 1 DESC LIMIT ${weeks}`;
  return { all: toTotals(all!), byWeek: byWeek.map((row) => ({ week: row.week, ...toTotals(row) })) };
}

/** The couriers the shop's COD parcels went with, for the filter. */
export async function ledgerCouriers(shop: string): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ courierName: string }[]>`
    SELECT DISTINCT "courierName" FROM "Shipment" WHERE shop = ${shop} AND "cashToCollectPaise" IS NOT NULL AND "courierName" IS NOT NULL ORDER BY 1 LIMIT 50`;
  return rows.map((row) => row.courierName);
}

const LEDGER_COLUMNS = ["Parcel", "AWB", "Courier", "Delivered", "Days since delivery", "Expected (₹)", "Remitted (₹)", "Outstanding (₹)", "State", "Overdue", "Last UTR", "Paid in Shopify"];

/**
 * The filtered ledger as CSV, streamed a batch at a time: any number of rows, one batch in memory. Every cell goes
 * through `csvField` (a formula never runs in the merchant's spreadsheet). Dates in the shop's time zone; English,
 * for the spreadsheets and tools that read it.
 */
export function ledgerCsv(query: LedgerQuery): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: query.timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  const rupees = (paise: number) => fromPaise(paise).toFixed(2);
  let skip = 0;
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(`\uFEFF${LEDGER_COLUMNS.map(csvField).join(",")}\r\n`));
        return;
      }
      const { rows, more } = await listLedger(query, { take: 500, skip });
      skip += rows.length;
      const lines = rows.map((row) =>
        [
          row.parcelName,
          row.awb,
          row.courierName ?? "",
          row.deliveredAt ? day.format(row.deliveredAt) : "",
          row.ageDays === null ? "" : String(row.ageDays),
          rupees(row.expectedPaise),
          rupees(row.remittedPaise),
          rupees(row.outstandingPaise),
          row.standing === "rto" ? "rto" : row.state,
          row.overdue ? "yes" : "",
          row.lastReference ?? "",
          row.shopifyPayment ?? "",
        ]
          .map(csvField)
          .join(","),
      );
      if (lines.length > 0) controller.enqueue(encoder.encode(`${lines.join("\r\n")}\r\n`));
      if (!more) controller.close();
    },
  });
}

// ─── Statements imported ──────────────────────────────────────────────────────────────────────────────────────────

export interface StatementSummary {
  id: number;
  kind: StatementKind;
  fileName: string;
  lineCount: number;
  summary: Record<string, number>;
  importedAt: Date;
}

export async function listStatements(shop: string, kind: StatementKind, take = 10): Promise<StatementSummary[]> {
  const rows = await prisma.courierStatement.findMany({ where: { shop, kind, NOT: { sha256: { startsWith: "importing:" } } }, orderBy: { importedAt: "desc" }, take });
  return rows.map((row) => ({ id: row.id, kind: row.kind as StatementKind, fileName: row.fileName, lineCount: row.lineCount, summary: row.summary as Record<string, number>, importedAt: row.importedAt }));
}

export async function getStatement(shop: string, id: number): Promise<StatementSummary | null> {
  const row = await prisma.courierStatement.findFirst({ where: { shop, id } });
  return row ? { id: row.id, kind: row.kind as StatementKind, fileName: row.fileName, lineCount: row.lineCount, summary: row.summary as Record<string, number>, importedAt: row.importedAt } : null;
}

export interface RemittanceLineView {
  row: number;
  awb: string;
  orderRef: string;
  parcelName: string | null;
  amountPaise: number;
  reference: string;
  remittedOn: Date | null;
  verdict: string;
  expectedPaise: number | null;
  differencePaise: number | null;
}

/** A remittance statement's lines as imported, in the file's order; those of one verdict when asked. */
export async function listRemittanceLines(shop: string, statementId: number, { verdict, take = 100, skip = 0 }: { verdict?: string; take?: number; skip?: number } = {}): Promise<{ lines: RemittanceLineView[]; more: boolean }> {
  const rows = await prisma.$queryRaw<(Omit<RemittanceLineView, "parcelName"> & { orderName: string | null; parcel: number | null })[]>`
    SELECT l.row, l.awb, l."orderRef", l."amountPaise", l.reference, l."remittedOn", l.verdict, l."expectedPaise", l."differencePaise", s."orderName", s.parcel
      FROM "RemittanceLine" l LEFT JOIN "Shipment" s ON s.id = l."shipmentId" AND s.shop = l.shop
     WHERE l.shop = ${shop} AND l."statementId" = ${statementId} ${verdict ? Prisma.sql`AND l.verdict = ${verdict}` : Prisma.empty}
     ORDER BY l.row LIMIT ${take + 1} OFFSET ${skip}`;
  return {
    lines: rows.slice(0, take).map(({ orderName, parcel, ...line }) => ({ ...line, parcelName: orderName === null || parcel === null ? null : parcelName({ orderName, parcel }) })),
    more: rows.length > take,
  };
}

/** Parcels whose payment Shopify refused to record, for the page to show with a Retry. */
export async function listRefusedShopifyPayments(shop: string, take = 20) {
  return prisma.shopifyCodPayment.findMany({ where: { shop, state: "refused" }, orderBy: { settledAt: "desc" }, take, select: { id: true, parcelName: true, amountPaise: true, reference: true, detail: true } });
}
