import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * One module writes the remittance and freight checks' tables: `reconciliation-records.server.ts`. Any other write —
 * through Prisma or in SQL — is found here; and that module writes no table of another owner's.
 */
const OWNER = "app/reconciliation/reconciliation-records.server.ts";
const ROOT = path.resolve(__dirname, "../..");
const SEARCHED = ["app", "server", "store", "scripts"];
const MODELS = ["reconciliationSettings", "courierStatement", "remittanceLine", "freightCharge", "packingPhoto", "shopifyCodPayment"];
const TABLES = MODELS.map((model) => model[0]!.toUpperCase() + model.slice(1));

const PRISMA_WRITE = new RegExp(`\\.\\s*(${MODELS.join("|")})\\s*\\.\\s*(create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany)\\s*\\(`);
const SQL_WRITE = new RegExp(`\\b(UPDATE|INSERT\\s+INTO|DELETE\\s+FROM|TRUNCATE(\\s+TABLE)?|MERGE\\s+INTO|COPY)\\s+(ONLY\\s+)?(public\\.)?"(${TABLES.join("|")})"`);
const ANY_WRITE = /\.\s*(\w+)\s*\.\s*(create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany)\s*\(|\b(?:UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+"(\w+)"/g;

const writesIn = (source: string) => source.split("\n").filter((line) => PRISMA_WRITE.test(line) || SQL_WRITE.test(line));

function sourcesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|js|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).includes("node_modules"));
}

describe("who writes the remittance and freight records", () => {
  it("finds writes in every form they take", () => {
    expect(writesIn("await tx.remittanceLine.deleteMany({ where })")).toHaveLength(1);
    expect(writesIn("prisma.packingPhoto.upsert({})")).toHaveLength(1);
    expect(writesIn('tx.$executeRaw`INSERT INTO "FreightCharge" (shop) VALUES (1)`')).toHaveLength(1);
    expect(writesIn('`UPDATE "ShopifyCodPayment" SET state = 1`')).toHaveLength(1);
    expect(writesIn("prisma.remittanceLine.findMany({ where })")).toHaveLength(0);
  });

  it("is the owner alone", () => {
    const writers = SEARCHED.flatMap(sourcesUnder)
      .filter((file) => file !== OWNER)
      .flatMap((file) => writesIn(readFileSync(path.join(ROOT, file), "utf8")).map((line) => `${file}: ${line.trim()}`));
    expect(writers).toEqual([]);
  });

  it("and the owner writes only its own tables: a parcel's row is the shipments' owner's", () => {
    const source = readFileSync(path.join(ROOT, OWNER), "utf8");
    const written = [...source.matchAll(ANY_WRITE)].map((match) => match[1] ?? match[3]!);
    expect(written.length).toBeGreaterThan(8);
    expect(written.filter((name) => !MODELS.includes(name) && !TABLES.includes(name))).toEqual([]);
  });
});
