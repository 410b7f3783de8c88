import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * One module writes the Shipment table and its history: `shipment-changes.server.ts`, where every change is a
 * named transition guarded by the lifecycle table. Any other write — through Prisma or in SQL — is found here.
 */
const OWNER = "app/shipments/shipment-changes.server.ts";
const ROOT = path.resolve(__dirname, "../..");
/** The product's code; tests and the bench set up their worlds as they need. */
const SEARCHED = ["app", "server", "store", "scripts"];

const PRISMA_WRITE = /\.\s*(shipment|shipmentEvent)\s*\.\s*(create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany)\s*\(/;
const SQL_WRITE = /\b(UPDATE|INSERT\s+INTO|DELETE\s+FROM|TRUNCATE(\s+TABLE)?|MERGE\s+INTO|COPY)\s+(ONLY\s+)?(public\.)?"(Shipment|ShipmentEvent)"/;

/** The lines of a source that write either table. */
function shipmentWritesIn(source: string): string[] {
  return source.split("\n").filter((line) => PRISMA_WRITE.test(line) || SQL_WRITE.test(line));
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|js|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).includes("node_modules"));
}

describe("who writes a shipment", () => {
  it("finds writes in every form they take", () => {
    expect(shipmentWritesIn("await prisma.shipment.update({ where })")).toHaveLength(1);
    expect(shipmentWritesIn("await tx.shipment.updateMany({})")).toHaveLength(1);
    expect(shipmentWritesIn("db.shipmentEvent.createMany({ data })")).toHaveLength(1);
    expect(shipmentWritesIn('prisma.$executeRaw`UPDATE "Shipment" SET status = 1`')).toHaveLength(1);
    expect(shipmentWritesIn('`DELETE FROM "ShipmentEvent" WHERE shop = ${shop}`')).toHaveLength(1);
    expect(shipmentWritesIn('`INSERT INTO "Shipment" (shop) VALUES (1)`')).toHaveLength(1);
    expect(shipmentWritesIn("prisma.shipment.findMany({ where })")).toHaveLength(0);
    expect(shipmentWritesIn('SELECT * FROM "Shipment"')).toHaveLength(0);
  });

  it("is the owner alone", () => {
    const writers = SEARCHED.flatMap(sourcesUnder)
      .filter((file) => file !== OWNER)
      .flatMap((file) => {
        const source = readFileSync(path.join(ROOT, file), "utf8");
        // A call split after the model (`.shipment\n  .update(`) is joined back before looking.
        return shipmentWritesIn(source.replace(/\.\s*(shipment|shipmentEvent)\s*\n\s*\./g, ".$1.")).map((line) => `${file}: ${line.trim()}`);
      });
    expect(writers).toEqual([]);
  });

  it("looks where the code is", () => {
    const files = SEARCHED.flatMap(sourcesUnder);
    expect(files).toContain(OWNER);
    expect(files).toContain("app/booking/book-order.server.ts");
    expect(shipmentWritesIn(readFileSync(path.join(ROOT, OWNER), "utf8")).length).toBeGreaterThan(3);
  });
});
