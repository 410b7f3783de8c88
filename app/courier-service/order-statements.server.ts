import type { ServiceOrder } from "@prisma/client";
import type { Pool } from "pg";
import type { CreateOrderResult } from "~/shipping/contract";
import type { TrackingStep } from "./tracking-clock";

/**
 * create-order's statements, in SQL on the process's pg pool (db.server.ts: the pool Prisma also uses) rather
 * than through Prisma's client: Prisma 6's JS engine compiles every query in WebAssembly on the event loop,
 * with no plan cache until Prisma 7 (prisma/orm#29038), about 2.8 ms of the app's CPU per order in five queries
 * (npm run bench, bench/findings.md). A new order is one statement (its warehouses are kept for a second by the
 * service); a retry, or a refusal of a known order_id, reads the earlier order with a second.
 *
 * They are named prepared statements: PostgreSQL parses and plans each once per connection instead of on every
 * order, which halved its CPU per order (0.68 → 0.36 ms, npm run bench). Their result columns are named, so a
 * later migration of these tables invalidates the plans without changing what they return.
 *
 * Times go as UTC ISO strings into the TIMESTAMP(3) columns and come back as `… AT TIME ZONE 'UTC'`, as Prisma
 * writes and reads them: pg would otherwise send and read a Date in the process's local time zone.
 */

export type SqlPool = Pick<Pool, "query">;

/** The account's earlier order under the same order_id: what a replay needs. */
export interface EarlierOrder {
  awb: string;
  requestHash: string;
  createResult: string;
  cancelled: boolean;
  createdAt: Date;
}

/** The account's order under `orderId`, or null. */
export async function findEarlierOrder(pool: SqlPool, apiClientId: number, orderId: string): Promise<EarlierOrder | null> {
  const { rows } = await pool.query<EarlierOrder>({
    name: "courier-service/find-earlier-order",
    text: `SELECT "awb", "requestHash", "createResult", "cancelledAt" IS NOT NULL AS "cancelled", "createdAt" AT TIME ZONE 'UTC' AS "createdAt"
           FROM "ServiceOrder" WHERE "apiClientId" = $1 AND "orderId" = $2`,
    values: [apiClientId, orderId],
  });
  return rows[0] ?? null;
}

export interface OrderWarehouse {
  number: number;
  city: string;
  pincode: number;
  isActive: boolean;
  isPrimary: boolean;
}

/** The account's warehouses, by number. */
export async function listWarehouses(pool: SqlPool, apiClientId: number): Promise<OrderWarehouse[]> {
  const { rows } = await pool.query<OrderWarehouse>({
    name: "courier-service/list-warehouses",
    text: `SELECT "number", "city", "pincode", "isActive", "isPrimary" FROM "Warehouse" WHERE "apiClientId" = $1 ORDER BY "number"`,
    values: [apiClientId],
  });
  return rows;
}

/** A new order's columns: all but those the statement fills (its id and stored answer) and those set later. */
export type NewServiceOrder = Omit<ServiceOrder, "id" | "createResult" | "cancelledAt" | "deliveredAt">;

const ORDER_COLUMNS = [
  "apiClientId", "orderId", "awb", "requestHash", "statusCode", "orderType", "orderDate", "customerName", "customerEmail",
  "mobile", "altMobile", "companyName", "gstNumber", "addressLine1", "addressLine2", "city", "state", "pincode",
  "packageLength", "packageBreadth", "packageHeight", "actualWeight", "products", "paymentMode", "discountPaise",
  "shippingChargePaise", "transactionChargePaise", "giftwrapChargePaise", "totalAmountPaise", "ewaybillNo",
  "deliveryRemarks", "warehouseId", "logisticId", "logisticName", "logisticMode", "zone", "chargeableWeight",
  "freightPaise", "codPaise", "totalChargesPaise", "eddMinDays", "eddMaxDays", "trackingUrl", "createdAt", "updatedAt",
] as const satisfies readonly (keyof NewServiceOrder)[];
// Fails to compile when a column of a new order is missing from the list above.
const _everyColumnListed: Record<Exclude<keyof NewServiceOrder, (typeof ORDER_COLUMNS)[number]>, never> = {};

const EVENT_COLUMNS = ["step", "code", "location", "activity", "happenedAt"] as const satisfies readonly (keyof TrackingStep)[];

const columnList = (columns: readonly string[]) => columns.map((column) => `"${column}"`).join(", ");
const placeholders = (from: number, count: number) => Array.from({ length: count }, (_, index) => `$${from + index}`).join(", ");
const sqlValue = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/** How every stored answer starts, before the id the statement draws: JSON.stringify puts `success` and `id` first. */
const STORED_RESULT_HEAD = '{"success":true,"id":';

/*
 * The order's id is drawn first, so the stored answer (which quotes it) is written with the order rather than
 * by an UPDATE afterwards. One statement is atomic by itself: no BEGIN and COMMIT round trips. A CTE that calls
 * nextval is evaluated once, so both uses see the same id. An order_id the account already used writes nothing
 * (the event is inserted from the order's RETURNING, empty then); a concurrent insert of it is waited for.
 */
const EVENT_TYPES: Record<(typeof EVENT_COLUMNS)[number], string> = { step: "integer", code: "integer", location: "text", activity: "text", happenedAt: "timestamp(3)" };
const INSERT_ORDER = `
  WITH drawn AS (SELECT nextval(pg_get_serial_sequence('"ServiceOrder"', 'id')) AS "id"),
  "order" AS (
    INSERT INTO "ServiceOrder" ("id", "createResult", ${columnList(ORDER_COLUMNS)})
    VALUES ((SELECT "id" FROM drawn), $1::text || (SELECT "id" FROM drawn) || $2::text, ${placeholders(3, ORDER_COLUMNS.length)})
    ON CONFLICT ("apiClientId", "orderId") DO NOTHING
    RETURNING "id"
  ),
  "event" AS (
    INSERT INTO "ServiceTrackingEvent" ("orderId", ${columnList(EVENT_COLUMNS)})
    SELECT "order"."id", ${EVENT_COLUMNS.map((column, index) => `$${3 + ORDER_COLUMNS.length + index}::${EVENT_TYPES[column]}`).join(", ")} FROM "order"
  )
  SELECT "id" FROM "order"`;

/**
 * Writes a new order, its first tracking event and the answer a replay gives, in one statement, and returns the
 * order's id; null when the account already has an order under this order_id. `result` is that answer without
 * `success` and `id`; the stored text is exactly `JSON.stringify({ success: true, id, ...result })`. An awb
 * already taken is thrown as pg's unique violation of "ServiceOrder_awb_key".
 */
export async function insertOrder(pool: SqlPool, order: NewServiceOrder, firstEvent: TrackingStep, result: Omit<CreateOrderResult, "success" | "id">): Promise<number | null> {
  const resultTail = `,${JSON.stringify(result).slice(1)}`;
  const { rows } = await pool.query<{ id: number }>({
    name: "courier-service/insert-order",
    text: INSERT_ORDER,
    values: [STORED_RESULT_HEAD, resultTail, ...ORDER_COLUMNS.map((column) => sqlValue(order[column])), ...EVENT_COLUMNS.map((column) => sqlValue(firstEvent[column]))],
  });
  return rows[0]?.id ?? null;
}

/** Whether `error` is PostgreSQL's foreign-key violation: a row that refers to one deleted meanwhile. */
export function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "23503";
}

/** Whether `error` is PostgreSQL's unique violation, of the named constraint when one is given. */
export function isUniqueViolationOf(error: unknown, constraint?: string): boolean {
  const { code, constraint: violated } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  return code === "23505" && (constraint === undefined || violated === constraint);
}
