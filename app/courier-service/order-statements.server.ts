import type { ServiceOrder } from "@prisma/client";
import type { Pool } from "pg";
import type { CreateOrderResult } from "~/shipping/contract";
import type { TrackingStep } from "./tracking-clock";

/**
 * create-order's statements, in SQL on the process's pg pool (db.server.ts: the pool Prisma also uses) rather
 * than through Prisma's client: Prisma 6's JS engine compiles every query in WebAssembly on the event loop,
 * with no plan cache until Prisma 7 (prisma/orm#29038), about 2.8 ms of the app's CPU per order in five queries
 * (npm run bench, bench/findings.md). An order takes two statements: what the account already has (a replay,
 * its warehouse) and the order with its first tracking event, written together.
 *
 * Both are named prepared statements: PostgreSQL parses and plans each once per connection instead of on every
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

export interface OrderWarehouse {
  number: number;
  city: string;
  pincode: number;
  isActive: boolean;
}

export interface OrderCreationContext {
  earlier: EarlierOrder | null;
  /** The warehouse with the number asked for; none asked for, the account's active primary warehouse. */
  warehouse: OrderWarehouse | null;
}

/**
 * One round trip for what create-order reads: the account's order under `orderId` and the warehouse the order
 * leaves from. `warehouseNumber` null: the active primary one (the first by number, should there be several).
 */
export async function lookUpOrderCreation(
  pool: SqlPool,
  { apiClientId, orderId, warehouseNumber }: { apiClientId: number; orderId: string; warehouseNumber: number | null },
): Promise<OrderCreationContext> {
  const { rows } = await pool.query<{
    earlierAwb: string | null;
    earlierRequestHash: string;
    earlierCreateResult: string;
    earlierCancelled: boolean;
    earlierCreatedAt: Date;
    warehouseNumber: number | null;
    warehouseCity: string;
    warehousePincode: number;
    warehouseActive: boolean;
  }>({
    name: "courier-service/look-up-order-creation",
    text: `SELECT earlier."awb" AS "earlierAwb", earlier."requestHash" AS "earlierRequestHash", earlier."createResult" AS "earlierCreateResult",
            earlier."cancelledAt" IS NOT NULL AS "earlierCancelled", earlier."createdAt" AT TIME ZONE 'UTC' AS "earlierCreatedAt",
            warehouse."number" AS "warehouseNumber", warehouse."city" AS "warehouseCity", warehouse."pincode" AS "warehousePincode",
            warehouse."isActive" AS "warehouseActive"
     FROM (SELECT 1) AS one
     LEFT JOIN "ServiceOrder" AS earlier ON earlier."apiClientId" = $1 AND earlier."orderId" = $2
     LEFT JOIN LATERAL (
       SELECT "number", "city", "pincode", "isActive" FROM "Warehouse"
       WHERE "apiClientId" = $1 AND (CASE WHEN $3::integer IS NULL THEN "isPrimary" AND "isActive" ELSE "number" = $3::integer END)
       ORDER BY "number" LIMIT 1
     ) AS warehouse ON true`,
    values: [apiClientId, orderId, warehouseNumber],
  });
  const row = rows[0]!;
  return {
    earlier:
      row.earlierAwb === null
        ? null
        : { awb: row.earlierAwb, requestHash: row.earlierRequestHash, createResult: row.earlierCreateResult, cancelled: row.earlierCancelled, createdAt: row.earlierCreatedAt },
    warehouse: row.warehouseNumber === null ? null : { number: row.warehouseNumber, city: row.warehouseCity, pincode: row.warehousePincode, isActive: row.warehouseActive },
  };
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
 * nextval is evaluated once, so both uses see the same id.
 */
const INSERT_ORDER = `
  WITH drawn AS (SELECT nextval(pg_get_serial_sequence('"ServiceOrder"', 'id')) AS "id"),
  "order" AS (
    INSERT INTO "ServiceOrder" ("id", "createResult", ${columnList(ORDER_COLUMNS)})
    VALUES ((SELECT "id" FROM drawn), $1::text || (SELECT "id" FROM drawn) || $2::text, ${placeholders(3, ORDER_COLUMNS.length)})
    RETURNING "id"
  )
  INSERT INTO "ServiceTrackingEvent" ("orderId", ${columnList(EVENT_COLUMNS)})
  VALUES ((SELECT "id" FROM "order"), ${placeholders(3 + ORDER_COLUMNS.length, EVENT_COLUMNS.length)})
  RETURNING "orderId"`;

/**
 * Writes a new order, its first tracking event and the answer a replay gives, in one statement, and returns the
 * order's id. `result` is that answer without `success` and `id`; the stored text is exactly
 * `JSON.stringify({ success: true, id, ...result })`. A unique violation (the awb, or the account's order_id)
 * is thrown as pg's error, with the constraint's name.
 */
export async function insertOrder(pool: SqlPool, order: NewServiceOrder, firstEvent: TrackingStep, result: Omit<CreateOrderResult, "success" | "id">): Promise<number> {
  const resultTail = `,${JSON.stringify(result).slice(1)}`;
  const { rows } = await pool.query<{ orderId: number }>({
    name: "courier-service/insert-order",
    text: INSERT_ORDER,
    values: [STORED_RESULT_HEAD, resultTail, ...ORDER_COLUMNS.map((column) => sqlValue(order[column])), ...EVENT_COLUMNS.map((column) => sqlValue(firstEvent[column]))],
  });
  return rows[0]!.orderId;
}

/** Whether `error` is PostgreSQL's unique violation, of the named constraint when one is given. */
export function isUniqueViolationOf(error: unknown, constraint?: string): boolean {
  const { code, constraint: violated } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  return code === "23505" && (constraint === undefined || violated === constraint);
}
