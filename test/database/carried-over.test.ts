import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, listMigrations, MIGRATIONS_DIR } from "../../server/migrate";
import { createDatabase } from "../support/database";

/**
 * A database that held shipments and returns written before courier outcomes and returns' own states: the migrations
 * that bring them in carry every row over. Each shipment takes the outcome its courier's latest stage reports (its
 * attempts counted, a booking cancelled before it reached the courier cancelled), and each return the state its
 * record and pickup say it is in, with a first history row. A tracking entry not yet posted is marked as perhaps sent
 * already, so its next post looks for it on the fulfillment first.
 */
const FIRST_NEW = "shipment_courier_outcomes";
let client: pg.Client;
let scratch: string;
let url: string;

const now = "2026-11-20T10:00:00Z";
let shipments = 0;
async function shipment(fields: { status: string; direction?: string; orderGid?: string; code?: number; awb?: string; lastErrorWords?: object; lastError?: string }): Promise<number> {
  shipments += 1;
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO "Shipment" (shop, "orderGid", "orderName", parcel, status, direction, "requestPayload", "courierEnvironment", "paymentMode", awb, "courierStatusCode", "lastError", "lastErrorWords", "updatedAt")
     VALUES ('old.myshopify.com', $1, $2, 1, $3, $4, '{}', 'test', 'prepaid', $5, $6, $7, $8, $9) RETURNING id`,
    [fields.orderGid ?? `gid://shopify/Order/${shipments}`, `#${1000 + shipments}`, fields.status, fields.direction ?? "forward", fields.awb ?? null, fields.code ?? null, fields.lastError ?? null, fields.lastErrorWords ? JSON.stringify(fields.lastErrorWords) : null, now],
  );
  return rows[0]!.id;
}

async function returnRecord(returnGid: string, fields: { status: string; readiness?: string; decision?: string; cancelledAt?: string; receivedAt?: string; processedAt?: string }): Promise<void> {
  await client.query(
    `INSERT INTO "ReturnRecord" (shop, "returnGid", "orderGid", status, readiness, decision, "cancelledAt", "receivedAt", "processedAt", "updatedAt")
     VALUES ('old.myshopify.com', $1, 'gid://shopify/Order/1', $2, $3, $4, $5, $6, $7, $8)`,
    [returnGid, fields.status, fields.readiness ?? "unchecked", fields.decision ?? null, fields.cancelledAt ?? null, fields.receivedAt ?? null, fields.processedAt ?? null, now],
  );
}

beforeAll(async () => {
  url = await createDatabase(`dakiya_carried_over_${process.env.VITEST_POOL_ID ?? "0"}`, { empty: true, replace: true });
  // The migrations as they were before, applied to an empty database.
  scratch = mkdtempSync(path.join(os.tmpdir(), "dakiya-migrations-"));
  const firstNew = listMigrations().find((migration) => migration.name.endsWith(`_${FIRST_NEW}`))!.name;
  for (const migration of listMigrations().filter((each) => each.name < firstNew)) {
    cpSync(path.join(MIGRATIONS_DIR, migration.name), path.join(scratch, migration.name), { recursive: true });
  }
  await applyMigrations(url, scratch);
  client = new pg.Client({ connectionString: url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  rmSync(scratch, { recursive: true, force: true });
});

describe("rows written before outcomes and returns' states", () => {
  it("carry over: each shipment holds its courier's outcome, each return its state with a first history row", async () => {
    const delivered = await shipment({ status: "fulfilled", code: 8, awb: "OLD8" });
    const rto = await shipment({ status: "fulfilled", code: 11, awb: "OLD11" });
    const attempted = await shipment({ status: "fulfilled", code: 9, awb: "OLD9" });
    for (const [index, code] of [7, 9, 7, 9].entries()) {
      await client.query(`INSERT INTO "TrackingEvent" (shop, "shipmentId", fingerprint, code, label, activity, "happenedAt") VALUES ('old.myshopify.com', $1, $2, $3, 'x', 'x', $4)`, [attempted, `f${index}`, code, now]);
    }
    await client.query(`INSERT INTO "TrackingEvent" (shop, "shipmentId", fingerprint, code, label, activity, "happenedAt", "postedAt") VALUES ('old.myshopify.com', $1, 'posted', 8, 'x', 'x', $2, $2)`, [delivered, now]);
    const misrouted = await shipment({ status: "fulfilled", code: 13, awb: "OLD13" });
    const notYet = await shipment({ status: "booked_unfulfilled", awb: "OLDNEW" });
    const cancelledBefore = await shipment({ status: "failed", lastError: "The order was cancelled in Shopify before it was booked.", lastErrorWords: { key: "activity.stored.cancelledBeforeBooking.order" } });
    const refused = await shipment({ status: "failed", lastError: "The courier refused it.", lastErrorWords: { key: "outcomes.booking.refused" } });
    // Returns: asked for; held by the rules; on its way back; back and recorded; declined; closed with nothing sent.
    await returnRecord("gid://shopify/Return/1", { status: "REQUESTED", readiness: "requested" });
    await returnRecord("gid://shopify/Return/2", { status: "OPEN", readiness: "ready", decision: "held" });
    await returnRecord("gid://shopify/Return/3", { status: "OPEN", readiness: "fulfilled", decision: "booked" });
    const pickup = await shipment({ status: "return_in_transit", direction: "return", orderGid: "gid://shopify/Return/3", code: 6, awb: "OLDR3" });
    await returnRecord("gid://shopify/Return/4", { status: "CLOSED", readiness: "fulfilled", receivedAt: now, processedAt: now });
    await returnRecord("gid://shopify/Return/5", { status: "DECLINED", readiness: "cancelled", cancelledAt: now });
    await returnRecord("gid://shopify/Return/6", { status: "CLOSED", readiness: "closed" });
    await returnRecord("gid://shopify/Return/7", { status: "OPEN", readiness: "ready" });

    const report = await applyMigrations(url, MIGRATIONS_DIR);
    expect(report.applied.some((name) => name.endsWith(`_${FIRST_NEW}`))).toBe(true);
    expect(report.applied.some((name) => name.endsWith("_return_lifecycle"))).toBe(true);

    const shipped = new Map((await client.query<{ id: number; status: string; outcome: string; deliveryAttempts: number; lastError: string | null }>(`SELECT id, status, outcome, "deliveryAttempts", "lastError" FROM "Shipment"`)).rows.map((row) => [row.id, row]));
    expect(shipped.get(delivered)).toMatchObject({ status: "fulfilled", outcome: "delivered" });
    expect(shipped.get(rto)).toMatchObject({ outcome: "rto_initiated" });
    expect(shipped.get(attempted)).toMatchObject({ outcome: "delivery_attempted", deliveryAttempts: 2 });
    expect(shipped.get(misrouted)).toMatchObject({ outcome: "in_transit" });
    expect(shipped.get(notYet)).toMatchObject({ outcome: "awaiting_pickup" });
    expect(shipped.get(pickup)).toMatchObject({ outcome: "picked_up" });
    expect(shipped.get(cancelledBefore)).toMatchObject({ status: "cancelled", lastError: null });
    expect(shipped.get(refused)).toMatchObject({ status: "failed", lastError: "The courier refused it." });
    const cancelledHistory = await client.query(`SELECT transition, "fromState", "toState", reason FROM "ShipmentEvent" WHERE "shipmentId" = $1`, [cancelledBefore]);
    expect(cancelledHistory.rows).toEqual([{ transition: "cancelled_before_booking", fromState: "failed", toState: "cancelled", reason: "The order was cancelled in Shopify before it was booked." }]);

    const returns = await client.query<{ returnGid: string; state: string; events: { transition: string; toState: string; actorKind: string }[] }>(
      `SELECT r."returnGid", r.state, json_agg(json_build_object('transition', e.transition, 'toState', e."toState", 'actorKind', e."actorKind")) AS events
       FROM "ReturnRecord" r LEFT JOIN "ReturnEvent" e ON e."returnRecordId" = r.id GROUP BY r.id ORDER BY r."returnGid"`,
    );
    expect(returns.rows.map((row) => [row.returnGid.split("/").pop(), row.state, row.events])).toEqual(
      [
        ["1", "requested"],
        ["2", "held"],
        ["3", "picked_up"],
        ["4", "processed"],
        ["5", "declined"],
        ["6", "closed"],
        ["7", "approved"],
      ].map(([id, state]) => [id, state, [{ transition: state, toState: state, actorKind: "job" }]]),
    );
    const columns = (await client.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_name = 'ReturnRecord'`)).rows.map((row) => row.column_name);
    expect(columns).not.toContain("status");
    expect(columns).not.toContain("readiness");
    expect(columns).not.toContain("cancelledAt");

    // An entry not yet posted may have been sent by an attempt that stopped before recording it: its next post reads
    // the fulfillment's events first. A posted one is done.
    const entries = (await client.query<{ shipmentId: number; attempted: boolean }>(`SELECT "shipmentId", "postAttemptedAt" IS NOT NULL AS attempted FROM "TrackingEvent" ORDER BY id`)).rows;
    expect(entries).toEqual([...Array.from({ length: 4 }, () => ({ shipmentId: attempted, attempted: true })), { shipmentId: delivered, attempted: false }]);
  });
});
