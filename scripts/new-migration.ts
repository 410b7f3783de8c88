import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "../server/embedded-postgres";

/**
 * `npx tsx scripts/new-migration.ts <name> [--from-empty]` writes prisma/migrations/<timestamp>_<name>/migration.sql:
 * the SQL from the last committed prisma/schema.prisma (or from nothing) to the working one. `migrate dev`
 * needs a shadow database and the Rust schema engine, neither of which exists here; `migrate diff` between two
 * datamodels runs on the JS engine, which only needs some PostgreSQL to connect to: a scratch embedded one.
 */
const [name, flag] = process.argv.slice(2);
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npx tsx scripts/new-migration.ts <snake_case_name> [--from-empty]");
  process.exit(2);
}
const scratch = mkdtempSync(path.join(os.tmpdir(), "dakiya-migration-"));
const previous = path.join(scratch, "previous.prisma");
const from = flag === "--from-empty" ? ["--from-empty"] : ["--from-schema-datamodel", previous];
if (flag !== "--from-empty") writeFileSync(previous, execFileSync("git", ["show", "HEAD:prisma/schema.prisma"]));
const database = await startEmbeddedPostgres({ dataDir: path.join(scratch, "postgres") });
try {
  const sql = execFileSync(path.resolve("node_modules/.bin/prisma"), ["migrate", "diff", ...from, "--to-schema-datamodel", "prisma/schema.prisma", "--script"], {
    env: { ...process.env, DATABASE_URL: database.url },
    stdio: ["ignore", "pipe", "inherit"],
  })
    .toString()
    .replace(/^Loaded Prisma config.*\n/m, "");
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const dir = path.join("prisma", "migrations", `${stamp}_${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "migration.sql"), sql.trimStart());
  console.log(`wrote ${dir}/migration.sql`);
} finally {
  await database.stop();
  rmSync(scratch, { recursive: true, force: true });
}
