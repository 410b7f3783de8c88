import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Each of these tables has one module that writes it, where every change goes through its own rules: a shipment's and
 * a return's transition tables (app/shipments/lifecycle.ts, app/returns/return-lifecycle.ts), and the documents'
 * module for labels and manifests. Any other write — through Prisma or in SQL — is found here.
 */
const OWNERS = [
  { owner: "app/shipments/shipment-changes.server.ts", tables: ["Shipment", "ShipmentEvent"] },
  { owner: "app/returns/return-changes.server.ts", tables: ["ReturnRecord", "ReturnEvent"] },
  { owner: "app/documents/document-changes.server.ts", tables: ["ShipmentDocument", "Manifest", "ManifestShipment", "ShopDocumentSettings"] },
  { owner: "app/failed-deliveries/failed-delivery-changes.server.ts", tables: ["FailedDelivery", "FailedDeliveryEvent"] },
] as const;
const ROOT = path.resolve(__dirname, "..");
/** The product's code; tests and the bench set up their worlds as they need. */
const SEARCHED = ["app", "server", "store", "scripts"];

/** Prisma's client names a model with its first letter lower-cased (`returnRecord`). */
const clientName = (table: string) => table[0]!.toLowerCase() + table.slice(1);

/** A finder of the lines of a source that write any of these tables. */
function writesOf(tables: readonly string[]): (source: string) => string[] {
  const models = tables.map(clientName).join("|");
  const prismaWrite = new RegExp(`\\.\\s*(${models})\\s*\\.\\s*(create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany)\\s*\\(`);
  const sqlWrite = new RegExp(`\\b(UPDATE|INSERT\\s+INTO|DELETE\\s+FROM|TRUNCATE(\\s+TABLE)?|MERGE\\s+INTO|COPY)\\s+(ONLY\\s+)?(public\\.)?"(${tables.join("|")})"`);
  // A call split after the model (`.shipment\n  .update(`) is joined back before looking.
  const joined = new RegExp(`\\.\\s*(${models})\\s*\\n\\s*\\.`, "g");
  return (source) =>
    source
      .replace(joined, ".$1.")
      .split("\n")
      .filter((line) => prismaWrite.test(line) || sqlWrite.test(line));
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|js|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).includes("node_modules"));
}

describe("who writes the shipment, return and document tables", () => {
  it("finds writes in every form they take", () => {
    const shipmentWrites = writesOf(OWNERS[0].tables);
    expect(shipmentWrites("await prisma.shipment.update({ where })")).toHaveLength(1);
    expect(shipmentWrites("await tx.shipment.updateMany({})")).toHaveLength(1);
    expect(shipmentWrites("db.shipmentEvent.createMany({ data })")).toHaveLength(1);
    expect(shipmentWrites("await tx.shipment\n  .delete({ where })")).toHaveLength(1);
    expect(shipmentWrites('prisma.$executeRaw`UPDATE "Shipment" SET status = 1`')).toHaveLength(1);
    expect(shipmentWrites('`DELETE FROM "ShipmentEvent" WHERE shop = ${shop}`')).toHaveLength(1);
    expect(shipmentWrites('`INSERT INTO "Shipment" (shop) VALUES (1)`')).toHaveLength(1);
    expect(shipmentWrites("prisma.shipment.findMany({ where })")).toHaveLength(0);
    expect(shipmentWrites('SELECT * FROM "Shipment"')).toHaveLength(0);
    const returnWrites = writesOf(OWNERS[1].tables);
    expect(returnWrites("await prisma.returnRecord.upsert({ where })")).toHaveLength(1);
    expect(returnWrites("tx.returnEvent.create({ data })")).toHaveLength(1);
    expect(returnWrites('`UPDATE "ReturnRecord" SET state = 1`')).toHaveLength(1);
    expect(returnWrites("prisma.returnRecord.findUnique({ where })")).toHaveLength(0);
    const documentWrites = writesOf(OWNERS[2].tables);
    expect(documentWrites("tx.manifestShipment.createMany({ data })")).toHaveLength(1);
    expect(documentWrites('INSERT INTO "ShipmentDocument" ("shipmentId")')).toHaveLength(1);
    expect(documentWrites("prisma.shopDocumentSettings.upsert({ where })")).toHaveLength(1);
    // A table's name inside another's is not that table.
    expect(documentWrites('UPDATE "ManifestShipmentArchive" SET x = 1')).toHaveLength(0);
  });

  for (const { owner, tables } of OWNERS) {
    it(`${tables.join(", ")}: ${owner} alone`, () => {
      const writes = writesOf(tables);
      const writers = SEARCHED.flatMap(sourcesUnder)
        .filter((file) => file !== owner)
        .flatMap((file) => writes(readFileSync(path.join(ROOT, file), "utf8")).map((line) => `${file}: ${line.trim()}`));
      expect(writers).toEqual([]);
      // The owner is where the writes are.
      expect(writes(readFileSync(path.join(ROOT, owner), "utf8")).length).toBeGreaterThan(1);
    });
  }

  it("looks where the code is", () => {
    const files = SEARCHED.flatMap(sourcesUnder);
    for (const { owner } of OWNERS) expect(files).toContain(owner);
    expect(files).toContain("app/booking/book-shipment.server.ts");
  });
});
